// link_tb.h - the link word and the credit word of the contract
// (docs/microarchitecture.md, "Link format") on Verilated ports, for the
// benches of the datapath modules: a C model flit_t (cmodel/flit.h) in and
// out of word i of a bus of link words of FlitW data bits each.
#ifndef SPIN_LINK_TB_H
#define SPIN_LINK_TB_H

#include "unit_tb.h"

extern "C" {
#include "flit.h"
}

// Bits of a link word: data, then vc[1:0], tail, head, kind[2:0].
inline unsigned link_width(unsigned flitw) { return flitw + 7; }

// The data bits a link of flitw bits carries: data[63:0], then ext.
inline flit_t link_trim(flit_t f, unsigned flitw) {
  if (flitw < 64) f.data &= (1ull << flitw) - 1u;
  if (flitw <= 64) f.ext = 0;
  else if (flitw < 128) f.ext &= (1ull << (flitw - 64)) - 1u;
  return f;
}

template <class W>
void put_link(W& bus, unsigned idx, unsigned flitw, const flit_t& f) {
  const unsigned base = idx * link_width(flitw);
  put_bits(bus, base, flitw > 64 ? 64 : flitw, f.data);
  if (flitw > 64) put_bits(bus, base + 64, flitw > 128 ? 64 : flitw - 64, f.ext);
  put_bits(bus, base + flitw, 7,
           CTL_VC(f.ctl) | CTL_TAIL(f.ctl) << 2 | CTL_HEAD(f.ctl) << 3 | CTL_KIND(f.ctl) << 4);
}

template <class W>
flit_t get_link(const W& bus, unsigned idx, unsigned flitw) {
  const unsigned base = idx * link_width(flitw);
  flit_t f;
  f.data = get_bits(bus, base, flitw > 64 ? 64 : flitw);
  f.ext = flitw > 64 ? get_bits(bus, base + 64, flitw > 128 ? 64 : flitw - 64) : 0;
  const unsigned c = static_cast<unsigned>(get_bits(bus, base + flitw, 7));
  f.ctl = CTL_MAKE(c >> 4 & 7u, c >> 3 & 1u, c >> 2 & 1u, c & 3u);
  return f;
}

inline bool same_flit(const flit_t& a, const flit_t& b) {
  return a.data == b.data && a.ext == b.ext && a.ctl == b.ctl;
}

inline std::string flit_str(const flit_t& f) {
  return strf("{kind %u head %u tail %u vc %u data 0x%016" PRIx64 " ext 0x%016" PRIx64 "}",
              CTL_KIND(f.ctl), CTL_HEAD(f.ctl), CTL_TAIL(f.ctl), CTL_VC(f.ctl), f.data, f.ext);
}

// Compares two link words; on a difference prints both.
template <class Top, class F>
void check_flit(Bench<Top>& b, const char* what, const flit_t& rtl, const flit_t& ref,
                F&& describe) {
  if (same_flit(rtl, ref)) {
    b.check(what, 0, 0, describe);
    return;
  }
  b.check(what, 1, 0, [&] {
    return describe() + strf("\n  %s: rtl=%s\n  %*s    c=%s", what, flit_str(rtl).c_str(),
                             static_cast<int>(std::strlen(what)), "", flit_str(ref).c_str());
  });
}

#endif
