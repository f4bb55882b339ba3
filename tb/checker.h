// checker.h - compares the RTL's registers with the C model's after every
// clock edge (docs/microarchitecture.md, section 10): every router's link
// registers (flit_o and credit_o of every port, ejection included) and the
// occupancy of every input VC, and, with SPIN on, every router's SPIN
// registers (the observation word, tb/spin_obs.h).  Any harness that steps
// both models in lockstep can use it (tb/cosim.cpp does).
#ifndef SPIN_TB_CHECKER_H
#define SPIN_TB_CHECKER_H

#include <cstdint>
#include <vector>
#include "bus.h"
#include "rtl_net.h"

extern "C" {
#include "sim.h"
#include "spin_obs.h"
}

class Checker {
 public:
  // flitw: the data width of the RTL's link words (RtlNet::flit_width()).
  // dims: the layout of the SPIN observation word (tb/spin_obs.h).
  Checker(const sim_t* sim, int flitw, const spin_obs_dims_t& dims);

  // Reads the RTL's registers and compares them with the C model's; returns
  // how many fields differ, printing at most `limit` of them, one a line:
  //   router R (x X, y Y) port P (east) VC V: FIELD  C model A, RTL B
  // (no port or VC for a field of the whole router).
  int compare(RtlNet& rtl, int limit);

  // The RTL's ejection link of node k (NIC port k % nics of router
  // k / nics), from the last compare.
  flit_t ejected(unsigned k) const;

 private:
  // One field of the SPIN word at one index: spin_obs_fields[f] of input
  // port p and VC v (-1: no such index), at bit lsb of a router's word.
  struct Slot {
    int f, p, v;
    unsigned lsb, width;
  };
  int compare_links(int limit);
  int compare_spin(int limit, int printed);
  void pack_spin();
  int diff(bool print, unsigned r, int p, int v, const char* field, uint64_t c, uint64_t rtl,
           const char* const* names = nullptr, unsigned nnames = 0);

  const sim_t* sim_;
  spin_obs_dims_t dims_;
  unsigned N_, P_, V_, FlitW_, LinkW_;
  bool spin_;
  unsigned ObsStride_;  // bits from one router's SPIN word to the next's
  std::vector<Slot> slots_;
  std::vector<Slot> by_cycle_;       // those of the fields computed from the cycle
  std::vector<spin_router_t> last_;  // per router: the C registers packed last
  Bits rtl_flit_, rtl_cred_, rtl_occ_, exp_flit_, exp_cred_, exp_occ_, rtl_obs_, exp_obs_;
};

#endif
