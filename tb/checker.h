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

  // The same comparison a router at a time, for RtlNet::step_checked: up
  // to `lanes` threads call check_router at once, each for other routers.
  // begin_cycle() before a cycle's calls; after them, routers_differ() says
  // whether any router's registers differed (compare() then names the
  // fields).  check_router also takes the router's ejection links.
  void set_lanes(int lanes);
  void begin_cycle();
  void check_router(int lane, unsigned r, const RouterRegs& regs);
  bool routers_differ() const;

  // The RTL's ejection link of node k (NIC port k % nics of router
  // k / nics), from the last compare or check_router.
  flit_t ejected(unsigned k) const { return ej_[k]; }

 private:
  // One field of the SPIN word at one index: spin_obs_fields[f] of input
  // port p and VC v (-1: no such index), at bit lsb of a router's word.
  struct Slot {
    int f, p, v;
    unsigned lsb, width;
  };
  // A lane's words for one router's expected registers, and whether a
  // router it checked this cycle differed (a cache line each: lanes write
  // theirs at once).
  // cyc: the values of the fields computed from the cycle (by_cycle_'s
  // order), the same in every router, for cycle cyc_of.
  struct alignas(64) Lane {
    std::vector<uint32_t> flit, cred, occ;
    std::vector<uint64_t> cyc;
    uint64_t cyc_of = ~(uint64_t)0;
    bool differs = false;
  };
  int compare_links(int limit);
  int compare_spin(int limit, int printed);
  void pack_spin();
  void pack_spin_router(unsigned r, const uint64_t* cyc);
  const uint64_t* cycle_fields(Lane& l);
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
  std::vector<flit_t> ej_;   // the RTL's ejection links, node k at k
  std::vector<Lane> lanes_;
};

#endif
