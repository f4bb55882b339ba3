/* spin_move_flags.c - the two bits of the SPIN state a move manager tests
 * (docs/microarchitecture.md, 12.4): rtl/spin_move_flags.sv.  The move
 * manager (spin_move_mgr.c) decides from them and from the message alone, as
 * the RTL's does; the RTL computes them once per cycle and carries them
 * along its chain of managers, the C model asks for them at each manager. */
#include "spin.h"

void spin_move_flags(const spin_router_t *s, const spin_ctx_t *c, int p, unsigned kind,
                     unsigned sender, unsigned o, int *ok, int *blk)
{
  const int own = sender == (unsigned)c->id;
  const int mine = s->is_deadlock_q && s->source_id_q == sender;   /* its sender's recovery */
  if (kind == KIND_KILL_MOVE)
    *ok = own ? s->state_q == FSM_KILL_MOVE : mine;
  else if (own)
    *ok = kind == KIND_PROBE_MOVE ? s->state_q == FSM_PROBE_MOVE && s->pm_sent_q
                                  : s->state_q == FSM_MOVE;
  else
    *ok = ((s->state_q == FSM_OFF || s->state_q == FSM_DD) && !s->is_deadlock_q) ||
          (s->state_q == FSM_FROZEN && mine);
  *blk = !spin_may_freeze(s, c, p, o);
}
