/* test_model.c - properties of the C network model that the contract states
 * (docs/microarchitecture.md): zero-load latency, ordering, deadlock-free
 * baselines drain, the LFSR's period, the scoreboard's checks.
 * Prints one line per failed check and ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flit.h"
#include "lfsr.h"
#include "nic.h"
#include "sim.h"
#include "check.h"

/* Builds the run (a failure to build is a failed check) and runs it to the end. */
static sim_status_t run_to_end(sim_t *s, const sim_opts_t *o)
{
  if (sim_init(s, o, 1) != 0) {
    CHECK(0, "sim_init(%s, %s): %s", o->topo, o->traffic, s->err);
    return SIM_ERROR;
  }
  return sim_run(s);
}

static int manhattan(const topo_t *t, int a, int b)
{
  return abs(t->x[a] - t->x[b]) + abs(t->y[a] - t->y[b]);
}

/* One packet alone in the network: delivered in c + 3 + 2H (+4 for 5 flits). */
static void zero_load(route_algo_t algo, int vcs)
{
  sim_opts_t o;
  sim_t s;
  int src, dst, len;
  sim_defaults(&o);
  o.topo = "mesh4x4";
  o.rate = 0.0;
  o.algo = algo;
  o.vcs = vcs;
  o.cycles = 1;
  o.warmup = 0;
  CHECK(sim_init(&s, &o, 1) == 0, "sim_init: %s", s.err);
  for (src = 0; src < 16; src++)
    for (dst = 0; dst < 16; dst++) {
      if (src == dst) continue;
      for (len = 1; len <= 5; len += 4) {
        uint64_t start = s.now, delivered = s.sink.delivered, lat;
        double sum0 = s.sink.lat_sum;
        int h = manhattan(&s.topo, src, dst), guard = 0;
        /* measured: the sink's own figure is checked against the contract too */
        nic_create(&s.nic, src, dst, len, s.now, 1);
        while (s.sink.delivered == delivered && guard++ < 200) {
          sim_cycle_pre(&s);
          net_step(&s.net);
          CHECK(sim_cycle_post(&s) == 0, "%s", s.err);
        }
        lat = s.now - start;
        CHECK(lat == (uint64_t)(3 + 2 * h + (len - 1)), "%s %d VC: %d->%d len %d: latency %llu, "
              "contract says %d", algo_name(algo), vcs, src, dst, len,
              (unsigned long long)lat, 3 + 2 * h + (len - 1));
        CHECK(s.sink.lat_sum - sum0 == (double)lat && s.sink.lat_max >= lat,
              "%s %d VC: %d->%d len %d: the sink counted latency %.0f, the packet took %llu",
              algo_name(algo), vcs, src, dst, len, s.sink.lat_sum - sum0, (unsigned long long)lat);
        /* let the credits return before the next packet */
        for (guard = 0; guard < 8; guard++) {
          sim_cycle_pre(&s);
          net_step(&s.net);
          sim_cycle_post(&s);
        }
        CHECK(net_buffered(&s.net) == 0, "flits left behind after %d->%d", src, dst);
      }
    }
  sim_free(&s);
}

/* XY and west-first are deadlock free: every packet arrives, even far past
 * saturation, and accepted throughput tracks the offered load below it. */
static void drains(route_algo_t algo, int vcs, double rate, const char *traffic)
{
  sim_opts_t o;
  sim_t s;
  sim_status_t st;
  sim_defaults(&o);
  o.topo = "mesh8x8";
  o.algo = algo;
  o.vcs = vcs;
  o.rate = rate;
  o.traffic = traffic;
  o.cycles = 4000;
  o.warmup = 400;
  st = run_to_end(&s, &o);
  CHECK(st == SIM_DRAINED, "%s %d VC %s at %.2f: status %d, %llu of %llu delivered (%s)",
        algo_name(algo), vcs, traffic, rate, (int)st, (unsigned long long)s.sink.delivered,
        (unsigned long long)s.nic.created, s.err);
  CHECK(s.sink.delivered == s.nic.created, "delivered %llu, created %llu",
        (unsigned long long)s.sink.delivered, (unsigned long long)s.nic.created);
  if (rate <= 0.05) {
    double thr = (double)s.sink.meas_flits / ((double)(o.cycles - o.warmup) * 64);
    CHECK(thr > rate * 0.85 && thr < rate * 1.15, "accepted %.4f at offered %.4f", thr, rate);
  }
  sim_free(&s);
}

/* Same seed: same result; the model does not depend on anything else. */
static void deterministic(void)
{
  sim_opts_t o;
  sim_t a, b;
  sim_defaults(&o);
  o.topo = "mesh4x4";
  o.algo = ALGO_WEST_FIRST;
  o.vcs = 2;
  o.rate = 0.3;
  o.cycles = 3000;
  o.warmup = 300;
  CHECK(sim_init(&a, &o, 1) == 0 && sim_init(&b, &o, 1) == 0, "sim_init");
  sim_run(&a);
  sim_run(&b);
  CHECK(a.now == b.now && a.sink.lat_sum == b.sink.lat_sum && a.net.rt[5].lfsr_q == b.net.rt[5].lfsr_q,
        "two runs with seed %llu differ", (unsigned long long)o.seed);
  CHECK(a.net.rt[5].lfsr_q != lfsr_seed(o.seed, 5), "west-first at 0.3 never drew at router 5");
  sim_free(&a);
  sim_free(&b);
}

/* The scoreboard: every way a delivery can be wrong is reported. */
static void scoreboard(void)
{
  nic_t nic;
  sink_t sk;
  flit_t f;
  CHECK(nic_init(&nic, 4, 1, 1) == 0 && sink_init(&sk, 0, 4, 1) == 0, "init");
  nic_create(&nic, 0, 3, 2, 0, 1);   /* packet 0: 0 -> 3, 2 flits */
  nic_create(&nic, 1, 2, 1, 0, 1);   /* packet 1: 1 -> 2, 1 flit */

  f.data = head_word(3, 0, 2, 0);
  f.ctl = CTL_MAKE(KIND_FLIT, 1, 0, 0);
  CHECK(sink_eject(&sk, &nic, 2, &f, 5, 1) != 0, "head at the wrong node accepted");
  sk.err[0] = 0;
  CHECK(sink_eject(&sk, &nic, 3, &f, 5, 1) == 0, "good head refused: %s", sk.err);
  f.data = payload_word(0, 1) ^ 1u;
  f.ctl = CTL_MAKE(KIND_FLIT, 0, 1, 0);
  CHECK(sink_eject(&sk, &nic, 3, &f, 6, 1) != 0, "corrupted payload accepted");
  f.data = payload_word(0, 1);
  f.ctl = CTL_MAKE(KIND_FLIT, 0, 0, 0);
  CHECK(sink_eject(&sk, &nic, 3, &f, 6, 1) != 0, "missing tail accepted");
  f.ctl = CTL_MAKE(KIND_FLIT, 0, 1, 0);
  CHECK(sink_eject(&sk, &nic, 3, &f, 6, 1) == 0, "good tail refused: %s", sk.err);
  CHECK(sk.delivered == 1 && nic_outstanding(&nic) == 1, "delivered %llu outstanding %llu",
        (unsigned long long)sk.delivered, (unsigned long long)nic_outstanding(&nic));

  f.data = head_word(2, 1, 1, 1);
  f.ctl = CTL_MAKE(KIND_FLIT, 1, 1, 0);
  CHECK(sink_eject(&sk, &nic, 2, &f, 7, 1) == 0, "1-flit packet refused: %s", sk.err);
  CHECK(nic_outstanding(&nic) == 0, "outstanding %llu", (unsigned long long)nic_outstanding(&nic));
  CHECK(sink_eject(&sk, &nic, 2, &f, 8, 1) != 0, "packet delivered twice accepted");
  f.data = head_word(2, 1, 1, 7);
  CHECK(sink_eject(&sk, &nic, 2, &f, 8, 1) != 0, "packet never created accepted");
  f.data = 0;
  f.ctl = CTL_MAKE(KIND_FLIT, 0, 1, 0);
  CHECK(sink_eject(&sk, &nic, 1, &f, 8, 1) != 0, "body without a head accepted");
  sink_free(&sk);
  nic_free(&nic);
}

/* The LFSR of the contract has period 2^32 - 1 and never sticks at 0. */
static void lfsr_period(void)
{
  uint32_t s = 1, x = lfsr_step(1);
  uint64_t n = 1;
  while (x != s) {
    x = lfsr_step(x);
    n++;
    if (x == 0) break;
  }
  CHECK(n == 0xFFFFFFFFull, "period %llu", (unsigned long long)n);
  CHECK(lfsr_seed(0, 0) == 1, "seed 0 of router 0 must become 1");
  CHECK(lfsr_seed(5, 3) == (5u ^ 3u * LFSR_ID_MIX), "seed mixing");
}

/* The router of the SPIN paper (paper) or the default one (live). */
static void set_mode(sim_opts_t *o, int live)
{
  o->mode.admit = o->mode.reroute = o->mode.adopt = live;
  o->sm.pipe = live ? 2 : 0;     /* as --mode: the paper's timing too */
}

/* SPIN in the C model: the ring-5 trace deadlocks without it (every node
 * sends 5-flit packets two hops clockwise, one VC) and drains with it, every
 * recovery within the m-1 spins of the paper's theorem; in both modes (a
 * ring has one minimal port, so rerouting changes nothing). */
static void spin_ring(int live)
{
  sim_opts_t o;
  sim_t s;
  sim_status_t st;
  int spin;
  for (spin = 0; spin <= 1; spin++) {
    sim_defaults(&o);
    set_mode(&o, live);
    o.topo = "ring-5";
    o.algo = ALGO_FAVORS_MIN;
    o.traffic = "trace:tb/scenarios/ring5_clockwise.trace";
    o.cycles = 10;
    o.warmup = 0;
    o.drain_limit = 3000;
    o.spin = spin;
    o.tdd = 32;
    st = run_to_end(&s, &o);
    if (!spin) {
      CHECK(st == SIM_STUCK, "ring-5 without SPIN: status %d, %llu of %llu delivered", (int)st,
            (unsigned long long)s.sink.delivered, (unsigned long long)s.nic.created);
    } else {
      const spin_stats_t *k = &s.net.spin;
      CHECK(st == SIM_DRAINED, "ring-5 with SPIN: status %d (%s), %llu of %llu delivered",
            (int)st, s.err, (unsigned long long)s.sink.delivered, (unsigned long long)s.nic.created);
      CHECK(k->spins >= 1 && k->deadlocks_resolved >= 1, "spins %llu resolved %llu",
            (unsigned long long)k->spins, (unsigned long long)k->deadlocks_resolved);
      CHECK(k->bound_violations == 0 && k->max_spins <= 4, "max spins %llu on a loop of %llu",
            (unsigned long long)k->max_spins, (unsigned long long)k->max_spins_loop);
      CHECK(k->probes_returned == k->moves_sent, "returned %llu moves %llu",
            (unsigned long long)k->probes_returned, (unsigned long long)k->moves_sent);
    }
    sim_free(&s);
  }
}

/* Liveness on the 8x8 mesh: FAvORS-Min with 1 VC deadlocks without SPIN;
 * with SPIN every packet is delivered.  The paper's router at 0.07
 * flits/node/cycle (seed 1: one deadlock, resolved; from about 0.07 on,
 * most seeds collapse in the paper's router, SPIN or not: docs/results.md);
 * the live one at 0.1 (at 0.08 its rerouting and admission often keep the
 * network deadlock-free on their own). */
static void spin_mesh(int live)
{
  sim_opts_t o;
  sim_t s;
  sim_status_t st;
  int spin;
  for (spin = 0; spin <= 1; spin++) {
    sim_defaults(&o);
    set_mode(&o, live);
    o.topo = "mesh8x8";
    o.algo = ALGO_FAVORS_MIN;
    o.rate = live ? 0.1 : 0.07;
    o.cycles = 100000;
    o.warmup = 10000;
    o.drain_limit = 30000;
    o.spin = spin;
    st = run_to_end(&s, &o);
    if (!spin) {
      CHECK(st == SIM_STUCK, "8x8 favors_min 1 VC at %.2f, %s mode, without SPIN drained (status "
            "%d): the liveness test needs a load that deadlocks", o.rate, live ? "live" : "paper",
            (int)st);
    } else {
      CHECK(st == SIM_DRAINED, "8x8 favors_min 1 VC at %.2f, %s mode, with SPIN: status %d, %llu "
            "of %llu", o.rate, live ? "live" : "paper", (int)st,
            (unsigned long long)s.sink.delivered, (unsigned long long)s.nic.created);
      CHECK(s.net.spin.deadlocks_resolved >= 1, "no deadlock resolved");
      CHECK(s.net.spin.bound_violations == 0, "a recovery spun more than m-1 times");
    }
    sim_free(&s);
  }
}

/* SPIN with 3 VCs must never corrupt or misdeliver a packet (it did while a
 * router could spin two packets through one port); not draining is allowed
 * here (the paper's router collapses past saturation, recoveries or not).
 * The paper's router, which deadlocks at these loads (the live one's admission
 * keeps 3-VC networks free of deadlocks here). */
static void spin_multi_vc_intact(void)
{
  static const char *traffic[] = {"tornado", "uniform_random", "bit_reverse"};
  sim_opts_t o;
  sim_t s;
  sim_status_t st;
  int i;
  for (i = 0; i < 3; i++) {
    sim_defaults(&o);
    o.topo = "mesh8x8";
    o.algo = ALGO_FAVORS_MIN;
    set_mode(&o, 0);
    o.vcs = 3;
    o.spin = 1;
    o.traffic = traffic[i];
    o.rate = i == 0 ? 0.2 : 0.28;
    o.cycles = 20000;
    o.warmup = 2000;
    o.drain_limit = 5000;
    st = run_to_end(&s, &o);
    CHECK(st != SIM_ERROR, "favors_min 3 VC SPIN %s %.2f: %s", o.traffic, o.rate, s.err);
    CHECK(s.net.spin.spins > 0, "favors_min 3 VC SPIN %s: no spin happened", o.traffic);
    sim_free(&s);
  }
}

/* Concentration (dragonfly-4-2-2@4: 2 NICs a router, 4-cycle global
 * links): one packet alone from every node to every other is delivered in
 * c + 3 + sum over its hops of (1 + L) + len - 1, along the hierarchical
 * minimal route under df_min, at the right node (the scoreboard checks). */
static void zero_load_dragonfly(route_algo_t algo, int vcs)
{
  sim_opts_t o;
  sim_t s;
  int src, dst;
  sim_defaults(&o);
  o.topo = "dragonfly-4-2-2@4";
  o.rate = 0.0;
  o.algo = algo;
  o.vcs = vcs;
  o.cycles = 1;
  o.warmup = 0;
  if (!CHECK(sim_init(&s, &o, 1) == 0, "sim_init: %s", s.err)) return;
  CHECK(s.topo.nodes == 72 && s.nic.n == 72 && s.net.nodes == 72, "%d nodes", s.topo.nodes);
  for (src = 0; src < s.topo.nodes; src += 5)
    for (dst = 0; dst < s.topo.nodes; dst++) {
      const int sr = src / 2, dr = dst / 2;
      int hops = topo_df_hops(&s.topo, sr, dr), cyc = 0, at = sr, guard = 0;
      uint64_t start = s.now, delivered = s.sink.delivered, lat;
      if (src == dst) continue;
      /* the route's cycles: walk the hierarchical route (df_min's table) */
      while (at != dr && guard++ < 4) {
        const unsigned m = s.net.masks[(size_t)at * 72 + (size_t)dst];
        int o2 = 0;
        while (!(m >> o2 & 1u)) o2++;
        cyc += 1 + s.topo.latency[at * s.topo.radix + o2];
        at = s.topo.peer_router[at * s.topo.radix + o2];
      }
      CHECK(guard == hops, "%s %d->%d: %d hops walked, df_hops %d", algo_name(algo), src, dst,
            guard, hops);
      nic_create(&s.nic, src, dst, 5, s.now, 0);
      guard = 0;
      while (s.sink.delivered == delivered && guard++ < 400) {
        sim_cycle_pre(&s);
        net_step(&s.net);
        CHECK(sim_cycle_post(&s) == 0, "%s", s.err);
      }
      lat = s.now - start;
      CHECK(lat == (uint64_t)(3 + cyc + 4), "%s %d->%d: latency %llu, contract says %d",
            algo_name(algo), src, dst, (unsigned long long)lat, 3 + cyc + 4);
      for (guard = 0; guard < 12; guard++) {   /* the credits come back */
        sim_cycle_pre(&s);
        net_step(&s.net);
        sim_cycle_post(&s);
      }
    }
  sim_free(&s);
}

/* The dragonfly's routings drain at every node (concentration 2): df_min
 * with 2 VCs and UGAL with 3 (no SPIN: their VCs by hop phase keep them
 * deadlock-free), FAvORS-Min and -NMin with 1 VC and SPIN; UGAL takes
 * detours on the adversarial pattern, df_min none; bad combinations are
 * refused. */
static void dragonfly_routings(void)
{
  static const struct { route_algo_t algo; int vcs, spin; const char *traffic; double rate; }
      runs[] = {{ALGO_DF_MIN, 2, 0, "uniform_random", 0.6}, {ALGO_DF_MIN, 2, 0, "group_shift", 0.6},
                {ALGO_UGAL, 3, 0, "uniform_random", 0.6}, {ALGO_UGAL, 3, 0, "group_shift", 0.6},
                {ALGO_FAVORS_MIN, 1, 1, "group_shift", 0.3},
                {ALGO_FAVORS_NMIN, 1, 1, "uniform_random", 0.3}};
  size_t k;
  for (k = 0; k < sizeof runs / sizeof runs[0]; k++) {
    sim_opts_t o;
    sim_t s;
    sim_status_t st;
    sim_defaults(&o);
    o.topo = "dragonfly-4-2-2@4";
    o.algo = runs[k].algo;
    o.vcs = runs[k].vcs;
    o.spin = runs[k].spin;
    o.traffic = runs[k].traffic;
    o.rate = runs[k].rate;
    o.cycles = 3000;
    o.warmup = 300;
    st = run_to_end(&s, &o);
    CHECK(st == SIM_DRAINED && s.sink.delivered == s.nic.created && s.nic.created > 1000,
          "%s %d VC %s %.2f: status %d, %llu of %llu delivered: %s", algo_name(o.algo), o.vcs,
          o.traffic, o.rate, (int)st, (unsigned long long)s.sink.delivered,
          (unsigned long long)s.nic.created, s.err);
    if (o.algo == ALGO_UGAL && !strcmp(o.traffic, "group_shift"))
      CHECK(s.net.spin.detours > s.nic.created / 4, "ugal group_shift: %llu detours of %llu",
            (unsigned long long)s.net.spin.detours, (unsigned long long)s.nic.created);
    if (o.algo == ALGO_DF_MIN) CHECK0(s.net.spin.detours == 0);
    sim_free(&s);
  }
  {
    static const struct { const char *topo; route_algo_t algo; int vcs, spin; const char *why; }
        bad[] = {{"dragonfly-4-2-2", ALGO_UGAL, 2, 0, "VCS >= 3"},
                 {"dragonfly-4-2-2", ALGO_DF_MIN, 1, 0, "VCS >= 2"},
                 {"dragonfly-4-2-2", ALGO_UGAL, 3, 1, "SPIN=0"},
                 {"mesh4x4", ALGO_DF_MIN, 2, 0, "dragonflies only"}};
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      sim_opts_t o;
      sim_t s;
      sim_defaults(&o);
      o.topo = bad[k].topo;
      o.algo = bad[k].algo;
      o.vcs = bad[k].vcs;
      o.spin = bad[k].spin;
      CHECK(sim_init(&s, &o, 1) != 0 && strstr(s.err, bad[k].why), "%s %s %d VC: '%s'",
            bad[k].topo, algo_name(bad[k].algo), bad[k].vcs, s.err);
      sim_free(&s);
    }
  }
}

/* A run is not over while a special message is on a link, also inside the
 * pipeline stages of a link longer than one cycle (net_pipes_busy with
 * sm_only; both models end in the cycle sim_status says, so the
 * co-simulation cannot see an end that comes too soon). */
static void end_waits_for_messages_in_links(void)
{
  sim_opts_t o;
  sim_t s;
  net_pipe_t *pp;
  int i;
  sim_defaults(&o);
  o.topo = "ring-4@5";
  o.algo = ALGO_FAVORS_MIN;
  o.rate = 0;
  o.cycles = 2;
  o.warmup = 0;
  o.spin = 1;
  if (!CHECK(sim_init(&s, &o, 1) == 0, "sim_init: %s", s.err)) return;
  for (i = 0; i < 4 && sim_status(&s) == SIM_RUNNING; i++) {
    sim_cycle_pre(&s);
    net_step(&s.net);
    sim_cycle_post(&s);
  }
  CHECK(sim_status(&s) == SIM_DRAINED, "an idle ring-4@5 does not end");
  CHECK(s.net.n_pipe > 0 && s.net.pipe[0].stages == 4, "ring-4@5: %d pipelines", s.net.n_pipe);
  if (s.net.n_pipe > 0) {
    pp = &s.net.pipe[0];
    for (i = 0; i < pp->stages; i++) {
      memset(&pp->flit[i], 0, sizeof pp->flit[i]);
      pp->flit[i].ctl = CTL_MAKE(KIND_PROBE, 0, 0, 0);
      pp->held = 1;
      CHECK(net_pipes_busy(&s.net, 1) && sim_status(&s) == SIM_RUNNING,
            "a probe in stage %d of a link's pipeline: the run ends", i);
      pp->flit[i].ctl = CTL_MAKE(KIND_IDLE, 0, 0, 0);
      pp->held = 0;
    }
  }
  CHECK(sim_status(&s) == SIM_DRAINED, "the ring does not end once the probe is gone");
  sim_free(&s);
}

int main(void)
{
  zero_load_dragonfly(ALGO_DF_MIN, 2);
  dragonfly_routings();
  zero_load(ALGO_XY, 1);
  zero_load(ALGO_WEST_FIRST, 2);
  zero_load(ALGO_XY, 3);
  drains(ALGO_XY, 1, 0.02, "uniform_random");
  drains(ALGO_XY, 1, 0.9, "uniform_random");
  drains(ALGO_WEST_FIRST, 1, 0.9, "transpose");
  drains(ALGO_WEST_FIRST, 3, 0.9, "bit_complement");
  drains(ALGO_XY, 2, 0.05, "tornado");
  deterministic();
  scoreboard();
  lfsr_period();
  spin_ring(0);
  spin_ring(1);
  spin_mesh(0);
  spin_mesh(1);
  spin_multi_vc_intact();
  end_waits_for_messages_in_links();
  return check_done();
}
