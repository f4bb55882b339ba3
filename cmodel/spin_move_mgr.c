/* spin_move_mgr.c - the move manager (docs/microarchitecture.md, 12.5): the
 * one move, probe_move or kill_move a router handles in a cycle that is not
 * its sender's coming home.  RTL twin: rtl/spin_move_mgr.sv (unit bench:
 * tb/unit/spin_move_mgr_tb.cpp). */
#include "spin.h"

unsigned spin_next_hop(const spin_router_t *s, const spin_ctx_t *c, int p, sm_t *m)
{
  unsigned d;
  /* the recovery's probe_move or kill_move: where its move went */
  if (m->kind != KIND_MOVE && s->loop_out_q[p] && s->source_id_q == m->sender)
    return s->loop_out_q[p];
  if (c->vcs == 1)   /* a NIC port is no next hop */
    return spin_vc_routed(c, p, 0) && c->out_port[p][0] >= c->nics ? c->out_port[p][0] : 0u;
  d = spin_outputs_at(c, p);
  if (!(d & (d - 1u))) return d ? (unsigned)__builtin_ctz(d) : 0u;
  if (m->fk >= c->fmt->k) return 0;
  return spin_nth_port(d, sm_fork(c->fmt, m, m->fk++));
}

/* ok: the state accepts the message (12.5). */
static int accepts(const spin_router_t *s, const spin_ctx_t *c, const sm_t *m)
{
  const int own = m->sender == (unsigned)c->id;
  const int mine = s->is_deadlock_q && s->source_id_q == m->sender;   /* its sender's recovery */
  if (m->kind == KIND_KILL_MOVE) return own ? s->state_q == FSM_KILL_MOVE : mine;
  if (own)
    return m->kind == KIND_PROBE_MOVE ? s->state_q == FSM_PROBE_MOVE && s->pm_sent_q
                                      : s->state_q == FSM_MOVE;
  return ((s->state_q == FSM_OFF || s->state_q == FSM_DD) && !s->is_deadlock_q) ||
         (s->state_q == FSM_FROZEN && mine);
}

void spin_move_in(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *msg, spin_stats_t *st)
{
  sm_t m = *msg;
  const int own = m.sender == (unsigned)c->id;
  unsigned o = spin_next_hop(s, c, p, &m);
  const int ok = accepts(s, c, &m), lost = !o || (!own && m.t < m.lc + 2u);
  int v;
  if (m.kind == KIND_KILL_MOVE) {
    /* another router's: its recovery's routers (ok) leave it, and every
     * router forwards it along its loop, so that every router of a loop
     * that passes one router twice is released.  The sender's own, half
     * way round a figure 8: forwarded in KILL_MOVE. */
    if (ok && !own) {
      spin_leave(s);                     /* spin_fsm_post settles DD or OFF next */
      spin_load(s, c, c->tdd - 1);
    }
    if (lost || (own && !ok)) st->moves_dropped++;
    else spin_offer_fwd(c, p, 1u << o, &m, 0);
    return;
  }
  if (lost) {                            /* no port, or past its loop's C away from its sender */
    st->moves_dropped++;
    return;
  }
  /* move or probe_move: taken when no frozen VC uses p or o and a whole
   * packet at p waits for o */
  v = ok && m.t >= 2 && spin_may_freeze(s, c, p, o) ? spin_waiting_vc(c, p, o) : -1;
  if (v < 0) {
    st->moves_dropped++;
    return;
  }
  if (!own && !s->is_deadlock_q) memset(s->loop_out_q, 0, sizeof s->loop_out_q);  /* a new recovery */
  spin_freeze(s, p, v, o);
  if (!own) {
    s->is_deadlock_q = 1;
    s->source_id_q = (uint16_t)m.sender;
    s->state_q = FSM_FROZEN;
    s->pm_sent_q = 0;          /* FROZEN: 0 before the spin, 1 after */
    spin_load(s, c, m.t - 2u);
    s->loop.cyc_q = m.lc;
  }
  spin_offer_fwd(c, p, 1u << o, &m, 0);
}
