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

// Bit fields of a little-endian array of 32-bit words (VlWide's storage,
// Bits' below), 32 bits at a time.  They touch only the words the field
// occupies, so two threads may write fields of one array whose words do not
// overlap.
inline void bits_set(uint32_t* w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width;) {
    unsigned bit = lsb + i, word = bit / 32, off = bit % 32;
    unsigned n = std::min(32u - off, width - i);
    uint32_t mask = (n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1u)) << off;
    w[word] = (w[word] & ~mask) | ((uint32_t)(v >> i) << off & mask);
    i += n;
  }
}
inline uint64_t bits_get(const uint32_t* w, unsigned lsb, unsigned width) {
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
// Copies `width` bits of src from bit `from` to bit `to` of dst, a
// destination word at a time (a link word of 135 bits: 5 steps).
inline void bits_copy(uint32_t* dst, unsigned to, const uint32_t* src, unsigned from,
                      unsigned width) {
  while (width) {
    const unsigned dw = to / 32, doff = to % 32, sw = from / 32, soff = from % 32;
    const unsigned n = std::min(32u - doff, width);
    uint32_t v = src[sw] >> soff;
    if (soff && soff + n > 32) v |= src[sw + 1] << (32 - soff);
    const uint32_t mask = (n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1u)) << doff;
    dst[dw] = (dst[dw] & ~mask) | (v << doff & mask);
    to += n;
    from += n;
    width -= n;
  }
}
// Whether the first `width` bits of a and b are the same (the bits above
// them in the last word are not looked at).
inline bool bits_same(const uint32_t* a, const uint32_t* b, unsigned width) {
  const unsigned whole = width / 32, rest = width % 32;
  if (std::memcmp(a, b, whole * sizeof(uint32_t)) != 0) return false;
  return !rest || ((a[whole] ^ b[whole]) & ((1u << rest) - 1u)) == 0;
}

// A little-endian array of 32-bit words, like VlWide's storage.
struct Bits {
  std::vector<uint32_t> w;
  explicit Bits(unsigned nbits = 0) : w((nbits + 31) / 32, 0u) {}
  void clear() { std::fill(w.begin(), w.end(), 0u); }
  void set(unsigned lsb, unsigned width, uint64_t v) { bits_set(w.data(), lsb, width, v); }
  // Copies `width` bits of src starting at bit `from` to bit `to` of this.
  void copy_from(const Bits& src, unsigned from, unsigned to, unsigned width) {
    bits_copy(w.data(), to, src.w.data(), from, width);
  }
  uint64_t get(unsigned lsb, unsigned width) const { return bits_get(w.data(), lsb, width); }
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

// Port -> words: the port's value into w[0..words-1] (words: the port's
// width in whole 32-bit words).
template <class T> inline void to_words(const T& port, uint32_t* w, unsigned words) {
  const uint64_t v = (uint64_t)port;
  w[0] = (uint32_t)v;
  if (words > 1) w[1] = (uint32_t)(v >> 32);
}
template <std::size_t N> inline void to_words(const VlWide<N>& port, uint32_t* w, unsigned words) {
  (void)words;
  std::memcpy(w, port.data(), N * sizeof(uint32_t));
}

#endif
