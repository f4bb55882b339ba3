/* test_record.c - the run's record (record.h, spin_log.h): the deadlocks it
 * lists agree with the SPIN counters, every loop closes on the topology,
 * the link loads account for every flit, and recording changes nothing in
 * the model.
 *
 * Runs from the repository root (make test-c): the scenarios are read from
 * tb/scenarios/.  Prints "N passed, N failed"; exits 1 on a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"
#include "sim.h"
#include "check.h"
#include "opts.h"

static void opts(sim_opts_t *o, const char *topo, const char *traffic, double rate, uint64_t cycles,
                 int paper)
{
  opts_favors_spin(o, topo, rate, cycles);
  o->traffic = traffic;
  o->vcs = 1;
  o->tdd = 128;
  if (paper) o->mode.admit = o->mode.reroute = o->mode.adopt = 0;
}

/* Runs o with or without the record; returns the status. */
static sim_status_t run(sim_t *s, const sim_opts_t *o, int record)
{
  if (sim_init(s, o, 1) != 0) {
    printf("  sim_init: %s\n", s->err);
    exit(2);
  }
  if (record && net_record(&s->net) != 0) {
    printf("  out of memory\n");
    exit(2);
  }
  return sim_run(s);
}

/* Every entry: cycles in order, spins >= 1, a loop that closes. */
static void check_entries(const sim_t *s, const char *what)
{
  const spin_log_t *log = s->net.log;
  const topo_t *t = &s->topo;
  size_t i;
  int bad = 0;
  for (i = 0; i < log->n; i++) {
    const spin_log_entry_t *e = &log->e[i];
    int r = e->source;
    unsigned h;
    if (e->first_spin < e->detected || e->last_spin < e->first_spin || e->spins < 1 ||
        e->len < 2 || !e->closed)
      bad++;
    for (h = 0; h < e->len && r >= 0; h++) r = t->peer_router[r * t->radix + e->port[h]];
    if (r != e->source) bad++;
  }
  CHECK(bad == 0, "%s: %d entries out of order or with a loop that does not close", what, bad);
}

/* Sum over a trace's packets of flits x minimal hops. */
static uint64_t trace_flit_hops(const char *path, const topo_t *t)
{
  FILE *f = fopen(path, "r");
  char line[256];
  uint64_t sum = 0;
  if (!f) {
    printf("  cannot open %s\n", path);
    exit(2);
  }
  while (fgets(line, sizeof line, f)) {
    unsigned long long c;
    int a, b, n;
    if (line[0] == '#' || sscanf(line, "%llu %d %d %d", &c, &a, &b, &n) != 4) continue;
    sum += (uint64_t)n * (uint64_t)t->dist[a * t->routers + b];
  }
  fclose(f);
  return sum;
}

int main(void)
{
  sim_opts_t o;
  sim_t a, b;
  uint64_t links = 0, want;
  int r, p;

  /* 1. A random run of the paper's router that deadlocks several times. */
  opts(&o, "mesh4x4", "uniform_random", 0.35, 5000, 1);
  CHECK(run(&a, &o, 1) == SIM_DRAINED, "mesh4x4 0.35 paper mode: drained");
  CHECK(a.net.spin.deadlocks_resolved >= 5, "%llu deadlocks resolved, expected 5 or more",
        (unsigned long long)a.net.spin.deadlocks_resolved);
  CHECK(a.net.log->total == a.net.spin.deadlocks_resolved, "%llu recorded, %llu resolved",
        (unsigned long long)a.net.log->total, (unsigned long long)a.net.spin.deadlocks_resolved);
  CHECK(a.net.log->spins == a.net.spin.spins, "%llu spins recorded, %llu counted",
        (unsigned long long)a.net.log->spins, (unsigned long long)a.net.spin.spins);
  check_entries(&a, "mesh4x4");
  /* recording changes nothing: the same run without it */
  CHECK(run(&b, &o, 0) == SIM_DRAINED, "the run without the record drained");
  CHECK(b.now == a.now && b.sink.delivered == a.sink.delivered &&
        b.net.spin.spins == a.net.spin.spins && b.sink.lat_sum == a.sink.lat_sum,
        "with and without the record: %llu/%llu cycles", (unsigned long long)a.now,
        (unsigned long long)b.now);
  sim_free(&b);
  CHECK(record_deadlocks_json("/nonexistent-dir/deadlocks.json", &a) == -1,
        "an unwritable path is an error");
  sim_free(&a);

  /* 2. A directed deadlock (ring-5, every node two hops clockwise): the
   * links carry each packet's flits once per hop of its minimal route. */
  opts(&o, "ring-5", "trace:tb/scenarios/ring5_clockwise.trace", 0, 1, 0);
  o.warmup = 0;
  CHECK(run(&a, &o, 1) == SIM_DRAINED, "ring5_clockwise: drained");
  CHECK(a.net.spin.deadlocks_resolved >= 1 && a.net.log->total == a.net.spin.deadlocks_resolved,
        "ring5_clockwise: %llu recorded, %llu resolved", (unsigned long long)a.net.log->total,
        (unsigned long long)a.net.spin.deadlocks_resolved);
  check_entries(&a, "ring5_clockwise");
  for (r = 0; r < a.net.n; r++)
    for (p = 1; p < a.net.ports; p++) links += a.net.link_flits[r * a.net.ports + p];
  want = trace_flit_hops("tb/scenarios/ring5_clockwise.trace", &a.topo);
  CHECK(want > 0 && links == want, "link flits %llu, trace flits x hops %llu",
        (unsigned long long)links, (unsigned long long)want);
  sim_free(&a);

  return check_done();
}
