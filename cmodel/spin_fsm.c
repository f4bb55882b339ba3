/* spin_fsm.c - the SPIN counter FSM (docs/microarchitecture.md, 12.2-12.6):
 * rtl/spin_fsm.sv. */
#include "spin.h"
#include "spin_log.h"

static void load(spin_router_t *s, spin_ctx_t *c, unsigned v)
{
  s->cnt_q = (uint16_t)v;
  c->cnt_loaded = 1;
}

/* The FSM's own message round the loop: the latched path, read from the
 * entry after this router's own. */
static void originate(spin_router_t *s, spin_ctx_t *c, unsigned kind, unsigned delay,
                      spin_stats_t *st)
{
  flit_t w = sm_make(kind, (unsigned)c->id, s->loop.n_q, delay, s->loop.start_q + 1u,
                     s->loop.path_q);
  spin_offer(c, (int)loop_port(&s->loop, 0), &w, c->ports, st);
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
      st->max_spins_loop = loop_len(&s->loop);
    }
    st->expiry_to_resolve_sum += dt;
    if (st->log) {
      spin_log_entry_t e;
      unsigned i;
      e.source = c->id;
      e.detected = s->t_detect;
      e.first_spin = s->t_first_spin;
      e.last_spin = s->t_last_spin;
      e.spins = s->spins_q;
      e.adopted = s->loop.start_q != 0;
      e.len = loop_len(&s->loop);
      if (e.len > SPIN_LOG_MAX_LOOP) e.len = SPIN_LOG_MAX_LOOP;
      for (i = 0; i < e.len; i++) e.port[i] = (uint8_t)loop_port(&s->loop, i);
      spin_log_add(st->log, &e);
    }
    st->resolve_hist[dt < SPIN_RESOLVE_BINS ? dt : SPIN_RESOLVE_BINS - 1]++;
    if (dt > st->expiry_to_resolve_max) st->expiry_to_resolve_max = dt;
  } else {
    st->false_positives++;
  }
  spin_leave(s);
  loop_clear(&s->loop);
  load(s, c, c->tdd - 1);
}

/* Spin time: frozen VCs that are armed start sending; the others thaw. */
static void spin_now(spin_router_t *s, spin_ctx_t *c)
{
  int p, v;
  for (p = 1; p < c->ports; p++)
    for (v = 0; v < c->vcs; v++) {
      if (!s->frozen_q[p][v] || s->spinning_q[p][v]) continue;
      if (s->armed_q[p][v]) s->spinning_q[p][v] = 1;
      else s->frozen_q[p][v] = 0;
    }
}

/* Freezes the VC at p (the watched one first) that holds a whole packet for
 * the loop's first port; -1 when none does. */
static int freeze_own(spin_router_t *s, spin_ctx_t *c, int p)
{
  unsigned o = loop_port(&s->loop, 0);
  int pick = spin_freezable_vc(s, c, p, o);
  if (pick < 0) return -1;
  if (spin_vc_waits(c, p, s->dd_vc_q, o)) pick = s->dd_vc_q;
  s->frozen_q[p][pick] = 1;
  s->armed_q[p][pick] = 0;
  s->dd_vc_q = (uint8_t)pick;
  return pick;
}

void spin_fsm_pre(spin_router_t *s, spin_ctx_t *c, const flit_t *const *in_flit,
                  const uint8_t *in_cred, spin_stats_t *st)
{
  const int P = c->ports;
  int p, v, o;
  int expired = s->cnt_q == 0;
  int sender = s->state_q >= FSM_MOVE && s->state_q <= FSM_KILL_MOVE;

  /* 1. arm notices from downstream: the frozen VC bound for that output is
   * armed; a frozen router passes the notice upstream, except at the VC
   * where the sender's loop starts (the chain ends there). */
  for (o = 1; o < P; o++) {
    if (!CRED_ARM(in_cred[o])) continue;
    for (p = 1; p < P; p++)
      for (v = 0; v < c->vcs; v++) {
        if (!s->frozen_q[p][v] || s->armed_q[p][v] || c->out_port[p][v] != o) continue;
        s->armed_q[p][v] = 1;
        s->spin_ovc_q[p][v] = (uint8_t)CRED_ARM_VC(in_cred[o]);
        if (!(sender && p == s->dd_port_q && v == s->dd_vc_q))
          c->arm_out[p] = CRED_ARM_MAKE(v);
      }
  }

  /* 2. the counter */
  if (expired) {
    switch (s->state_q) {
    case FSM_DD:
      if (c->cnt[s->dd_port_q][s->dd_vc_q] && c->route_valid[s->dd_port_q][s->dd_vc_q] &&
          c->out_port[s->dd_port_q][s->dd_vc_q] != 0) {
        unsigned op = c->out_port[s->dd_port_q][s->dd_vc_q];
        sm_path_t path = {0, 0};
        flit_t w = sm_make(KIND_PROBE, (unsigned)c->id, 1, 0, 0, path_put(path, 0, op));
        spin_offer(c, (int)op, &w, P, st);
      }
      break;
    case FSM_MOVE:                 /* the move did not come back */
      s->state_q = FSM_KILL_MOVE;
      originate(s, c, KIND_KILL_MOVE, 0, st);
      load(s, c, s->loop.cyc_q);
      break;
    case FSM_FORWARD_PROGRESS:     /* the spin cycle */
      spin_now(s, c);
      st->spins++;
      if (!s->spins_q) s->t_first_spin = c->cycle;
      s->t_last_spin = c->cycle;
      s->spins_q++;
      if (s->spins_q == (c->nmin ? 2u : 1u) * loop_len(&s->loop))   /* the m-th (2m-th) */
        st->bound_violations++;
      s->state_q = FSM_PROBE_MOVE;
      s->pm_sent_q = 0;
      load(s, c, SPIN_SETTLE - 1);
      break;
    case FSM_PROBE_MOVE:
      if (!s->pm_sent_q) {
        originate(s, c, KIND_PROBE_MOVE, 2u * s->loop.cyc_q, st);
        s->pm_sent_q = 1;
        load(s, c, s->loop.cyc_q);
      } else {                     /* the probe_move did not come back */
        s->state_q = FSM_KILL_MOVE;
        originate(s, c, KIND_KILL_MOVE, 0, st);
        load(s, c, s->loop.cyc_q);
      }
      break;
    case FSM_KILL_MOVE:
      finish(s, c, st);
      break;
    case FSM_FROZEN:
      if (!s->pm_sent_q) {         /* the spin cycle */
        spin_now(s, c);
        s->pm_sent_q = 1;
        load(s, c, SPIN_RELEASE);
      } else {                     /* nobody came back for us: give up */
        st->frozen_timeouts++;
        spin_leave(s);
        load(s, c, c->tdd - 1);
      }
      break;
    case FSM_OFF:
      break;
    }
  }

  /* 3. spin flits: a spinning VC sends its front flit, ahead of everything */
  for (p = 1; p < P; p++)
    for (v = 0; v < c->vcs; v++) {
      const flit_t *f = c->front[p][v];
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

  /* 4. this router's own messages coming back */
  for (p = 1; p < P; p++) {
    const flit_t *w = in_flit[p];
    unsigned kind = CTL_KIND(w->ctl);
    if (kind < KIND_PROBE || sm_sender(w) != (unsigned)c->id) continue;
    if (kind == KIND_PROBE) {
      /* The loop is confirmed when a VC at the arrival port waits for the
       * port the probe first left by (not necessarily the VC it was sent
       * for: two VCs may share that output).  Otherwise it is a figure 8
       * through this router and the probe is forwarded below. */
      int lv = -1;
      for (v = 0; v < c->vcs && lv < 0; v++)
        if (c->cnt[p][v] && c->route_valid[p][v] && c->out_port[p][v] == sm_port(w, 0))
          lv = v;
      if (s->state_q == FSM_DD && lv >= 0 && sm_n(w) + sm_x(w) <= SM_MAX_LOOP) {
        st->probes_returned++;
        spin_take_loop(s, c, p, lv, sm_n(w), 0, sm_n(w) + sm_x(w), sm_path(w), st);
      }
      continue;                    /* else: spin_probe_in treats it below */
    }
    if (sm_idx(w) != sm_n(w)) continue;   /* not home yet: a figure 8, below */
    if ((kind == KIND_MOVE && s->state_q == FSM_MOVE) ||
        (kind == KIND_PROBE_MOVE && s->state_q == FSM_PROBE_MOVE && s->pm_sent_q)) {
      if (p == s->dd_port_q && sm_delay(w) >= 2) {
        v = freeze_own(s, c, p);
        if (v >= 0) {
          s->is_deadlock_q = 1;
          s->source_id_q = (uint16_t)c->id;
          s->state_q = FSM_FORWARD_PROGRESS;
          load(s, c, sm_delay(w) - 1);
          c->arm_out[p] = CRED_ARM_MAKE(v);
        }
      }
    } else if (kind == KIND_KILL_MOVE && s->state_q == FSM_KILL_MOVE) {
      finish(s, c, st);
    }
  }
}

void spin_take_loop(spin_router_t *s, spin_ctx_t *c, int p, int v, unsigned n,
                    unsigned start, unsigned cyc, sm_path_t path, spin_stats_t *st)
{
  s->dd_port_q = (uint8_t)p;
  s->dd_vc_q = (uint8_t)v;
  loop_latch(&s->loop, n, start, cyc, path);
  s->t_expiry = c->cycle - cyc;
  s->t_detect = c->cycle;
  s->spins_q = 0;
  s->state_q = FSM_MOVE;
  originate(s, c, KIND_MOVE, 2u * cyc, st);
  load(s, c, cyc);
}

/* The next non-empty network VC after (dd_port, dd_vc), round robin over
 * ports 1..P-1 and their VCs, into *pp, *pv; 0 when all are empty. */
static int next_nonempty(const spin_router_t *s, const spin_ctx_t *c, int *pp, int *pv)
{
  int p = s->dd_port_q, v = s->dd_vc_q, i;
  const int total = (c->ports - 1) * c->vcs;
  if (!(c->in_ports & ~1u)) return 0;
  if (p < 1) {
    p = c->ports - 1;
    v = c->vcs - 1;
  }
  for (i = 0; i < total; i++) {
    if (++v == c->vcs) {
      v = 0;
      if (++p == c->ports) p = 1;
    }
    if (c->cnt[p][v]) {
      *pp = p;
      *pv = v;
      return 1;
    }
  }
  return 0;
}

void spin_fsm_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped, spin_stats_t *st)
{
  (void)st;
  if (s->state_q == FSM_OFF || s->state_q == FSM_DD) {
    int p = s->dd_port_q, v = s->dd_vc_q;
    /* the watched VC moved, emptied, or its counter expired (a probe went
     * out for it): watch the next non-empty VC */
    int moved = s->state_q == FSM_OFF || p < 1 || !c->cnt[p][v] ||
                ((popped >> (p * SPIN_MAX_VCS + v)) & 1u) || s->cnt_q == 0;
    if (moved && !c->cnt_loaded) {
      if (!next_nonempty(s, c, &p, &v)) {
        s->state_q = FSM_OFF;
        s->cnt_q = 0;
      } else {
        s->state_q = FSM_DD;
        s->dd_port_q = (uint8_t)p;
        s->dd_vc_q = (uint8_t)v;
        s->cnt_q = (uint16_t)(c->tdd - 1);
      }
      return;
    }
    if (!c->cnt_loaded) s->cnt_q--;
    return;
  }
  if (!c->cnt_loaded && s->cnt_q) s->cnt_q--;
}
