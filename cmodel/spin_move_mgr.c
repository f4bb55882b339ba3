/* spin_move_mgr.c - the move manager (docs/microarchitecture.md, 12.4):
 * move, probe_move and kill_move of other routers.  RTL twin: rtl/spin_move_mgr.sv. */
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
  int ok, blk, v;
  if (sm_idx(w) >= sm_n(w) || o == 0) {   /* path used up away from its sender, or no port */
    st->moves_dropped++;
    return;
  }
  spin_move_flags(s, c, p, kind, sender, o, &ok, &blk);
  if (kind == KIND_KILL_MOVE) {
    /* forwarded along its whole path, so that every router of a loop that
     * passes one router twice is released; only the routers of its
     * recovery (ok) act on it */
    if (ok) {
      spin_leave(s);         /* spin_fsm_post settles DD or OFF */
      s->cnt_q = (uint16_t)(c->tdd - 1);
    }
    forward(c, p, w, o, 0, st);
    return;
  }
  /* move or probe_move: accepted (ok) by a free router, or by one already
   * frozen for the same sender (a figure-8 loop, or the next spin), when a
   * whole packet at p waits for o and no frozen VC uses p or o (blk) */
  v = ok && !blk && delay >= 2 ? spin_waiting_vc(c, p, o) : -1;
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
  int ok, blk, v;
  if (o == 0) {
    st->moves_dropped++;
    return;
  }
  /* ok: the sender state that matches the message (MOVE, PROBE_MOVE with the
   * probe_move sent, KILL_MOVE) */
  spin_move_flags(s, c, p, kind, sm_sender(w), o, &ok, &blk);
  if (kind == KIND_KILL_MOVE) {
    if (ok) forward(c, p, w, o, 0, st);
    else st->moves_dropped++;
    return;
  }
  v = ok && !blk && delay >= 2 ? spin_waiting_vc(c, p, o) : -1;
  if (v < 0) {
    st->moves_dropped++;
    return;
  }
  s->frozen_q[p][v] = 1;
  s->armed_q[p][v] = 0;
  forward(c, p, w, o, delay - 1, st);
}
