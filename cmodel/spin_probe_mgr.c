/* spin_probe_mgr.c - the probe manager (docs/microarchitecture.md, 12.4):
 * the one probe a router handles in a cycle, forwarded, dropped or, with
 * adoption, the loop it went round taken.  RTL twin: rtl/spin_probe_mgr.sv
 * (unit bench: tb/unit/spin_probe_mgr_tb.cpp). */
#include "spin.h"

void spin_drop_probe(spin_stats_t *st, spin_drop_t why)
{
  st->probes_dropped++;
  switch (why) {
  case DROP_CONTENTION: st->drop_contention++; break;
  case DROP_BUSY: st->drop_busy++; break;
  case DROP_OUTRANKED: st->drop_outranked++; break;
  case DROP_NOT_BLOCKED: st->drop_not_blocked++; break;
  case DROP_CAME_ROUND: st->drop_came_round++; break;
  default: st->drop_length++; break;
  }
}

/* Why the probe cannot go on from input p, or -1 when it can; *outs: the
 * outputs its copies would take. */
static int blocked(const spin_router_t *s, const spin_ctx_t *c, int p, const sm_t *m,
                   unsigned *outs)
{
  int v;
  if (s->is_deadlock_q || (s->state_q != FSM_OFF && s->state_q != FSM_DD)) return DROP_BUSY;
  if (spin_prio(c->cycle, c->tdd, c->nodes, c->id) >
      spin_prio(c->cycle, c->tdd, c->nodes, (int)m->sender))
    return DROP_OUTRANKED;
  if (m->t > c->fmt->cyc_max) return DROP_LENGTH;
  /* every VC at the arrival port must hold a packet waiting on a route */
  for (v = 0; v < c->vcs; v++)
    if (!spin_vc_routed(c, p, v)) return DROP_NOT_BLOCKED;
  *outs = spin_outputs_at(c, p);
  if (!*outs) return DROP_NOT_BLOCKED;       /* all waiting to eject */
  if ((*outs & (*outs - 1u)) && m->fk >= c->fmt->k) return DROP_LENGTH;
  return -1;
}

/* The probe came round p (the mark holds its sender with fewer cycles): with
 * adoption the router takes the loop it went round, if it is free to and a
 * VC at p waits for the loop's first output.  Returns 1 when it did. */
static int adopt(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *m, spin_stats_t *st)
{
  unsigned out = s->mark_out_q[p], fk0 = s->mark_fk_q[p], o1;
  int v, forked = (out & (out - 1u)) != 0;
  if (!c->adopt || s->state_q != FSM_DD || s->is_deadlock_q) return 0;
  o1 = spin_nth_port(out, forked ? sm_fork(c->fmt, m, fk0) : 0u);
  if (!o1) return 0;
  for (v = 0; v < c->vcs; v++)
    if (spin_vc_routed(c, p, v) && c->out_port[p][v] == o1) {
      st->probes_adopted++;
      spin_take_loop(s, c, p, v, m->t - s->mark_cyc_q[p], o1, fk0 + (unsigned)forked, m, st);
      s->adopted = 1;
      return 1;
    }
  return 0;
}

void spin_probe_in(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *m, spin_stats_t *st)
{
  const unsigned cmax = c->fmt->cyc_max, age = spin_mark_age(s, cmax, c->cycle, p);
  unsigned outs = 0;
  int why = blocked(s, c, p, m, &outs), live;
  if (why >= 0) {
    spin_drop_probe(st, (spin_drop_t)why);
    return;
  }
  /* the mark stands while the probe that wrote it can still travel: no
   * more than CycMax cycles; that very probe comes back when the mark's
   * age is the cycles it took since */
  live = s->mark_cyc_q[p] && age <= cmax;
  if (live && s->mark_sender_q[p] == m->sender && m->t > s->mark_cyc_q[p] &&
      age == m->t - s->mark_cyc_q[p]) {
    if (!adopt(s, c, p, m, st)) {      /* dropped, and the mark freed for the next */
      spin_drop_probe(st, DROP_CAME_ROUND);
      s->mark_cyc_q[p] = 0;
    }
    return;
  }
  /* the mark keeps a sender of higher priority: a probe of lower priority
   * is forwarded and leaves it, so that two probes going round the same
   * loop cannot hide each other from it */
  if (!live || s->mark_sender_q[p] == m->sender ||
      spin_prio(c->cycle, c->tdd, c->nodes, (int)m->sender) >
      spin_prio(c->cycle, c->tdd, c->nodes, (int)s->mark_sender_q[p])) {
    s->mark_sender_q[p] = (uint16_t)m->sender;
    s->mark_cyc_q[p] = m->t;
    s->mark_out_q[p] = (uint16_t)outs;
    s->mark_fk_q[p] = (uint8_t)m->fk;
    s->mark_at_q[p] = c->cycle + 1u;
  }
  st->probes_forked += (unsigned)__builtin_popcount(outs) - 1u;
  spin_offer_fwd(c, p, outs, m, (outs & (outs - 1u)) ? outs : 0u);
}
