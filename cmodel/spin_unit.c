/* spin_unit.c - SPIN of one router, wired together (docs/microarchitecture.md,
 * section 12): rtl/spin_unit.sv.  The counter FSM (spin_fsm.c) takes the
 * timers, arm notices, spin flits and the router's own messages coming home;
 * then the other routers' messages go through the move managers
 * (spin_move_mgr.c) and probe managers (spin_probe_mgr.c), highest class
 * first, then by port, each taking the SPIN state the one before left; every
 * message that goes on is offered to its output's arbitration
 * (spin_sm_arb.c). */
#include <string.h>
#include "spin.h"

void spin_unit_pre(spin_router_t *s, spin_ctx_t *c, const flit_t *const *in_flit,
                   const uint8_t *in_cred, spin_stats_t *st)
{
  const int P = c->ports;
  int p, rank;

  memset(c->offer, 0, sizeof c->offer);
  memset(c->arm_out, 0, sizeof c->arm_out);
  c->out_busy = c->in_busy = 0;
  c->cnt_loaded = 0;

  spin_fsm_pre(s, c, in_flit, in_cred, st);

  /* other routers' messages, highest class first, then by port */
  for (rank = 3; rank >= 1; rank--)
    for (p = 1; p < P; p++) {
      const flit_t *w = in_flit[p];
      unsigned kind = CTL_KIND(w->ctl);
      if (kind < KIND_PROBE || sm_rank(kind) != rank) continue;
      if (sm_sender(w) == (unsigned)c->id) {
        /* own probe back on another port (a figure 8): forwarded like any */
        if (kind == KIND_PROBE && !(s->state_q == FSM_MOVE && s->loop.n_q == sm_n(w) &&
                                    s->loop.start_q == 0 &&
                                    path_eq(s->loop.path_q, sm_path(w))))
          spin_probe_in(s, c, p, w, st);
        /* own move, probe_move or kill_move half way round a figure 8 */
        if (kind != KIND_PROBE && sm_idx(w) != sm_n(w)) spin_move_through(s, c, p, w, st);
        continue;
      }
      if (kind == KIND_PROBE) spin_probe_in(s, c, p, w, st);
      else spin_move_in(s, c, p, w, st);
    }
}

void spin_unit_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped, spin_stats_t *st)
{
  spin_fsm_post(s, c, popped, st);
}
