/* test_spin_scenarios.c - directed SPIN scenarios (docs/scenarios.md).
 *
 * Each scenario is a topology and a trace under tb/scenarios/ that makes a
 * deadlock (or, for the last one, only congestion) form deterministically.
 * The C model is run cycle by cycle; every special message on every link,
 * every change of a router's SPIN state and every frozen or spinning VC is
 * recorded, and the test checks what the contract
 * (docs/microarchitecture.md, section 12) and the paper (Sec. IV, Fig. 4 and
 * Fig. 5) say must happen.
 *
 * Times: "sent in cycle t" is the cycle a router computes a word; it is on
 * the link (net_flit_out) during cycle t+1, when the next router handles it.
 * So an SM forwarded at every hop is sent by the k-th router of its path in
 * cycle t0 + k, and one that goes round a loop of n hops is back at its
 * sender, on an input link, in cycle t0 + n.
 *
 * Prints one line per scenario and a final count; exits non-zero on any
 * failure.  A scenario marked with a known C-model bug prints "known" while
 * its checks fail, and fails once they pass (its mark is then stale).
 * Other arguments, for building scenarios:
 *   -v NAME                      also print scenario NAME's event log
 *   -x TOPO trace:PATH VCS TDD   print the event log of any run (SPIN on)
 *   -d TOPO trace:PATH VCS N     print every non-empty VC after N cycles,
 *                                SPIN off
 * The scenarios and their expected outcomes are listed in docs/scenarios.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datapath.h"
#include "flit.h"
#include "sim.h"
#include "check.h"   /* a scenario is a group of checks; a known bug's are muted */

static const char *verbose;   /* scenario whose log is printed, or NULL */

/* The front flit of input VC (p, v) of a router with `vcs` VCs, read with
 * the C model's FIFO (read only: the view names the registers). */
static flit_t front_flit(const router_t *rt, int vcs, int p, int v)
{
  const spin_fifo_t f = spin_input_port_fifo((router_t *)rt, p, v, vcs);
  return spin_fifo_front(&f);
}

/* ---- the recorder ---- */

#define MAX_EV 8192

/* One special message on a link, with what the receiving router showed at
 * its input port in the cycle it handled the message. */
typedef struct {
  uint64_t t;                 /* cycle sent */
  int r, p;                   /* sending router and output port */
  int rr, rp;                 /* receiving router and input port */
  unsigned kind, sender, n, delay;
  sm_path_t path;
  int vcs;
  uint8_t cnt[MAX_VCS], rv[MAX_VCS], op[MAX_VCS], whole[MAX_VCS];
} sm_ev_t;

typedef struct {
  uint64_t t;                 /* cycle whose edge changed it */
  int r;
  spin_state_t from, to;
} st_ev_t;

enum { VC_FREEZE = 1, VC_SPIN, VC_THAW };
typedef struct {
  uint64_t t;
  int r, p, v, what;
} vc_ev_t;

typedef struct {
  sim_t s;
  sim_status_t status;
  sm_ev_t sm[MAX_EV];
  int nsm;
  st_ev_t st[MAX_EV];
  int nst;
  vc_ev_t vc[MAX_EV];
  int nvc;
  int overflow;
  uint64_t drained_at;
} run_t;

static const char *kind_name(unsigned k)
{
  static const char *n[] = {"idle", "flit", "probe", "move", "probe_move", "kill_move"};
  return k < 6 ? n[k] : "?";
}
static const char *state_name(spin_state_t s)
{
  static const char *n[] = {"OFF", "DD", "MOVE", "PROBE_MOVE", "FORWARD_PROGRESS", "KILL_MOVE",
                            "FROZEN"};
  return n[s];
}

static void print_path(const sm_ev_t *e)
{
  unsigned i;
  for (i = 0; i < e->n; i++) printf("%u", path_get(e->path, i));
}

static void log_sm(const sm_ev_t *e)
{
  int v;
  printf("  %5llu r%d.%d -> r%d.%d %-10s sender %u n %u delay %u path ", (unsigned long long)e->t,
         e->r, e->p, e->rr, e->rp, kind_name(e->kind), e->sender, e->n, e->delay);
  print_path(e);
  printf("  | rx vcs:");
  for (v = 0; v < e->vcs; v++)
    printf(" [cnt %u rv %u op %u whole %u]", e->cnt[v], e->rv[v], e->op[v], e->whole[v]);
  printf("\n");
}

/* Builds and runs one scenario to the end, recording.  max_cycles bounds the
 * run (drain_limit does the same for the status). */
static int run_scenario(run_t *R, const char *topo, const char *trace, int vcs, int spin,
                        unsigned tdd, uint64_t drain_limit, int log)
{
  sim_opts_t o;
  sim_t *s = &R->s;
  network_t *net;
  spin_router_t *prev;
  int r, p, v;
  memset(R, 0, sizeof *R);
  sim_defaults(&o);
  o.topo = topo;
  o.traffic = trace;
  o.algo = ALGO_FAVORS_MIN;
  o.vcs = vcs;
  o.cycles = 1;
  o.warmup = 0;
  o.drain_limit = drain_limit;
  o.spin = spin;
  o.tdd = tdd;
  /* the paper's router: these are the paper's cases, cycle by cycle */
  o.mode.admit = o.mode.reroute = o.mode.adopt = 0;
  if (sim_init(s, &o, 1) != 0) {
    CHECK(0, "sim_init(%s, %s): %s", topo, trace, s->err);
    sim_free(s);
    return -1;
  }
  net = &s->net;
  prev = calloc((size_t)net->n, sizeof *prev);
  for (r = 0; r < net->n; r++) prev[r] = net->rt[r].sp;
  do {
    uint64_t t = net->cycle;
    sim_cycle_pre(s);
    net_step(net);
    if (sim_cycle_post(s) != 0) {
      R->status = SIM_ERROR;
      break;
    }
    /* the words registered in cycle t; the receiving routers' input VCs as
     * they are in cycle t+1, when they handle them */
    for (r = 0; r < net->n; r++)
      for (p = 1; p < net->ports; p++) {
        const flit_t *f = net_flit_out(net, r, p);
        unsigned k = CTL_KIND(f->ctl);
        sm_ev_t *e;
        if (k < KIND_PROBE) continue;
        if (R->nsm == MAX_EV) {
          R->overflow = 1;
          continue;
        }
        e = &R->sm[R->nsm++];
        e->t = t;
        e->r = r;
        e->p = p;
        e->rr = s->topo.peer_router[r * s->topo.radix + p];
        e->rp = s->topo.peer_port[r * s->topo.radix + p];
        e->kind = k;
        e->sender = sm_sender(f);
        /* n: a probe's entries; a move's entries still to read (12.1) */
        e->n = k == KIND_PROBE ? sm_n(f) : sm_n(f) - sm_idx(f);
        e->delay = sm_delay(f);
        e->path = sm_path(f);
        e->vcs = vcs;
        if (e->rr < 0) {
          printf("  SM on unconnected port: t %llu r%d.%d kind %u sender %u n %u idx %u\n",
                 (unsigned long long)t, r, p, k, sm_sender(f), sm_n(f), sm_idx(f));
          R->overflow = 1;
          R->nsm--;
          continue;
        }
        for (v = 0; v < vcs; v++) {
          const router_t *rt = &net->rt[e->rr];
          const flit_t hf = front_flit(rt, vcs, e->rp, v), *h = &hf;
          e->cnt[v] = rt->cnt_q[e->rp][v];
          e->rv[v] = rt->route_valid_q[e->rp][v];
          e->op[v] = rt->out_port_q[e->rp][v];
          e->whole[v] = e->cnt[v] && CTL_HEAD(h->ctl) && e->cnt[v] == HEAD_LEN(h->data);
        }
        if (log) log_sm(e);
      }
    for (r = 0; r < net->n; r++) {
      const spin_router_t *sp = &net->rt[r].sp;
      if (sp->state_q != prev[r].state_q && R->nst < MAX_EV) {
        st_ev_t *e = &R->st[R->nst++];
        e->t = t;
        e->r = r;
        e->from = prev[r].state_q;
        e->to = sp->state_q;
        if (log && !(e->from <= FSM_DD && e->to <= FSM_DD))
          printf("  %5llu r%d %s -> %s\n", (unsigned long long)t, r, state_name(e->from),
                 state_name(e->to));
      }
      for (p = 1; p < net->ports; p++)
        for (v = 0; v < vcs; v++) {
          /* An armed frozen VC leaves FROZEN only by spinning (a 1-flit
           * packet starts and ends its spin in one cycle, so spinning_q
           * may never be seen set); any other frozen VC that lets go
           * thawed without spinning. */
          const spin_router_t *q = &prev[r];
          int what = 0;
          if (!q->frozen_q[p][v] && sp->frozen_q[p][v]) what = VC_FREEZE;
          else if (q->frozen_q[p][v] && !q->spinning_q[p][v] && q->armed_q[p][v] &&
                   (sp->spinning_q[p][v] || !sp->frozen_q[p][v]))
            what = VC_SPIN;
          else if (q->frozen_q[p][v] && !q->spinning_q[p][v] && !sp->frozen_q[p][v])
            what = VC_THAW;
          if (what && R->nvc < MAX_EV) {
            vc_ev_t *e = &R->vc[R->nvc++];
            e->t = t;
            e->r = r;
            e->p = p;
            e->v = v;
            e->what = what;
            if (log)
              printf("  %5llu r%d.%d vc %d %s\n", (unsigned long long)t, r, p, v,
                     what == VC_SPIN ? "spins" : what == VC_FREEZE ? "frozen" : "thawed");
          }
        }
      prev[r] = *sp;
    }
    R->status = sim_status(s);
    if (R->status == SIM_DRAINED && !R->drained_at) R->drained_at = s->now;
    /* after the drain, recoveries still under way are run to their end */
    if (R->status == SIM_DRAINED && s->now < R->drained_at + 200)
      for (r = 0; r < net->n; r++)
        if (net->rt[r].sp.state_q > FSM_DD || net->rt[r].sp.is_deadlock_q) R->status = SIM_RUNNING;
  } while (R->status == SIM_RUNNING);
  free(prev);
  if (log) {
    const spin_stats_t *k = &net->spin;
    printf("  end %llu status %d delivered %llu of %llu; probes %llu forked %llu dropped %llu "
           "returned %llu moves %llu pm %llu km %llu moves dropped %llu spins %llu resolved "
           "%llu false %llu max spins %llu bound %llu\n",
           (unsigned long long)s->now, (int)R->status, (unsigned long long)s->sink.delivered,
           (unsigned long long)s->nic.created, (unsigned long long)k->probes_sent,
           (unsigned long long)k->probes_forked, (unsigned long long)k->probes_dropped,
           (unsigned long long)k->probes_returned, (unsigned long long)k->moves_sent,
           (unsigned long long)k->probe_moves_sent, (unsigned long long)k->kill_moves_sent,
           (unsigned long long)k->moves_dropped, (unsigned long long)k->spins,
           (unsigned long long)k->deadlocks_resolved, (unsigned long long)k->false_positives,
           (unsigned long long)k->max_spins, (unsigned long long)k->bound_violations);
  }
  CHECK(!R->overflow, "more than %d events recorded", MAX_EV);
  return 0;
}


/* ---- queries on the record ---- */

/* The first SM of `kind` from `sender` sent by router r (any r when r < 0)
 * at or after cycle t, with n path entries (any n when n < 0); NULL if none. */
static const sm_ev_t *find_sm(const run_t *R, unsigned kind, int sender, int r, int n, uint64_t t)
{
  int i;
  for (i = 0; i < R->nsm; i++) {
    const sm_ev_t *e = &R->sm[i];
    if (e->t >= t && e->kind == kind && (sender < 0 || e->sender == (unsigned)sender) &&
        (r < 0 || e->r == r) && (n < 0 || e->n == (unsigned)n))
      return e;
  }
  return NULL;
}

/* SMs of `kind` from `sender` (any when < 0) sent by router r (any when
 * < 0) in cycles [t0, t1). */
static int count_sm_by(const run_t *R, unsigned kind, int sender, int r, uint64_t t0, uint64_t t1)
{
  int i, c = 0;
  for (i = 0; i < R->nsm; i++) {
    const sm_ev_t *e = &R->sm[i];
    if (e->t >= t0 && e->t < t1 && e->kind == kind &&
        (sender < 0 || e->sender == (unsigned)sender) && (r < 0 || e->r == r))
      c++;
  }
  return c;
}
static int count_sm(const run_t *R, unsigned kind, int sender, uint64_t t0, uint64_t t1)
{
  return count_sm_by(R, kind, sender, -1, t0, t1);
}

/* The first cycle at or after t whose edge put router r into `state`; 0 if never. */
static uint64_t state_at(const run_t *R, int r, spin_state_t state, uint64_t t)
{
  int i;
  for (i = 0; i < R->nst; i++)
    if (R->st[i].r == r && R->st[i].to == state && R->st[i].t >= t) return R->st[i].t;
  return 0;
}

/* The first cycle at or after t in which a VC at input port p of router r
 * (any port when p < 0) did `what` (VC_FREEZE, VC_SPIN, VC_THAW); 0 if
 * never. */
static uint64_t vc_at(const run_t *R, int r, int p, int what, uint64_t t)
{
  int i;
  for (i = 0; i < R->nvc; i++)
    if (R->vc[i].r == r && (p < 0 || R->vc[i].p == p) && R->vc[i].what == what &&
        R->vc[i].t >= t)
      return R->vc[i].t;
  return 0;
}

/* The VC at input p of router r frozen in cycle t, or -1. */
static int frozen_vc(const run_t *R, int r, int p, uint64_t t)
{
  int i;
  for (i = 0; i < R->nvc; i++)
    if (R->vc[i].r == r && R->vc[i].p == p && R->vc[i].what == VC_FREEZE && R->vc[i].t == t)
      return R->vc[i].v;
  return -1;
}

static int prio(const run_t *R, uint64_t t, int r)
{
  return spin_prio(t, R->s.o.tdd, R->s.net.n, r);
}

#define U(x) ((unsigned long long)(x))

/* The path of n ports written as a string of digits, first port first. */
static sm_path_t path_of(const char *ports)
{
  sm_path_t p = {0, 0};
  unsigned i;
  for (i = 0; ports[i]; i++) p = path_put(p, i, (unsigned)(ports[i] - '0'));
  return p;
}

/* The probe that came back to `sender` in cycle t (on an input link), with
 * the whole loop in its path. */
static int probe_back(const run_t *R, int sender, int last, const char *ports, uint64_t t)
{
  const sm_ev_t *e = find_sm(R, KIND_PROBE, sender, last, (int)strlen(ports), 0);
  return e && e->t + 1 == t && e->rr == sender && path_eq(e->path, path_of(ports));
}

/* The SPIN counters a scenario ends with. */
static void check_counters(const run_t *R, uint64_t returned, uint64_t moves, uint64_t pms,
                           uint64_t kms, uint64_t spins, uint64_t resolved, uint64_t fp,
                           uint64_t max_spins, uint64_t max_loop)
{
  const spin_stats_t *k = &R->s.net.spin;
  CHECK(k->probes_returned == returned && k->moves_sent == moves && k->probe_moves_sent == pms &&
        k->kill_moves_sent == kms, "probes returned %llu (expected %llu), moves %llu (%llu), "
        "probe_moves %llu (%llu), kill_moves %llu (%llu)", U(k->probes_returned), U(returned),
        U(k->moves_sent), U(moves), U(k->probe_moves_sent), U(pms), U(k->kill_moves_sent),
        U(kms));
  CHECK(k->spins == spins && k->deadlocks_resolved == resolved && k->false_positives == fp &&
        k->max_spins == max_spins && k->max_spins_loop == max_loop && k->bound_violations == 0,
        "spins %llu (expected %llu), resolved %llu (%llu), false positives %llu (%llu), max spins "
        "%llu (%llu) on a loop of %llu (%llu), bound violations %llu", U(k->spins), U(spins),
        U(k->deadlocks_resolved), U(resolved), U(k->false_positives), U(fp), U(k->max_spins),
        U(max_spins), U(k->max_spins_loop), U(max_loop), U(k->bound_violations));
  CHECK(k->frozen_timeouts == 0, "%llu frozen routers left a recovery on their own timeout: a "
        "probe_move or kill_move did not reach them", U(k->frozen_timeouts));
}

/* A recovery round of a loop of n hops whose move (kind KIND_MOVE) or
 * probe_move left its sender loop[0] in cycle tm and came back: the k-th
 * router of the loop froze its VC at the input the message came in on in
 * cycle tm + k, and every frozen VC spun.  The sender's spin cycle is
 * T = tm + 2n + 1 (12.6).  The other routers spin one cycle earlier, in
 * tm + 2n: the move manager loads cnt = delay - 1 and the counter still
 * counts down in that same cycle (spin_move_mgr.c sets cnt_q without marking it
 * loaded), so a receiver that sees delay d in cycle t expires in t + d - 1,
 * not in t + d as 12.6 says.  Reported as a discrepancy; RX_EARLY is that
 * one cycle.  The router after it still has room: its own VC sent a flit in
 * the same cycle, and the sender's VC, the last one, sends its first flit in
 * the very cycle the first spun flit is written into it.
 * loop[k] is the k-th router after the sender (loop[0] = the sender).
 * Returns T. */
#define RX_EARLY 1
/* line4_eject_drop: the cycle router 2 probes (derived in check_eject_drop) */
#define EJECT_PROBE_T 25
static uint64_t check_spin_round(const run_t *R, unsigned kind, const int *loop, int n, uint64_t tm,
                                 const char *what)
{
  int k;
  uint64_t T = tm + 2u * (unsigned)n + 1u;
  for (k = 1; k <= n; k++) {
    const sm_ev_t *e = find_sm(R, kind, loop[0], loop[k - 1], n - k, tm);
    int r = k < n ? loop[k] : loop[0];
    /* a VC of the sender itself (the last hop, or a figure 8 through the
     * sender: spin_move_through) spins with the sender, in T */
    uint64_t due = k < n && r != loop[0] ? T - RX_EARLY : T, tf, ts;
    if (!e) {
      CHECK(0, "%s: no %s from router %d at hop %d", what, kind_name(kind), loop[k - 1], k - 1);
      return T;
    }
    tf = vc_at(R, r, e->rp, VC_FREEZE, tm);
    ts = vc_at(R, r, e->rp, VC_SPIN, tm);
    CHECK(e->rr == r && tf == tm + (uint64_t)k, "%s: router %d (hop %d) froze its VC at port %d "
          "in %llu, expected %llu", what, r, k, e->rp, U(tf), U(tm + (uint64_t)k));
    CHECK(ts == due, "%s: router %d port %d spun in %llu, expected %llu", what, r, e->rp, U(ts),
          U(due));
  }
  return T;
}

/* The SM of `kind` from `sender` that leaves it in cycle t0 goes hop by hop
 * round loop[] (loop[k] sends it in t0 + k, with n - 1 - k path entries and,
 * for move and probe_move, delay 2n - k; a probe has k + 1 entries, the
 * ports it left by); checks every hop up to `hops`. */
static void check_travel(const run_t *R, unsigned kind, const int *loop, int n, uint64_t t0,
                         int hops, const char *what)
{
  int k;
  for (k = 0; k < hops; k++) {
    const sm_ev_t *e = find_sm(R, kind, loop[0], loop[k], kind == KIND_PROBE ? k + 1 : n - 1 - k,
                               t0);
    unsigned d = kind == KIND_KILL_MOVE || kind == KIND_PROBE ? 0u : 2u * (unsigned)n - (unsigned)k;
    CHECK(e && e->t == t0 + (uint64_t)k && e->delay == d,
          "%s: %s of %d at hop %d: sent %llu (expected %llu), delay %u (expected %u)", what,
          kind_name(kind), loop[0], k, U(e ? e->t : 0), U(t0 + (uint64_t)k), e ? e->delay : 0, d);
  }
}

/* ---- scenarios ---- */

typedef struct {
  const char *name;
  const char *topo;
  const char *trace;
  int vcs;
  unsigned tdd;
  int deadlock;                   /* without SPIN: stuck (1) or drained (0) */
  void (*check)(run_t *R);
  const char *known_bug;          /* the C model fails the checks for this reason */
} scenario_t;

/* Scenario 4: a loop that needs two spins (ring7_multispin.trace on ring-7,
 * 1 VC, t_DD = 32).
 * - Every packet's head enters the next router's clockwise VC in cycle 3
 *   (created in 0, in the NIC register at the edge of 0, written into port 0
 *   in 1, routed and sent in 2, written downstream in 3).  Every router's DD
 *   counter starts then, on that VC, at t_DD - 1, so all seven expire
 *   together in cycle 3 + t_DD and all seven send a probe on port 1.
 * - Epoch 4 t_DD = 128: in cycle 35 router 0 is on top (priority 6) and
 *   router r > 0 has priority r - 1, so each other probe meets a router of
 *   higher priority at its first hop and is dropped there (6 drops); router
 *   0's probe comes back after 7 hops, path 1111111.
 * - Every packet sits one hop from its source, two from home.  Move in
 *   3 + t_DD + 7; spin; the packets have moved one hop and still wait on the
 *   ring, so the probe_move (SPIN_SETTLE = 6 cycles after the
 *   spin) comes back and a second spin follows.  Then every packet is home:
 *   the second probe_move is dropped at router 1 (its VC waits for
 *   ejection), router 0's counter expires n + 1 cycles later and it sends a
 *   kill_move, which comes back in 7 hops and ends the recovery with 2 spins
 *   (the bound is m - 1 = 6). */
static void check_multispin(run_t *R)
{
  static const int loop[7] = {0, 1, 2, 3, 4, 5, 6};
  const spin_stats_t *k = &R->s.net.spin;
  const unsigned tdd = R->s.o.tdd;
  const uint64_t tp = 3 + tdd, tm = tp + 7;
  const sm_ev_t *e;
  uint64_t T1, T2, tpm1, tpm2, tkm;
  int r;
  for (r = 0; r < 7; r++) {
    e = find_sm(R, KIND_PROBE, r, r, 1, 0);
    CHECK(e && e->t == tp && e->p == 1, "router %d: first probe in %llu on port %d, expected %llu "
          "on port 1", r, U(e ? e->t : 0), e ? e->p : -1, U(tp));
    CHECK(r == 0 || count_sm(R, KIND_PROBE, r, tp, tp + 8) == 1,
          "router %d's probe was forwarded (it should be dropped at its first hop)", r);
  }
  CHECK(prio(R, tp, 0) == 6, "router 0 is not on top in cycle %llu", U(tp));
  check_travel(R, KIND_PROBE, loop, 7, tp, 7, "probe");
  e = find_sm(R, KIND_PROBE, 0, 6, 7, tp);
  CHECK(e && e->t == tp + 6 && e->path.lo == 01111111, "probe back: path %llo",
        U(e ? e->path.lo : 0));
  CHECK(state_at(R, 0, FSM_MOVE, 0) == tm, "router 0 in MOVE in %llu, expected %llu",
        U(state_at(R, 0, FSM_MOVE, 0)), U(tm));
  check_travel(R, KIND_MOVE, loop, 7, tm, 7, "move");
  T1 = check_spin_round(R, KIND_MOVE, loop, 7, tm, "spin 1");
  /* FORWARD_PROGRESS -> PROBE_MOVE at the spin with cnt = SPIN_SETTLE - 1 */
  tpm1 = T1 + 6;
  check_travel(R, KIND_PROBE_MOVE, loop, 7, tpm1, 7, "probe_move 1");
  T2 = check_spin_round(R, KIND_PROBE_MOVE, loop, 7, tpm1, "spin 2");
  tpm2 = T2 + 6;
  e = find_sm(R, KIND_PROBE_MOVE, 0, 0, 6, tpm2);
  CHECK(e && e->t == tpm2 && e->cnt[0] && e->rv[0] && e->op[0] == 0,
        "probe_move 2 in %llu (expected %llu) should meet router 1's VC waiting for ejection",
        U(e ? e->t : 0), U(tpm2));
  CHECK(count_sm(R, KIND_PROBE_MOVE, 0, tpm2, tpm2 + 20) == 1, "probe_move 2 was forwarded");
  tkm = tpm2 + 7 + 1;        /* cnt = n loaded when the probe_move left */
  check_travel(R, KIND_KILL_MOVE, loop, 7, tkm, 7, "kill_move");
  CHECK(state_at(R, 0, FSM_DD, tkm) == tkm + 7, "router 0 back in DD in %llu, expected %llu",
        U(state_at(R, 0, FSM_DD, tkm)), U(tkm + 7));
  CHECK(k->probes_sent == 7 && k->probes_dropped == 6 && k->probes_returned == 1,
        "probes sent %llu dropped %llu returned %llu", U(k->probes_sent), U(k->probes_dropped),
        U(k->probes_returned));
  CHECK(k->moves_sent == 1 && k->probe_moves_sent == 2 && k->kill_moves_sent == 1 &&
        k->moves_dropped == 1, "moves %llu probe_moves %llu kill_moves %llu dropped %llu",
        U(k->moves_sent), U(k->probe_moves_sent), U(k->kill_moves_sent), U(k->moves_dropped));
  CHECK(k->spins == 2 && k->deadlocks_resolved == 1 && k->false_positives == 0 &&
        k->max_spins == 2 && k->max_spins_loop == 7 && k->bound_violations == 0,
        "spins %llu resolved %llu false %llu max %llu on %llu bound %llu", U(k->spins),
        U(k->deadlocks_resolved), U(k->false_positives), U(k->max_spins), U(k->max_spins_loop),
        U(k->bound_violations));
}


/* Scenarios 3a and 3b: the figure-8 loop of Fig. 5(b) on fig8.topo (1 VC,
 * t_DD = 32): 0 -> 1 -> 2 -> 3 -> 4 -> 0 -> 5 -> 6 -> 7 -> 8 -> 0, 10 hops,
 * through router 0 (the cross-over router, the paper's E) twice: in on port
 * 2 and out on port 3, then in on port 4 and out on port 1.
 * Probe times: a router's DD counter starts on the cycle the head of its
 * loop VC's packet arrives, that is two cycles after the upstream router
 * sent it, and expires t_DD cycles later.  Router 1's VC takes router 0's
 * second packet (1 flit): the NIC sends it only once the first one's credit
 * is back (head sent in 2, credit register in 3, NIC free from 4, router
 * input in 5, sent in 6), so router 1's counter starts in 7. */
static const int fig8_from1[11] = {1, 2, 3, 4, 0, 5, 6, 7, 8, 0, 1};
static const int fig8_from0[11] = {0, 5, 6, 7, 8, 0, 1, 2, 3, 4, 0};

/* 3a, case I (fig5b_case1.trace, everything 128 cycles later: epoch 1,
 * router 1 on top): router 1 probes in 128 + 7 + t_DD = 167; router 0
 * forwards the probe twice and does not fork it (one VC), and it comes back
 * to router 1 after 10 hops, path 1111311111.  The move reaches router 0
 * twice: at hop 4 it freezes the VC at port 2 (FROZEN, source 1); at hop 9
 * it is accepted again (same source) and freezes the VC at port 4.  Both
 * spin in the spin cycle.  Every packet was one hop from home, so one spin
 * resolves the loop: the probe_move finds router 2's VC no longer waiting
 * on the ring and is dropped; the kill_move unfreezes router 0 at its first
 * pass, is forwarded at its second (every router forwards a kill_move, 12.4)
 * and comes back to router 1 after 10 hops, which ends the recovery. */
static void check_fig5b_case1(run_t *R)
{
  const uint64_t tp = 128 + 7 + R->s.o.tdd, tm = tp + 10;
  const sm_ev_t *e;
  uint64_t T, tpm, tkm;
  e = find_sm(R, KIND_PROBE, 1, 1, 1, 0);
  CHECK(e && e->t == tp && prio(R, tp, 1) == 8, "router 1's first probe in %llu, expected %llu",
        U(e ? e->t : 0), U(tp));
  check_travel(R, KIND_PROBE, fig8_from1, 10, tp, 10, "probe");
  CHECK(probe_back(R, 1, 0, "1111311111", tm), "router 1's probe not back in %llu", U(tm));
  CHECK(count_sm(R, KIND_PROBE, 1, tp, tm) == 10 && R->s.net.spin.probes_forked == 0,
        "the probe was forked (%llu copies)", U(R->s.net.spin.probes_forked));
  CHECK(state_at(R, 0, FSM_FROZEN, tm) == tm + 4, "router 0 FROZEN in %llu, expected %llu",
        U(state_at(R, 0, FSM_FROZEN, tm)), U(tm + 4));
  check_travel(R, KIND_MOVE, fig8_from1, 10, tm, 10, "move");
  T = check_spin_round(R, KIND_MOVE, fig8_from1, 10, tm, "spin");
  CHECK(vc_at(R, 0, 2, VC_SPIN, tm) == T - RX_EARLY && vc_at(R, 0, 4, VC_SPIN, tm) == T - RX_EARLY,
        "router 0 did not spin both of its loop VCs together");
  tpm = T + 6;
  e = find_sm(R, KIND_PROBE_MOVE, 1, 1, 9, tpm);
  CHECK(e && e->t == tpm && !(e->whole[0] && e->rv[0] && e->op[0] == 1),
        "probe_move in %llu (expected %llu) should find router 2 no longer waiting on the ring",
        U(e ? e->t : 0), U(tpm));
  CHECK(count_sm(R, KIND_PROBE_MOVE, 1, tpm, tpm + 20) == 1, "the probe_move went on");
  tkm = tpm + 10 + 1;
  check_travel(R, KIND_KILL_MOVE, fig8_from1, 10, tkm, 10, "kill_move");
  CHECK(state_at(R, 0, FSM_OFF, tkm) == tkm + 4, "router 0 left the recovery in %llu, expected "
        "%llu", U(state_at(R, 0, FSM_OFF, tkm)), U(tkm + 4));
  CHECK(state_at(R, 1, FSM_DD, tkm) == tkm + 10, "router 1 back in DD in %llu, expected %llu",
        U(state_at(R, 1, FSM_DD, tkm)), U(tkm + 10));
  check_counters(R, 1, 1, 1, 1, 1, 1, 0, 1, 10);
}

/* 3b, case II (fig5b_case2.trace, epoch 0: router 0 on top).  Router 0
 * watches its port-2 VC first (its head came in cycle 3, the port-4 one in
 * 6) and probes in 3 + t_DD = 35 out of port 3.  The probe comes back to
 * router 0 on port 4 after 5 hops, where no VC waits for port 3: router 0
 * forwards it out of port 1 (the paper: "it will not process it"), and it
 * comes back on port 2 after 10 hops: the loop is confirmed.  The paper has
 * the move behave like the probe, so that router 0 freezes both packets and
 * spins them together: at hop 5 router 0 should freeze its port-4 VC and
 * forward the move out of port 1.  Both models do that
 * (spin_move_through): the sender's own move, back with n = 5 while it is
 * in MOVE, freezes the port-4 VC and goes on; both VCs of router 0 spin with
 * the sender, in T. */
static void check_fig5b_case2(run_t *R)
{
  const uint64_t tp = 3 + R->s.o.tdd, tm = tp + 10;
  const sm_ev_t *e;
  e = find_sm(R, KIND_PROBE, 0, 0, 1, 0);
  CHECK(e && e->t == tp && e->p == 3 && prio(R, tp, 0) == 8,
        "router 0's first probe in %llu on port %d, expected %llu on port 3", U(e ? e->t : 0),
        e ? e->p : -1, U(tp));
  check_travel(R, KIND_PROBE, fig8_from0, 10, tp, 10, "probe");
  CHECK(probe_back(R, 0, 4, "3111111111", tm), "router 0's probe not back in %llu", U(tm));
  CHECK(state_at(R, 0, FSM_MOVE, 0) == tm, "router 0 in MOVE in %llu, expected %llu",
        U(state_at(R, 0, FSM_MOVE, 0)), U(tm));
  check_travel(R, KIND_MOVE, fig8_from0, 10, tm, 10, "move");
  check_spin_round(R, KIND_MOVE, fig8_from0, 10, tm, "spin");
  check_counters(R, 1, 1, 1, 1, 1, 1, 0, 1, 10);
}

/* Scenario 2: Fig. 5(a) case II (fig5a_case2.trace on fig8.topo): two loops
 * of 5 that share router 0.  In epoch 5 (cycles 640..767) router 5 has
 * priority 8, router 4 priority 7 and router 0 only 3.
 * - Router 5's VC gets its head in 643 (0 -> 6 sent in 642), router 4's in
 *   645 (3 -> 0 created in 642): probes in 675 and 677, both back 5 hops
 *   later (paths 11113 and 11111), moves in 680 and 682.
 * - Router 0 is hop 4 of router 5's move (cycle 684) but hop 1 of router 4's
 *   (683): router 4's move freezes router 0 first (source 4), and router 5's
 *   is dropped there.  Router 5's counter (n) expires in 680 + 6: its
 *   kill_move unfreezes routers 6, 7, 8; router 0 (frozen for router 4)
 *   forwards it and stays frozen; it is back at router 5 in 686 + 5, which
 *   ends the recovery without a spin: a false positive by the counters'
 *   definition.
 * - Ring A spins in 682 + 11 and is resolved (one hop from home).  Ring B is
 *   still deadlocked: router 5's counter, reloaded with t_DD - 1 when its
 *   recovery ended (691), expires in 691 + t_DD = 723; the probe comes back,
 *   move in 728, spin in 728 + 11. */
static void check_fig5a_case2(run_t *R)
{
  static const int ringA[6] = {4, 0, 1, 2, 3, 4};
  static const int ringB[6] = {5, 6, 7, 8, 0, 5};
  const uint64_t tp5 = 643 + R->s.o.tdd, tp4 = 645 + R->s.o.tdd;
  const uint64_t tm5 = tp5 + 5, tm4 = tp4 + 5, tk5 = tm5 + 6, tp5b = tk5 + 5 + R->s.o.tdd;
  uint64_t T, t0out;
  CHECK(prio(R, tp5, 5) == 8 && prio(R, tp5, 4) == 7 && prio(R, tp5, 0) == 3, "priorities");
  check_travel(R, KIND_PROBE, ringB, 5, tp5, 5, "router 5's probe");
  check_travel(R, KIND_PROBE, ringA, 5, tp4, 5, "router 4's probe");
  CHECK(probe_back(R, 5, 0, "11113", tm5), "router 5's probe not back in %llu", U(tm5));
  CHECK(probe_back(R, 4, 3, "11111", tm4), "router 4's probe not back in %llu", U(tm4));
  check_travel(R, KIND_MOVE, ringB, 5, tm5, 4, "router 5's move");
  check_travel(R, KIND_MOVE, ringA, 5, tm4, 5, "router 4's move");
  CHECK(state_at(R, 0, FSM_FROZEN, tm4) == tm4 + 1, "router 0 frozen in %llu, expected %llu",
        U(state_at(R, 0, FSM_FROZEN, tm4)), U(tm4 + 1));
  CHECK(!count_sm_by(R, KIND_MOVE, 5, 0, tm5, tk5), "router 0 forwarded router 5's move");
  CHECK(state_at(R, 5, FSM_KILL_MOVE, tm5) == tk5, "router 5 in KILL_MOVE in %llu, expected %llu",
        U(state_at(R, 5, FSM_KILL_MOVE, tm5)), U(tk5));
  check_travel(R, KIND_KILL_MOVE, ringB, 5, tk5, 5, "router 5's kill_move");
  CHECK(vc_at(R, 8, 2, VC_THAW, tm5) == tk5 + 3, "router 8 thawed in %llu, expected %llu",
        U(vc_at(R, 8, 2, VC_THAW, tm5)), U(tk5 + 3));
  CHECK(state_at(R, 5, FSM_DD, tk5) == tk5 + 5, "router 5 back in DD in %llu, expected %llu",
        U(state_at(R, 5, FSM_DD, tk5)), U(tk5 + 5));
  T = check_spin_round(R, KIND_MOVE, ringA, 5, tm4, "ring A spin");
  CHECK(T == 693, "ring A spin in %llu", U(T));
  t0out = state_at(R, 0, FSM_DD, tk5);
  if (!t0out || (state_at(R, 0, FSM_OFF, tk5) && state_at(R, 0, FSM_OFF, tk5) < t0out))
    t0out = state_at(R, 0, FSM_OFF, tk5);
  CHECK(t0out > T, "router 0 left router 4's recovery in %llu, before ring A spun (%llu): "
        "router 5's kill_move released it", U(t0out), U(T));
  CHECK(!vc_at(R, 5, -1, VC_SPIN, tm5) || vc_at(R, 5, -1, VC_SPIN, tm5) > tp5b,
        "ring B spun with ring A");
  check_travel(R, KIND_PROBE, ringB, 5, tp5b, 5, "router 5's second probe");
  check_spin_round(R, KIND_MOVE, ringB, 5, tp5b + 5, "ring B spin");
  check_counters(R, 3, 3, 2, 3, 2, 2, 1, 1, 5);
}

/* Scenario 7: a probe dropped where packets wait for ejection (the paper's
 * Fig. 4, node 3; line4_eject_drop.trace on line4.topo, 1 VC, t_DD 8, no
 * deadlock).  Routers 0, 2 and 3 each send four 5-flit packets to router 1,
 * whose ejection (one flit a cycle, shared by its two inputs) is the
 * bottleneck.  Router 2's VC from router 3 waits behind router 1's VC, which
 * holds a packet being ejected; router 2's counter expires and it probes
 * west in 25.  In 26 router 1's only VC at that port holds 3 flits of a
 * packet routed to port 0: router 1 drops the probe.  Router 2 is not
 * outranked then (epoch 0: router 2 has priority 1, router 1 priority 0), so
 * the drop is the ejection rule's.  Later probes of router 2 are dropped
 * too (one by priority, one at an empty VC); nothing moves or spins, and
 * every packet is delivered. */
static void check_eject_drop(run_t *R)
{
  const spin_stats_t *k = &R->s.net.spin;
  const sm_ev_t *e = find_sm(R, KIND_PROBE, 2, 2, 1, 0);
  CHECK(e && e->rr == 1 && e->p == 2, "router 2 sent no probe west to router 1");
  if (!e) return;
  CHECK(e->cnt[0] && e->rv[0] && e->op[0] == 0,
        "router 1's VC when the probe came: %u flits, route %s, port %u; expected a packet "
        "waiting for ejection (port 0)", e->cnt[0], e->rv[0] ? "set" : "none", e->op[0]);
  CHECK(prio(R, e->t + 1, 2) > prio(R, e->t + 1, 1),
        "router 1 outranks router 2 in %llu: the drop would not be the ejection rule's",
        U(e->t + 1));
  CHECK(count_sm_by(R, KIND_PROBE, -1, 1, 0, (uint64_t)-1) == 0, "router 1 forwarded a probe");
  CHECK(k->probes_sent >= 1 && k->probes_dropped == k->probes_sent && k->probes_returned == 0,
        "probes: %llu sent, %llu dropped, %llu returned; expected every one dropped",
        U(k->probes_sent), U(k->probes_dropped), U(k->probes_returned));
  CHECK(k->moves_sent == 0 && k->spins == 0 && k->deadlocks_resolved == 0,
        "a move or a spin where no loop exists");
  CHECK(state_at(R, 2, FSM_MOVE, 0) == 0, "router 2 entered MOVE");
  CHECK(e->t == EJECT_PROBE_T, "router 2's probe in %llu, expected %d", U(e->t), EJECT_PROBE_T);
}

/* Scenario 5: congestion without a deadlock (ring9_false_positive.trace on
 * ring-9, 1 VC, t_DD = 16, epoch 64 cycles).
 * - Router 0's VC first holds router 8's packet (head in 3), which moves on
 *   at once into router 1's empty VC; it empties in 9 and takes router 7's
 *   packet (credit back in 9, head sent in 10, in router 0 in 11), which has
 *   to wait.  So router 0 watches it from 11 and probes in 11 + t_DD = 27,
 *   on top of the priorities (epoch 0), so nobody drops it for priority.
 * - The probe passes the free VC while a packet is moving into it: in cycle
 *   31 router 5's VC still holds the tail of a packet that is leaving (a
 *   route, one flit) and in 32 router 6's VC holds the first 4 flits of that
 *   packet (a route): both look blocked to a probe, which comes back after 9
 *   hops (36) and starts a move.
 * - The move needs a whole packet waiting: routers 1, 2, 3 freeze theirs
 *   (cycles 37..39), but when it reaches router 4 (40) router 4's packet is
 *   itself half way out into router 5 (one flit left): dropped there.
 * - Router 0's MOVE counter (n = 9) expires in 36 + 10: kill_move, which
 *   thaws routers 1, 2, 3 and is forwarded by routers 4 to 8 (not in the
 *   recovery), back at router 0 in 46 + 9: the recovery ends with no spin,
 *   a false positive.
 * - The ring is never deadlocked, so no recovery may spin: every probe that
 *   comes back ends as a false positive, and every packet is delivered. */
static void check_false_positive(run_t *R)
{
  static const int ring[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 0};
  const spin_stats_t *k = &R->s.net.spin;
  const uint64_t tp = 11 + R->s.o.tdd, tm = tp + 9, tk = tm + 10;
  const sm_ev_t *e;
  int r;
  e = find_sm(R, KIND_PROBE, 0, 0, 1, 0);
  CHECK(e && e->t == tp && prio(R, tp, 0) == 8, "router 0's first probe in %llu, expected %llu",
        U(e ? e->t : 0), U(tp));
  check_travel(R, KIND_PROBE, ring, 9, tp, 9, "probe");
  e = find_sm(R, KIND_PROBE, 0, 4, 5, tp);
  CHECK(e && e->cnt[0] == 1 && e->rv[0] && !e->whole[0], "router 5's VC when the probe passed: "
        "cnt %u", e ? e->cnt[0] : 0);
  CHECK(probe_back(R, 0, 8, "111111111", tm), "router 0's probe not back in %llu", U(tm));
  check_travel(R, KIND_MOVE, ring, 9, tm, 4, "move");
  for (r = 1; r <= 3; r++)
    CHECK(vc_at(R, r, 2, VC_FREEZE, tm) == tm + (uint64_t)r &&
          vc_at(R, r, 2, VC_THAW, tm) == tk + (uint64_t)r,
          "router %d: frozen in %llu (expected %llu), thawed in %llu (expected %llu)", r,
          U(vc_at(R, r, 2, VC_FREEZE, tm)), U(tm + (uint64_t)r), U(vc_at(R, r, 2, VC_THAW, tm)),
          U(tk + (uint64_t)r));
  e = find_sm(R, KIND_MOVE, 0, 3, 5, tm);
  CHECK(e && e->rr == 4 && e->cnt[0] == 1 && !e->whole[0], "router 4's VC when the move came: "
        "cnt %u whole %u", e ? e->cnt[0] : 0, e ? e->whole[0] : 0);
  CHECK(!vc_at(R, 4, -1, VC_FREEZE, tm) || vc_at(R, 4, -1, VC_FREEZE, tm) > tk + 10,
        "router 4 froze a VC");
  CHECK(!count_sm_by(R, KIND_MOVE, 0, 4, tm, tk), "router 4 forwarded the move");
  CHECK(state_at(R, 0, FSM_KILL_MOVE, tm) == tk, "router 0 in KILL_MOVE in %llu, expected %llu",
        U(state_at(R, 0, FSM_KILL_MOVE, tm)), U(tk));
  check_travel(R, KIND_KILL_MOVE, ring, 9, tk, 9, "kill_move");
  CHECK(state_at(R, 0, FSM_DD, tk) == tk + 9, "router 0 back in DD in %llu, expected %llu",
        U(state_at(R, 0, FSM_DD, tk)), U(tk + 9));
  CHECK(k->spins == 0 && k->deadlocks_resolved == 0 && k->probes_returned >= 1 &&
        k->false_positives == k->probes_returned && k->kill_moves_sent == k->probes_returned &&
        k->bound_violations == 0, "spins %llu resolved %llu returned %llu false positives %llu "
        "kill_moves %llu", U(k->spins), U(k->deadlocks_resolved), U(k->probes_returned),
        U(k->false_positives), U(k->kill_moves_sent));
}

/* Scenarios 1 and 2a on theta.topo, 2 VCs, t_DD = 32: two loops of 5 hops
 * that share E -> M -> K (routers 0 -> 1 -> 2); the left one goes on
 * 2 -> 3 -> 4 -> 0, the right one 2 -> 5 -> 6 -> 0.  Every loop port holds
 * two 1-flit packets waiting for the next port, except K's port from M,
 * which holds one for each branch (ports 1 and 3): the fork.  Every head
 * reaches its port in cycle 5 (created in 2, sent in 4; routers 7 and 8 two
 * cycles earlier, one hop more), so every loop router's DD counter expires
 * in 5 + t_DD.  Once one loop spins, every spun packet is home (each was
 * one hop from it) and ejects; that frees a VC at M and at K, so the other
 * loop drains too: one spin delivers all 16 packets. */
static const int theta_left[6] = {0, 1, 2, 3, 4, 0};
static const int theta_right_from6[6] = {6, 0, 1, 2, 5, 6};

/* Scenario 1, the Fig. 4 walk-through (theta_fig4.trace, epoch 0: E on top,
 * every other router r has priority r - 1).
 * - All seven loop routers probe in 5 + t_DD = 37.  The six probes of
 *   routers other than E meet a router of higher priority at their first
 *   hop and are dropped.
 * - E's probe leaves north (port 1); K forks it (its VCs at the arrival
 *   port wait for ports 1 and 3): one copy per branch, in 39.  Both come
 *   back to E 5 hops after the probe left (42), on ports 2 (path 11111) and
 *   3 (path 11311).  E takes the first port that confirms a loop (the input
 *   ports are scanned in order): the left loop.  The right copy is dropped
 *   (E is in a recovery).
 * - Move in 42 round the left loop: K freezes its VC that waits for port 1.
 *   Spin in 42 + 11 = 53.  The probe_move (53 + 6) finds M's VC no longer
 *   waiting for K and is dropped; E's counter (n) expires in 59 + 6 and the
 *   kill_move goes round the whole loop (every router is still FROZEN for
 *   E) and is back in 70: resolved with one spin. */
static void check_theta_fig4(run_t *R)
{
  const uint64_t tp = 5 + R->s.o.tdd, tm = tp + 5, T = tm + 11, tpm = T + 6, tk = tpm + 6;
  static const int loops[7] = {0, 1, 2, 3, 4, 5, 6};
  const sm_ev_t *e;
  int i;
  for (i = 0; i < 7; i++) {
    e = find_sm(R, KIND_PROBE, loops[i], loops[i], 1, 0);
    CHECK(e && e->t == tp, "router %d probed in %llu, expected %llu", loops[i], U(e ? e->t : 0),
          U(tp));
    CHECK(i == 0 || count_sm(R, KIND_PROBE, loops[i], tp, tm + 20) == 1,
          "router %d's probe went past its first hop", loops[i]);
  }
  CHECK(prio(R, tp, 0) == 8, "E is not on top in %llu", U(tp));
  e = find_sm(R, KIND_PROBE, 0, 0, 1, 0);
  CHECK(e && e->p == 1, "E's probe left on port %d, expected 1 (north)", e ? e->p : -1);
  /* at K, in 39: the arrival port's VCs wait for ports 1 and 3 */
  e = find_sm(R, KIND_PROBE, 0, 1, 2, tp);
  CHECK(e && e->rr == 2 && e->cnt[0] && e->cnt[1] && e->rv[0] && e->rv[1] &&
        (1u << e->op[0] | 1u << e->op[1]) == 0xAu, "K's VCs when the probe came: ports %u, %u",
        e ? e->op[0] : 0, e ? e->op[1] : 0);
  CHECK(count_sm_by(R, KIND_PROBE, 0, 2, tp, tm) == 2 && R->s.net.spin.probes_forked == 1,
        "K did not fork E's probe into two copies");
  CHECK(probe_back(R, 0, 4, "11111", tm) && probe_back(R, 0, 6, "11311", tm),
        "both copies should be back at E in %llu", U(tm));
  CHECK(state_at(R, 0, FSM_MOVE, 0) == tm, "E in MOVE in %llu, expected %llu",
        U(state_at(R, 0, FSM_MOVE, 0)), U(tm));
  check_travel(R, KIND_MOVE, theta_left, 5, tm, 5, "move");
  e = find_sm(R, KIND_MOVE, 0, 1, 3, tm);
  CHECK(e && e->op[frozen_vc(R, 2, 2, tm + 2) & 1] == 1 && frozen_vc(R, 2, 2, tm + 2) >= 0,
        "K should freeze (in %llu) the VC that waits for port 1", U(tm + 2));
  CHECK(check_spin_round(R, KIND_MOVE, theta_left, 5, tm, "spin") == T, "spin");
  e = find_sm(R, KIND_PROBE_MOVE, 0, 0, 4, tpm);
  CHECK(e && e->t == tpm && !(e->whole[0] && e->rv[0] && e->op[0] == 1) &&
        !(e->whole[1] && e->rv[1] && e->op[1] == 1),
        "probe_move in %llu (expected %llu) should find no packet at M waiting for K",
        U(e ? e->t : 0), U(tpm));
  CHECK(count_sm(R, KIND_PROBE_MOVE, 0, tpm, tk) == 1, "the probe_move went on");
  check_travel(R, KIND_KILL_MOVE, theta_left, 5, tk, 5, "kill_move");
  CHECK(state_at(R, 0, FSM_DD, tk) == tk + 5, "E back in DD in %llu, expected %llu",
        U(state_at(R, 0, FSM_DD, tk)), U(tk + 5));
  check_counters(R, 1, 1, 1, 1, 1, 1, 0, 1, 5);
}

/* Scenario 2a, Fig. 5(a) case I (fig5a_case1.trace: the same packets in
 * epoch 6, where router 6 has priority 8, router 4 priority 6, E only 2).
 * - Routers 4 and 6 both probe in 768 + 5 + t_DD = 805, and their probes
 *   reach E together in 806, from west (port 2) and east (port 3), both for
 *   north.  Neither is dropped by E's own priority; the output takes one
 *   SM and router 6's (higher priority) wins: router 4's probe is dropped.
 * - Router 6's probe is forked at K (808).  The right copy is back at
 *   router 6 in 810 (path 11131); the left copy reaches E again in 811, the
 *   cycle router 6's move freezes E, and is dropped (moves are handled
 *   before probes, and E is then in a recovery).
 * - Move in 810 round the right loop (K freezes the VC that waits for port
 *   3), spin in 821; the left loop then drains by itself. */
static void check_fig5a_case1(run_t *R)
{
  const uint64_t tp = 768 + 5 + R->s.o.tdd, tm = tp + 5;
  const sm_ev_t *e4, *e6;
  CHECK(prio(R, tp, 6) == 8 && prio(R, tp, 4) == 6 && prio(R, tp, 0) == 2, "priorities");
  e4 = find_sm(R, KIND_PROBE, 4, 4, 1, tp);
  e6 = find_sm(R, KIND_PROBE, 6, 6, 1, tp);
  CHECK(e4 && e6 && e4->t == tp && e6->t == tp && e4->rr == 0 && e6->rr == 0 && e4->rp == 2 &&
        e6->rp == 3, "routers 4 and 6 should probe into E together in %llu", U(tp));
  CHECK(!find_sm(R, KIND_PROBE, 4, 0, 2, tp), "E forwarded router 4's probe");
  check_travel(R, KIND_PROBE, theta_right_from6, 5, tp, 5, "router 6's probe");
  CHECK(count_sm_by(R, KIND_PROBE, 6, 2, tp, tm) == 2, "K did not fork router 6's probe");
  CHECK(probe_back(R, 6, 5, "11131", tm), "router 6's probe not back in %llu", U(tm));
  CHECK(find_sm(R, KIND_PROBE, 6, 4, 6, tp) && !find_sm(R, KIND_PROBE, 6, 0, 7, tp),
        "the left copy should reach E again and be dropped there");
  check_travel(R, KIND_MOVE, theta_right_from6, 5, tm, 5, "move");
  e6 = find_sm(R, KIND_MOVE, 6, 1, 2, tm);
  CHECK(e6 && frozen_vc(R, 2, 2, tm + 3) >= 0 && e6->op[frozen_vc(R, 2, 2, tm + 3) & 1] == 3,
        "K should freeze (in %llu) the VC that waits for port 3", U(tm + 3));
  check_spin_round(R, KIND_MOVE, theta_right_from6, 5, tm, "spin");
  check_counters(R, 1, 1, 1, 1, 1, 1, 0, 1, 5);
}

/* Scenario 9: a loop longer than the recorded path (ring40_long_loop.trace
 * on ring-40, 1 VC, t_DD = 32).  As in scenario 4, all forty counters expire
 * in 3 + t_DD and router 0, on top of the rotating priority, is the only one
 * whose probe goes on.  Its probe records ports for 32 hops and counts the
 * other 8 (12.1, path limit): back at router 0 with n = 40, entries 0..31
 * port 1 and the rest 0.  The move then goes round all 40 routers, each
 * router past the 32nd taking the port from its one VC, and the 40 VCs spin
 * together.  Before the path went on unrecorded, this deadlock stayed. */
static void check_long_loop(run_t *R)
{
  enum { N = 40 };
  int loop[N], i;
  const spin_stats_t *k = &R->s.net.spin;
  const unsigned tdd = R->s.o.tdd;
  const uint64_t tp = 3 + tdd, tm = tp + N;
  const sm_ev_t *e;
  sm_path_t want = {0, 0};
  for (i = 0; i < N; i++) loop[i] = i;
  for (i = 0; i < SM_MAX_PATH; i++) want = path_put(want, (unsigned)i, 1);
  CHECK(prio(R, tp, 0) == N - 1, "router 0 is not on top in cycle %llu", U(tp));
  check_travel(R, KIND_PROBE, loop, N, tp, N, "probe");
  e = find_sm(R, KIND_PROBE, 0, N - 1, N, tp);
  CHECK(e && e->t == tp + N - 1 && path_eq(e->path, want),
        "probe back: sent %llu (expected %llu), path %llo %llo", U(e ? e->t : 0),
        U(tp + N - 1), U(e ? e->path.hi : 0), U(e ? e->path.lo : 0));
  CHECK(state_at(R, 0, FSM_MOVE, 0) == tm, "router 0 in MOVE in %llu, expected %llu",
        U(state_at(R, 0, FSM_MOVE, 0)), U(tm));
  check_travel(R, KIND_MOVE, loop, N, tm, N, "move");
  check_spin_round(R, KIND_MOVE, loop, N, tm, "spin 1");
  CHECK(k->spins >= 1 && k->deadlocks_resolved >= 1 && k->max_spins_loop == N &&
        k->bound_violations == 0, "spins %llu resolved %llu max %llu on %llu bound %llu",
        U(k->spins), U(k->deadlocks_resolved), U(k->max_spins), U(k->max_spins_loop),
        U(k->bound_violations));
}

/* lasso_probe_mark (lasso.topo, 1 VC, t_DD = 32): a loop of 5 (routers 1 to
 * 5) with a tail 6 -> 0 -> 1 feeding it (router 7, a leaf, stays idle).
 * - Every watched VC fills in cycle 3, so every counter expires in 35 and
 *   again every t_DD while nothing moves: router 0 for its VC from router 6,
 *   routers 1 to 5 for their ring VCs.
 * - Epoch 0 (cycles 0 to 127): router 0 is on top (priority N - 1 = 7);
 *   router r > 0 has priority r - 1, so router 5 leads the ring. Router 5's
 *   probe and router 0's reach router 1 in the same cycle, both for port 1:
 *   router 0's wins and router 5's is dropped. Routers 1 to 4 lose at their
 *   first hop.
 * - Router 0's probe goes round the ring (0 1 2 3 4 5 1) and is back at
 *   router 2's input from router 1 with n = 7. That input forwarded it with
 *   n = 2 one lap before: the mark (12.3) drops it there. Without the mark it
 *   would circle until n = 63.
 * - The same happens in 67 and 99: the counters are in lock step.
 * - Epoch 1 (from 128): router 1 is on top and its probe of 131 comes back;
 *   move in 136, one spin, every packet delivered. */
static void check_probe_mark(run_t *R)
{
  static const int lap[7] = {0, 1, 2, 3, 4, 5, 1};
  static const int ring[5] = {1, 2, 3, 4, 5};
  const unsigned tdd = R->s.o.tdd;
  const uint64_t t1 = 3 + tdd, tp = t1 + 3u * tdd, tm = tp + 5;
  uint64_t t;
  const int top = R->s.net.n - 1;
  CHECK(prio(R, t1, 0) == top && prio(R, t1, 5) == 4 && prio(R, tp, 1) == top,
        "priorities in %llu: router 0 %d, router 5 %d; in %llu: router 1 %d", U(t1),
        prio(R, t1, 0), prio(R, t1, 5), U(tp), prio(R, tp, 1));
  for (t = t1; t < tp; t += tdd) {
    const sm_ev_t *e5 = find_sm(R, KIND_PROBE, 5, 5, 1, t);
    char what[48];
    snprintf(what, sizeof what, "router 0's probe of %llu", U(t));
    check_travel(R, KIND_PROBE, lap, 7, t, 7, what);
    CHECK(count_sm_by(R, KIND_PROBE, 0, 2, t + 7, t + tdd) == 0,
          "router 2 forwarded router 0's probe after its lap (period %llu): the mark did not "
          "drop it", U(t));
    CHECK(e5 && e5->t == t && count_sm_by(R, KIND_PROBE, 5, 1, t, t + tdd) == 0,
          "router 5's probe of %llu was not sent, or got past router 1", U(t));
  }
  CHECK(!find_sm(R, KIND_PROBE, 0, -1, 8, 0), "a probe of router 0 reached n = 8");
  check_travel(R, KIND_PROBE, ring, 5, tp, 5, "router 1's probe");
  CHECK(state_at(R, 1, FSM_MOVE, 0) == tm, "router 1 in MOVE in %llu, expected %llu",
        U(state_at(R, 1, FSM_MOVE, 0)), U(tm));
  check_spin_round(R, KIND_MOVE, ring, 5, tm, "spin");
  check_counters(R, 1, 1, 1, 1, 1, 1, 0, 1, 5);
}

/* fig8_kill_release (fig8.topo, 1 VC, t_DD = 32): the figure 8 of
 * fig5b_case1 768 cycles later, so that router 6 is on top (epoch 6) and
 * starts the recovery: its loop is 6 7 8 0 1 2 3 4 0 5, with the cross-over
 * router 0 at hops 3 and 8.  Router 6's VC gets its head in 771 and it probes
 * in 803; move in 813, one spin (834), probe_move in 840 (dropped at router
 * 7, whose packet is home), kill_move in 851.  The kill_move releases router
 * 0 at its first pass (854); at the second (859) router 0 is no longer in the
 * recovery but forwards it all the same (12.4), so router 5 is released in
 * 860 and router 6 ends the recovery on the kill_move's return in 861.
 * Before, router 0 dropped it there and router 5 stayed frozen until its
 * SPIN_RELEASE timeout. */
static const int fig8_from6[11] = {6, 7, 8, 0, 1, 2, 3, 4, 0, 5, 6};
static void check_kill_release(run_t *R)
{
  const uint64_t tp = 768 + 3 + R->s.o.tdd, tm = tp + 10;
  uint64_t T, tk;
  CHECK(prio(R, tp, 6) == R->s.net.n - 1, "router 6 is not on top in %llu", U(tp));
  check_travel(R, KIND_PROBE, fig8_from6, 10, tp, 10, "probe");
  CHECK(state_at(R, 6, FSM_MOVE, 0) == tm, "router 6 in MOVE in %llu, expected %llu",
        U(state_at(R, 6, FSM_MOVE, 0)), U(tm));
  check_travel(R, KIND_MOVE, fig8_from6, 10, tm, 10, "move");
  T = check_spin_round(R, KIND_MOVE, fig8_from6, 10, tm, "spin");
  tk = T + 6 + 10 + 1;
  CHECK(state_at(R, 6, FSM_KILL_MOVE, tm) == tk, "router 6 in KILL_MOVE in %llu, expected %llu",
        U(state_at(R, 6, FSM_KILL_MOVE, tm)), U(tk));
  check_travel(R, KIND_KILL_MOVE, fig8_from6, 10, tk, 10, "kill_move");
  CHECK(state_at(R, 0, FSM_OFF, tm) == tk + 3, "router 0 left the recovery in %llu, expected %llu "
        "(the kill_move's first pass)", U(state_at(R, 0, FSM_OFF, tm)), U(tk + 3));
  CHECK(state_at(R, 5, FSM_OFF, tm) == tk + 9, "router 5 left the recovery in %llu, expected %llu "
        "(after router 0's second pass)", U(state_at(R, 5, FSM_OFF, tm)), U(tk + 9));
  CHECK(state_at(R, 6, FSM_DD, tk) == tk + 10, "router 6 back in DD in %llu, expected %llu",
        U(state_at(R, 6, FSM_DD, tk)), U(tk + 10));
  check_counters(R, 1, 1, 1, 1, 1, 1, 0, 1, 10);
}

static const scenario_t scenarios[] = {
  {"theta_fig4", "file:tb/scenarios/theta.topo", "trace:tb/scenarios/theta_fig4.trace", 2, 32, 1,
   check_theta_fig4, NULL},
  {"fig5a_case1", "file:tb/scenarios/theta.topo", "trace:tb/scenarios/fig5a_case1.trace", 2, 32,
   1, check_fig5a_case1, NULL},
  {"fig5a_case2", "file:tb/scenarios/fig8.topo", "trace:tb/scenarios/fig5a_case2.trace", 1, 32,
   1, check_fig5a_case2, NULL},
  {"fig5b_case1", "file:tb/scenarios/fig8.topo", "trace:tb/scenarios/fig5b_case1.trace", 1, 32,
   1, check_fig5b_case1, NULL},
  {"fig5b_case2", "file:tb/scenarios/fig8.topo", "trace:tb/scenarios/fig5b_case2.trace", 1, 32,
   1, check_fig5b_case2, NULL},
  {"fig8_kill_release", "file:tb/scenarios/fig8.topo", "trace:tb/scenarios/fig8_kill_release.trace",
   1, 32, 1, check_kill_release, NULL},
  {"ring7_multispin", "ring-7", "trace:tb/scenarios/ring7_multispin.trace", 1, 32, 1,
   check_multispin, NULL},
  {"ring9_false_positive", "ring-9", "trace:tb/scenarios/ring9_false_positive.trace", 1, 16, 0,
   check_false_positive, NULL},
  {"line4_eject_drop", "file:tb/scenarios/line4.topo", "trace:tb/scenarios/line4_eject_drop.trace",
   1, 8, 0, check_eject_drop, NULL},
  {"ring40_long_loop", "ring-40", "trace:tb/scenarios/ring40_long_loop.trace", 1, 32, 1,
   check_long_loop, NULL},
  {"lasso_probe_mark", "file:tb/scenarios/lasso.topo", "trace:tb/scenarios/lasso_probe_mark.trace",
   1, 32, 1, check_probe_mark, NULL},
};

int main(int argc, char **argv)
{
  static run_t R;
  int i, passed = 0, failed = 0, known = 0;
  const int count = (int)(sizeof scenarios / sizeof scenarios[0]);
  if (argc >= 3 && !strcmp(argv[1], "-v")) verbose = argv[2];
  if (argc >= 6 && !strcmp(argv[1], "-d")) {   /* -d TOPO TRACE VCS CYCLES: VCs without SPIN */
    sim_opts_t o;
    int r, p, v, c;
    sim_defaults(&o);
    o.topo = argv[2];
    o.traffic = argv[3];
    o.algo = ALGO_FAVORS_MIN;
    o.vcs = atoi(argv[4]);
    o.cycles = 1;
    o.warmup = 0;
    if (sim_init(&R.s, &o, 1) != 0) return 2;
    for (c = 0; c < atoi(argv[5]); c++) {
      sim_cycle_pre(&R.s);
      net_step(&R.s.net);
      sim_cycle_post(&R.s);
    }
    for (r = 0; r < R.s.net.n; r++)
      for (p = 0; p < R.s.net.ports; p++)
        for (v = 0; v < o.vcs; v++) {
          const router_t *rt = &R.s.net.rt[r];
          const flit_t hf = front_flit(rt, o.vcs, p, v), *h = &hf;
          if (!rt->cnt_q[p][v]) continue;
          printf("r%d.%d vc %d: cnt %u route %u->%u", r, p, v, rt->cnt_q[p][v],
                 rt->route_valid_q[p][v], rt->out_port_q[p][v]);
          if (CTL_HEAD(h->ctl)) printf(" head %u->%u", HEAD_SRC(h->data), HEAD_DST(h->data));
          printf("\n");
        }
    printf("delivered %llu of %llu\n", U(R.s.sink.delivered), U(R.s.nic.created));
    sim_free(&R.s);
    return 0;
  }
  if (argc >= 6 && !strcmp(argv[1], "-x")) {   /* -x TOPO TRACE VCS TDD: log any run */
    run_scenario(&R, argv[2], argv[3], atoi(argv[4]), 1, (unsigned)atoi(argv[5]), 20000, 1);
    sim_free(&R.s);
    return 0;
  }
  for (i = 0; i < count; i++) {
    const scenario_t *sc = &scenarios[i];
    int log = verbose && !strcmp(verbose, sc->name);
    check_begin();
    check_mute = sc->known_bug && !log;
    /* without SPIN: a deadlock stays stuck, congestion drains */
    if (run_scenario(&R, sc->topo, sc->trace, sc->vcs, 0, sc->tdd, 2000, 0) == 0)
      CHECK(R.status == (sc->deadlock ? SIM_STUCK : SIM_DRAINED),
            "without SPIN: status %d, %llu of %llu delivered", (int)R.status,
            (unsigned long long)R.s.sink.delivered, (unsigned long long)R.s.nic.created);
    sim_free(&R.s);
    if (run_scenario(&R, sc->topo, sc->trace, sc->vcs, 1, sc->tdd, 20000, log) == 0) {
      CHECK(R.status == SIM_DRAINED, "with SPIN: status %d (%s), %llu of %llu delivered",
            (int)R.status, R.s.err, (unsigned long long)R.s.sink.delivered,
            (unsigned long long)R.s.nic.created);
      sc->check(&R);
    }
    sim_free(&R.s);
    if (sc->known_bug && check_group_failed) {
      /* what the paper and the contract require, which the C model does
       * not do yet: reported, not counted as a failure */
      known++;
      printf("known %s: %s (%d checks fail, the first at line %d)\n", sc->name, sc->known_bug,
             check_group_failed, check_group_line);
    } else if (sc->known_bug) {
      failed++;
      printf("FAIL %s: passes now; drop its known-bug mark\n", sc->name);
    } else if (check_group_failed) {
      failed++;
      printf("FAIL %s\n", sc->name);
    } else {
      passed++;
      printf("ok   %s\n", sc->name);
    }
  }
  printf("%d passed, %d failed, %d known C-model bugs\n", passed, failed, known);
  return failed ? 1 : 0;
}
