/* spin_move_mgr.c - the move manager (docs/microarchitecture.md, 12.4):
 * move, probe_move and kill_move of other routers. */
#include "spin.h"

/* Forwards the message one hop: the next router reads the next entry. */
static void forward(spin_ctx_t *c, int p, const flit_t *w, unsigned o, unsigned delay,
                    spin_stats_t *st)
{
  flit_t f = sm_make(CTL_KIND(w->ctl), sm_sender(w), sm_n(w), delay, sm_idx(w) + 1u,
                     sm_path(w));
  spin_offer(c, (int)o, &f, p, st);
}

void spin_move_in(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w, spin_stats_t *st)
{
  unsigned kind = CTL_KIND(w->ctl), sender = sm_sender(w);
  unsigned delay = sm_delay(w), o = spin_next_port(c, p, w);
  int owned = s->is_deadlock_q && s->source_id_q == sender;
  int v;
  if (sm_idx(w) >= sm_n(w) || o == 0) {   /* path used up away from its sender, or no port */
    st->moves_dropped++;
    return;
  }
  if (kind == KIND_KILL_MOVE) {
    /* forwarded along its whole path, so that every router of a loop that
     * passes one router twice is released; only the routers of its
     * recovery act on it */
    if (owned) {
      spin_leave(s);         /* spin_fsm_post settles DD or OFF */
      s->cnt_q = (uint16_t)(c->tdd - 1);
    }
    forward(c, p, w, o, 0, st);
    return;
  }
  /* move or probe_move: accepted by a free router, or by one already frozen
   * for the same sender (a figure-8 loop, or the next spin) */
  if (!(((s->state_q == FSM_OFF || s->state_q == FSM_DD) && !s->is_deadlock_q) ||
        (s->state_q == FSM_FROZEN && owned)) ||
      delay < 2) {
    st->moves_dropped++;
    return;
  }
  v = spin_freezable_vc(s, c, p, o);
  if (v < 0) {
    st->moves_dropped++;
    return;
  }
  s->frozen_q[p][v] = 1;
  s->armed_q[p][v] = 0;
  s->is_deadlock_q = 1;
  s->source_id_q = (uint16_t)sender;
  s->state_q = FSM_FROZEN;
  s->pm_sent_q = 0;          /* FROZEN: 0 before the spin, 1 after */
  s->cnt_q = (uint16_t)(delay - 1);
  forward(c, p, w, o, delay - 1, st);
}

void spin_move_through(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w,
                       spin_stats_t *st)
{
  unsigned kind = CTL_KIND(w->ctl), delay = sm_delay(w), o = spin_next_port(c, p, w);
  int v = -1;
  if (o == 0) {
    st->moves_dropped++;
    return;
  }
  if (kind == KIND_KILL_MOVE) {
    if (s->state_q == FSM_KILL_MOVE) forward(c, p, w, o, 0, st);
    else st->moves_dropped++;
    return;
  }
  if (((kind == KIND_MOVE && s->state_q == FSM_MOVE) ||
       (kind == KIND_PROBE_MOVE && s->state_q == FSM_PROBE_MOVE && s->pm_sent_q)) &&
      delay >= 2)
    v = spin_freezable_vc(s, c, p, o);
  if (v < 0) {
    st->moves_dropped++;
    return;
  }
  s->frozen_q[p][v] = 1;
  s->armed_q[p][v] = 0;
  forward(c, p, w, o, delay - 1, st);
}
