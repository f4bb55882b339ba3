/* spin_sm_arb.c - the special-message arbitration of an output
 * (docs/microarchitecture.md, 12.1): the best offer wins (spin_offer), and
 * the winner goes onto the output's link (spin_onto_link).  RTL twin:
 * rtl/spin_sm_arb.sv (unit bench: tb/unit/spin_sm_arb_tb.cpp). */
#include "spin.h"

int spin_offer(spin_ctx_t *c, int o, const flit_t *w, int src, spin_stats_t *st)
{
  sm_offer_t *b = &c->offer[o];
  int rank = sm_rank(CTL_KIND(w->ctl));
  int prio = spin_prio(c->cycle, c->tdd, c->nodes, (int)sm_sender(w));
  int better;
  if (c->out_busy & (1u << o)) {
    better = 0;
  } else if (!b->rank) {
    better = 1;
  } else if (rank != b->rank) {
    better = rank > b->rank;
  } else if (prio != b->prio) {
    better = prio > b->prio;
  } else {
    better = src < b->src;
  }
  if (!better) {
    if (CTL_KIND(w->ctl) == KIND_PROBE) st->probes_dropped++;
    else st->moves_dropped++;
    return 0;
  }
  if (b->rank) {
    if (CTL_KIND(b->w.ctl) == KIND_PROBE) st->probes_dropped++;
    else st->moves_dropped++;
  }
  b->w = *w;
  b->rank = rank;
  b->prio = prio;
  b->src = src;
  return 1;
}

/* A probe's x grows by the link's extra cycles, a move's or probe_move's
 * delay shrinks by them, not below 0 (contract 12.1). */
void spin_onto_link(flit_t *w, unsigned xlat)
{
  const unsigned k = CTL_KIND(w->ctl);
  unsigned d;
  if (!xlat || (k != KIND_PROBE && k != KIND_MOVE && k != KIND_PROBE_MOVE)) return;
  d = sm_delay(w);
  d = k == KIND_PROBE ? d + xlat : d > xlat ? d - xlat : 0;
  w->data = (w->data & ~(0x7Full << 18)) | (uint64_t)(d & 0x7Fu) << 18;
}
