// spin_loop_buf_tb.cpp - rtl/spin_loop_buf.sv (the loop buffer of SPIN,
// docs/microarchitecture.md 12.3) against its C twin, loop_latch() and
// loop_clear() of cmodel/spin_loop_buf.c on a loop_buf_t, clocked together.
// set_cyc_i is the move manager's `s->loop.cyc_q = lc` (cmodel/spin_move_mgr.c:
// a router frozen for another's recovery keeps that loop's C), which comes
// after a clear of the same cycle (the FSM's step 3 comes first); a latch
// never comes with it (one message a cycle: a loop taken or FROZEN entered).
// Parameters: -DP_NumPorts, -DP_NumVcs, -DP_IdW, -DP_CycW (the layout
// whose fork entries it holds), -DP_ForkW (as -G...).
//
// +cycles+N clock edges with latch, clear and set_cyc at random (latch with
// clear, set_cyc with or without clear), any cycles (0, 1, CycMax and
// 2^CycW - 1 often), first port, first fork entry and fork entries; after
// every edge every output is compared.
#include "Vspin_loop_buf.h"
#include "spin_tb.h"

using namespace spin_tb;

#ifndef P_ForkW
#error "P_ForkW must be defined"
#endif

int main(int argc, char** argv) {
  Bench<Vspin_loop_buf> b(argc, argv, "spin_loop_buf");
  Rng rng(b.seed());
  std::printf("spin_loop_buf NumPorts=%d NumVcs=%d CycW=%d ForkW=%d seed=%u cycles=%" PRIu64 "\n",
              kPorts, kVcs, P_CycW, P_ForkW, b.seed(), b.cycles());
  const sm_fmt_t fmt = make_fmt(0);
  if (P_ForkW != (kVcs > 1 ? fmt.k * fmt.chw : 1u)) {
    std::printf("FAIL spin_loop_buf: ForkW=%d, the layout's fork entries take %u bits\n", P_ForkW,
                fmt.k * fmt.chw);
    std::exit(2);
  }
  Events ev;
  const size_t e_latch = ev.add("latched", 10000);
  const size_t e_latch_clear = ev.add("latched with a clear (latch wins)", 2000);
  const size_t e_clear = ev.add("cleared", 10000);
  const size_t e_set = ev.add("cycles set", 5000);
  const size_t e_set_clear = ev.add("cycles set after a clear", 2000);
  const size_t e_cycmax = ev.add("latched a loop of CycMax cycles", 800);
  loop_buf_t ref;
  std::memset(&ref, 0, sizeof ref);
  b->latch_i = b->clear_i = b->set_cyc_i = 0;
  b.reset();
  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    const bool latch = rng.pct(20), clear = rng.pct(25), set = !latch && rng.pct(20);
    sm_t forks;
    std::memset(&forks, 0, sizeof forks);
    draw_forks(rng, fmt, &forks);
    const unsigned c = rng.pct(10) ? fmt.cyc_max : edgy(rng, 0, field_max(P_CycW));
    const unsigned port0 = rng.below(kPorts), fk0 = kVcs > 1 ? rng.below(64) : 0;
    b->latch_i = latch;
    b->clear_i = clear;
    b->set_cyc_i = set;
    b->cyc_i = c;
    b->port0_i = port0;
    b->fk0_i = fk0;
    if (kVcs > 1) {
      put_bits(b->fork_i, 0, P_ForkW < 64 ? P_ForkW : 64, forks.fork_lo);
      if (P_ForkW > 64) put_bits(b->fork_i, 64, P_ForkW - 64, forks.fork_hi);
    } else {
      put_bits(b->fork_i, 0, 1, rng.below(2));   // unused with 1 VC
    }
    b.tick();
    if (clear) loop_clear(&ref);
    if (set) ref.cyc_q = c;
    if (latch) loop_latch(&ref, c, port0, fk0, &forks);
    ev.hit(e_latch, latch);
    ev.hit(e_latch_clear, latch && clear);
    ev.hit(e_clear, clear && !latch);
    ev.hit(e_set, set);
    ev.hit(e_set_clear, set && clear);
    ev.hit(e_cycmax, latch && c == fmt.cyc_max);
    auto inputs = [&] {
      return strf("latch_i=%d clear_i=%d set_cyc_i=%d cyc_i=%u port0_i=%u fk0_i=%u", latch, clear,
                  set, c, port0, fk0);
    };
    b.check("cyc_o", b->cyc_o, ref.cyc_q, inputs);
    b.check("port0_o", b->port0_o, ref.port0_q, inputs);
    if (kVcs > 1) {
      b.check("fk0_o", b->fk0_o, ref.fk0_q, inputs);
      b.check("fork_o[63:0]", get_bits(b->fork_o, 0, P_ForkW < 64 ? P_ForkW : 64), ref.fork_lo_q,
              inputs);
      if (P_ForkW > 64)
        b.check("fork_o[..:64]", get_bits(b->fork_o, 64, P_ForkW - 64), ref.fork_hi_q, inputs);
    } else {
      b.check("fk0_o (1 VC)", b->fk0_o, 0, inputs);
      b.check("fork_o (1 VC)", get_bits(b->fork_o, 0, 1), 0, inputs);
    }
  }
  b.finish(ev.report("spin_loop_buf", b.cycles()) ? 1 : 0);
}
