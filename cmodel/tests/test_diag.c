/* test_diag.c - the summary's figures that say why (cmodel/diag.c): the
 * dependency loops standing when a run ends, and the packets that crossed a
 * failed link or were routed around it.  Each figure is derived from a
 * directed scenario whose state at the end is known:
 *
 * - ring-5, ring5_clockwise.trace, SPIN off: one loop of the 5 ring VCs,
 *   each waiting for the next (5 hops, 5 h cycles), nothing else waiting;
 * - lasso.topo: the loop of 5 with a tail of 2 VCs that wait on it but are
 *   not in it (5 hops, 7 VCs waiting);
 * - theta.topo with 2 VCs (theta_fig4.trace): the two 5-hop loops that
 *   share three links, every VC of their 8 ports waiting on the others:
 *   one strongly connected set of 16 VCs;
 * - mesh16x16_loop100: the 100-hop loop, its VCs in the order of the path;
 * - ring-5@13 with SPIN and CycW 7 (ring5_cycmax): a loop of 65 cycles,
 *   beyond CycMax 62: standing, beyond reach;
 * - a run that drains: nothing standing;
 * - waiting behind a front (diag_behind): line4_long (3 - 0 - 1 -(1,000
 *   cycles)- 2), a 500-cycle drain: no loop; router 0's packet waits at
 *   router 1 for the long link's VC, router 3's at router 0 behind it: one
 *   front, the long link's far end, 2 VCs behind it.  The lasso and the
 *   ring: none (every waiting VC waits on the loop); a drained run: none;
 * - VCs waiting with two NICs a router (dragonfly-4-2-2@4 jammed without
 *   SPIN): the count is that of the definition over network inputs only,
 *   from port C = 2 on; heads at NIC port 1 routed to a busy output are
 *   not counted;
 * - ring-5 with link 0-1 failing in cycle 40, after the loop closed: router
 *   0 holds two heads routed over it (router 4's packet for router 1, at its
 *   input from router 4, and its own second packet for router 2, at its
 *   NIC port).  With rerouting (4.2) both leave by the other way round:
 *   2 routed around, 0 crossed.  Without rerouting and with SPIN, the spin
 *   moves router 4's packet across the failed link and router 0's packet
 *   follows it on its old route: 2 crossed, 0 routed around.  Without either,
 *   nothing moves: 0 and 0, and the loop stands.
 *
 * Usage: test_diag (run from the repository root, as make test-c does).
 * Prints one line per failed check and ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "sim.h"
#include "check.h"

typedef struct {
  const char *topo, *trace, *faults;
  int vcs, spin, reroute, pipe;
  unsigned cycw;                 /* 0: the network's own widths */
  uint64_t drain;
} run_opts_t;

/* Runs R to its end into s (the caller frees it); the status. */
static sim_status_t run(sim_t *s, const run_opts_t *R)
{
  sim_opts_t o;
  sim_status_t st;
  sim_defaults(&o);
  o.topo = R->topo;
  o.traffic = R->trace;
  o.algo = ALGO_FAVORS_MIN;
  o.vcs = R->vcs;
  o.cycles = 1;
  o.warmup = 0;
  o.drain_limit = R->drain;
  o.spin = R->spin;
  o.tdd = 32;
  o.mode.admit = 0;
  o.mode.reroute = R->reroute;
  o.mode.adopt = 0;
  o.sm.pipe = R->pipe;
  o.faults = R->faults;
  if (sim_init(s, &o, 1) != 0) {
    CHECK(0, "sim_init(%s, %s): %s", R->topo, R->trace, s->err);
    return SIM_ERROR;
  }
  if (R->cycw) {
    const sm_fmt_t f = s->net.fmt;
    char err[200];
    if (sm_fmt_make(&s->net.fmt, f.idw, R->cycw, s->topo.radix, R->vcs, SM_FLITW, R->pipe, err,
                    sizeof err) != 0) {
      CHECK(0, "CycW %u: %s", R->cycw, err);
      return SIM_ERROR;
    }
  }
  st = sim_run(s);
  return st;
}

/* Every VC of loop l waits for the next one's port (1 VC: a cycle). */
static int is_cycle(const sim_t *s, const diag_loop_t *l)
{
  const topo_t *t = &s->topo;
  unsigned h;
  for (h = 0; h < l->hops; h++) {
    const diag_vc_t *a = &l->vc[h], *b = &l->vc[(h + 1) % l->hops];
    const int k = a->r * t->radix + a->out;
    if (t->peer_router[k] != b->r || t->peer_port[k] != b->p) return 0;
  }
  return 1;
}

static void standing_ring5(void)
{
  const run_opts_t R = {"ring-5", "trace:tb/scenarios/ring5_clockwise.trace", NULL, 1, 0, 0, 0,
                        0, 500};
  sim_t s;
  diag_loops_t d;
  int h;
  if (run(&s, &R) != SIM_STUCK) {
    CHECK(0, "ring-5 without SPIN should stay stuck");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    CHECK(d.loops == 1 && d.kept == 1 && d.waiting == 5 && d.beyond_reach == 0,
          "ring-5: %llu loops (%zu kept), %llu VCs waiting, %llu beyond reach; expected 1, 5, 0",
          (unsigned long long)d.loops, d.kept, (unsigned long long)d.waiting,
          (unsigned long long)d.beyond_reach);
    if (d.kept == 1) {
      const diag_loop_t *l = &d.loop[0];
      CHECK(l->hops == 5 && l->cycles == 5 && l->frozen == 0 && d.longest_hops == 5 &&
            d.longest_cycles == 5, "ring-5: loop of %u hops, %llu cycles, %u frozen",
            l->hops, (unsigned long long)l->cycles, l->frozen);
      for (h = 0; h < 5 && l->hops == 5; h++)
        CHECK(l->vc[h].r == h && l->vc[h].p == 2 && l->vc[h].v == 0 && l->vc[h].out == 1,
              "ring-5: VC %d of the loop is router %d port %d VC %d -> %d, expected router %d "
              "port 2 VC 0 -> 1", h, l->vc[h].r, l->vc[h].p, l->vc[h].v, l->vc[h].out, h);
    }
    diag_loops_free(&d);
  }
  sim_free(&s);
}

static void standing_lasso(void)
{
  const run_opts_t R = {"file:tb/scenarios/lasso.topo", "trace:tb/scenarios/lasso_probe_mark.trace",
                        NULL, 1, 0, 0, 0, 0, 500};
  sim_t s;
  diag_loops_t d;
  if (run(&s, &R) != SIM_STUCK) {
    CHECK(0, "lasso without SPIN should stay stuck");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    CHECK(d.loops == 1 && d.kept == 1 && d.waiting == 7 && d.loop[0].hops == 5 &&
          d.loop[0].vc[0].r == 1 && is_cycle(&s, &d.loop[0]),
          "lasso: %llu loops, %llu VCs waiting, first loop of %u hops from router %d; expected "
          "1 loop of 5 hops (routers 1 to 5), 7 VCs waiting (the tail's 2 too)",
          (unsigned long long)d.loops, (unsigned long long)d.waiting,
          d.kept ? d.loop[0].hops : 0, d.kept ? d.loop[0].vc[0].r : -1);
    diag_loops_free(&d);
  }
  sim_free(&s);
}

static void standing_theta_2vc(void)
{
  const run_opts_t R = {"file:tb/scenarios/theta.topo", "trace:tb/scenarios/theta_fig4.trace",
                        NULL, 2, 0, 0, 0, 0, 500};
  sim_t s;
  diag_loops_t d;
  unsigned h, ports = 0;
  if (run(&s, &R) != SIM_STUCK) {
    CHECK(0, "theta_fig4 with 2 VCs and without SPIN should stay stuck");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    CHECK(d.loops == 1 && d.kept == 1 && d.waiting == 16 && d.loop[0].hops == 16 &&
          d.loop[0].cycles == 16,
          "theta, 2 VCs: %llu loops, %llu VCs waiting, %u VCs in the first, %llu cycles; "
          "expected one set of 16 VCs (both VCs of the 8 loop ports), 16 cycles",
          (unsigned long long)d.loops, (unsigned long long)d.waiting,
          d.kept ? d.loop[0].hops : 0, d.kept ? (unsigned long long)d.loop[0].cycles : 0ull);
    for (h = 0; d.kept && h < d.loop[0].hops; h++) {
      const diag_vc_t *a = &d.loop[0].vc[h];
      if (a->v == 0) ports |= 1u << (a->r * 4 + a->p);
      CHECK(h == 0 || a->r > d.loop[0].vc[h - 1].r ||
            (a->r == d.loop[0].vc[h - 1].r &&
             a->p * 4 + a->v > d.loop[0].vc[h - 1].p * 4 + d.loop[0].vc[h - 1].v),
            "theta: the VCs of a set of several VCs come by router, port and VC");
    }
    CHECK(ports == ((1u << 2) | (1u << 3) | (1u << 6) | (1u << 10) | (1u << 14) | (1u << 18) |
                    (1u << 22) | (1u << 26)),
          "theta: the set should hold VC 0 of router 0 ports 2 and 3 and of routers 1 to 6 "
          "port 2 (mask %#x)", ports);
    diag_loops_free(&d);
  }
  sim_free(&s);
}

static void standing_loop100(void)
{
  const run_opts_t R = {"file:tb/scenarios/mesh16x16_loop100.topo",
                        "trace:tb/scenarios/mesh16x16_loop100.trace", NULL, 1, 0, 0, 2, 0, 300};
  sim_t s;
  diag_loops_t d;
  if (run(&s, &R) != SIM_STUCK) {
    CHECK(0, "mesh16x16_loop100 without SPIN should stay stuck");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    int ok = d.loops == 1 && d.kept == 1 && d.waiting == 100;
    CHECK(ok && d.loop[0].hops == 100 && d.loop[0].cycles == 300 && d.longest_hops == 100 &&
          d.longest_cycles == 300 && is_cycle(&s, &d.loop[0]),
          "loop100: %llu loops, %llu waiting, %u hops, %llu cycles; expected one cycle of "
          "100 hops, 300 cycles (SmPipe 2 on 1-cycle links)", (unsigned long long)d.loops,
          (unsigned long long)d.waiting, d.kept ? d.loop[0].hops : 0,
          d.kept ? (unsigned long long)d.loop[0].cycles : 0ull);
    /* from router 0's VC (the lowest), east along row 0 to router 9, north
     * there, and back down x = 0 to router 16 */
    if (ok)
      CHECK(d.loop[0].vc[0].r == 0 && d.loop[0].vc[0].p == 3 && d.loop[0].vc[0].out == 1 &&
            d.loop[0].vc[9].r == 9 && d.loop[0].vc[9].out == 3 && d.loop[0].vc[99].r == 16 &&
            d.loop[0].vc[99].out == 4,
            "loop100: the loop should go from router 0 east to 9, then north, and end down "
            "x = 0 at router 16");
    diag_loops_free(&d);
  }
  sim_free(&s);
}

static void standing_beyond_reach(void)
{
  const run_opts_t R = {"ring-5@13", "trace:tb/scenarios/ring5_clockwise.trace", NULL, 1, 1, 0,
                        0, 7, 1000};
  sim_t s;
  diag_loops_t d;
  if (run(&s, &R) != SIM_STUCK) {
    CHECK(0, "ring-5@13 with CycW 7 should stay stuck (its loop is longer than CycMax)");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    CHECK(s.net.fmt.cyc_max == 62 && d.loops == 1 && d.beyond_reach == 1 &&
          d.longest_cycles == 65 && d.longest_hops == 5,
          "ring-5@13, CycW 7: %llu loops, %llu beyond reach, longest %llu cycles (CycMax %u); "
          "expected 1 loop of 65 cycles beyond CycMax 62", (unsigned long long)d.loops,
          (unsigned long long)d.beyond_reach, (unsigned long long)d.longest_cycles,
          s.net.fmt.cyc_max);
    diag_loops_free(&d);
  }
  sim_free(&s);
}

static void standing_none(void)
{
  const run_opts_t R = {"ring-5", "trace:tb/scenarios/ring5_clockwise.trace", NULL, 1, 1, 0, 0,
                        0, 3000};
  sim_t s;
  diag_loops_t d;
  if (run(&s, &R) != SIM_DRAINED) {
    CHECK(0, "ring-5 with SPIN should drain");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    CHECK(d.loops == 0 && d.waiting == 0 && d.kept == 0,
          "a drained run: %llu loops, %llu VCs waiting", (unsigned long long)d.loops,
          (unsigned long long)d.waiting);
    diag_loops_free(&d);
  }
  sim_free(&s);
}

/* diag_behind's figures in s, against the expected front (r = -1: none). */
static void check_behind(const sim_t *s, const char *what, uint64_t fronts, uint64_t behind,
                         int r, int o, int r2, int p2, unsigned lat)
{
  diag_behind_t b;
  if (!CHECK(diag_behind(&b, &s->net) == 0, "%s: out of memory", what)) return;
  CHECK(b.fronts == fronts && b.behind == behind && b.most == (r < 0 ? 0 : behind) &&
        b.r == r && b.o == o && b.r2 == r2 && b.p2 == p2 && b.latency == (r < 0 ? 0 : lat),
        "%s: %llu fronts, %llu VCs behind them, %llu behind %d:%d -> %d:%d (%u cycles); "
        "expected %llu, %llu, %d:%d -> %d:%d (%u)", what, (unsigned long long)b.fronts,
        (unsigned long long)b.behind, (unsigned long long)b.most, b.r, b.o, b.r2, b.p2,
        b.latency, (unsigned long long)fronts, (unsigned long long)behind, r, o, r2, p2, lat);
}

static void behind_long_link(void)
{
  const run_opts_t R = {"file:cmodel/tests/data/line4_long.topo",
                        "trace:cmodel/tests/data/line4_long.trace", NULL, 1, 0, 0, 0, 0, 500};
  const run_opts_t L = {"file:tb/scenarios/lasso.topo", "trace:tb/scenarios/lasso_probe_mark.trace",
                        NULL, 1, 0, 0, 0, 0, 500};
  const run_opts_t D = {"ring-5", "trace:tb/scenarios/ring5_clockwise.trace", NULL, 1, 1, 0, 0,
                        0, 3000};
  sim_t s;
  diag_loops_t d;
  if (run(&s, &R) != SIM_STUCK) {
    CHECK(0, "line4_long should not drain in 500 cycles");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    CHECK(d.loops == 0 && d.waiting == 2, "line4_long: %llu loops, %llu VCs waiting; expected "
          "0, 2", (unsigned long long)d.loops, (unsigned long long)d.waiting);
    diag_loops_free(&d);
    check_behind(&s, "line4_long", 1, 2, 1, 2, 2, 1, 1000);
  }
  sim_free(&s);
  if (run(&s, &L) == SIM_STUCK) check_behind(&s, "lasso", 0, 0, -1, -1, -1, -1, 0);
  else CHECK(0, "lasso without SPIN should stay stuck");
  sim_free(&s);
  if (run(&s, &D) == SIM_DRAINED) check_behind(&s, "a drained run", 0, 0, -1, -1, -1, -1, 0);
  else CHECK(0, "ring-5 with SPIN should drain");
  sim_free(&s);
}

/* The VCs that wait by diag.h's definition, counted here from the routers'
 * registers: network inputs (p >= C) only; *at_nic gets the heads at NIC
 * ports that would wait if those counted. */
static uint64_t count_waiting(const sim_t *s, uint64_t *at_nic)
{
  const network_t *net = &s->net;
  const unsigned all = (1u << net->vcs) - 1u;
  uint64_t n = 0;
  int r, p, v;
  *at_nic = 0;
  for (r = 0; r < net->n; r++)
    for (p = 0; p < net->ports; p++)
      for (v = 0; v < net->vcs; v++) {
        const router_t *rt = &net->rt[r];
        const int o = rt->out_port_q[p][v];
        if (!rt->cnt_q[p][v] || !rt->route_valid_q[p][v] || rt->sp.spinning_q[p][v] ||
            !CTL_HEAD(rt->buf_ctl[(p * net->vcs + v) * BUF_DEPTH + rt->rd_q[p][v]]) ||
            o < net->nics || o >= net->ports || (rt->ovc_busy_q[o] & all) != all ||
            net->topo->peer_router[r * net->topo->radix + o] < 0)
          continue;
        if (p >= net->nics) n++;
        else *at_nic += p > 0;
      }
  return n;
}

static void waiting_two_nics(void)
{
  sim_opts_t o;
  sim_t s;
  diag_loops_t d;
  uint64_t want, at_nic;
  sim_defaults(&o);
  o.topo = "dragonfly-4-2-2@4";
  o.algo = ALGO_FAVORS_MIN;
  o.rate = 0.5;
  o.cycles = 2000;
  o.drain_limit = 200;
  o.seed = 1;
  if (sim_init(&s, &o, 1) != 0) {
    CHECK(0, "sim_init(dragonfly-4-2-2@4): %s", s.err);
    return;
  }
  if (sim_run(&s) != SIM_STUCK) {
    CHECK(0, "dragonfly-4-2-2@4 at 0.5 without SPIN should stay stuck");
  } else if (CHECK(diag_loops(&d, &s.net) == 0, "out of memory")) {
    want = count_waiting(&s, &at_nic);
    CHECK(d.waiting == want && want > 0 && at_nic > 0,
          "two NICs a router: %llu VCs waiting, %llu by the definition (network inputs only; "
          "%llu heads at NIC port 1 not counted); expected equal, both and the NIC heads above 0",
          (unsigned long long)d.waiting, (unsigned long long)want, (unsigned long long)at_nic);
    diag_loops_free(&d);
  }
  sim_free(&s);
}

static void failed_link(int spin, int reroute, sim_status_t want, unsigned crossed,
                        unsigned rerouted)
{
  const run_opts_t R = {"ring-5", "trace:tb/scenarios/ring5_clockwise.trace", "40@0:1", 1, spin,
                        reroute, 0, 0, 3000};
  sim_t s;
  sim_status_t st = run(&s, &R);
  CHECK(st == want && faults_applied(&s.faults) == 1 && s.diag.crossed == crossed &&
        s.diag.rerouted == rerouted,
        "ring-5, link 0-1 failing in cycle 40, SPIN %d, rerouting %d: status %d (expected %d), "
        "%llu crossed, %llu routed around (expected %u, %u)", spin, reroute, (int)st, (int)want,
        (unsigned long long)s.diag.crossed, (unsigned long long)s.diag.rerouted, crossed,
        rerouted);
  sim_free(&s);
}

int main(void)
{
  standing_ring5();
  standing_lasso();
  standing_theta_2vc();
  standing_loop100();
  standing_beyond_reach();
  standing_none();
  behind_long_link();
  waiting_two_nics();
  failed_link(0, 1, SIM_DRAINED, 0, 2);
  failed_link(1, 1, SIM_DRAINED, 0, 2);
  failed_link(1, 0, SIM_DRAINED, 2, 0);
  failed_link(0, 0, SIM_STUCK, 0, 0);
  return check_done();
}
