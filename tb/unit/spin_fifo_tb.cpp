// spin_fifo_tb.cpp - rtl/spin_fifo.sv against the FIFO of one input VC in
// cmodel/router.c.  Parameters: -DP_Width=<W> -DP_Depth=<D> (same as -G).
//
// The C FIFO is not a separate function in cmodel/: router_step() pops
//   *rd = *rd + 1 == BUF_DEPTH ? 0 : *rd + 1;  cnt_q--;
// and then pushes
//   slot = rd_q + cnt_q; if (slot >= BUF_DEPTH) slot -= BUF_DEPTH;
//   buf[slot] = flit; cnt_q++;
// and the front entry is buf[rd_q].  fifo_ref below is that code with
// BUF_DEPTH replaced by Depth, in the same order (pop, then push).
//
// Stimulus: push/pop rates change by phases (filling, draining, churning) so
// that full and empty are both reached often.  pop only when not empty; push
// only when not full, or when full together with a pop (the RTL allows it).
// cnt_o is compared every cycle, rdata_o whenever cnt_o > 0.  Rare resets.
#include "Vspin_fifo.h"
#include "unit_tb.h"

#if !defined(P_Width) || !defined(P_Depth)
#error "P_Width and P_Depth must be defined"
#endif
static_assert(P_Width >= 1 && P_Width <= 32, "bench handles Width 1..32");
static_assert(P_Depth >= 2, "spin_fifo needs Depth >= 2");

namespace {

struct fifo_ref {
  uint32_t buf[P_Depth];
  unsigned rd_q, cnt_q;

  void reset() { rd_q = cnt_q = 0; }  // storage has no reset
  void step(bool push, uint32_t wdata, bool pop) {
    if (pop) {
      rd_q = rd_q + 1 == P_Depth ? 0 : rd_q + 1;
      cnt_q--;
    }
    if (push) {
      unsigned slot = rd_q + cnt_q;
      if (slot >= P_Depth) slot -= P_Depth;
      buf[slot] = wdata;
      cnt_q++;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const uint32_t wmask = P_Width == 32 ? ~0u : (1u << P_Width) - 1u;
  Bench<Vspin_fifo> b(argc, argv, "spin_fifo");
  Rng rng(b.seed());
  std::printf("spin_fifo Width=%d Depth=%d seed=%u cycles=%" PRIu64 "\n", P_Width, P_Depth,
              b.seed(), b.cycles());

  fifo_ref ref{};
  unsigned push_pct = 50, pop_pct = 50;
  uint64_t full_cycles = 0, empty_cycles = 0, push_pop_full = 0;
  std::string prev = "reset";  // inputs at the previous edge, for failure messages

  b->clk_i = 0;
  b->push_i = rng.u32() & 1u;
  b->pop_i = rng.u32() & 1u;
  b->wdata_i = rng.u32() & wmask;
  b.reset(3);
  ref.reset();

  for (uint64_t c = 0; c < b.cycles(); c++) {
    if (c % 64 == 0) {
      const unsigned rates[] = {5, 50, 95};
      push_pct = rates[rng.below(3)];
      pop_pct = rates[rng.below(3)];
    }
    if (rng.below(10000) == 0) {  // rare reset; push/pop during reset are ignored
      b->push_i = rng.u32() & 1u;
      b->pop_i = rng.u32() & 1u;
      b->wdata_i = rng.u32() & wmask;
      b.reset(1 + rng.below(3));
      ref.reset();
      prev = "reset";
    }

    const bool pop = ref.cnt_q > 0 && rng.pct(pop_pct);
    const bool push = (ref.cnt_q < P_Depth || pop) && rng.pct(push_pct);
    const uint32_t wdata = rng.u32() & wmask;
    b->push_i = push;
    b->pop_i = pop;
    b->wdata_i = wdata;
    b.eval();

    auto now = [&] {
      return strf("push_i=%d wdata_i=0x%x pop_i=%d (C: rd=%u cnt=%u)", push, wdata, pop,
                  ref.rd_q, ref.cnt_q);
    };
    auto inputs = [&] { return now() + "; previous edge: " + prev; };
    b.check("cnt_o", b->cnt_o, ref.cnt_q, inputs);
    if (ref.cnt_q > 0) b.check("rdata_o", b->rdata_o, ref.buf[ref.rd_q], inputs);
    full_cycles += ref.cnt_q == P_Depth;
    empty_cycles += ref.cnt_q == 0;
    push_pop_full += ref.cnt_q == P_Depth && push && pop;

    prev = now();
    ref.step(push, wdata, pop);
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " cycles full, %" PRIu64 " empty, %" PRIu64
              " push+pop while full\n",
              full_cycles, empty_cycles, push_pop_full);
  b.finish(0);
}
