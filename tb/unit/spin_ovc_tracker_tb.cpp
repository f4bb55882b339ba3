// spin_ovc_tracker_tb.cpp - rtl/spin_ovc_tracker.sv against its C twin,
// cmodel/spin_ovc_tracker.c (from the C model's library), on the registers
// of one output port (ovc_busy_q[o], ovc_age_q[o][...] of router_t).
// Parameters: -DP_NumVcs=<V> -DP_Eject=<0|1> (same as -G).
//
// Each cycle the outputs are compared with the C functions on the busy
// VCs of the cycle (the registers; with early_i at a network port, less the
// VC whose credit arrives, as cmodel/router.c's ovc_credits): any_free_o
// with spin_ovc_tracker_free() != 0, free_o with
// spin_ovc_tracker_free(), first_free_o and first_free_a_o with
// spin_ovc_tracker_first_free() and spin_ovc_tracker_first_free_a(),
// min_age_o with spin_ovc_tracker_min_age().  Then the clock edge:
// spin_ovc_tracker_next() with the VC a head took (alloc_i, set) and the
// one freed (clr): at the ejection output (Eject = 1) the tail's, else
// spin_ovc_tracker_credit() of the credit word, the ages updated as under
// FAvORS.
//
// Stimulus (legal for the router): alloc_i only into a free VC of the cycle
// (any free VC, not only the first, so every busy pattern is reached; with
// early_i also the VC whose credit arrives); early_i on in some phases;
// Eject = 0: a valid credit only for a busy VC, tail_i/tail_vc_i random
// (ignored); Eject = 1:
// tail_i only for a busy VC or the VC allocated in the same cycle (a
// one-flit packet), credit_i random (ignored).  Unused VC fields random.
// Alloc/free rates change by phases so that all-busy and all-free occur;
// one phase in 64 frees nothing for 256 to 511 cycles, so that every VC's
// age reaches its saturation (255) and min_age_o shows it.
//
// Idle stretches: now and then the RTL runs 1 to 600 cycles with nothing
// allocated or freed, and the C twin takes them at once with
// spin_ovc_tracker_skip() (what the C model does for a router it skips);
// the next cycle's min_age_o compares the two.
#include "Vspin_ovc_tracker.h"
#include "unit_tb.h"

extern "C" {
#include "datapath.h"
}

#if !defined(P_NumVcs) || !defined(P_Eject)
#error "P_NumVcs and P_Eject must be defined"
#endif
static_assert(P_NumVcs >= 1 && P_NumVcs <= 4, "the link carries up to 4 VCs");

// The stimulus rates of a phase: every 32 cycles new alloc/free rates, and
// one phase in 64 that frees nothing for 256 to 511 cycles (hold: its
// cycles left), so that the ages saturate.
struct Phase {
  unsigned alloc_pct = 50, free_pct = 50, early = 0, hold = 0;
  void next(uint64_t c, Rng& rng) {
    if (hold) {
      hold--;
      return;
    }
    if (c % 32 != 0) return;
    const unsigned rates[] = {5, 50, 95};
    alloc_pct = rates[rng.below(3)];
    free_pct = rates[rng.below(3)];
    early = rng.u32() & 1u;
    if (rng.below(64) == 0) {
      free_pct = 0;
      alloc_pct = 95;
      hold = 256 + rng.below(256);
    }
  }
};

// An idle stretch of k cycles: nothing allocated or freed in the RTL, taken
// at once by the C twin with spin_ovc_tracker_skip() (the C model's skip of
// an idle router).
static void idle_stretch(Bench<Vspin_ovc_tracker>& b, Rng& rng, unsigned k, uint8_t busy,
                         uint8_t* age) {
  b->alloc_i = 0;
  b->tail_i = 0;
  b->credit_i = rng.u32() & 3u;  // valid bit clear
  for (unsigned i = 0; i < k; i++) {
    b->early_i = rng.u32() & 1u;
    b->alloc_vc_i = rng.u32() & 3u;
    b->tail_vc_i = rng.u32() & 3u;
    b.eval();
    b.tick();
  }
  spin_ovc_tracker_skip(busy, age, k, P_NumVcs);
}

int main(int argc, char** argv) {
  const unsigned nv = P_NumVcs;
  const unsigned all = (1u << nv) - 1u;
  const bool eject = P_Eject != 0;
  Bench<Vspin_ovc_tracker> b(argc, argv, "spin_ovc_tracker");
  Rng rng(b.seed());
  std::printf("spin_ovc_tracker NumVcs=%u Eject=%d seed=%u cycles=%" PRIu64 "\n", nv, P_Eject,
              b.seed(), b.cycles());

  uint8_t busy = 0;                 // the C twin's registers: ovc_busy_q[o]
  uint8_t age[MAX_VCS] = {0, 0, 0, 0};   // and ovc_age_q[o][...]
  Phase ph;
  uint64_t all_busy = 0, same_cycle = 0, reused = 0, saturated = 0, skips = 0, skips_busy = 0;
  std::string prev = "reset";  // inputs at the previous edge, for failure messages

  auto randomize = [&] {
    b->alloc_i = rng.u32() & 1u;
    b->alloc_vc_i = rng.u32() & 3u;
    b->tail_i = rng.u32() & 1u;
    b->tail_vc_i = rng.u32() & 3u;
    b->credit_i = rng.u32() & 7u;
    b->early_i = rng.u32() & 1u;
  };

  b->clk_i = 0;
  randomize();
  b.reset(3);

  for (uint64_t c = 0; c < b.cycles(); c++) {
    ph.next(c, rng);
    const unsigned alloc_pct = ph.alloc_pct, free_pct = ph.free_pct, early = ph.early;
    if (rng.below(500) == 0) {  // an idle stretch: the C twin skips it at once
      const unsigned k = 1 + rng.below(600);
      idle_stretch(b, rng, k, busy, age);
      skips++;
      skips_busy += busy != 0;
      prev = strf("an idle stretch of %u cycles (C busy=0x%x)", k, busy);
      c += k;
    }
    if (rng.below(10000) == 0) {  // rare reset, inputs random
      randomize();
      b.reset(1 + rng.below(3));
      busy = 0;
      for (uint8_t& a : age) a = 0;
      prev = "reset";
    }

    unsigned set = 0, clr = 0;
    unsigned alloc = 0, alloc_vc = rng.u32() & 3u;
    unsigned tail = rng.u32() & 1u, tail_vc = rng.u32() & 3u;
    unsigned credit = rng.u32() & 7u;
    if (!eject) {
      credit &= 3u;  // valid bit clear
      if (busy && rng.pct(free_pct)) credit = 4u | rng.pick_bit(busy);
      clr = spin_ovc_tracker_credit(credit);
    }
    // the busy VCs of the cycle: with early credits, less the credited one
    const uint8_t view = (uint8_t)(!eject && early ? busy & ~clr : busy);
    const unsigned fv = spin_ovc_tracker_free(view, all);
    if (fv && rng.pct(alloc_pct)) {
      alloc = 1;
      alloc_vc = rng.pick_bit(fv);
      set = 1u << alloc_vc;
      reused += (set & clr) != 0;
    }
    if (eject) {
      const unsigned may = busy | set;
      tail = 0;
      if (may && rng.pct(free_pct)) {
        tail = 1;
        tail_vc = rng.pick_bit(may);
        clr = 1u << tail_vc;
        same_cycle += (set & clr) != 0;
      }
    }
    b->alloc_i = alloc;
    b->alloc_vc_i = alloc_vc;
    b->tail_i = tail;
    b->tail_vc_i = tail_vc;
    b->credit_i = credit;
    b->early_i = early;
    b.eval();

    auto now = [&] {
      return strf("alloc_i=%u alloc_vc_i=%u tail_i=%u tail_vc_i=%u credit_i=0x%x early_i=%u "
                  "(C busy=0x%x)", alloc, alloc_vc, tail, tail_vc, credit, early, busy);
    };
    auto inputs = [&] { return now() + "; previous edge: " + prev; };
    b.check("any_free_o", b->any_free_o, fv != 0, inputs);
    b.check("free_o", b->free_o, fv, inputs);
    b.check("first_free_o", b->first_free_o, spin_ovc_tracker_first_free(view, all), inputs);
    b.check("first_free_a_o", b->first_free_a_o, spin_ovc_tracker_first_free_a(view, all),
            inputs);
    b.check("min_age_o", b->min_age_o, spin_ovc_tracker_min_age(age, P_NumVcs), inputs);
    all_busy += fv == 0;
    saturated += spin_ovc_tracker_min_age(age, P_NumVcs) == 255;

    prev = now();
    if (!eject && early) {  // the router's order: the credit first (ovc_credits), then the edge
      busy = view;
      spin_ovc_tracker_next(&busy, age, set, 0, 1, P_NumVcs);
    } else {
      spin_ovc_tracker_next(&busy, age, set, clr, 1, P_NumVcs);
    }
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " cycles all busy, %" PRIu64 " alloc+tail same VC, %" PRIu64
              " VCs taken in their credit's cycle, %" PRIu64 " cycles every VC at age 255, %" PRIu64
              " idle stretches skipped (%" PRIu64 " with a VC busy)\n", all_busy, same_cycle, reused,
              saturated, skips, skips_busy);
  // a network port must have had a VC taken in its credit's cycle (early_i)
  bool unexercised = !eject && b.cycles() >= 10000 && reused == 0;
  if (unexercised) std::printf("FAIL: no VC was taken in the cycle its credit arrived\n");
  // every VC's age saturated, and idle stretches with a VC busy, in a long run
  if (b.cycles() >= 50000 && (saturated == 0 || skips_busy == 0)) {
    std::printf("FAIL: %s never reached\n", saturated == 0 ? "ages of 255" : "an idle stretch with a VC busy");
    unexercised = true;
  }
  b.finish(unexercised ? 1 : 0);
}
