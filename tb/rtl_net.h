// rtl_net.h - the RTL side of the co-simulation, behind one interface.
//
// Two implementations, one per build:
//   rtl_array.cpp  N copies of the Verilated spin_router, linked in C++ from
//                  the topology: one build per (ports, VCs) serves every
//                  topology of that radix.  The default.
//   rtl_top.cpp    the generated network top (spingen) Verilated whole: checks
//                  the generator's wiring; one build per topology.
// Both present the network's registers in one layout: router r port p at
// index r*P + p (flit: LinkW bits, credit: 3 bits), VC v of it at
// (r*P + p)*V + v (occupancy: 3 bits).
#ifndef SPIN_TB_RTL_NET_H
#define SPIN_TB_RTL_NET_H

#include <memory>
#include <string>
#include <verilated.h>
#include "bus.h"

extern "C" {
#include "flit.h"
#include "lfsr.h"
#include "topology.h"
}

class RtlNet {
 public:
  virtual ~RtlNet() {}
  // Holds reset for a few cycles with this LFSR seed, routing table (masks:
  // N*N entries, router r destination d at r*N + d) and output selection
  // (favors: FAvORS-Min's least-busy fallback).
  virtual void reset(uint32_t seed, const uint8_t* masks, bool favors) = 0;
  // One clock cycle with the NIC injection registers inj[0..N-1].
  virtual void step(const flit_t* inj) = 0;
  // The registers after the last clock edge.
  virtual void read(Bits& flit, Bits& cred, Bits& occ) = 0;
  // Waveform: the context must have had traceEverOn(true) before construction.
  virtual void trace_open(const std::string& path) = 0;
  virtual void trace_close() = 0;
  virtual bool tracing() const = 0;
  // Sizes this build was made for.
  virtual int ports() const = 0;
  virtual int vcs() const = 0;
  virtual int flit_width() const = 0;
  virtual const char* kind() const = 0;
};

// Builds the RTL network for the topology; nullptr and a message when this
// build cannot serve it (other radix, VC count or topology).
std::unique_ptr<RtlNet> make_rtl_net(VerilatedContext* ctx, const topo_t* topo, int vcs,
                                     std::string* err);

#endif
