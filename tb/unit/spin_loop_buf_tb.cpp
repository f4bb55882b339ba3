// spin_loop_buf_tb.cpp - rtl/spin_loop_buf.sv (the loop buffer of SPIN)
// against its C twin, loop_latch() and loop_clear() of cmodel/spin_loop_buf.c on
// a loop_buf_t (cmodel/spin.h), clocked together.  As the FSM drives it,
// port0_i is the path's entry `start` (path_get) when a loop is latched.
//
// +cycles+N clock edges with latch and clear at random (both at once now
// and then: latch wins), any n, start, cyc and path; after every edge n_o,
// start_o, cyc_o, port0_o and the 96-bit path_o are compared.
#include "Vspin_loop_buf.h"
#include "unit_tb.h"

extern "C" {
#include "spin.h"
}

int main(int argc, char** argv) {
  Bench<Vspin_loop_buf> b(argc, argv, "spin_loop_buf");
  Rng rng(b.seed());
  loop_buf_t ref;
  std::memset(&ref, 0, sizeof ref);
  std::printf("spin_loop_buf seed=%u cycles=%" PRIu64 "\n", b.seed(), b.cycles());
  b->latch_i = 0;
  b->clear_i = 0;
  b.reset();
  for (uint64_t c = 0; c < b.cycles(); c++) {
    const bool latch = rng.pct(20), clear = rng.pct(15);
    const unsigned n = rng.below(64), start = rng.below(64), cyc = rng.below(64);
    sm_path_t path;
    path.lo = rng.next();
    path.hi = rng.next() & 0xFFFFFFFFull;
    b->latch_i = latch;
    b->clear_i = clear;
    b->n_i = n;
    b->start_i = start;
    b->cyc_i = cyc;
    b->port0_i = path_get(path, start);
    b->path_i[0] = static_cast<uint32_t>(path.lo);
    b->path_i[1] = static_cast<uint32_t>(path.lo >> 32);
    b->path_i[2] = static_cast<uint32_t>(path.hi);
    b.tick();
    if (clear) loop_clear(&ref);
    if (latch) loop_latch(&ref, n, start, cyc, path);
    auto inputs = [&] {
      return strf("latch_i=%d clear_i=%d n_i=%u start_i=%u cyc_i=%u", latch, clear, n, start, cyc);
    };
    b.check("n_o", b->n_o, ref.n_q, inputs);
    b.check("start_o", b->start_o, ref.start_q, inputs);
    b.check("cyc_o", b->cyc_o, ref.cyc_q, inputs);
    b.check("port0_o", b->port0_o, ref.port0_q, inputs);
    b.check("path_o[63:0]", get_bits(b->path_o, 0, 64), ref.path_q.lo, inputs);
    b.check("path_o[95:64]", get_bits(b->path_o, 64, 32), ref.path_q.hi, inputs);
  }
  b.finish(0);
}
