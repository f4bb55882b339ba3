/* spin_sm_in.c - the special-message input stage (docs/microarchitecture.md,
 * 12.2): of the messages arriving in a cycle, the best is taken (class,
 * a probe home, sender priority, lower port) and the others are dropped.  RTL twin:
 * rtl/spin_sm_in.sv (unit bench: tb/unit/spin_sm_in_tb.cpp). */
#include "spin.h"

int spin_sm_select(const spin_ctx_t *c, const flit_t *const *in_flit, spin_stats_t *st)
{
  int p, best = 0, best_rank = 0, best_prio = 0;
  for (p = c->nics; p < c->ports; p++) {
    const flit_t *w = in_flit[p];
    unsigned kind = CTL_KIND(w->ctl);
    int rank, prio, better;
    if (kind < KIND_PROBE) continue;
    /* class, then a probe coming home before any other probe */
    prio = (int)sm_unpack(c->fmt, w).sender;
    rank = 2 * sm_rank(kind) + (kind == KIND_PROBE && prio == c->id);
    prio = spin_prio(c->cycle, c->tdd, c->nodes, prio);
    better = !best || rank > best_rank || (rank == best_rank && prio > best_prio);
    if (best) {
      /* the loser of the two is dropped */
      unsigned lost = better ? CTL_KIND(in_flit[best]->ctl) : kind;
      if (lost == KIND_PROBE) spin_drop_probe(st, DROP_CONTENTION);
      else st->moves_dropped++;
    }
    if (better) {
      best = p;
      best_rank = rank;
      best_prio = prio;
    }
  }
  return best;
}
