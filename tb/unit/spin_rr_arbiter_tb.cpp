// spin_rr_arbiter_tb.cpp - rtl/spin_rr_arbiter.sv against rr_pick/rr_next
// of cmodel/arbiter.h.  Parameter: -DP_N=<N> (same as -GN=<N>).
//
// Every cycle: random req_i (empty, one-hot, sparse, uniform or dense, the
// density changing by phases) and random update_i (its rate changing by
// phases, including phases where it is always low); gnt_valid_o is compared
// with rr_pick() != -1 and, when valid, gnt_idx_o with the winner.  The C
// pointer moves to rr_next(winner) when update_i and a winner.  Rare resets
// (inputs random during reset) check that the pointer returns to 0.
#include "Vspin_rr_arbiter.h"
#include "unit_tb.h"

extern "C" {
#include "arbiter.h"
}

#ifndef P_N
#error "P_N (the N parameter) must be defined"
#endif

int main(int argc, char** argv) {
  const unsigned n = P_N;
  const unsigned all = n >= 32 ? ~0u : (1u << n) - 1u;
  Bench<Vspin_rr_arbiter> b(argc, argv, "spin_rr_arbiter");
  Rng rng(b.seed());
  std::printf("spin_rr_arbiter N=%u seed=%u cycles=%" PRIu64 "\n", n, b.seed(), b.cycles());

  unsigned ptr = 0;  // C twin state
  unsigned req_mode = 0, upd_pct = 100;
  std::string prev = "reset";  // inputs at the previous edge, for failure messages

  b->clk_i = 0;
  b->req_i = rng.u32() & all;
  b->update_i = rng.u32() & 1u;
  b.reset(3);

  for (uint64_t c = 0; c < b.cycles(); c++) {
    if (c % 256 == 0) {
      req_mode = rng.below(5);
      const unsigned rates[] = {0, 30, 75, 100};
      upd_pct = rates[rng.below(4)];
    }
    if (rng.below(10000) == 0) {  // rare reset with random inputs
      b->req_i = rng.u32() & all;
      b->update_i = rng.u32() & 1u;
      b.reset(1 + rng.below(3));
      ptr = 0;
      prev = "reset";
    }

    unsigned req;
    switch (req_mode) {
      case 0: req = rng.pct(50) ? 0u : 1u << rng.below(n); break;     // empty / one-hot
      case 1: req = rng.u32() & rng.u32() & rng.u32(); break;         // sparse
      case 2: req = rng.u32(); break;                                 // uniform
      case 3: req = rng.u32() | rng.u32(); break;                     // dense
      default: req = rng.pct(10) ? 0u : rng.u32(); break;
    }
    req &= all;
    const unsigned upd = rng.pct(upd_pct) ? 1u : 0u;
    b->req_i = req;
    b->update_i = upd;
    b.eval();

    const int win = rr_pick(req, ptr, n);
    auto now = [&] { return strf("req_i=0x%x update_i=%u ptr(C)=%u", req, upd, ptr); };
    auto inputs = [&] { return now() + "; previous edge: " + prev; };
    b.check("gnt_valid_o", b->gnt_valid_o, win >= 0, inputs);
    if (win >= 0) b.check("gnt_idx_o", b->gnt_idx_o, static_cast<unsigned>(win), inputs);

    if (upd && win >= 0) ptr = rr_next(static_cast<unsigned>(win), n);
    prev = now();
    b.tick();
  }
  b.finish(0);
}
