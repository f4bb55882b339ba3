// spin_ovc_tracker_tb.cpp - rtl/spin_ovc_tracker.sv against ovc_busy_q of
// one output port in cmodel/router.c.  Parameters: -DP_NumVcs=<V>
// -DP_Eject=<0|1> (same as -G).
//
// The C tracker is not a separate function in cmodel/: router_step() does
//   free_vcs() = ((1 << V) - 1) & ~ovc_busy_q[o];   port usable when != 0
//   head sent into output o:   ovc = nth_set_bit(free_vcs(), 0); ovc_set |= 1 << ovc;
//   tail sent, o == 0 (NIC):   ovc_clr |= 1 << ovc;
//   credit on o >= 1:          ovc_clr |= 1 << CRED_VC(cred);
//   ovc_busy_q[o] = (ovc_busy_q[o] | ovc_set) & ~ovc_clr;
// Below, any_free_o is compared with free_vcs() != 0 and, when a VC is free,
// first_free_o with nth_set_bit(free_vcs(), 0) (lfsr.h); with no free VC the
// C model has no first free VC, so first_free_o is not compared then.
//
// Stimulus (legal for the router): alloc_i only into a free VC (any free VC,
// not only the first, so every busy pattern is reached); Eject = 0: a valid
// credit only for a busy VC, tail_i/tail_vc_i random (ignored); Eject = 1:
// tail_i only for a busy VC or the VC allocated in the same cycle (a
// one-flit packet), credit_i random (ignored).  Unused VC fields random.
// Alloc/free rates change by phases so that all-busy and all-free occur.
#include "Vspin_ovc_tracker.h"
#include "unit_tb.h"

extern "C" {
#include "lfsr.h"
}

#if !defined(P_NumVcs) || !defined(P_Eject)
#error "P_NumVcs and P_Eject must be defined"
#endif
static_assert(P_NumVcs >= 1 && P_NumVcs <= 4, "the link carries up to 4 VCs");

int main(int argc, char** argv) {
  const unsigned nv = P_NumVcs;
  const unsigned all = (1u << nv) - 1u;
  const bool eject = P_Eject != 0;
  Bench<Vspin_ovc_tracker> b(argc, argv, "spin_ovc_tracker");
  Rng rng(b.seed());
  std::printf("spin_ovc_tracker NumVcs=%u Eject=%d seed=%u cycles=%" PRIu64 "\n", nv, P_Eject,
              b.seed(), b.cycles());

  unsigned busy = 0;  // C twin: ovc_busy_q[o]
  unsigned age[4] = {0, 0, 0, 0};  // C twin: ovc_age_q[o][v] (router.c)
  unsigned alloc_pct = 50, free_pct = 50;
  uint64_t all_busy = 0, same_cycle = 0;
  std::string prev = "reset";  // inputs at the previous edge, for failure messages

  auto randomize = [&] {
    b->alloc_i = rng.u32() & 1u;
    b->alloc_vc_i = rng.u32() & 3u;
    b->tail_i = rng.u32() & 1u;
    b->tail_vc_i = rng.u32() & 3u;
    b->credit_i = rng.u32() & 7u;
  };

  b->clk_i = 0;
  randomize();
  b.reset(3);

  for (uint64_t c = 0; c < b.cycles(); c++) {
    if (c % 32 == 0) {
      const unsigned rates[] = {5, 50, 95};
      alloc_pct = rates[rng.below(3)];
      free_pct = rates[rng.below(3)];
    }
    if (rng.below(10000) == 0) {  // rare reset, inputs random
      randomize();
      b.reset(1 + rng.below(3));
      busy = 0;
      for (unsigned& a : age) a = 0;
      prev = "reset";
    }

    const unsigned fv = all & ~busy;
    unsigned set = 0, clr = 0;
    unsigned alloc = 0, alloc_vc = rng.u32() & 3u;
    if (fv && rng.pct(alloc_pct)) {
      alloc = 1;
      alloc_vc = rng.pick_bit(fv);
      set = 1u << alloc_vc;
    }
    unsigned tail = rng.u32() & 1u, tail_vc = rng.u32() & 3u;
    unsigned credit = rng.u32() & 7u;
    if (eject) {
      const unsigned may = busy | set;
      tail = 0;
      if (may && rng.pct(free_pct)) {
        tail = 1;
        tail_vc = rng.pick_bit(may);
        clr = 1u << tail_vc;
        same_cycle += (set & clr) != 0;
      }
    } else {
      credit &= 3u;  // valid bit clear
      if (busy && rng.pct(free_pct)) {
        const unsigned vc = rng.pick_bit(busy);
        credit = 4u | vc;
        clr = 1u << vc;
      }
    }
    b->alloc_i = alloc;
    b->alloc_vc_i = alloc_vc;
    b->tail_i = tail;
    b->tail_vc_i = tail_vc;
    b->credit_i = credit;
    b.eval();

    auto now = [&] {
      return strf("alloc_i=%u alloc_vc_i=%u tail_i=%u tail_vc_i=%u credit_i=0x%x (C busy=0x%x)",
                  alloc, alloc_vc, tail, tail_vc, credit, busy);
    };
    auto inputs = [&] { return now() + "; previous edge: " + prev; };
    b.check("any_free_o", b->any_free_o, fv != 0, inputs);
    if (fv) b.check("first_free_o", b->first_free_o, nth_set_bit(fv, 0), inputs);
    unsigned min_age = 255;
    for (unsigned v = 0; v < P_NumVcs; v++) min_age = age[v] < min_age ? age[v] : min_age;
    b.check("min_age_o", b->min_age_o, min_age, inputs);
    all_busy += fv == 0;

    prev = now();
    busy = (busy | set) & ~clr;
    for (unsigned v = 0; v < P_NumVcs; v++) {  // as router_step() updates ovc_age_q
      if (!(busy & (1u << v))) age[v] = 0;
      else if (!(set & (1u << v)) && age[v] < 255) age[v]++;
    }
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " cycles all busy, %" PRIu64 " alloc+tail same VC\n", all_busy,
              same_cycle);
  b.finish(0);
}
