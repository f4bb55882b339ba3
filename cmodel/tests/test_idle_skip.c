/* test_idle_skip.c - a run that skips its idle stretches (sim_idle_skip,
 * contract section 10) ends exactly as the same run stepped cycle by cycle:
 * same cycle count, same packets delivered with the same latencies, same
 * SPIN counters, and every router in the same state (registers, LFSR,
 * FAvORS ages, SPIN FSM).  Traces with long gaps, with and without SPIN,
 * under FAvORS-Min, escape routing and XY, and synthetic traffic at a low
 * rate.  Then a trace with packets at 10^12 and 10^15 ends at once.
 *
 * Usage: test_idle_skip DATA_DIR.  Prints one line per failed check and
 * ends with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fdopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim.h"
#include "check.h"

static const char *data_dir;

/* Runs o to the end; skip: with sim_idle_skip before every cycle (as
 * sim_run does), else every cycle stepped. */
static sim_status_t run(sim_t *s, const sim_opts_t *o, int skip)
{
  sim_status_t st;
  if (sim_init(s, o, 1) != 0) {
    CHECK(0, "sim_init(%s, %s): %s", o->topo, o->traffic, s->err);
    return SIM_ERROR;
  }
  do {
    if (skip) sim_idle_skip(s, UINT64_MAX);
    sim_cycle_pre(s);
    net_step(&s->net);
    if (sim_cycle_post(s) != 0) return SIM_ERROR;
    st = sim_status(s);
  } while (st == SIM_RUNNING);
  return st;
}

/* The run with skipping against the run without. */
static void same_run(const char *what, const sim_opts_t *o)
{
  sim_t a, b;
  sim_status_t sa = run(&a, o, 1), sb = run(&b, o, 0);
  int r;
  CHECK(sa == sb && sa == SIM_DRAINED, "%s: status %d with skipping, %d without", what, (int)sa,
        (int)sb);
  CHECK(a.skipped > 0 && b.skipped == 0, "%s: %llu cycles skipped (none: the test tests nothing)",
        what, (unsigned long long)a.skipped);
  CHECK(a.now == b.now && a.net.cycle == b.net.cycle && a.inject_end == b.inject_end,
        "%s: ends in cycle %llu with skipping, %llu without", what, (unsigned long long)a.now,
        (unsigned long long)b.now);
  CHECK(a.nic.created == b.nic.created && a.nic.injected == b.nic.injected &&
        a.sink.delivered == b.sink.delivered && a.sink.flits == b.sink.flits &&
        a.sink.meas_flits == b.sink.meas_flits && a.nic.meas_created_flits == b.nic.meas_created_flits,
        "%s: packets differ (delivered %llu, %llu)", what, (unsigned long long)a.sink.delivered,
        (unsigned long long)b.sink.delivered);
  CHECK(a.sink.meas_pkts == b.sink.meas_pkts && a.sink.lat_sum == b.sink.lat_sum &&
        a.sink.lat_max == b.sink.lat_max && a.sink.n_over == b.sink.n_over &&
        memcmp(a.sink.hist, b.sink.hist, LAT_HIST * sizeof *a.sink.hist) == 0,
        "%s: latencies differ (sum %.0f, %.0f)", what, a.sink.lat_sum, b.sink.lat_sum);
  CHECK(memcmp(&a.net.spin, &b.net.spin, sizeof a.net.spin) == 0,
        "%s: SPIN counters differ (spins %llu, %llu; probes %llu, %llu)", what,
        (unsigned long long)a.net.spin.spins, (unsigned long long)b.net.spin.spins,
        (unsigned long long)a.net.spin.probes_sent, (unsigned long long)b.net.spin.probes_sent);
  for (r = 0; r < a.net.n && r < b.net.n; r++)
    if (memcmp(&a.net.rt[r], &b.net.rt[r], sizeof a.net.rt[r]) != 0) break;
  CHECK(r == a.net.n, "%s: router %d ends in another state (lfsr %08x, %08x)", what, r,
        r < a.net.n ? (unsigned)a.net.rt[r].lfsr_q : 0u, r < a.net.n ? (unsigned)b.net.rt[r].lfsr_q : 0u);
  sim_free(&a);
  sim_free(&b);
}

/* Writes a trace to a temporary file; its name goes to spec ("trace:..."). */
static FILE *trace_open(char *path, char *spec, size_t len)
{
  int fd;
  strcpy(path, "/tmp/test_idle_skip_XXXXXX");
  fd = mkstemp(path);
  snprintf(spec, len, "trace:%s", path);
  return fd >= 0 ? fdopen(fd, "w") : NULL;
}

static uint64_t lcg(uint64_t *x)
{
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return *x >> 33;
}

/* Bursts of random packets on a WxH mesh, separated by gaps of up to
 * max_gap cycles (some short, so the network is still busy at the next
 * burst). */
static void bursts(const char *what, sim_opts_t *o, int nodes, uint64_t max_gap, uint64_t seed)
{
  char path[64], spec[96];
  FILE *f = trace_open(path, spec, sizeof spec);
  uint64_t x = seed, cy = 0;
  int b, i;
  CHECK(f != NULL, "%s: cannot write a trace", what);
  if (!f) return;
  for (b = 0; b < 12; b++) {
    for (i = 0; i < 60; i++) {
      int src = (int)(lcg(&x) % (uint64_t)nodes), dst = (int)(lcg(&x) % (uint64_t)(nodes - 1));
      if (dst >= src) dst++;
      cy += lcg(&x) % 3;
      fprintf(f, "%llu %d %d %d\n", (unsigned long long)cy, src, dst, lcg(&x) % 2 ? 5 : 1);
    }
    cy += b % 3 == 2 ? 1 + lcg(&x) % 40 : 1 + lcg(&x) % max_gap;
  }
  fclose(f);
  o->traffic = spec;
  o->cycles = 1;
  o->warmup = 0;
  same_run(what, o);
  unlink(path);
}

/* The Fig. 5(a) case I scenario (theta.topo, 2 VCs, t_DD 32) three times,
 * 100,003 cycles and 200 priority periods apart. */
static void scenario_copies(void)
{
  static const char *const lines[] = {
    "768 7 4 1", "768 7 4 1", "768 8 6 1", "768 8 6 1", "770 0 2 1", "770 0 2 1", "770 1 3 1",
    "770 1 5 1", "770 3 0 1", "770 3 0 1", "770 4 1 1", "770 4 1 1", "770 5 0 1", "770 5 0 1",
    "770 6 1 1", "770 6 1 1"};
  static const uint64_t offset[] = {0, 100003, 100003 + 200 * 1152};
  char path[64], spec[96], topo[512];
  FILE *f = trace_open(path, spec, sizeof spec);
  sim_opts_t o;
  sim_t s;
  size_t c, i;
  CHECK(f != NULL, "cannot write a trace");
  if (!f) return;
  for (c = 0; c < 3; c++)
    for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
      unsigned long long cy;
      int src, dst, fl;
      sscanf(lines[i], "%llu %d %d %d", &cy, &src, &dst, &fl);
      fprintf(f, "%llu %d %d %d\n", cy + (unsigned long long)offset[c], src, dst, fl);
    }
  fclose(f);
  snprintf(topo, sizeof topo, "file:%s/../../../tb/scenarios/theta.topo", data_dir);
  sim_defaults(&o);
  o.topo = topo;
  o.traffic = spec;
  o.algo = ALGO_FAVORS_MIN;
  o.vcs = 2;
  o.spin = 1;
  o.tdd = 32;
  o.cycles = 1;
  o.warmup = 0;
  same_run("theta fig5a_case1 x3, SPIN", &o);
  /* the scenario's own outcome in the copy 200 periods on: one more spin */
  if (run(&s, &o, 1) == SIM_DRAINED)
    CHECK(s.net.spin.spins == 3 && s.net.spin.deadlocks_resolved == 3,
          "3 copies of fig5a_case1: %llu spins, %llu resolved (1 each expected)",
          (unsigned long long)s.net.spin.spins, (unsigned long long)s.net.spin.deadlocks_resolved);
  sim_free(&s);
  unlink(path);
}

/* Packets at 10^12 and at 10^15 (the last cycle a trace may name): the run
 * ends at once, every packet delivered with its zero-load latency. */
static void huge_gap(int spin)
{
  char path[64], spec[96];
  FILE *f = trace_open(path, spec, sizeof spec);
  sim_opts_t o;
  sim_t s;
  sim_status_t st;
  CHECK(f != NULL, "cannot write a trace");
  if (!f) return;
  fprintf(f, "0 0 5 5\n3 1 2 1\n1000000000000 3 12 5\n1000000000000 12 3 1\n"
             "1000000000000000 0 15 5\n");
  fclose(f);
  sim_defaults(&o);
  o.topo = "mesh4x4";
  o.algo = ALGO_FAVORS_MIN;
  o.spin = spin;
  o.traffic = spec;
  o.cycles = 1;
  o.warmup = 0;
  if (sim_init(&s, &o, 1) != 0) {
    CHECK(0, "sim_init: %s", s.err);
    return;
  }
  st = sim_run(&s);
  /* 0 -> 15 on a 4x4 mesh: 6 hops, a 5-flit packet: 3 + 12 + 4 cycles */
  CHECK(st == SIM_DRAINED && s.sink.delivered == 5, "huge gap, SPIN %d: status %d, %llu delivered",
        spin, (int)st, (unsigned long long)s.sink.delivered);
  CHECK(s.now >= 1000000000000000ull + 19 && s.now < 1000000000000000ull + 19 + 4 * 128 * 16 + 10,
        "huge gap, SPIN %d: ends in cycle %llu", spin, (unsigned long long)s.now);
  CHECK(s.now - s.skipped < 200000, "huge gap, SPIN %d: %llu cycles stepped", spin,
        (unsigned long long)(s.now - s.skipped));
  sim_free(&s);
  unlink(path);
}

int main(int argc, char **argv)
{
  sim_opts_t o;
  data_dir = check_data(argc, argv);

  sim_defaults(&o);
  o.topo = "mesh4x4";
  o.algo = ALGO_FAVORS_MIN;
  bursts("mesh4x4 favors_min, gaps", &o, 16, 100000, 1);
  o.spin = 1;
  o.tdd = 16;   /* priority period 4 x 16 x 16 = 1024 cycles */
  bursts("mesh4x4 favors_min, gaps, SPIN", &o, 16, 100000, 2);
  o.spin = 0;
  o.vcs = 2;
  o.algo = ALGO_ESCAPE;
  bursts("mesh4x4 escape 2 VCs, gaps", &o, 16, 50000, 3);
  sim_defaults(&o);
  o.topo = "ring-6";
  o.algo = ALGO_FAVORS_MIN;
  o.spin = 1;
  o.tdd = 8;
  bursts("ring-6 favors_min, gaps, SPIN t_DD 8", &o, 6, 30000, 4);
  scenario_copies();
  /* synthetic traffic at a low rate: the network is often idle between
   * packets (and after the last, up to the end of injection) */
  sim_defaults(&o);
  o.topo = "mesh4x4";
  o.algo = ALGO_XY;
  o.rate = 0.0005;
  o.cycles = 300000;
  o.warmup = 1000;
  same_run("mesh4x4 xy uniform_random 0.0005", &o);
  o.algo = ALGO_FAVORS_MIN;
  o.spin = 1;
  o.tdd = 2;   /* period 128 */
  same_run("mesh4x4 favors_min uniform_random 0.0005, SPIN t_DD 2", &o);
  huge_gap(0);
  huge_gap(1);
  return check_done();
}
