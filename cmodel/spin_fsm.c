/* spin_fsm.c - the SPIN counter FSM (docs/microarchitecture.md, 12.3, 12.6,
 * 12.7): rtl/spin_fsm.sv. */
#include "spin.h"
#include "spin_log.h"

/* The FSM's own message round its loop, out of port0. */
static void originate(spin_router_t *s, spin_ctx_t *c, unsigned kind, unsigned delay,
                      spin_stats_t *st)
{
  sm_t m;
  memset(&m, 0, sizeof m);
  m.kind = kind;
  m.sender = (unsigned)c->id;
  m.t = delay;
  m.lc = s->loop.cyc_q;
  m.fk = s->loop.fk0_q;
  m.fork_lo = s->loop.fork_lo_q;
  m.fork_hi = s->loop.fork_hi_q;
  spin_offer_own(c, s->loop.port0_q, &m, st);
}

/* The sender's recovery is over. */
static void finish(spin_router_t *s, spin_ctx_t *c, spin_stats_t *st)
{
  st->recoveries++;
  if (s->spins_q) {
    uint64_t dt = c->cycle - s->t_expiry;
    st->deadlocks_resolved++;
    if (s->spins_q > st->max_spins) {
      st->max_spins = s->spins_q;
      st->max_spins_loop = s->loop_hops;
    }
    if (s->loop_hops > st->longest_hops) st->longest_hops = s->loop_hops;
    if (s->loop.cyc_q > st->longest_cycles) st->longest_cycles = s->loop.cyc_q;
    st->expiry_to_resolve_sum += dt;
    if (st->log) spin_log_done(st->log, s->log_entry, s->spins_q, s->t_last_spin);
    st->resolve_hist[dt < SPIN_RESOLVE_BINS ? dt : SPIN_RESOLVE_BINS - 1]++;
    if (dt > st->expiry_to_resolve_max) st->expiry_to_resolve_max = dt;
  } else {
    st->false_positives++;
  }
  s->log_entry = -1;
  spin_leave(s);
  spin_load(s, c, c->tdd - 1);
}

/* Spin time: frozen VCs that are armed spin from the next cycle; the others
 * thaw. */
static void spin_now(spin_router_t *s, spin_ctx_t *c)
{
  int p, v;
  for (p = c->nics; p < c->ports; p++)
    for (v = 0; v < c->vcs; v++) {
      if (!s->frozen_q[p][v] || s->spinning_q[p][v]) continue;
      if (s->armed_q[p][v]) s->spinning_q[p][v] = 1;
      else s->frozen_q[p][v] = 0;
    }
}

/* Freezes the VC at p (the watched one first) that holds a whole packet for
 * the loop's first port; -1 when none does or none may be frozen. */
static int freeze_own(spin_router_t *s, spin_ctx_t *c, int p)
{
  unsigned o = s->loop.port0_q;
  int pick;
  if (!spin_may_freeze(s, c, p, o)) return -1;
  pick = spin_waiting_vc(c, p, o);
  if (pick < 0) return -1;
  if (spin_vc_waits(c, p, s->dd_vc_q, o)) pick = s->dd_vc_q;
  spin_freeze(s, p, pick, o);
  s->dd_vc_q = (uint8_t)pick;
  return pick;
}

/* Step 1: arm notices from downstream.  The frozen VC bound for that output
 * is armed; a frozen router passes the notice upstream, except at the VC
 * where the sender's loop starts (the chain ends there). */
static void arm_chain(spin_router_t *s, spin_ctx_t *c, const uint8_t *in_cred)
{
  const int sender = s->state_q >= FSM_MOVE && s->state_q <= FSM_KILL_MOVE;
  int o, p, v;
  for (o = c->nics; o < c->ports; o++) {
    if (!CRED_ARM(in_cred[o])) continue;
    for (p = c->nics; p < c->ports; p++)
      for (v = 0; v < c->vcs; v++) {
        if (!s->frozen_q[p][v] || s->armed_q[p][v] || c->out_port[p][v] != o) continue;
        s->armed_q[p][v] = 1;
        s->spin_ovc_q[p][v] = (uint8_t)CRED_ARM_VC(in_cred[o]);
        if (!(sender && p == s->dd_port_q && v == s->dd_vc_q))
          c->arm_out[p] = CRED_ARM_MAKE(v);
      }
  }
}

/* Step 2: a spinning VC sends its front flit, ahead of everything. */
static void spin_flits(spin_router_t *s, spin_ctx_t *c)
{
  int p, v;
  for (p = c->nics; p < c->ports; p++)
    for (v = 0; v < c->vcs; v++) {
      const flit_t *f = c->front[p][v];
      int o;
      if (!s->spinning_q[p][v] || !f) continue;
      o = c->out_port[p][v];
      c->spin_flit[o].data = f->data;
      c->spin_flit[o].ext = f->ext;
      c->spin_flit[o].ctl = CTL_MAKE(KIND_FLIT, CTL_HEAD(f->ctl), CTL_TAIL(f->ctl),
                                     s->spin_ovc_q[p][v]);
      c->spin_src_port[o] = p;
      c->spin_src_vc[o] = v;
      c->out_busy |= 1u << o;
      c->in_busy |= 1u << p;
    }
}

/* A spin of the sender's recovery (FORWARD_PROGRESS expiry). */
static void sender_spins(spin_router_t *s, spin_ctx_t *c, spin_stats_t *st)
{
  spin_now(s, c);
  st->spins++;
  if (!s->spins_q) s->log_walk = 1;      /* the network records the loop (spin_log.h) */
  s->t_last_spin = c->cycle;
  s->spins_q++;
  if (s->spins_q == (c->nmin ? 2u : 1u) * s->loop_hops)   /* the m-th (2m-th) */
    st->bound_violations++;
}

/* Step 3: the counter's expiry. */
static void expire(spin_router_t *s, spin_ctx_t *c, spin_stats_t *st)
{
  const unsigned C = s->loop.cyc_q;
  switch (s->state_q) {
  case FSM_DD:
    if (spin_vc_routed(c, s->dd_port_q, s->dd_vc_q) && c->out_port[s->dd_port_q][s->dd_vc_q] >= c->nics) {
      sm_t m;
      memset(&m, 0, sizeof m);
      m.kind = KIND_PROBE;
      m.sender = (unsigned)c->id;
      m.p0 = c->out_port[s->dd_port_q][s->dd_vc_q];
      spin_offer_own(c, m.p0, &m, st);
    }
    break;
  case FSM_MOVE:                 /* the move did not come back */
    s->state_q = FSM_KILL_MOVE;
    originate(s, c, KIND_KILL_MOVE, 2u * C + 2u, st);
    spin_load(s, c, C);
    break;
  case FSM_FORWARD_PROGRESS:     /* the spin cycle */
    sender_spins(s, c, st);
    s->state_q = FSM_PROBE_MOVE;
    s->pm_sent_q = 0;
    spin_load(s, c, SPIN_SETTLE - 1);
    break;
  case FSM_PROBE_MOVE:
    if (!s->pm_sent_q) {
      originate(s, c, KIND_PROBE_MOVE, 2u * C + 2u, st);
      s->pm_sent_q = 1;
      spin_load(s, c, C);
    } else {                     /* the probe_move did not come back */
      s->state_q = FSM_KILL_MOVE;
      originate(s, c, KIND_KILL_MOVE, 2u * C + 2u, st);
      spin_load(s, c, C);
    }
    break;
  case FSM_KILL_MOVE:
    finish(s, c, st);
    break;
  case FSM_FROZEN:
    if (!s->pm_sent_q) {         /* the spin cycle */
      spin_now(s, c);
      s->pm_sent_q = 1;
      spin_load(s, c, SPIN_SETTLE + 2u * C + 2u);
    } else {                     /* nobody came back for us: give up */
      st->frozen_timeouts++;
      spin_leave(s);
      spin_load(s, c, c->tdd - 1);
    }
    break;
  case FSM_OFF:
    break;
  }
}

void spin_fsm_pre(spin_router_t *s, spin_ctx_t *c, const uint8_t *in_cred, spin_stats_t *st)
{
  arm_chain(s, c, in_cred);
  spin_flits(s, c);
  if (s->cnt_q == 0) expire(s, c, st);
}

int spin_fsm_home(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *m, spin_stats_t *st)
{
  int v;
  if (m->kind == KIND_PROBE) {
    /* The loop is confirmed when a VC at the arrival port waits for the
     * port the probe first left by (not necessarily the VC it was sent
     * for: two VCs may share that output).  Otherwise it is a figure 8
     * through this router, for the probe manager. */
    if (s->state_q != FSM_DD || m->t > c->fmt->cyc_max) return 0;
    for (v = 0; v < c->vcs; v++)
      if (spin_vc_routed(c, p, v) && c->out_port[p][v] == m->p0) {
        st->probes_returned++;
        spin_take_loop(s, c, p, v, m->t, m->p0, 0, m, st);
        return 1;
      }
    return 0;
  }
  if (m->t > m->lc + 2u) return 0;        /* not home yet: a figure 8, the move manager */
  if ((m->kind == KIND_MOVE && s->state_q == FSM_MOVE) ||
      (m->kind == KIND_PROBE_MOVE && s->state_q == FSM_PROBE_MOVE && s->pm_sent_q)) {
    if (p == s->dd_port_q && m->t == s->loop.cyc_q + 2u && (v = freeze_own(s, c, p)) >= 0) {
      s->is_deadlock_q = 1;
      s->source_id_q = (uint16_t)c->id;
      s->state_q = FSM_FORWARD_PROGRESS;
      spin_load(s, c, m->t - 2u);
      c->arm_out[p] = CRED_ARM_MAKE(v);
    } else {
      st->moves_dropped++;
    }
  } else if (m->kind == KIND_KILL_MOVE && s->state_q == FSM_KILL_MOVE &&
             m->t == s->loop.cyc_q + 2u) {
    finish(s, c, st);
  } else {
    st->moves_dropped++;
  }
  return 1;
}

void spin_take_loop(spin_router_t *s, spin_ctx_t *c, int p, int v, unsigned cyc, unsigned port0,
                    unsigned fk0, const sm_t *forks, spin_stats_t *st)
{
  s->dd_port_q = (uint8_t)p;
  s->dd_vc_q = (uint8_t)v;
  s->source_id_q = (uint16_t)c->id;      /* its own recovery: where its messages went */
  memset(s->loop_out_q, 0, sizeof s->loop_out_q);
  loop_latch(&s->loop, cyc, port0, fk0, forks);
  s->t_expiry = c->cycle - cyc;
  s->t_detect = c->cycle;
  s->spins_q = 0;
  s->loop_hops = 0;
  s->log_entry = -1;
  s->adopted = 0;
  s->state_q = FSM_MOVE;
  originate(s, c, KIND_MOVE, 2u * cyc + 2u, st);
  spin_load(s, c, cyc);
}

/* The next non-empty network VC after (dd_port, dd_vc), round robin over
 * the network ports nics..P-1 and their VCs, into *pp, *pv; 0 when all are
 * empty. */
static int next_nonempty(const spin_router_t *s, const spin_ctx_t *c, int *pp, int *pv)
{
  int p = s->dd_port_q, v = s->dd_vc_q, i;
  const int total = (c->ports - c->nics) * c->vcs;
  if (!(c->nonempty >> (c->nics * SPIN_MAX_VCS))) return 0;
  if (p < c->nics) {
    p = c->ports - 1;
    v = c->vcs - 1;
  }
  for (i = 0; i < total; i++) {
    if (++v == c->vcs) {
      v = 0;
      if (++p == c->ports) p = c->nics;
    }
    if (c->nonempty >> (p * SPIN_MAX_VCS + v) & 1u) {
      *pp = p;
      *pv = v;
      return 1;
    }
  }
  return 0;
}

void spin_fsm_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped, spin_stats_t *st)
{
  const uint64_t last = s->popped_q;
  (void)st;
  s->popped_q = popped & ~((1ull << (c->nics * SPIN_MAX_VCS)) - 1u);   /* network VCs only */
  if (s->state_q == FSM_OFF || s->state_q == FSM_DD) {
    int p = s->dd_port_q, v = s->dd_vc_q;
    /* the watched VC moved (in the cycle before), is empty, or its counter
     * expired (a probe went out for it): watch the next non-empty VC */
    const unsigned b = (unsigned)(p * SPIN_MAX_VCS + v);
    int moved = s->state_q == FSM_OFF || p < c->nics || !(c->nonempty >> b & 1u) || (last >> b & 1u) ||
                s->cnt_q == 0;
    if (moved && !c->cnt_loaded) {
      if (!next_nonempty(s, c, &p, &v)) {
        s->state_q = FSM_OFF;
        s->cnt_q = 0;
      } else {
        s->state_q = FSM_DD;
        s->dd_port_q = (uint8_t)p;
        s->dd_vc_q = (uint8_t)v;
        s->cnt_q = c->tdd - 1;
      }
      return;
    }
    if (!c->cnt_loaded) s->cnt_q--;
    return;
  }
  if (!c->cnt_loaded && s->cnt_q) s->cnt_q--;
}
