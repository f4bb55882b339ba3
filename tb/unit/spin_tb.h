// spin_tb.h - what the unit benches of the SPIN modules share: the message
// layout of the build (its widths from -DP_IdW and -DP_CycW, as the RTL's
// -GIdW, -GCycW), a seeded draw of special messages that reaches the
// widths' limits, a link word on a flat RTL port and back, the router's input
// VCs as the C model sees them (spin_ctx_t) and as the RTL modules see them
// (flat views, VC (p, v) at bit p * 4 + v), and the count of the corner
// cases a run reached, which fails the run when one falls below its minimum.
//
// The C twins work on spin_router_t, spin_ctx_t and sm_t (cmodel/spin.h,
// cmodel/sm_fmt.h); the RTL modules have flat ports.  The adapters between
// the two live here and in the benches, never in the C model.
#ifndef SPIN_TB_H
#define SPIN_TB_H

#include <string>
#include <vector>

#include "unit_tb.h"

extern "C" {
#include "spin.h"
}

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif
#ifndef P_NumVcs
#error "P_NumVcs must be defined"
#endif
#if !defined(P_IdW) || !defined(P_CycW)
#error "P_IdW and P_CycW must be defined"
#endif

namespace spin_tb {

const int kPorts = P_NumPorts, kVcs = P_NumVcs;
const unsigned kFlitW = 128;   // every SPIN module's FlitW (the router's with SPIN)
static_assert(kPorts >= 2 && kPorts <= SPIN_MAX_PORTS, "NumPorts: 2 to 16");
// A port number's bits (the modules' PortW), and the views' entries p*4 + v.
const unsigned kPortW = clog2u(static_cast<unsigned>(kPorts));
const unsigned kNumPv = static_cast<unsigned>(kPorts) * SPIN_MAX_VCS;
static_assert(kVcs >= 1 && kVcs <= SPIN_MAX_VCS, "NumVcs: 1 to 4");

// The layout of the build's messages with SmPipe pipe (the C model's hop
// time depends on it); a bad width stops the bench with status 2.
inline sm_fmt_t make_fmt(int pipe) {
  sm_fmt_t f;
  char err[256];
  if (sm_fmt_make(&f, P_IdW, P_CycW, kPorts, kVcs, kFlitW, pipe, err, sizeof err)) {
    std::printf("FAIL: IdW=%d CycW=%d NumPorts=%d NumVcs=%d: %s\n", P_IdW, P_CycW, kPorts, kVcs,
                err);
    std::exit(2);
  }
  return f;
}

// The largest value of a field of w bits.
inline unsigned field_max(unsigned w) { return w >= 32 ? ~0u : (1u << w) - 1u; }

// A value in [lo, hi], now and then one of the ends or next to them.
inline unsigned edgy(Rng& r, unsigned lo, unsigned hi) {
  if (hi <= lo) return lo;
  switch (r.below(10)) {
    case 0: return lo;
    case 1: return hi;
    case 2: return lo + 1;
    case 3: return hi - 1;
    default: return lo + static_cast<unsigned>(r.next() % (static_cast<uint64_t>(hi - lo) + 1));
  }
}

// Random fork entries (K of ChW bits) into m.
inline void draw_forks(Rng& r, const sm_fmt_t& f, sm_t* m) {
  m->fork_lo = m->fork_hi = 0;
  for (unsigned i = 0; i < f.k; i++) sm_set_fork(&f, m, i, r.below(1u << f.chw));
}

// A message of kind `kind` from `sender`, every field drawn in its width,
// the ends often: t up to 2^CycW - 1, lc (not a probe's) 1 to CycMax (the
// caller narrows what the contract narrows), p0 (a probe's) a port, fk up
// to 63.
inline sm_t draw_sm(Rng& r, const sm_fmt_t& f, unsigned kind, unsigned sender) {
  sm_t m;
  std::memset(&m, 0, sizeof m);
  m.kind = kind;
  m.sender = sender;
  m.t = edgy(r, 0, field_max(f.cycw));
  if (kind == KIND_PROBE) m.p0 = r.below(kPorts);
  else m.lc = edgy(r, 1, f.cyc_max);
  if (f.k) {
    m.fk = r.pct(30) ? edgy(r, f.k > 2 ? f.k - 2 : 0, 63) : r.below(f.k);
    draw_forks(r, f, &m);
  }
  return m;
}

inline std::string sm_str(const sm_t& m) {
  return strf("{kind %u sender %u t %u lc %u p0 %u fk %u forks 0x%016llx%016llx}", m.kind,
              m.sender, m.t, m.lc, m.p0, m.fk,
              static_cast<unsigned long long>(m.fork_hi), static_cast<unsigned long long>(m.fork_lo));
}
inline std::string word_str(const sm_fmt_t& f, const flit_t& w) {
  if (CTL_KIND(w.ctl) < KIND_PROBE)
    return strf("{kind %u data 0x%016llx%016llx}", CTL_KIND(w.ctl),
                static_cast<unsigned long long>(w.ext), static_cast<unsigned long long>(w.data));
  return sm_str(sm_unpack(&f, &w));
}

// A 128-bit data word at bit lsb of a flat port, and back.
template <class W>
void put_word(W& port, unsigned lsb, const flit_t& w) {
  put_bits(port, lsb, 64, w.data);
  put_bits(port, lsb + 64, 64, w.ext);
}
template <class W>
flit_t get_word(const W& port, unsigned lsb, unsigned kind = 0) {
  flit_t w;
  w.data = get_bits(port, lsb, 64);
  w.ext = get_bits(port, lsb + 64, 64);
  w.ctl = CTL_MAKE(kind, 0, 0, 0);
  return w;
}
// Compares a 128-bit data word.
template <class B, class F>
void check_word(B& b, const char* what, const flit_t& rtl, const flit_t& ref, F&& describe) {
  b.check(strf("%s[63:0]", what).c_str(), rtl.data, ref.data, describe);
  b.check(strf("%s[127:64]", what).c_str(), rtl.ext, ref.ext, describe);
}

// The router's input VCs in one cycle: what spin_ctx_t points to, and the
// RTL's flat views of them.  The front flit of a VC holding flits is a head
// (with the packet's length) or a body/tail flit.
struct Views {
  uint8_t cnt[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  uint8_t rv[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  uint8_t op[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  flit_t front[SPIN_MAX_PORTS][SPIN_MAX_VCS];

  Views() { clear(); }
  void clear() {
    std::memset(cnt, 0, sizeof cnt);
    std::memset(rv, 0, sizeof rv);
    std::memset(op, 0, sizeof op);
    std::memset(front, 0, sizeof front);
  }
  // VC (p, v) holds cnt flits of a packet of len, its head at the front when
  // head; a route to out when routed (the output stays in the view either way).
  void set(int p, int v, unsigned n, unsigned len, bool head, bool tail, bool routed,
           unsigned out) {
    cnt[p][v] = static_cast<uint8_t>(n);
    rv[p][v] = routed;
    op[p][v] = static_cast<uint8_t>(out);
    front[p][v].data = head ? head_word(1, 0, len, 0) : 0x5A5A5A5Aull;
    front[p][v].ext = 0;
    front[p][v].ctl = CTL_MAKE(KIND_FLIT, head, tail, 0);
  }
  bool routed(int p, int v) const { return cnt[p][v] && rv[p][v]; }
  bool whole(int p, int v) const {
    return cnt[p][v] && rv[p][v] && CTL_HEAD(front[p][v].ctl) &&
           cnt[p][v] == HEAD_LEN(front[p][v].data);
  }
  bool tail(int p, int v) const { return cnt[p][v] && CTL_TAIL(front[p][v].ctl); }
  // The C model's view (front[] NULL when the VC is empty; nonempty, the
  // VCs holding flits, as the VCs are at the start of the cycle).
  void to_ctx(spin_ctx_t* c) const {
    c->cnt = cnt;
    c->route_valid = rv;
    c->out_port = op;
    c->nonempty = cnt_nz();
    c->in_ports = 0;
    for (int p = 0; p < SPIN_MAX_PORTS; p++)
      for (int v = 0; v < SPIN_MAX_VCS; v++) {
        c->front[p][v] = cnt[p][v] ? &front[p][v] : nullptr;
        if (cnt[p][v]) c->in_ports |= 1u << p;
      }
  }
  // The flat views of every VC, bit p * 4 + v (kPortW bits each for the
  // outputs).
  uint64_t mask_of(bool (Views::*f)(int, int) const) const {
    uint64_t m = 0;
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++)
        if ((this->*f)(p, v)) m |= 1ull << (p * SPIN_MAX_VCS + v);
    return m;
  }
  bool nz(int p, int v) const { return cnt[p][v] != 0; }
  bool rvb(int p, int v) const { return rv[p][v] != 0; }
  uint64_t cnt_nz() const { return mask_of(&Views::nz); }
  uint64_t rv_mask() const { return mask_of(&Views::rvb); }
  uint64_t whole_mask() const { return mask_of(&Views::whole); }
  uint64_t tail_mask() const { return mask_of(&Views::tail); }
  template <class W>
  void put_ops(W& port) const {
    for (unsigned b = 0; b < kPortW * kNumPv; b += 64)
      put_bits(port, b, kPortW * kNumPv - b < 64 ? kPortW * kNumPv - b : 64, 0);
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++)
        put_bits(port, kPortW * static_cast<unsigned>(p * SPIN_MAX_VCS + v), kPortW, op[p][v]);
  }
};

// A link's latency - 1 as spin_sm_in's xlat_i takes it in xlatw bits (0 to
// 2^xlatw - 1: links of 1 to 2^xlatw cycles), the two ends often.
inline uint16_t draw_xlat(Rng& r, unsigned xlatw) {
  const unsigned top = (1u << xlatw) - 1u;
  return static_cast<uint16_t>(r.pct(35) ? 0 : r.pct(50) ? top : r.below(top + 1));
}

// The rotating priority's top router as the RTL takes it (top_i), given to
// the C model as a cycle: top = cycle / (4 t_DD) mod N with t_DD = 1.
inline uint64_t cycle_of_top(unsigned top) { return 4ull * top; }

// The corner cases a bench reached.  Each has a minimum per 100,000 cycles
// (vectors) of the run, scaled to its length (at least 1 when the minimum is
// not 0); a run that falls short of one fails: its stimulus no longer reaches
// what it is there to reach.
class Events {
 public:
  size_t add(const char* name, double min_per_100k) {
    ev_.push_back(Ev{name, min_per_100k, 0});
    return ev_.size() - 1;
  }
  void hit(size_t i, bool yes = true) { ev_[i].n += yes; }
  uint64_t count(size_t i) const { return ev_[i].n; }
  // Prints every count; returns the number below its minimum.
  int report(const char* bench, uint64_t cycles) const {
    int short_of = 0;
    std::string line = strf("%s reached:", bench);
    for (const Ev& e : ev_) {
      uint64_t need = static_cast<uint64_t>(e.min_per_100k * static_cast<double>(cycles) / 1e5);
      if (e.min_per_100k > 0 && need == 0) need = 1;
      line += strf(" %s %" PRIu64 ",", e.name, e.n);
      if (e.n < need) {
        std::printf("FAIL %s: %s reached %" PRIu64 " times in %" PRIu64
                    " cycles, at least %" PRIu64 " expected\n",
                    bench, e.name, e.n, cycles, need);
        short_of++;
      }
    }
    line.pop_back();
    std::printf("%s\n", line.c_str());
    return short_of;
  }

 private:
  struct Ev {
    const char* name;
    double min_per_100k;
    uint64_t n;
  };
  std::vector<Ev> ev_;
};

// The VCs of a [port][vc] array of the C state that are set, as the RTL's
// flat views give them (bit p * 4 + v), and the frozen VCs of a router.
inline uint64_t vc_mask(const uint8_t (&a)[SPIN_MAX_PORTS][SPIN_MAX_VCS]) {
  uint64_t m = 0;
  for (int p = 0; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++)
      if (a[p][v]) m |= 1ull << (p * SPIN_MAX_VCS + v);
  return m;
}
inline uint64_t frozen_mask(const spin_router_t& s) { return vc_mask(s.frozen_q); }

// What a SPIN module's bench is made of: the Verilated module, the stimulus
// seeded with the run's seed, the corner cases it counts.  The first line
// of the output names the bench and the build's parameters:
// "<name> NumPorts=P NumVcs=V IdW=I CycW=C<more> seed=S cycles=N"; the last
// lines are the corner cases reached and the count of the checks.
template <class Top>
class SpinBench {
 public:
  // Prints the corner cases reached and the checks, and exits: status 1
  // when a check failed or a corner case fell short of its minimum.
  [[noreturn]] void report() { b_.finish(ev_.report(name_, b_.cycles()) ? 1 : 0); }

 protected:
  // more: the parameters the bench has besides the four every SPIN bench has
  // (" SmPipe=2", or "" for none).
  SpinBench(int argc, char** argv, const char* name, const std::string& more)
      : b_(argc, argv, name), rng_(b_.seed()), name_(name) {
    std::printf("%s NumPorts=%d NumVcs=%d IdW=%d CycW=%d%s seed=%u cycles=%" PRIu64 "\n", name,
                kPorts, kVcs, P_IdW, P_CycW, more.c_str(), b_.seed(), b_.cycles());
  }

  Bench<Top> b_;
  Rng rng_;
  Events ev_;

 private:
  const char* name_;
};

// A spin_ctx_t with the router's constants and no offers or results.
inline void ctx_init(spin_ctx_t* c, const sm_fmt_t* f, const uint16_t* xlat, int pipe) {
  std::memset(c, 0, sizeof *c);
  c->ports = kPorts;
  c->nics = 1;   // the modules' NumNics
  c->vcs = kVcs;
  c->tdd = 1;
  c->fmt = f;
  c->xlat = xlat;
  c->sm_pipe = pipe;
}

}  // namespace spin_tb

#endif  // SPIN_TB_H
