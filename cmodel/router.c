/* router.c - see router.h and docs/microarchitecture.md. */
#include <string.h>
#include "router.h"
#include "arbiter.h"
#include "lfsr.h"

void router_reset(router_t *r, const router_cfg_t *cfg, uint64_t run_seed)
{
  memset(r, 0, sizeof *r);
  r->lfsr_q = lfsr_seed(run_seed, (unsigned)cfg->id);
}

/* Downstream VCs of output o that a head may take: all VCs. */
static unsigned free_vcs(const router_t *r, const router_cfg_t *cfg, int o)
{
  unsigned all = (1u << cfg->vcs) - 1u;
  return all & ~(unsigned)r->ovc_busy_q[o];
}

void router_step(router_t *r, const router_cfg_t *cfg,
                 const flit_t *in_flit, const uint8_t *in_cred,
                 flit_t *out_flit, uint8_t *out_cred)
{
  const int P = cfg->ports, V = cfg->vcs;
  int p, v, o;
  int any_draw = 0;
  unsigned port_free = 0;        /* bit o: output o has a free downstream VC */
  int req_port[MAX_PORTS];       /* stage 1: output requested by input p, or -1 */
  int req_vc[MAX_PORTS];
  int rc_vc[MAX_PORTS];          /* VC routed this cycle at input p, or -1 */
  unsigned rc_port[MAX_PORTS];
  unsigned ovc_set[MAX_PORTS], ovc_clr[MAX_PORTS];

  for (o = 0; o < P; o++) {
    if (free_vcs(r, cfg, o)) port_free |= 1u << o;
    ovc_set[o] = ovc_clr[o] = 0;
    out_flit[o].ctl = KIND_IDLE;
    out_flit[o].data = 0;
    out_cred[o] = 0;
  }

  /* Route compute: one unit per input port, serving the lowest VC whose
   * head flit is at the front without a route. */
  for (p = 0; p < P; p++) {
    rc_vc[p] = -1;
    for (v = 0; v < V; v++) {
      if (r->cnt_q[p][v] && !r->route_valid_q[p][v]) {
        const flit_t *f = &r->buf[p][v][r->rd_q[p][v]];
        unsigned mask = cfg->mask_det[HEAD_DST(f->data)];
        unsigned cand = mask & port_free;
        int drew;
        if (!cand) cand = mask;
        rc_port[p] = select_port(cand, lfsr_draw(r->lfsr_q, (unsigned)p), &drew);
        any_draw |= drew;
        rc_vc[p] = v;
        break;
      }
    }
  }

  /* Switch allocation, stage 1: each input port picks one VC. */
  for (p = 0; p < P; p++) {
    unsigned req = 0;
    req_port[p] = -1;
    for (v = 0; v < V; v++) {
      const flit_t *f;
      int op;
      if (!r->cnt_q[p][v]) continue;
      f = &r->buf[p][v][r->rd_q[p][v]];
      if (r->route_valid_q[p][v]) op = r->out_port_q[p][v];
      else if (rc_vc[p] == v) op = (int)rc_port[p];
      else continue;                       /* waits for the route unit */
      if (CTL_HEAD(f->ctl) && !(port_free & (1u << op))) continue;
      req |= 1u << v;
    }
    v = rr_pick(req, r->in_ptr_q[p], (unsigned)V);
    if (v >= 0) {
      req_vc[p] = v;
      req_port[p] = r->route_valid_q[p][v] ? r->out_port_q[p][v] : (int)rc_port[p];
    }
  }

  /* Route registers: the routed VC keeps its route (cleared below if its
   * tail leaves this cycle). */
  for (p = 0; p < P; p++) {
    if (rc_vc[p] >= 0) {
      r->route_valid_q[p][rc_vc[p]] = 1;
      r->out_port_q[p][rc_vc[p]] = (uint8_t)rc_port[p];
    }
  }

  /* Stage 2: each output port picks one input; switch traversal. */
  for (o = 0; o < P; o++) {
    unsigned req = 0;
    int w;
    for (p = 0; p < P; p++)
      if (req_port[p] == o) req |= 1u << p;
    w = rr_pick(req, r->out_ptr_q[o], (unsigned)P);
    if (w < 0) continue;
    v = req_vc[w];
    {
      uint8_t *rd = &r->rd_q[w][v];
      flit_t f = r->buf[w][v][*rd];
      unsigned ovc;
      if (CTL_HEAD(f.ctl)) {
        unsigned fv = free_vcs(r, cfg, o);
        ovc = nth_set_bit(fv, 0);
        r->out_vc_q[w][v] = (uint8_t)ovc;
        ovc_set[o] |= 1u << ovc;
      } else {
        ovc = r->out_vc_q[w][v];
      }
      out_flit[o].data = f.data;
      out_flit[o].ctl = CTL_MAKE(KIND_FLIT, CTL_HEAD(f.ctl), CTL_TAIL(f.ctl), ovc);
      *rd = (uint8_t)(*rd + 1 == BUF_DEPTH ? 0 : *rd + 1);
      r->cnt_q[w][v]--;
      r->buffered--;
      if (CTL_TAIL(f.ctl)) {
        out_cred[w] = CRED_MAKE(v);
        r->route_valid_q[w][v] = 0;
        if (o == 0) ovc_clr[0] |= 1u << ovc;  /* ejection VCs free at the tail */
      }
      r->in_ptr_q[w] = (uint8_t)rr_next((unsigned)v, (unsigned)V);
      r->out_ptr_q[o] = (uint8_t)rr_next((unsigned)w, (unsigned)P);
    }
  }

  /* Credits from downstream free output VCs (network ports only). */
  for (o = 1; o < P; o++)
    if (CRED_VALID(in_cred[o])) ovc_clr[o] |= 1u << CRED_VC(in_cred[o]);
  for (o = 0; o < P; o++)
    r->ovc_busy_q[o] = (uint8_t)(((unsigned)r->ovc_busy_q[o] | ovc_set[o]) & ~ovc_clr[o]);

  /* Buffer write: the flit on each input link enters its VC. */
  for (p = 0; p < P; p++) {
    const flit_t *f = &in_flit[p];
    unsigned vc, slot;
    if (CTL_KIND(f->ctl) != KIND_FLIT) continue;
    vc = CTL_VC(f->ctl);
    slot = (unsigned)r->rd_q[p][vc] + r->cnt_q[p][vc];
    if (slot >= BUF_DEPTH) slot -= BUF_DEPTH;
    r->buf[p][vc][slot] = *f;
    r->cnt_q[p][vc]++;
    r->buffered++;
  }

  if (any_draw) r->lfsr_q = lfsr_step(r->lfsr_q);
}
