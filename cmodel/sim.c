/* sim.c - see sim.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "text.h"

void sim_defaults(sim_opts_t *o)
{
  memset(o, 0, sizeof *o);
  o->topo = "mesh8x8";
  o->traffic = "uniform_random";
  o->algo = ALGO_XY;
  o->vcs = 1;
  o->rate = 0.1;
  o->long_frac = 0.5;
  o->cycles = 20000;
  o->warmup = 2000;
  o->drain_limit = 100000;
  o->seed = 1;
  o->spin = 0;
  o->tdd = SIM_TDD_AUTO;         /* 128, or more with long links (sim_auto_tdd) */
  o->mode.admit = o->mode.reroute = o->mode.adopt = 1;
  o->mode.admit_occ = 0;         /* occupancy admission: off in both modes */
  /* no injection window, no early credits: sim_set_mode's live mode adds
   * both (spinsim's and the co-simulation's default) */
  o->mode.window = 0;
  o->mode.window_slack = 0;
  o->mode.early_credit = 0;
  o->mode.window_notice = 0;     /* the window sees deliveries at once: both modes */
  o->mode.throttle = 0;          /* no recovery throttle: sim_set_mode's live mode adds it */
  o->mode.min_cycles = 0;        /* minimal in hops, in both modes (contract 4) */
  o->sm.pipe = 2;
}

void sim_set_mode(sim_opts_t *o, int live)
{
  o->mode.admit = live ? 2 : 0;      /* window-gated admission (contract 6) */
  o->mode.reroute = o->mode.adopt = live;
  o->sm.pipe = live ? 2 : 0;          /* the paper's router, its timing too */
  o->mode.window = live ? 4 : 0;      /* the NICs' self-tuned window (contract 8) */
  o->mode.window_slack = live ? 8 : 0;
  o->mode.early_credit = live;        /* contract 5 */
  o->mode.throttle = live ? 4096 : 0; /* the recovery throttle (contract 8) */
}

const char *algo_name(route_algo_t a)
{
  return a == ALGO_XY ? "xy" : a == ALGO_WEST_FIRST ? "west_first"
       : a == ALGO_ESCAPE ? "escape" : a == ALGO_FAVORS_NMIN ? "favors_nmin"
       : a == ALGO_DF_MIN ? "df_min" : a == ALGO_UGAL ? "ugal" : "favors_min";
}

int algo_parse(const char *s, route_algo_t *a)
{
  if (!strcmp(s, "xy")) *a = ALGO_XY;
  else if (!strcmp(s, "west_first")) *a = ALGO_WEST_FIRST;
  else if (!strcmp(s, "favors_min")) *a = ALGO_FAVORS_MIN;
  else if (!strcmp(s, "favors_nmin")) *a = ALGO_FAVORS_NMIN;
  else if (!strcmp(s, "escape")) *a = ALGO_ESCAPE;
  else if (!strcmp(s, "df_min")) *a = ALGO_DF_MIN;
  else if (!strcmp(s, "ugal")) *a = ALGO_UGAL;
  else return -1;
  return 0;
}

static void emit(void *ctx, int src, int dst, int flits)
{
  sim_t *s = ctx;
  nic_create(&s->nic, src, dst, flits, s->now, sim_measuring(s));
}

/* Checks of the topology against what the network builds, made here so that
 * they name the file's line and the option: link latencies of 1 to
 * TOPO_MAX_LATENCY (contract 1); escape routing needs a mesh.  Returns 0 or
 * -1 (s->err). */
static int check_topology(sim_t *s, const sim_opts_t *o)
{
  const topo_t *t = &s->topo;
  int i, first = -1;
  for (i = 0; i < t->routers * t->radix; i++)
    if (t->peer_router[i] >= 0 && t->latency[i] > TOPO_MAX_LATENCY &&
        (first < 0 || t->line[i] < t->line[first]))
      first = i;
  if (first >= 0) {
    if (t->kind == TOPO_KIND_FILE)
      snprintf(s->err, sizeof s->err, "%s:%d: link latency %d: the router takes 1 to %d",
               o->topo + 5, t->line[first], t->latency[first], TOPO_MAX_LATENCY);
    else
      snprintf(s->err, sizeof s->err, "%s: router %d port %d: link latency %d: the router "
               "takes 1 to %d", o->topo, first / t->radix, first % t->radix,
               t->latency[first], TOPO_MAX_LATENCY);
    return -1;
  }
  if (o->algo == ALGO_ESCAPE && t->kind != TOPO_KIND_MESH) {
    snprintf(s->err, sizeof s->err, "escape routing applies to meshes only (its escape VC, "
             "VC 0, is routed west-first); '%s' is a %s", o->topo,
             t->kind == TOPO_KIND_TORUS ? "torus" : t->kind == TOPO_KIND_RING ? "ring"
             : t->kind == TOPO_KIND_DRAGONFLY ? "dragonfly" : "topology file");
    return -1;
  }
  return 0;
}

unsigned sim_auto_tdd(const topo_t *t)
{
  const uint64_t d = (uint64_t)topo_diameter(t) * (uint64_t)topo_max_latency(t);
  return d < 128u ? 128u : d > 32768u ? 32768u : (unsigned)d;
}

uint64_t sim_cover_tdd(uint64_t loop)
{
  const uint64_t d = (loop + 2u) / 3u;
  return d < 128u ? 128u : d;
}

int sim_tdd_parse(const char *s, unsigned *tdd)
{
  char *end;
  unsigned long long v;
  if (!strcmp(s, "auto")) *tdd = SIM_TDD_AUTO;
  else if (!strcmp(s, "cover")) *tdd = SIM_TDD_COVER;
  else {
    if (!*s || *s == '-') return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v < 2 || v > 32768) return -1;
    *tdd = (unsigned)v;
  }
  return 0;
}

int sim_tdd_resolve(const topo_t *t, int vcs, int sm_pipe, unsigned tdd, unsigned *out,
                    const char **rule, char *err, size_t errlen)
{
  *rule = NULL;
  *out = tdd;
  if (tdd == SIM_TDD_AUTO) {
    *out = sim_auto_tdd(t);
    *rule = "auto";
  } else if (tdd == SIM_TDD_COVER) {
    const uint64_t loop = sm_loop_bound(t, vcs, sm_pipe);
    const uint64_t d = sim_cover_tdd(loop);
    if (d > 32768u) {
      snprintf(err, errlen, "--tdd cover: %s can form a loop of %llu cycles, which needs t_DD "
               "%llu, over 32768", t->name, (unsigned long long)loop, (unsigned long long)d);
      return -1;
    }
    *out = (unsigned)d;
    *rule = "cover";
  }
  return 0;
}

static int init(sim_t *s, const sim_opts_t *o, int models);

int sim_init(sim_t *s, const sim_opts_t *o, int models)
{
  int rc = init(s, o, models);
  /* messages quote names and file contents: escaped for the terminal */
  if (rc != 0) text_escape(s->err, sizeof s->err, s->err);
  return rc;
}

static int init(sim_t *s, const sim_opts_t *o, int models)
{
  memset(s, 0, sizeof *s);
  s->o = *o;
  if (o->warmup > o->cycles) {
    snprintf(s->err, sizeof s->err, "warm-up (%llu) longer than the injection window (%llu cycles)",
             (unsigned long long)o->warmup, (unsigned long long)o->cycles);
    return -1;
  }
  if (topo_from_name(o->topo, &s->topo, s->err, sizeof s->err) != 0) return -1;
  if (s->topo.nodes > 65535) {
    snprintf(s->err, sizeof s->err, "%s: %d nodes, the head flit holds 16-bit ids",
             o->topo, s->topo.nodes);
    return -1;
  }
  if (check_topology(s, o) != 0) return -1;
  if (sim_tdd_resolve(&s->topo, o->vcs, o->sm.pipe, o->tdd, &s->o.tdd, &s->o.tdd_rule, s->err,
                      sizeof s->err) != 0)
    return -1;
  s->tg = traffic_new(o->traffic, &s->topo, o->rate, o->long_frac, o->seed,
                      s->err, sizeof s->err);
  if (!s->tg) return -1;
  if (net_init(&s->net, &s->topo, o->algo, o->vcs, o->spin, s->o.tdd, o->mode, &o->sm, o->seed,
               s->err, sizeof s->err) != 0)
    return -1;
  if (nic_init(&s->nic, s->topo.nodes, o->vcs, models) != 0 ||
      sink_init(&s->sink, 0, s->topo.nodes, o->vcs) != 0) {
    snprintf(s->err, sizeof s->err, "out of memory");
    return -1;
  }
  nic_concentrate(&s->nic, s->topo.nics);
  if (faults_parse(o->faults, &s->topo, &s->faults, s->err, sizeof s->err) != 0 ||
      faults_check(&s->faults, &s->topo, net_route_fn(o->algo, o->mode.min_cycles),
                   o->algo == ALGO_ESCAPE,
                   s->err, sizeof s->err) != 0)
    return -1;
  if (nic_window(&s->nic, &s->topo, o->mode.window, o->mode.window_slack,
                 o->mode.window_notice) != 0) {
    snprintf(s->err, sizeof s->err, "out of memory for the injection window's latencies");
    return -1;
  }
  throttle_init(&s->thr, (uint64_t)o->mode.throttle);
  if (o->algo == ALGO_FAVORS_NMIN) nic_route_header(&s->nic, s->topo.dist, o->seed);
  if (o->algo == ALGO_UGAL) nic_route_ugal(&s->nic, &s->topo, o->seed);
  return 0;
}

void sim_free(sim_t *s)
{
  diag_faults_free(&s->diag);
  faults_free(&s->faults);
  sink_free(&s->sink);
  nic_free(&s->nic);
  net_free(&s->net);
  if (s->tg) traffic_free(s->tg);
  topo_free(&s->topo);
  s->tg = NULL;
}

/* Each router's admission in this cycle (contract 6), after the NICs' start
 * decisions: window-gated (admit 2: while one of its NICs has its window cut
 * to half or less) or as the mode says, and with the recovery throttle on
 * (contract 8) injection admission and at least occupancy admission 1. */
static void sim_admission(sim_t *s)
{
  network_t *net = &s->net;
  const router_mode_t *m = &s->o.mode;
  const int on = s->thr.on;
  int r, k;
  for (r = 0; r < net->n; r++) {
    int cut = m->admit == 1;
    for (k = 0; m->admit == 2 && k < net->nics && !cut; k++)
      cut = nic_window_cut(&s->nic, r * net->nics + k);
    net->cfg[r].admit = cut || on;
    net->cfg[r].admit_occ = on && !m->admit_occ ? 1 : m->admit_occ;
  }
}

void sim_cycle_pre(sim_t *s)
{
  network_t *net = &s->net;
  faults_t *fs = &s->faults;
  s->tables_changed = 0;
  if (s->now == faults_next_cycle(fs)) {   /* contract 4.4: the stage's tables, built now */
    char why[sizeof s->err - 64];
    if (faults_apply(fs, &s->topo, net->masks, net->masks_esc, why, sizeof why) != 0) {
      snprintf(s->err, sizeof s->err, "C model: %s", why);
      s->failed = 1;
    }
    s->tables_changed = 1;
    diag_faults_note(&s->diag, net, fs);   /* statistics only */
  }
  if (sim_injecting(s)) traffic_tick(s->tg, s->now, emit, s);
  s->admit_set = s->o.mode.admit == 2;   /* the window's gate may change every cycle */
  if (s->o.mode.throttle) {
    const int was = s->thr.on;
    s->nic.cap = throttle_step(&s->thr, s->now, net_recovering(net));
    if (s->thr.on != was) s->admit_set = 1;
  }
  nic_inject(&s->nic, &net->cred_reg[net->cycle & 1][0], net->ports, s->now);
  if (s->admit_set) sim_admission(s);
}

int sim_cycle_post(sim_t *s)
{
  network_t *net = &s->net;
  const flit_t *ej;
  int i, meas;
  if (s->failed) return -1;
  diag_faults_step(&s->diag, net);   /* statistics only */
  memcpy(net->inj, s->nic.inj_next, (size_t)net->nodes * sizeof *net->inj);
  s->now++;
  if (sim_injecting(s)) s->inject_end = s->now;
  meas = sim_counting(s);
  /* the routers whose ejection registers (NIC ports) were written; the
   * others hold idle words */
  ej = net->flit_reg[net->cycle & 1];     /* router r's port k is ej[r * ports + k] */
  for (i = 0; i < net->n_ejecting; i++) {
    const int r = net->ejecting[i];
    int k;
    for (k = 0; k < net->nics; k++) {
      const flit_t *f = ej + (size_t)r * (size_t)net->ports + (size_t)k;
      if (!(net->valid[net->cycle & 1][r] >> k & 1u) || CTL_KIND(f->ctl) == KIND_IDLE) continue;
      if (sink_eject(&s->sink, &s->nic, r * net->nics + k, f, s->now, meas) != 0) {
        snprintf(s->err, sizeof s->err, "C model: %s", s->sink.err);
        return -1;
      }
    }
  }
  return 0;
}

/* Called once every packet is delivered: SPIN has nothing left to do when no
 * router needs stepping (router_busy: nothing buffered, FSM OFF, in no
 * recovery) and no special message is on a link (a spin flit carries a
 * packet, so none is left). */
static int spin_settled(const sim_t *s)
{
  const network_t *n = &s->net;
  int r, p;
  if (!s->o.spin) return 1;
  if (net_pipes_busy(n, 1)) return 0;
  for (r = 0; r < n->n; r++) {
    if (router_busy(&n->rt[r])) return 0;
    for (p = 1; p < n->ports; p++)
      if (CTL_KIND(net_flit_out(n, r, p)->ctl) >= KIND_PROBE) return 0;
  }
  return 1;
}

sim_status_t sim_status(const sim_t *s)
{
  int over;
  if (sim_injecting(s)) return SIM_RUNNING;
  over = s->now - s->inject_end >= s->o.drain_limit;
  /* drained once every packet is delivered and SPIN has settled, so that
   * the co-simulation compares the end of a recovery too */
  if (nic_outstanding(&s->nic) == 0) return over || spin_settled(s) ? SIM_DRAINED : SIM_RUNNING;
  return over ? SIM_STUCK : SIM_RUNNING;
}

/* The whole network is idle: nothing queued at a NIC or on its way, no
 * injection register in use, every router empty, its SPIN FSM OFF and in no
 * recovery, no probe mark standing (its age counts), none of its downstream
 * VCs busy (so every FAvORS age is 0), and every link and credit register
 * idle. */
static int net_idle(const sim_t *s)
{
  const network_t *n = &s->net;
  const int b = (int)(n->cycle & 1);
  int r, k;
  if (nic_outstanding(&s->nic) != 0 || net_pipes_busy(n, 0)) return 0;
  for (k = 0; k < (n->n + 63) / 64; k++)
    if (s->nic.active[k]) return 0;
  for (r = 0; r < n->n; r++) {
    const router_t *rt = &n->rt[r];
    if (router_busy(rt) || rt->busy_ports || n->valid[b][r] || n->wake[b][r])
      return 0;
    if (s->o.spin)
      for (k = 1; k < n->ports; k++)
        if (spin_mark_standing(&rt->sp, n->fmt.cyc_max, n->cycle, k)) return 0;
  }
  for (r = 0; r < n->nodes; r++)
    if (CTL_KIND(n->inj[r].ctl) != KIND_IDLE) return 0;
  return 1;
}

uint64_t sim_idle_skip(sim_t *s, uint64_t limit)
{
  uint64_t next, last, k;
  if (nic_outstanding(&s->nic) != 0) return 0;   /* the common case: at once */
  /* the skipped cycles create no packet, and injection goes on through all
   * of them (then inject_end moves along as it would) */
  next = traffic_next_cycle(s->tg);
  last = traffic_kind(s->tg) == TRAFFIC_TRACE && !traffic_exhausted(s->tg)
             ? UINT64_MAX : s->o.cycles - 1;
  if (next > last) next = last;
  if (next > limit) next = limit;
  if (next > faults_next_cycle(&s->faults)) next = faults_next_cycle(&s->faults);
  if (next <= s->now) return 0;
  k = next - s->now;
  if (s->o.spin) {   /* whole periods of the rotating priority */
    const uint64_t period = 4u * (uint64_t)s->o.tdd * (uint64_t)s->net.n;
    k -= k % period;
  }
  if (k == 0 || !net_idle(s)) return 0;
  /* One idle step clears the link banks (both are idle after it); the
   * others would change nothing but the cycle number. */
  net_step(&s->net);
  s->net.cycle += k - 1;
  s->now += k;
  s->inject_end = s->now;
  s->skipped += k;
  return k;
}

sim_status_t sim_run(sim_t *s)
{
  sim_status_t st;
  do {
    sim_idle_skip(s, UINT64_MAX);
    sim_cycle_pre(s);
    net_step(&s->net);
    if (sim_cycle_post(s) != 0) return SIM_ERROR;
    st = sim_status(s);
  } while (st == SIM_RUNNING);
  return st;
}
