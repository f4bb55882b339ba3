/* opts.h - the options the C model's run tests start from: FAvORS-Min with
 * SPIN, uniform random on TOPO at RATE, CYCLES injection cycles of which a
 * tenth is warm-up, a drain limit of 200,000 cycles, the library's defaults
 * otherwise (sim_defaults). */
#ifndef SPIN_TESTS_OPTS_H
#define SPIN_TESTS_OPTS_H

#include "sim.h"

static inline void opts_favors_spin(sim_opts_t *o, const char *topo, double rate, uint64_t cycles)
{
  sim_defaults(o);
  o->topo = topo;
  o->algo = ALGO_FAVORS_MIN;
  o->spin = 1;
  o->rate = rate;
  o->cycles = cycles;
  o->warmup = cycles / 10;
  o->drain_limit = 200000;
}

#endif
