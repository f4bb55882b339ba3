/* spin_unit.c - SPIN of one router, wired together (docs/microarchitecture.md,
 * section 12): rtl/spin_unit.sv.  The input stage takes one special message
 * a cycle (spin_sm_in.c; with SmPipe = 1 from its register); the counter
 * FSM (spin_fsm.c) takes the timers, arm notices and spin flits, and the
 * router's own message coming home; any other message goes to the probe
 * manager (spin_probe_mgr.c) or the move manager (spin_move_mgr.c); the
 * output stage (spin_sm_out.c) puts the winners on the links. */
#include <string.h>
#include "spin.h"

/* The frozen VCs, bit p*SPIN_MAX_VCS + v. */
static uint64_t frozen_mask(const spin_router_t *s)
{
  uint64_t m = 0;
  int p, v;
  for (p = 0; p < SPIN_MAX_PORTS; p++)   /* a NIC port's VCs are never frozen */
    for (v = 0; v < SPIN_MAX_VCS; v++)
      if (s->frozen_q[p][v]) m |= 1ull << (p * SPIN_MAX_VCS + v);
  return m;
}

/* A message of this kind may freeze a VC of the port it is handled on. */
static int freezes(unsigned kind)
{
  return kind == KIND_MOVE || kind == KIND_PROBE_MOVE;
}

/* The message handled on input p (12.2). */
static void handle(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w, spin_stats_t *st)
{
  sm_t m = sm_unpack(c->fmt, w);
  spin_hop_in(c->fmt, &m, c->xlat[p]);
  if (m.sender == (unsigned)c->id && spin_fsm_home(s, c, p, &m, st)) return;
  if (m.kind == KIND_PROBE) spin_probe_in(s, c, p, &m, st);
  else spin_move_in(s, c, p, &m, st);
}

void spin_unit_pre(spin_router_t *s, spin_ctx_t *c, const flit_t *const *in_flit,
                   const uint8_t *in_cred, spin_stats_t *st)
{
  int sel, port = 0;
  flit_t w;

  memset(c->arm_out, 0, sizeof c->arm_out);
  c->out_busy = c->in_busy = c->hold = 0;
  c->fwd_mask = c->fwd_fork = c->own_out = 0;
  c->cnt_loaded = 0;

  /* the input stage: this cycle's best message, handled now or registered */
  sel = spin_sm_select(c, in_flit, st);
  if (c->sm_pipe == 2) {
    w = s->smi_q;
    port = CTL_KIND(w.ctl) ? s->smi_port_q : 0;
    if (freezes(CTL_KIND(w.ctl))) c->hold = 1u << port;
    if (sel) {
      s->smi_q = *in_flit[sel];
      s->smi_port_q = (uint8_t)sel;
    } else {
      memset(&s->smi_q, 0, sizeof s->smi_q);
      s->smi_port_q = 0;
    }
  } else if (sel) {
    w = *in_flit[sel];
    port = sel;
  }
  if (c->sm_pipe == 1) {          /* every input a move or probe_move arrives on is held */
    int p;
    for (p = c->nics; p < c->ports; p++)
      if (freezes(CTL_KIND(in_flit[p]->ctl))) c->hold |= 1u << p;
  }

  spin_fsm_pre(s, c, in_cred, st);
  if (c->sm_pipe) c->frozen_req = frozen_mask(s);
  if (port) handle(s, c, port, &w, st);
  if (!c->sm_pipe) c->frozen_req = frozen_mask(s);
  spin_sm_out(s, c, st);
}

void spin_unit_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped, spin_stats_t *st)
{
  spin_fsm_post(s, c, popped, st);
}
