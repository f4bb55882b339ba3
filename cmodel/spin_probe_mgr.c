/* spin_probe_mgr.c - the probe manager (docs/microarchitecture.md, 12.3).
 * RTL twin: rtl/spin_probe_mgr.sv. */
#include "spin.h"

void spin_probe_in(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w, spin_stats_t *st)
{
  unsigned sender = sm_sender(w), n = sm_n(w), x = sm_x(w), ports = 0, o;
  int v, me = c->id;
  /* busy with a recovery, outranked, or the loop too long: a full path
   * goes on unrecorded only with 1 VC per port, up to SM_MAX_LOOP hops,
   * and no loop of SM_MAX_LOOP cycles or more can be taken */
  if (s->is_deadlock_q || (s->state_q != FSM_OFF && s->state_q != FSM_DD) ||
      spin_prio(c->cycle, c->tdd, c->nodes, me) >
          spin_prio(c->cycle, c->tdd, c->nodes, (int)sender) ||
      n + x >= SM_MAX_LOOP || (n >= SM_MAX_PATH && c->vcs != 1)) {
    st->probes_dropped++;
    return;
  }
  /* every VC at the arrival port must hold a packet waiting on a route */
  for (v = 0; v < c->vcs; v++) {
    if (!c->cnt[p][v] || !c->route_valid[p][v]) {
      st->probes_dropped++;
      return;
    }
    if (c->out_port[p][v] != 0) ports |= 1u << c->out_port[p][v];
  }
  if (!ports) {              /* all waiting to eject: no loop through here */
    st->probes_dropped++;
    return;
  }
  /* the same sender's probe came through here with a shorter path: this one
   * went round a loop through input p that does not pass its sender.  With
   * adoption this router takes that loop as its own (if it is free to, and
   * its own entry is recorded); otherwise the probe is dropped. */
  if (s->mark_n_q[p] && s->mark_sender_q[p] == sender && n > s->mark_n_q[p]) {
    unsigned m = s->mark_n_q[p], o1 = sm_port(w, m);
    unsigned cyc = n - m + x - s->mark_x_q[p];   /* cycles round the loop */
    if (c->adopt && m < SM_MAX_PATH && s->state_q == FSM_DD && !s->is_deadlock_q) {
      for (v = 0; v < c->vcs; v++)
        if (c->cnt[p][v] && c->route_valid[p][v] && c->out_port[p][v] == o1) {
          st->probes_adopted++;
          spin_take_loop(s, c, p, v, n, m, cyc, sm_path(w), st);
          return;
        }
    }
    st->probes_dropped++;
    return;
  }
  s->mark_sender_q[p] = (uint16_t)sender;
  s->mark_n_q[p] = (uint8_t)n;
  s->mark_x_q[p] = (uint8_t)x;
  for (o = 1; o < (unsigned)c->ports; o++) {
    flit_t copy;
    if (!(ports & (1u << o))) continue;
    copy = sm_make(KIND_PROBE, sender, n + 1, x, 0, path_put(sm_path(w), n, o));
    if (ports & ((1u << o) - 1u) & ~1u) st->probes_forked++;
    spin_offer(c, (int)o, &copy, p, st);
  }
}
