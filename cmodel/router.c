/* router.c - see router.h and docs/microarchitecture.md. */
#include <string.h>
#include "router.h"
#include "arbiter.h"
#include "lfsr.h"
#include "route_select.h"

void router_reset(router_t *r, const router_cfg_t *cfg, uint64_t run_seed)
{
  memset(r, 0, sizeof *r);
  r->lfsr_q = lfsr_seed(run_seed, (unsigned)cfg->id);
}

/* Outputs that carry a special message this cycle. */
static unsigned spin_offered(const spin_ctx_t *c, int ports)
{
  unsigned m = 0;
  int o;
  for (o = 0; o < ports; o++)
    if (c->offer[o].rank) m |= 1u << o;
  return m;
}

/* Downstream VCs of output o that a head may take: all VCs. */
static unsigned free_vcs(const router_t *r, const router_cfg_t *cfg, int o)
{
  unsigned all = (1u << cfg->vcs) - 1u;
  return all & ~(unsigned)r->ovc_busy_q[o];
}

void router_step(router_t *r, const router_cfg_t *cfg, uint64_t cycle,
                 const flit_t *const *in_flit, const uint8_t *in_cred,
                 flit_t *out_flit, uint8_t *out_cred, spin_stats_t *st)
{
  const int P = cfg->ports, V = cfg->vcs;
  int p, v, o;
  int any_draw = 0;
  unsigned port_free = 0;        /* bit o: output o has a free downstream VC */
  int req_port[MAX_PORTS];       /* stage 1: output requested by input p, or -1 */
  unsigned oreq[MAX_PORTS];      /* stage 2: inputs requesting output o */
  int req_vc[MAX_PORTS];
  int rc_vc[MAX_PORTS];          /* VC routed this cycle at input p, or -1 */
  unsigned rc_port[MAX_PORTS];
  unsigned ovc_set[MAX_PORTS], ovc_clr[MAX_PORTS];
  uint8_t port_age[MAX_PORTS];   /* per output: the least busy-cycles of its VCs */
  spin_ctx_t sc;                 /* filled only when SPIN is on */
  unsigned sm_outs;              /* outputs carrying a special message */
  uint64_t popped = 0;

  for (o = 0; o < P; o++) {
    port_age[o] = 255;
    if (cfg->algo == ALGO_FAVORS_MIN)
      for (v = 0; v < V; v++)
        if (r->ovc_age_q[o][v] < port_age[o]) port_age[o] = r->ovc_age_q[o][v];
    if (free_vcs(r, cfg, o)) port_free |= 1u << o;
    ovc_set[o] = ovc_clr[o] = 0;
    out_flit[o].ctl = KIND_IDLE;
    out_flit[o].data = out_flit[o].ext = 0;
    out_cred[o] = 0;
  }

  /* Route compute: one unit per input port, serving the lowest VC whose
   * head flit is at the front without a route. */
  for (p = 0; p < P; p++) {
    rc_vc[p] = -1;
    if (!r->nonempty[p]) continue;
    for (v = 0; v < V; v++) {
      if (r->cnt_q[p][v] && !r->route_valid_q[p][v]) {
        const flit_t *f = &r->buf[p][v][r->rd_q[p][v]];
        unsigned mask = cfg->mask_det[HEAD_DST(f->data)];
        int drew;
        rc_port[p] = route_select(mask, port_free, lfsr_draw(r->lfsr_q, (unsigned)p),
                                  cfg->algo == ALGO_FAVORS_MIN, port_age, (unsigned)P, &drew);
        any_draw |= drew;
        rc_vc[p] = v;
        break;
      }
    }
  }

  /* SPIN: timers, special messages, spin flits (spin_fsm.c).  It sees the
   * registers of this cycle (a route computed now is not yet visible). */
  sc.out_busy = sc.in_busy = 0;
  sm_outs = 0;
  if (cfg->spin) {
    sc.ports = P;
    sc.vcs = V;
    sc.id = cfg->id;
    sc.nodes = cfg->nodes;
    sc.tdd = cfg->tdd;
    sc.cycle = cycle;
    sc.cnt = (const uint8_t(*)[SPIN_MAX_VCS])r->cnt_q;
    sc.route_valid = (const uint8_t(*)[SPIN_MAX_VCS])r->route_valid_q;
    sc.out_port = (const uint8_t(*)[SPIN_MAX_VCS])r->out_port_q;
    for (p = 0; p < P; p++)
      for (v = 0; v < V; v++)
        sc.front[p][v] = r->cnt_q[p][v] ? &r->buf[p][v][r->rd_q[p][v]] : NULL;
    spin_fsm_pre(&r->sp, &sc, in_flit, in_cred, st);
    sm_outs = spin_offered(&sc, P);
  }

  /* Switch allocation, stage 1: each input port picks one VC.  Frozen VCs
   * and inputs sending a spin flit take no part. */
  for (o = 0; o < P; o++) oreq[o] = 0;
  for (p = 0; p < P; p++) {
    unsigned req = 0;
    req_port[p] = -1;
    if (!r->nonempty[p] || (sc.in_busy & (1u << p))) continue;
    for (v = 0; v < V; v++) {
      const flit_t *f;
      int op;
      if (!r->cnt_q[p][v] || r->sp.frozen_q[p][v]) continue;
      f = &r->buf[p][v][r->rd_q[p][v]];
      if (r->route_valid_q[p][v]) op = r->out_port_q[p][v];
      else if (rc_vc[p] == v) op = (int)rc_port[p];
      else continue;                       /* waits for the route unit */
      if (CTL_HEAD(f->ctl) && !(port_free & (1u << op))) continue;
      if ((sc.out_busy | sm_outs) & (1u << op)) continue;
      req |= 1u << v;
    }
    v = rr_pick(req, r->in_ptr_q[p], (unsigned)V);
    if (v >= 0) {
      req_vc[p] = v;
      req_port[p] = r->route_valid_q[p][v] ? r->out_port_q[p][v] : (int)rc_port[p];
      oreq[req_port[p]] |= 1u << p;
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

  /* Stage 2: each output port picks one input; switch traversal.  An output
   * carrying a spin flit or a special message sends that instead. */
  for (o = 0; o < P; o++) {
    unsigned req = oreq[o];
    int w;
    if (sc.out_busy & (1u << o)) {
      int sp = sc.spin_src_port[o], sv = sc.spin_src_vc[o];
      uint8_t *rd = &r->rd_q[sp][sv];
      out_flit[o] = sc.spin_flit[o];
      *rd = (uint8_t)(*rd + 1 == BUF_DEPTH ? 0 : *rd + 1);
      if (!--r->cnt_q[sp][sv]) r->nonempty[sp] &= (uint8_t)~(1u << sv);
      r->buffered--;
      popped |= 1ull << (sp * SPIN_MAX_VCS + sv);
      if (CTL_TAIL(sc.spin_flit[o].ctl)) {   /* no credit: the VC is refilled */
        r->route_valid_q[sp][sv] = 0;
        r->sp.spinning_q[sp][sv] = r->sp.frozen_q[sp][sv] = r->sp.armed_q[sp][sv] = 0;
      }
      continue;
    }
    if (sm_outs & (1u << o)) {
      out_flit[o] = sc.offer[o].w;
      if (sc.offer[o].src == P) {             /* originated here */
        switch (CTL_KIND(sc.offer[o].w.ctl)) {
        case KIND_PROBE: st->probes_sent++; break;
        case KIND_MOVE: st->moves_sent++; break;
        case KIND_PROBE_MOVE: st->probe_moves_sent++; break;
        default: st->kill_moves_sent++; break;
        }
      }
      continue;
    }
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
      out_flit[o].ext = f.ext;
      out_flit[o].ctl = CTL_MAKE(KIND_FLIT, CTL_HEAD(f.ctl), CTL_TAIL(f.ctl), ovc);
      *rd = (uint8_t)(*rd + 1 == BUF_DEPTH ? 0 : *rd + 1);
      if (!--r->cnt_q[w][v]) r->nonempty[w] &= (uint8_t)~(1u << v);
      r->buffered--;
      popped |= 1ull << (w * SPIN_MAX_VCS + v);
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
  for (o = 0; o < P; o++) {
    r->ovc_busy_q[o] = (uint8_t)(((unsigned)r->ovc_busy_q[o] | ovc_set[o]) & ~ovc_clr[o]);
    if (cfg->algo != ALGO_FAVORS_MIN) continue;   /* only FAvORS-Min reads the ages */
    for (v = 0; v < V; v++) {
      uint8_t *a = &r->ovc_age_q[o][v];
      if (!(r->ovc_busy_q[o] & (1u << v))) *a = 0;
      else if (!(ovc_set[o] & (1u << v)) && *a < 255) (*a)++;
    }
  }
  if (cfg->spin)
    for (p = 0; p < P; p++) out_cred[p] = (uint8_t)(out_cred[p] | sc.arm_out[p]);

  /* Buffer write: the flit on each input link enters its VC. */
  for (p = 0; p < P; p++) {
    const flit_t *f = in_flit[p];
    unsigned vc, slot;
    if (CTL_KIND(f->ctl) != KIND_FLIT) continue;
    vc = CTL_VC(f->ctl);
    slot = (unsigned)r->rd_q[p][vc] + r->cnt_q[p][vc];
    if (slot >= BUF_DEPTH) slot -= BUF_DEPTH;
    r->buf[p][vc][slot] = *f;
    r->cnt_q[p][vc]++;
    r->nonempty[p] |= (uint8_t)(1u << vc);
    r->buffered++;
  }

  if (cfg->spin) spin_fsm_post(&r->sp, &sc, popped, st);
  if (any_draw) r->lfsr_q = lfsr_step(r->lfsr_q);
}
