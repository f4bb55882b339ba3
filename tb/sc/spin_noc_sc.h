// spin_noc_sc.h - the spin-noc C model as a SystemC module, for systems that
// want a cycle-exact NoC (the same model `make sim` checks against the RTL
// every cycle) behind a packet interface.
//
// NIC-side interface, per node n (0 .. nodes()-1):
//   bool inject(n, dst, flits, tag)  queue a packet of `flits` flits (1..5)
//                                    from node n to node dst at n's NIC; it
//                                    enters the network when the router's
//                                    port 0 takes it (the NIC's queue has no
//                                    limit).  `tag` is the caller's, handed
//                                    back on delivery.  Returns false (and
//                                    queues nothing) on a bad node, flit
//                                    count or dst == n.
//   sc_fifo<SpinNocDelivery>& rx(n)  the packets delivered to node n, in
//                                    the order their tails arrived; written
//                                    at the clock edge that ejects the tail.
// The network steps once per rising edge of `clk`.  Every packet is checked
// on arrival by the C model's scoreboard (right destination, intact, once);
// a violation stops the simulation with an SC_REPORT_ERROR.
//
// Construction: SpinNocNetwork net("net", cfg) with a SpinNocConfig (the
// options of spinsim: topology, routing, VCs, SPIN, t_DD, live mode).  A bad
// configuration (unknown topology, XY on a torus, ...) throws
// std::invalid_argument with the model's message.
#ifndef SPIN_TB_SC_SPIN_NOC_SC_H
#define SPIN_TB_SC_SPIN_NOC_SC_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>
#include <systemc.h>

extern "C" {
#include "sim.h"
}

struct SpinNocConfig {
  std::string topo = "mesh4x4";       // meshWxH, torusWxH, ring-N, dragonfly-a-p-h, file:PATH
  route_algo_t routing = ALGO_FAVORS_MIN;
  int vcs = 1;
  bool spin = true;                   // SPIN deadlock recovery
  unsigned tdd = 128;                 // its detection threshold
  bool live = true;                   // the live mode (contract 13: admission, rerouting, adoption, the
                                      // NICs' window of 1 to 4, early credits); false: the paper's router
  uint64_t seed = 1;                  // every router's LFSR
};

struct SpinNocDelivery {
  int src = 0, dst = 0, flits = 0;
  uint64_t tag = 0;
  uint64_t created = 0, delivered = 0;   // cycles: inject() call, tail ejected
  bool operator==(const SpinNocDelivery& o) const { return tag == o.tag && src == o.src && dst == o.dst; }
};
inline std::ostream& operator<<(std::ostream& os, const SpinNocDelivery& d) {
  return os << "packet " << d.tag << " " << d.src << "->" << d.dst;
}

class SpinNocNetwork : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  SC_HAS_PROCESS(SpinNocNetwork);
  SpinNocNetwork(sc_core::sc_module_name name, const SpinNocConfig& cfg);
  ~SpinNocNetwork() override;

  int nodes() const { return sim_.net.n; }
  bool inject(int src, int dst, int flits, uint64_t tag);
  sc_core::sc_fifo<SpinNocDelivery>& rx(int node) { return *rx_[node]; }

  uint64_t cycle() const { return sim_.now; }
  uint64_t outstanding() const { return nic_outstanding(&sim_.nic); }   // injected, not delivered
  const spin_stats_t& spin_counters() const { return sim_.net.spin; }

 private:
  void step();
  sim_t sim_;
  std::vector<sc_core::sc_fifo<SpinNocDelivery>*> rx_;
  std::unordered_map<uint64_t, uint64_t> tag_of_;   // scoreboard packet id -> caller's tag
};

#endif
