// spin_fifo_tb.cpp - rtl/spin_fifo.sv against its C twin, the FIFO of one
// input VC: spin_fifo_push(), spin_fifo_pop() and spin_fifo_front() of
// cmodel/spin_fifo.c (from the C model's library), on a spin_fifo_t over
// the bench's own Depth slots.  Parameters: -DP_Width=<W> -DP_Depth=<D>
// (same as -G).
//
// Each cycle the C FIFO pops, then pushes, as the router does (the push
// then writes the slot of the cycle's registers, as the RTL does).  The
// entry is the flit's data word (Width bits; ext 0, as a packet's).
//
// Stimulus: push/pop rates change by phases (filling, draining, churning) so
// that full and empty are both reached often.  pop only when not empty; push
// only when not full, or when full together with a pop (the RTL allows it).
// cnt_o is compared every cycle, rdata_o whenever cnt_o > 0.  Rare resets
// (the registers only: the storage keeps its contents on both sides).
#include "Vspin_fifo.h"
#include "unit_tb.h"

#if !defined(P_Width) || !defined(P_Depth)
#error "P_Width and P_Depth must be defined"
#endif
static_assert(P_Width >= 1 && P_Width <= 32, "bench handles Width 1..32");
static_assert(P_Depth >= 2, "spin_fifo needs Depth >= 2");

extern "C" {
#include "datapath.h"
}

namespace {

// The C twin's registers and storage: one FIFO of Depth slots.
struct fifo_c {
  uint8_t rd_q = 0, cnt_q = 0, ext_nz = 0;
  uint8_t ctl[P_Depth] = {};
  uint64_t data[P_Depth] = {}, ext[P_Depth] = {};
  spin_fifo_t f;

  fifo_c() {
    f.rd_q = &rd_q;
    f.cnt_q = &cnt_q;
    f.ctl = ctl;
    f.data = data;
    f.ext = ext;
    f.ext_nz = &ext_nz;
    f.depth = P_Depth;
  }
  void reset() { rd_q = cnt_q = 0; }  // storage has no reset
  void step(bool push, uint32_t wdata, bool pop) {
    if (pop) spin_fifo_pop(&f);
    if (push) {
      flit_t w;
      w.data = wdata;
      w.ext = 0;
      w.ctl = CTL_MAKE(KIND_FLIT, 0, 0, 0);
      spin_fifo_push(&f, &w);
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

  fifo_c ref;
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
    if (ref.cnt_q > 0) b.check("rdata_o", b->rdata_o, spin_fifo_front(&ref.f).data, inputs);
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
