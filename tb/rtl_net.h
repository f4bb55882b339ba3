// rtl_net.h - the RTL side of the co-simulation, behind one interface.
//
// Two implementations, one per build:
//   rtl_array.cpp  N copies of the Verilated spin_router, linked in C++ from
//                  the topology: one build per (ports, VCs) serves every
//                  topology of that radix.  The default.
//   rtl_top.cpp    the generated network top (spingen) Verilated whole: checks
//                  the generator's wiring; one build per topology.
// Both present the network's registers in one layout: router r port p at
// index r*P + p (flit: LinkW bits, credit: kCredW bits), VC v of it at
// (r*P + p)*V + v (occupancy: 3 bits), and router r's SPIN observation
// word (tb/spin_obs.h: spin_obs_width(d) bits) at 32-bit word
// r * spin_obs_words(d), the bits above it 0.
// The routers are built with SPIN (Spin = 1, FlitW = 128) and escape-VC
// routing (Escape = 1), each switched on or off at reset.
#ifndef SPIN_TB_RTL_NET_H
#define SPIN_TB_RTL_NET_H

#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <verilated.h>
#if VM_TRACE  // builds without --trace-fst (the speed build) have no waveforms
#include <verilated_fst_c.h>
#endif
#include "bus.h"

extern "C" {
#include "flit.h"
#include "lfsr.h"
#include "network.h"
#include "router.h"
#include "spin_obs.h"
#include "topology.h"
}

// 32-bit words a router's SPIN observation word takes in RtlNet::read_spin
// (whole words, so that it is a copy).
inline unsigned spin_obs_words(const spin_obs_dims_t& d) { return (spin_obs_width(&d) + 31) / 32; }

// Credit word: vc[1:0], valid, arm, arm_vc[1:0] (cmodel/flit.h).
const unsigned kCredW = 6;

// Link word i of a bus (docs/microarchitecture.md, "Link format"):
// data[flitw-1:0] (bits 127:64 from flit_t.ext), vc, tail, head, kind above it.
inline void put_flit(uint32_t* w, unsigned idx, unsigned flitw, const flit_t& f) {
  unsigned base = idx * (flitw + 7);
  bits_set(w, base, flitw > 64 ? 64 : flitw, f.data);
  if (flitw > 64) bits_set(w, base + 64, flitw > 128 ? 64 : flitw - 64, f.ext);
  bits_set(w, base + flitw, 7,
           CTL_VC(f.ctl) | CTL_TAIL(f.ctl) << 2 | CTL_HEAD(f.ctl) << 3 | CTL_KIND(f.ctl) << 4);
}
inline void put_flit(Bits& b, unsigned idx, unsigned flitw, const flit_t& f) {
  put_flit(b.w.data(), idx, flitw, f);
}
inline flit_t get_flit(const uint32_t* w, unsigned idx, unsigned flitw) {
  unsigned base = idx * (flitw + 7);
  flit_t f;
  f.data = bits_get(w, base, flitw > 64 ? 64 : flitw);
  f.ext = flitw > 64 ? bits_get(w, base + 64, flitw > 128 ? 64 : flitw - 64) : 0;
  unsigned c = (unsigned)bits_get(w, base + flitw, 7);
  f.ctl = CTL_MAKE(c >> 4 & 7u, c >> 3 & 1u, c >> 2 & 1u, c & 3u);
  return f;
}
inline flit_t get_flit(const Bits& b, unsigned idx, unsigned flitw) {
  return get_flit(b.w.data(), idx, flitw);
}

// One router's registers right after a clock edge, as its ports hold them
// (little-endian 32-bit words): flit_o (port p's link word at bit
// p * LinkW), credit_o (port p's at p * kCredW), occ_o (port p VC v's at
// (p * V + v) * 3) and spin_obs_o (nullptr without SPIN).
struct RouterRegs {
  const uint32_t *flit, *cred, *occ, *obs;
};
// A check of one router's registers (Checker::check_router), called by
// RtlNet::step_checked from the thread that evaluated the router: lane is
// that thread's number (0 to the thread count - 1, a lane's own scratch),
// r the router.
using RouterCheck = std::function<void(int lane, int r, const RouterRegs& regs)>;

class RtlNet {
 public:
  virtual ~RtlNet() {}
  // Holds reset for a few cycles with this LFSR seed, routing table (masks:
  // N*D entries, D = N*nics destination nodes, router r node d at r*D + d) and output selection
  // (favors: FAvORS-Min's least-busy fallback; nmin: FAvORS-NMin's
  // intermediate routers, section 4.3), SPIN on or off and its
  // detection threshold, the live-mode mechanisms (mode; adoption only
  // with SPIN on) and SmPipe (sm_pipe, 12.1; a build with SmPipe = 3 takes
  // it at run time).  masks_esc (same layout) is the escape VC's table of
  // escape routing, which it switches on; nullptr for the others.
  virtual void reset(uint32_t seed, const port_mask_t* masks, const port_mask_t* masks_esc,
                     bool favors, bool nmin, bool spin, unsigned tdd,
                     const router_mode_t& mode, int sm_pipe) = 0;
  // New routing tables (same layout as reset's), read by the route
  // computations of the next step on (run-time link failures, contract
  // section 4.4).  The RTL keeps its own copy.
  virtual void set_tables(const port_mask_t* masks, const port_mask_t* masks_esc) = 0;
  // Each router's injection admission and occupancy admission for the next
  // step, cfg[r].admit (0 or 1) and cfg[r].admit_occ (0 to 2), whenever
  // the C model's sim_cycle_pre set them (sim_t.admit_set: every cycle with
  // window-gated admission, and when the recovery throttle turns on or off;
  // contract sections 6 and 8; the throttle sets every router's occupancy
  // admission alike).
  virtual void set_admit(const router_cfg_t* cfg) = 0;
  // One clock cycle with the NIC injection registers inj[0..N*nics-1] (node
  // k: NIC port k % nics of router k / nics).
  virtual void step(const flit_t* inj) = 0;
  // The same cycle with side() (the C model's step, which reads inj and
  // nothing of the RTL's) run alongside: where the routers are evaluated on
  // several threads, the calling thread runs side() first and then takes
  // routers, so the C model's step overlaps the RTL's.  Here: in turn.
  virtual void step_beside(const flit_t* inj, const std::function<void()>& side) {
    side();
    step(inj);
  }
  // The same cycle again, and each router's registers handed to check()
  // once both its clock edge and side() are done, on the thread that
  // evaluated it (so the comparison with the C model runs beside the other
  // routers); side() is done before the first call on every thread.  Returns
  // true when check() saw every router this cycle, false when this build or
  // this cycle did not call it (then the caller compares the whole network
  // through read() and read_spin()).
  virtual bool step_checked(const flit_t* inj, const std::function<void()>& side,
                            const RouterCheck& check) {
    (void)check;
    step_beside(inj, side);
    return false;
  }
  // Spread the routers' evaluations over n threads (1: none), where the
  // build can; the results are the same.
  virtual void set_threads(int n) { (void)n; }
  // The threads step_checked may call check() from (lane numbers 0 to
  // threads() - 1).
  virtual int threads() const { return 1; }
  // The SystemC build clocks the C model itself, as an SC_MODULE on the
  // routers' clock (tb/sc/rtl_sc.cpp): from then on step() also steps net
  // (net_step) at the same rising edge.  Returns true when it took it over.
  virtual bool take_cmodel(network_t* net) {
    (void)net;
    return false;
  }
  // The registers after the last clock edge.
  virtual void read(Bits& flit, Bits& cred, Bits& occ) = 0;
  // Every router's SPIN observation word (spin_obs_o) after the last edge,
  // router r's from 32-bit word r * spin_obs_words(d) on.
  virtual void read_spin(Bits& obs) = 0;
  // Waveform: the context must have had traceEverOn(true) before construction.
  virtual void trace_open(const std::string& path) = 0;
  void trace_close() {
#if VM_TRACE
    if (tfp_) {
      tfp_->close();
      tfp_.reset();
    }
#endif
  }
#if VM_TRACE
  bool tracing() const { return (bool)tfp_; }
#else
  bool tracing() const { return false; }
#endif
  // Sizes this build was made for.
  virtual int ports() const = 0;
  virtual int vcs() const = 0;
  virtual int flit_width() const = 0;
  virtual const char* kind() const = 0;

 protected:
  // The RTL's own copy of the routing tables (the C model's may change
  // apart), for the harnesses that answer the route lookups themselves.
  // n routers, each a row of `nodes` entries (one per destination node).
  void copy_tables(const port_mask_t* masks, const port_mask_t* masks_esc, int n, int nodes) {
    masks_.assign(masks, masks + (size_t)n * nodes);
    if (masks_esc) masks_esc_.assign(masks_esc, masks_esc + (size_t)n * nodes);
    else masks_esc_.clear();
  }
  std::vector<port_mask_t> masks_, masks_esc_;
  // Dumps both clock edges' values, 5 time units apart.
  void dump() {
#if VM_TRACE
    if (tfp_) tfp_->dump(time_);
#endif
    time_ += 5;
  }
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tfp_;
#endif
  uint64_t time_ = 0;
};

// The special-message widths the routers of this build have (12.1: idw,
// cycw; pipe is the build's SmPipe, 3 for any at run time), and its
// t_DD width, for a topology (the network top is sized to its own network;
// the router array to many).  Each harness defines it.
void rtl_build_widths(const topo_t* topo, sm_opts_t* sm, unsigned* tddw);

// A router's cfg_xlat_i (contract section 1): its links' latency - 1,
// xlatw bits a port (the build's XlatW).
inline Bits rtl_xlat_bits(const topo_t* t, int r, unsigned xlatw) {
  Bits b((unsigned)t->radix * xlatw);
  topo_xlat_bits(t, r, xlatw, b.w.data(), (unsigned)b.w.size());
  return b;
}

// Whether routers built with XlatW = xlatw take every link of the topology
// (latency - 1 in xlatw bits); false and a message when not.
inline bool rtl_xlat_fits(const topo_t* t, unsigned xlatw, std::string* err) {
  const int lmax = topo_max_latency(t);
  if ((unsigned)(lmax - 1) < (1u << xlatw)) return true;
  *err = std::string(t->name) + " has a link of latency " + std::to_string(lmax) +
         "; this co-simulation's routers were built for links of 1 to " +
         std::to_string(1u << xlatw) + " cycles (XlatW " + std::to_string(xlatw) + ")";
  return false;
}

// Builds the RTL network for the topology; nullptr and a message when this
// build cannot serve it (other radix, VC count or topology).
// dims: the SPIN observation word's layout (its size is checked).
std::unique_ptr<RtlNet> make_rtl_net(VerilatedContext* ctx, const topo_t* topo, int vcs, bool escape,
                                     const spin_obs_dims_t& dims, std::string* err);

#endif
