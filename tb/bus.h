// bus.h - bit-vector views of Verilator ports of any width, so the harness
// reads and writes `logic [W-1:0]` the same way whether Verilator made it a
// CData/SData/IData/QData or a VlWide<N>.
#ifndef SPIN_TB_BUS_H
#define SPIN_TB_BUS_H

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <vector>
#include <verilated.h>

// A little-endian array of 32-bit words, like VlWide's storage.
struct Bits {
  std::vector<uint32_t> w;
  explicit Bits(unsigned nbits = 0) : w((nbits + 31) / 32, 0u) {}
  void clear() { std::fill(w.begin(), w.end(), 0u); }
  void set(unsigned lsb, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width;) {
      unsigned bit = lsb + i, word = bit / 32, off = bit % 32;
      unsigned n = std::min(32u - off, width - i);
      uint32_t mask = (n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1u)) << off;
      w[word] = (w[word] & ~mask) | ((uint32_t)(v >> i) << off & mask);
      i += n;
    }
  }
  // Copies `width` bits of src starting at bit `from` to bit `to` of this.
  void copy_from(const Bits& src, unsigned from, unsigned to, unsigned width) {
    for (unsigned i = 0; i < width; i += 64) {
      unsigned n = std::min(64u, width - i);
      set(to + i, n, src.get(from + i, n));
    }
  }
  uint64_t get(unsigned lsb, unsigned width) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < width;) {
      unsigned bit = lsb + i, word = bit / 32, off = bit % 32;
      unsigned n = std::min(32u - off, width - i);
      uint64_t part = (w[word] >> off) & (n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1u));
      v |= part << i;
      i += n;
    }
    return v;
  }
};

// Port <-> Bits, for scalar ports (up to 64 bits) and wide ones.
template <class T> inline void to_bits(const T& port, Bits& b) {
  uint64_t v = (uint64_t)port;
  b.w[0] = (uint32_t)v;
  if (b.w.size() > 1) b.w[1] = (uint32_t)(v >> 32);
}
template <std::size_t N> inline void to_bits(const VlWide<N>& port, Bits& b) {
  std::memcpy(b.w.data(), port.data(), N * sizeof(uint32_t));
}
template <class T> inline void from_bits(T& port, const Bits& b) {
  uint64_t v = b.w[0];
  if (b.w.size() > 1) v |= (uint64_t)b.w[1] << 32;
  port = (T)v;
}
template <std::size_t N> inline void from_bits(VlWide<N>& port, const Bits& b) {
  std::memcpy(port.data(), b.w.data(), N * sizeof(uint32_t));
}

#endif
