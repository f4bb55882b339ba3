/* test_window.c - the NICs' injection window (docs/microarchitecture.md,
 * section 8), watched from outside the NIC: the heads the injection
 * registers carry are the starts, the reference sink's deliveries the ends.
 * No node ever has more than W packets in flight; with W >= 2 no node starts
 * a packet while one of its packets is late (its zero-load latency computed
 * here from the mesh's coordinates, not by the model), and a twin of the
 * self-tuned window (halved by a late packet, grown by one delivered on
 * time) written here from the contract admits every start the model makes
 * and counts the same halvings and growths; without a window the same run
 * has more in flight (the watch can see it); with delivery notices a packet
 * stays in the window until 3 + its zero-load way back after its delivery
 * (the twin keeps it that long, so a start the model makes sooner is over
 * the window); the zero-load cycle distances of topo_cycle_dist.  Prints one line per failed check and ends with
 * "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flit.h"
#include "nic.h"
#include "sim.h"
#include "topology.h"
#include "check.h"
#include "opts.h"

#define MAX_FLIGHT 64

typedef struct {
  uint64_t id[MAX_FLIGHT], due[MAX_FLIGHT];   /* in flight, oldest first */
  uint64_t back[MAX_FLIGHT];     /* notices: 3 + the zero-load way back */
  uint64_t seen_at[MAX_FLIGHT];  /* notices: the cycle its notice arrives (0: not delivered) */
  int n;
  unsigned w16;          /* the twin's window (W >= 2), 1/16 packets */
  uint64_t cut_after;
} watch_t;

typedef struct {
  int max_flight;        /* most packets one node had in flight */
  uint64_t starts, starts_beside;   /* starts; those with another packet in flight */
  uint64_t bad_count, bad_late;     /* starts over the window; while one was late */
  uint64_t bad_twin;     /* starts the twin's window does not admit */
  uint64_t cuts, grows;  /* the twin's halvings and growths */
  unsigned min_w16;      /* the smallest window the twin saw */
  uint64_t noticed;      /* notices: packets that left at their notice */
  uint64_t pending_end;  /* packets still in the twin's window at the end */
  uint64_t gate_on, gate_off, bad_gate;   /* window-gated admission: router-cycles
                                             with it on, off, and unlike the twin's */
} seen_t;

static int manhattan(const topo_t *t, int a, int b)
{
  return abs(t->x[a] - t->x[b]) + abs(t->y[a] - t->y[b]);
}

/* Entry i leaves the twin's window in cycle now; on time it grows the
 * window by 1/window. */
static void twin_leave(watch_t *w, int i, int W, uint64_t now, seen_t *seen)
{
  if (W >= 2 && now <= w->due[i]) {
    const unsigned g = 256u / w->w16;
    w->w16 += g ? g : 1u;
    if (w->w16 > 16u * (unsigned)W) w->w16 = 16u * (unsigned)W;
    seen->grows++;
  }
  for (; i + 1 < w->n; i++) {
    w->id[i] = w->id[i + 1];
    w->due[i] = w->due[i + 1];
    w->back[i] = w->back[i + 1];
    w->seen_at[i] = w->seen_at[i + 1];
  }
  w->n--;
}

/* The node's packets that the reference model has delivered (in cycle
 * now) leave it, or with notices (notice) get the cycle their notice
 * arrives. */
static void drop_delivered(const nic_t *nic, watch_t *w, int W, int notice, uint64_t now,
                           seen_t *seen)
{
  int i = 0;
  while (i < w->n) {
    const uint64_t id = w->id[i];
    const int done = id < nic->sb.oldest || (nic->sb.ring[id & nic->sb.mask].done & 1u);
    if (!done || w->seen_at[i]) {
      i++;
    } else if (notice) {
      w->seen_at[i] = now + w->back[i];
      i++;
    } else {
      twin_leave(w, i, W, now, seen);
    }
  }
}

/* Notices, in cycle now before the start decision: the packets whose
 * notice has arrived leave the twin's window. */
static void twin_notices(watch_t *w, int W, uint64_t now, seen_t *seen)
{
  int i = 0;
  while (i < w->n)
    if (w->seen_at[i] && w->seen_at[i] <= now) {
      twin_leave(w, i, W, now, seen);
      seen->noticed++;
    } else {
      i++;
    }
}

/* The twin's halving, in cycle now before the start decision: the first
 * late packet in flight at or above cut_after halves the window. */
static void twin_tune(watch_t *w, uint64_t now, seen_t *seen)
{
  int i;
  for (i = 0; i < w->n; i++)
    if (w->id[i] >= w->cut_after && now > w->due[i]) {
      w->w16 = w->w16 / 2 < 16 ? 16 : w->w16 / 2;
      w->cut_after = w->id[w->n - 1] + 1u;
      seen->cuts++;
      break;
    }
  if (w->w16 < seen->min_w16) seen->min_w16 = w->w16;
}

/* A head in node r's injection register in cycle now: a start. */
static void on_start(const sim_t *s, watch_t *w, int r, const flit_t *f, int L, seen_t *seen)
{
  const sim_opts_t *o = &s->o;
  const uint64_t id = HEAD_ID(f->data);
  const int len = HEAD_LEN(f->data), dst = HEAD_DST(f->data);
  int i;
  seen->starts++;
  if (w->n) seen->starts_beside++;
  if (o->mode.window && w->n >= o->mode.window) seen->bad_count++;
  if (o->mode.window >= 2 && w->n >= (int)(w->w16 / 16)) seen->bad_twin++;
  if (o->mode.window >= 2)
    for (i = 0; i < w->n; i++)
      if (s->now > w->due[i]) seen->bad_late++;
  if (w->n < MAX_FLIGHT) {
    const uint64_t d = (uint64_t)(manhattan(&s->topo, r, dst) * (L + 1));
    w->id[w->n] = id;
    w->back[w->n] = 3u + d;
    w->seen_at[w->n] = 0;
    w->due[w->n++] = s->now + 3u + d + (uint64_t)(len - 1) + (uint64_t)o->mode.window_slack +
                     (o->mode.window_notice ? 3u + d : 0u);
  }
  if (w->n > seen->max_flight) seen->max_flight = w->n;
}

/* Window-gated admission (contract 6): each router's admission this cycle
 * is on exactly while its NIC's window, as the twin keeps it, is at half its
 * maximum or less (one NIC a router here). */
static void watch_gate(const sim_t *s, const watch_t *w, int W, seen_t *seen)
{
  int r;
  for (r = 0; r < s->net.n; r++) {
    const int want = W < 2 || w[r].w16 <= 16u * (unsigned)(W / 2);
    if (s->net.cfg[r].admit) seen->gate_on++;
    else seen->gate_off++;
    if (s->net.cfg[r].admit != want) seen->bad_gate++;
  }
}

/* Runs o (a mesh whose links all have latency L, one NIC a router) cycle by
 * cycle, watching every node.  Returns the run's end. */
static sim_status_t watch_run(const sim_opts_t *o, int L, seen_t *seen, sim_t *s)
{
  watch_t *w;
  sim_status_t st = SIM_ERROR;
  int r;
  memset(seen, 0, sizeof *seen);
  seen->min_w16 = 16u * (unsigned)o->mode.window;
  if (!CHECK(sim_init(s, o, 1) == 0, "sim_init(%s): %s", o->topo, s->err)) return SIM_ERROR;
  w = calloc((size_t)s->topo.nodes, sizeof *w);
  if (!CHECK(w != NULL, "out of memory")) return SIM_ERROR;
  for (r = 0; r < s->topo.nodes; r++) w[r].w16 = 16u * (unsigned)o->mode.window;
  do {
    if (o->mode.window_notice)
      for (r = 0; r < s->topo.nodes; r++)
        if (w[r].n) twin_notices(&w[r], o->mode.window, s->now, seen);
    if (o->mode.window >= 2)
      for (r = 0; r < s->topo.nodes; r++)
        if (w[r].n) twin_tune(&w[r], s->now, seen);
    sim_cycle_pre(s);
    if (o->mode.admit == 2) watch_gate(s, w, o->mode.window, seen);
    for (r = 0; r < s->topo.nodes; r++) {
      const flit_t *f = &s->nic.inj_next[r];
      if (CTL_KIND(f->ctl) == KIND_FLIT && CTL_HEAD(f->ctl)) on_start(s, &w[r], r, f, L, seen);
    }
    net_step(&s->net);
    if (sim_cycle_post(s) != 0) break;
    for (r = 0; r < s->topo.nodes; r++)
      drop_delivered(&s->nic, &w[r], o->mode.window, o->mode.window_notice, s->now, seen);
    st = sim_status(s);
  } while (st == SIM_RUNNING);
  for (r = 0; r < s->topo.nodes; r++) seen->pending_end += (uint64_t)w[r].n;
  free(w);
  return st;
}

static void base(sim_opts_t *o, const char *topo, double rate, int window, int slack,
                 int notice)
{
  opts_favors_spin(o, topo, rate, 4000);
  o->mode.window = window;
  o->mode.window_slack = slack;
  o->mode.window_notice = notice;
}

/* A window of 1 past saturation: never two packets of a node in flight,
 * every packet delivered; without the window the same run has more. */
static void window_one(void)
{
  sim_opts_t o;
  sim_t s;
  seen_t on, off;
  base(&o, "mesh8x8", 0.3, 1, 0, 0);
  CHECK(watch_run(&o, 1, &on, &s) == SIM_DRAINED, "window 1 at 0.3 did not drain");
  CHECK(on.bad_count == 0 && on.max_flight == 1, "%llu starts over the window, at most %d "
        "in flight", (unsigned long long)on.bad_count, on.max_flight);
  CHECK(on.starts == s.nic.injected && s.nic.win_held > 0, "starts %llu injected %llu held %llu",
        (unsigned long long)on.starts, (unsigned long long)s.nic.injected,
        (unsigned long long)s.nic.win_held);
  sim_free(&s);
  base(&o, "mesh8x8", 0.3, 0, 0, 0);
  CHECK(watch_run(&o, 1, &off, &s) == SIM_DRAINED, "no window at 0.3 did not drain");
  CHECK(off.max_flight > 1 && s.nic.win_held == 0, "without a window at most %d in flight, "
        "held %llu", off.max_flight, (unsigned long long)s.nic.win_held);
  sim_free(&s);
}

/* A window of 1 to 3 on links of 3 cycles, slack 0 and 20: never over 3,
 * never a start beside a late packet, every start admitted by the twin's
 * window, the same halvings and growths, and starts beside another packet
 * happen. */
static void window_late(int slack, int notice)
{
  sim_opts_t o;
  sim_t s;
  seen_t seen;
  base(&o, "mesh4x4@3", 0.5, 3, slack, notice);
  CHECK(watch_run(&o, 3, &seen, &s) == SIM_DRAINED, "window 3 slack %d did not drain", slack);
  CHECK(seen.bad_count == 0 && seen.max_flight <= 3, "slack %d: %llu starts over the window",
        slack, (unsigned long long)seen.bad_count);
  CHECK(seen.bad_late == 0, "slack %d: %llu starts beside a late packet", slack,
        (unsigned long long)seen.bad_late);
  CHECK(seen.starts_beside > 0 && seen.max_flight >= 2, "slack %d: no start beside another "
        "packet (%llu starts)", slack, (unsigned long long)seen.starts);
  CHECK(s.nic.win_held > 0, "slack %d: the window never held a packet", slack);
  CHECK(seen.bad_twin == 0, "slack %d: %llu starts the twin's window does not admit", slack,
        (unsigned long long)seen.bad_twin);
  CHECK(seen.cuts == s.nic.win_cuts && seen.grows == s.nic.win_grows, "slack %d: halvings "
        "%llu / %llu, growths %llu / %llu (twin / model)", slack, (unsigned long long)seen.cuts,
        (unsigned long long)s.nic.win_cuts, (unsigned long long)seen.grows,
        (unsigned long long)s.nic.win_grows);
  CHECK(seen.cuts > 0 && seen.grows > 0 && seen.min_w16 == 16, "slack %d: %llu halvings, %llu "
        "growths, smallest window %u/16: the tuning was not exercised", slack,
        (unsigned long long)seen.cuts, (unsigned long long)seen.grows, seen.min_w16);
  sim_free(&s);
}

/* Delivery notices with a window of 1: a node starts no packet until the
 * notice of its last one has come back (3 + its zero-load way back after
 * its delivery), so it carries less than with the window alone; every
 * packet leaves at its notice. */
static void window_notices(void)
{
  sim_opts_t o;
  sim_t s;
  seen_t on;
  uint64_t held_plain;
  base(&o, "mesh8x8", 0.3, 1, 0, 0);
  CHECK(watch_run(&o, 1, &on, &s) == SIM_DRAINED, "window 1 at 0.3 did not drain");
  held_plain = s.nic.win_held;
  sim_free(&s);
  base(&o, "mesh8x8", 0.3, 1, 0, 1);
  CHECK(watch_run(&o, 1, &on, &s) == SIM_DRAINED, "window 1 with notices did not drain");
  CHECK(on.bad_count == 0 && on.max_flight == 1, "notices: %llu starts before the last "
        "packet's notice came back", (unsigned long long)on.bad_count);
  /* the last packets' notices are on their way when the run has drained */
  CHECK(on.noticed > 0 && on.noticed + on.pending_end == on.starts &&
        on.starts == s.nic.injected, "notices: %llu left at their notice, %llu on the way at "
        "the end, %llu starts, %llu injected", (unsigned long long)on.noticed,
        (unsigned long long)on.pending_end, (unsigned long long)on.starts,
        (unsigned long long)s.nic.injected);
  CHECK(s.nic.win_held > held_plain, "notices: held %llu node-cycles, no more than without "
        "them (%llu)", (unsigned long long)s.nic.win_held, (unsigned long long)held_plain);
  sim_free(&s);
}

/* topo_cycle_dist: on a mesh with L-cycle links, manhattan x (L + 1); on a
 * dragonfly with 4-cycle global links, 2 a local hop and 5 a global one. */
static void cycle_dist(void)
{
  char err[256];
  topo_t t;
  int *d, a, b, bad = 0;
  if (!CHECK(topo_from_name("mesh5x3@4", &t, err, sizeof err) == 0, "%s", err)) return;
  d = topo_cycle_dist(&t);
  if (CHECK(d != NULL, "no table")) {
    for (a = 0; a < t.routers; a++)
      for (b = 0; b < t.routers; b++)
        if (d[a * t.routers + b] != manhattan(&t, a, b) * 5) bad++;
    CHECK(bad == 0, "mesh5x3@4: %d distances wrong", bad);
  }
  free(d);
  topo_free(&t);
  if (!CHECK(topo_from_name("dragonfly-4-1-2@4", &t, err, sizeof err) == 0, "%s", err)) return;
  d = topo_cycle_dist(&t);
  if (CHECK(d != NULL, "no table")) {
    bad = 0;
    for (a = 0; a < t.routers; a++)
      for (b = 0; b < t.routers; b++) {
        const int h = t.dist[a * t.routers + b], c = d[a * t.routers + b];
        const int same = topo_df_group(&t, a) == topo_df_group(&t, b);
        if (same ? c != 2 * h : c < 5 || c > 2 * (h - 1) + 5 + 4) bad++;
      }
    CHECK(bad == 0, "dragonfly-4-1-2@4: %d distances out of range", bad);
  }
  free(d);
  topo_free(&t);
}

/* Window-gated admission (--admit 2): on mesh8x8 past saturation with the
 * window of 1 to 4 each router's admission follows its NIC's window (the
 * twin's) and is both on and off; without a self-tuned window it is
 * admission as level 1, the same run cycle for cycle. */
static void window_gated(void)
{
  sim_opts_t o;
  sim_t s, t;
  seen_t seen;
  base(&o, "mesh8x8", 0.3, 4, 0, 0);
  o.mode.admit = 2;
  CHECK(watch_run(&o, 1, &seen, &s) == SIM_DRAINED, "gated admission at 0.3 did not drain");
  CHECK(seen.bad_gate == 0 && seen.gate_on > 0 && seen.gate_off > 0 && seen.bad_twin == 0,
        "gate unlike the twin's window %llu times; on %llu, off %llu router-cycles; %llu starts "
        "the twin refused", (unsigned long long)seen.bad_gate, (unsigned long long)seen.gate_on,
        (unsigned long long)seen.gate_off, (unsigned long long)seen.bad_twin);
  sim_free(&s);
  base(&o, "mesh8x8", 0.3, 0, 0, 0);
  o.mode.admit = 2;
  CHECK(sim_init(&s, &o, 1) == 0 && sim_run(&s) == SIM_DRAINED, "admit 2, no window: %s", s.err);
  o.mode.admit = 1;
  CHECK(sim_init(&t, &o, 1) == 0 && sim_run(&t) == SIM_DRAINED, "admit 1, no window: %s", t.err);
  CHECK(s.now == t.now && s.sink.lat_sum == t.sink.lat_sum && s.sink.delivered == t.sink.delivered,
        "admit 2 without a window ran %llu cycles, admit 1 %llu",
        (unsigned long long)s.now, (unsigned long long)t.now);
  sim_free(&s);
  sim_free(&t);
}

int main(void)
{
  cycle_dist();
  window_gated();
  window_one();
  window_late(0, 0);
  window_late(20, 0);
  window_late(0, 1);
  window_notices();
  return check_done();
}
