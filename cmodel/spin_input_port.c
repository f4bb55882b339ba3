/* spin_input_port.c - one router input: its virtual channels, their route
 * state, its route unit and the first stage of switch allocation.  RTL
 * twin: rtl/spin_input_port.sv (docs/microarchitecture.md, sections 3 to 6).
 *
 * Registers of input port p (router.h), per VC v: the FIFO (spin_fifo.c)
 * rd_q/cnt_q and its slots, route_valid_q, out_port_q, out_vc_q, via_q
 * (FAvORS-NMin), mask_a_q/mask_e_q (escape); per port the VC arbiter's
 * pointer in_ptr_q.  The router keeps masks derived from them (nonempty,
 * routed, in_ports, buffered), updated here wherever they change.
 *
 * In the order of a cycle (router.c calls them so):
 *   spin_input_port_route      route unit: the lowest VC whose head waits
 *                              without a route gets one (or, with reroute,
 *                              a waiting routed head again)
 *   spin_input_port_request    stage 1: one VC's request for its output
 *   spin_input_port_latch      the route registers take the route
 *   spin_input_port_req_flit   the requesting VC's front flit (req_flit_o)
 *   spin_input_port_grant      it won its output: pop, downstream VC, credit
 *   spin_input_port_spin_flit  or SPIN sends a frozen VC's flit instead
 *   spin_input_port_write      the flit on the link enters its VC
 * The RTL's inputs come from the router's cycle wires (cycle_t,
 * cycle_bits_t): port_free_i, free_a_i/free0_i, port_age_i (filled when
 * first needed), out_blocked_i (the outputs SPIN takes), spin_i (spin_ins);
 * draw_i is lfsr_draw() of the router's LFSR, frozen_q_i and frozen_i the
 * SPIN registers frozen_q before and after spin_unit_pre, frozen_req_i and
 * hold_i its frozen_req and hold (12.2).
 * datapath.h says how this file is compiled.
 */
#include "arbiter.h"
#include "datapath.h"
#include "lfsr.h"
#include "route_select.h"

/* The FIFO of VC v: its registers and its BUF_DEPTH slots, from slot
 * (p * V + v) * BUF_DEPTH of the router's storage, so a router with few
 * ports and VCs uses its first cache lines only. */
DP_FN spin_fifo_t spin_input_port_fifo(router_t *r, int p, int v, int V)
{
  const unsigned base = (unsigned)(p * V + v) * BUF_DEPTH;
  spin_fifo_t f;
  f.rd_q = &r->rd_q[p][v];
  f.cnt_q = &r->cnt_q[p][v];
  f.ctl = &r->buf_ctl[base];
  f.data = &r->buf_data[base];
  f.ext = &r->buf_ext[base];
  f.ext_nz = &r->ext_nz[p * V + v];
  f.depth = BUF_DEPTH;
  return f;
}

DP_LOCAL unsigned ip_front_ctl(router_t *r, int p, int v, int V)
{
  const spin_fifo_t f = spin_input_port_fifo(r, p, v, V);
  return spin_fifo_front_ctl(&f);
}

DP_LOCAL void ip_pop(router_t *r, cycle_bits_t *cb, int p, int v, int V)
{
  spin_fifo_t f = spin_input_port_fifo(r, p, v, V);
  if (!spin_fifo_pop(&f)) {
    r->nonempty[p] &= (uint8_t)~(1u << v);
    if (!r->nonempty[p]) r->in_ports &= (uint16_t)~(1u << p);
  }
  r->buffered--;
  cb->popped |= 1ull << (p * SPIN_MAX_VCS + v);
}

DP_LOCAL void ip_route_clear(router_t *r, int p, int v)
{
  r->route_valid_q[p][v] = 0;
  r->routed[p] &= (uint8_t)~(1u << v);
}

/* The least port age over the ports of mask, 255 when none (FAvORS-NMin's
 * t_active, 4.3). */
DP_LOCAL unsigned ip_min_age(unsigned mask, const uint8_t *port_age, int P)
{
  unsigned best = 255;
  int o;
  for (o = 0; o < P; o++)
    if ((mask & (1u << o)) && port_age[o] < best) best = port_age[o];
  return best;
}

/* A head leaving under FAvORS-NMin: via from its VC's route, offer 0 (4.3). */
DP_LOCAL uint64_t ip_rh_rewrite(uint64_t ext, unsigned via)
{
  return (ext & ~(uint64_t)(RH_VIA | RH_OFFER)) | (via ? RH_VIA : 0u);
}

/* port_age_i, filled the first time a port of the cycle reads it. */
DP_LOCAL const uint8_t *ip_port_ages(router_t *r, cycle_t *cw, cycle_bits_t *cb, int V)
{
  if (!cb->ages_known) {
    spin_ovc_tracker_ages(r, cb->P, V, cw->port_age);
    cb->ages_known = 1;
  }
  return cw->port_age;
}

/* The busy downstream VCs of output o: UGAL-L's queue (4.5). */
DP_LOCAL unsigned ip_queue(const router_t *r, unsigned mask, unsigned all_vcs)
{
  unsigned b;
  if (!mask) return 0;
  b = r->ovc_busy_q[low_bit(mask)] & all_vcs;
  return (b & 1u) + (b >> 1 & 1u) + (b >> 2 & 1u) + (b >> 3 & 1u);
}

/* The route unit, serving the lowest VC whose head is at the front without
 * a route; with reroute, when there is none, the lowest VC whose head waits
 * at the front with a route and is not frozen (section 4.2).  Under
 * FAvORS-NMin it routes toward the packet's current target, and at a NIC
 * port may send a head toward its intermediate router on its first route
 * (4.3); UGAL decides there by queues times hops (4.5).  Escape routing only
 * looks the route set up; stage 1 chooses the port.  Sets bit p of
 * cb->routing and the rc_* wires of p. */
DP_FN void spin_input_port_route(router_t *r, const router_cfg_t *cfg, cycle_t *cw,
                                 cycle_bits_t *cb, int p, const int spin, const int V,
                                 const int esc)
{
  const unsigned all_vcs = cb->all_vcs;
  const unsigned port_free = cb->port_free;
  unsigned need = (unsigned)r->nonempty[p] & ~(unsigned)r->routed[p] & all_vcs;
  unsigned dst, mask, target;
  int v, first = 1, drew;
  if (!need && cfg->reroute && !esc) {
    unsigned vm;
    first = 0;
    for (vm = (unsigned)r->nonempty[p] & all_vcs; vm && !need; vm &= vm - 1u) {
      v = (int)low_bit(vm);
      if (CTL_HEAD(ip_front_ctl(r, p, v, V)) && !(spin && r->sp.frozen_q[p][v])) need = 1u << v;
    }
  }
  if (!need) return;
  v = (int)low_bit(need);
  {
    const spin_fifo_t f = spin_input_port_fifo(r, p, v, V);
    dst = HEAD_DST(f.data[*f.rd_q]);
    target = dst;
    if (cb->nmin) {             /* the current target and the source's choice (4.3) */
      const uint64_t rh = spin_fifo_front(&f).ext;
      const unsigned mid = RH_MID(rh);
      /* toward mid already (via_tgt): the table looks mid up */
      const int via = first ? (rh & RH_VIA) && mid != (unsigned)cfg->node0 : r->via_q[p][v];
      int go = 0;               /* the source sends the head toward mid (rt_mid_o) */
      if (via) dst = target = mid;
      if (cb->ugal) {           /* UGAL-L at the source: queue x hops (4.5) */
        if (!via && first && (cb->nics >> p & 1u) && (rh & RH_OFFER)) {
          const unsigned h_min = RH_HMIN(rh), h_nm = h_min + RH_DETOUR(rh);
          const unsigned q_min =
              ip_queue(r, spin_route_table(cfg->mask_det, (unsigned)cfg->dsts, dst), all_vcs);
          const unsigned q_nm =
              ip_queue(r, spin_route_table(cfg->mask_det, (unsigned)cfg->dsts, mid), all_vcs);
          go = q_min * h_min > q_nm * h_nm;
          if (go) target = mid;
        }
      } else if (!via && first && (cb->nics >> p & 1u) && (rh & RH_OFFER) &&
                 !(spin_route_table(cfg->mask_det, (unsigned)cfg->dsts, dst) & port_free)) {
        const unsigned mm = spin_route_table(cfg->mask_det, (unsigned)cfg->dsts, mid);
        const uint8_t *age = ip_port_ages(r, cw, cb, V);
        const unsigned t_min =
            ip_min_age(spin_route_table(cfg->mask_det, (unsigned)cfg->dsts, dst), age, cb->P);
        const unsigned t_nm = mm & port_free ? 0u : ip_min_age(mm, age, cb->P);
        go = t_min > RH_DETOUR(rh) + t_nm;
        if (go) target = mid;
      }
      cw->rc_via[p] = (uint8_t)(via || go);
    }
  }
  cw->rc_dst[p] = (uint16_t)dst;   /* rt_dst_o */
  mask = spin_route_table(cfg->mask_det, (unsigned)cfg->dsts, target);
  cw->rc_vc[p] = (uint8_t)v;
  cb->routing |= 1u << p;
  if (esc) {                    /* the route set only: stage 1 chooses the port */
    cw->rc_a[p] = (port_mask_t)mask;
    cw->rc_e[p] = (port_mask_t)spin_route_table(cfg->mask_esc, (unsigned)cfg->dsts, dst);
    return;
  }
  if (cb->favors && !(mask & port_free)) ip_port_ages(r, cw, cb, V);
  cw->rc_port[p] = (uint8_t)route_select(mask, port_free, lfsr_draw(r->lfsr_q, (unsigned)p),
                                         cb->favors, cw->port_age, (unsigned)cb->P, &drew);
  cb->any_draw |= drew;
}

/* Stage 1 under escape routing: a head at the front requests when its
 * route set offers a free VC (an adaptive VC on a port of mask_a, or VC 0 on
 * a port of mask_e); the winning head then draws its port among those, and
 * req_esc says it takes VC 0. */
DP_LOCAL int ip_request_esc(router_t *r, cycle_t *cw, cycle_bits_t *cb, int p, int admit,
                            const int spin, const int V)
{
  const unsigned blocked = cb->spin_outs | cb->sm_outs;
  unsigned req = 0, vm, op, use[MAX_VCS], amask[MAX_VCS];
  int v;
  for (vm = (unsigned)r->nonempty[p] & cb->all_vcs; vm; vm &= vm - 1u) {
    v = (int)low_bit(vm);
    if (spin && (cb->frozen_req >> (p * SPIN_MAX_VCS + v) & 1u)) continue;
    if (CTL_HEAD(ip_front_ctl(r, p, v, V))) {
      unsigned a, e;
      if (r->routed[p] & (1u << v)) {
        a = r->mask_a_q[p][v];
        e = r->mask_e_q[p][v];
      } else if ((cb->routing & (1u << p)) && cw->rc_vc[p] == v) {
        a = cw->rc_a[p];
        e = cw->rc_e[p];
      } else {
        continue;                 /* waits for the route unit */
      }
      use[v] = ((a & cb->free_a) | (e & cb->free0)) & ~blocked;
      amask[v] = a;
      if (!use[v] || (!admit && !((a | e) & cb->nics))) continue;
    } else {
      use[v] = 0;
      if (blocked & (1u << r->out_port_q[p][v])) continue;
    }
    req |= 1u << v;
  }
  if (!req) return -1;
  v = rr_pick(req, r->in_ptr_q[p], (unsigned)V);
  cw->req_vc[p] = (uint8_t)v;
  if (use[v]) {
    int drew;
    op = select_port(use[v], lfsr_draw(r->lfsr_q, (unsigned)p), &drew);
    cb->any_draw |= drew;
    cw->req_esc[p] = (uint8_t)!((amask[v] & cb->free_a) >> op & 1u);
  } else {
    op = r->out_port_q[p][v];
  }
  return (int)op;
}

/* Stage 1: a VC requests its output when it holds a flit and has a route
 * (computed now or before) and is not frozen (frozen_req) on a port SPIN
 * does not hold (hold); a head also needs a free
 * downstream VC there and, unless admit (admit_i: the NIC's port under
 * injection admission, section 6), an ejection route; no VC requests an
 * output SPIN takes this cycle.  The round-robin arbiter picks one VC
 * (cw->req_vc[p]; its pointer moves at the grant).  Returns the output
 * requested (req_port_o), -1 for none (req_o).  An input sending a spin
 * flit is not asked. */
DP_FN int spin_input_port_request(router_t *r, cycle_t *cw, cycle_bits_t *cb, int p, int admit,
                                  const int spin, const int V, const int esc)
{
  const unsigned blocked = cb->spin_outs | cb->sm_outs;
  const int routing = (cb->routing >> p) & 1u;
  unsigned req = 0, vm, op;
  int v;
  if (spin && (cb->hold >> p & 1u)) return -1;   /* held by SPIN's input stage (hold_i) */
  if (esc) return ip_request_esc(r, cw, cb, p, admit, spin, V);
  /* "& all_vcs" changes nothing, but with V known it bounds the loop */
  for (vm = (unsigned)r->nonempty[p] & cb->all_vcs; vm; vm &= vm - 1u) {
    v = (int)low_bit(vm);
    if (spin && (cb->frozen_req >> (p * SPIN_MAX_VCS + v) & 1u)) continue;   /* frozen_req_i */
    if (routing && (V == 1 || cw->rc_vc[p] == v)) op = cw->rc_port[p];
    else if (r->routed[p] & (1u << v)) op = r->out_port_q[p][v];
    else continue;                /* waits for the route unit */
    if (CTL_HEAD(ip_front_ctl(r, p, v, V))) {
      if (cb->vc_phase && !(cb->nics >> op & 1u)) {
        /* the VC of its hop phase (4.5): 0 from a NIC, the VC it came in
         * on, one more after a global link */
        const unsigned ph = cb->nics >> p & 1u ? 0u : (unsigned)v + (cb->global >> p & 1u);
        if (ph >= (unsigned)V || (r->ovc_busy_q[op] >> ph & 1u)) continue;
      } else if (!(cb->port_free & (1u << op))) {
        continue;
      }
      if (!admit && !(cb->nics >> op & 1u)) continue;
    }
    if (blocked & (1u << op)) continue;
    req |= 1u << v;
  }
  if (!req) return -1;
  v = V == 1 ? 0 : rr_pick(req, r->in_ptr_q[p], (unsigned)V);   /* one VC: it wins */
  cw->req_vc[p] = (uint8_t)v;
  if (cb->vc_phase)             /* the winner's hop phase, for its head (4.5) */
    cw->req_ph[p] = (uint8_t)(cb->nics >> p & 1u ? 0u : (unsigned)v + (cb->global >> p & 1u));
  return routing && (V == 1 || cw->rc_vc[p] == v) ? cw->rc_port[p] : r->out_port_q[p][v];
}

/* The route registers of the VC routed this cycle take its route, unless
 * this cycle's messages froze the VC (it keeps the route it had). */
DP_FN void spin_input_port_latch(router_t *r, const cycle_t *cw, const cycle_bits_t *cb, int p,
                                 const int spin, const int V, const int esc)
{
  const int v = V == 1 ? 0 : cw->rc_vc[p];
  if (spin && r->sp.frozen_q[p][v]) return;
  r->route_valid_q[p][v] = 1;
  if (cb->nmin) r->via_q[p][v] = cw->rc_via[p];
  if (esc) {
    r->mask_a_q[p][v] = cw->rc_a[p];
    r->mask_e_q[p][v] = cw->rc_e[p];
  } else {
    r->out_port_q[p][v] = cw->rc_port[p];
  }
  r->routed[p] |= (uint8_t)(1u << v);
}

/* The front flit of the VC stage 1 chose, as it leaves (req_flit_o): a
 * head carries via from its VC's route and offer 0 under FAvORS-NMin. */
DP_FN flit_t spin_input_port_req_flit(router_t *r, const cycle_t *cw, const cycle_bits_t *cb,
                                      int p, const int V)
{
  const int v = V == 1 ? 0 : cw->req_vc[p];
  const spin_fifo_t f = spin_input_port_fifo(r, p, v, V);
  flit_t w = spin_fifo_front(&f);
  if (cb->nmin && CTL_HEAD(w.ctl)) {
    const unsigned via =
        ((cb->routing >> p) & 1u) && cw->rc_vc[p] == v ? cw->rc_via[p] : r->via_q[p][v];
    w.ext = ip_rh_rewrite(w.ext, via);
  }
  return w;
}

/* The request won output o (gnt_i); ovc is the downstream VC a head gets
 * (gnt_ovc_i).  The front flit leaves: a head records ovc (escape: and o as
 * its output), a tail frees the VC and its credit goes upstream; the VC
 * arbiter's pointer moves past the VC.  Returns the credit word (credit_o),
 * 0 for none. */
DP_FN unsigned spin_input_port_grant(router_t *r, const cycle_t *cw, cycle_bits_t *cb, int p,
                                     unsigned o, unsigned ovc, const int V, const int esc)
{
  const int v = V == 1 ? 0 : cw->req_vc[p];
  const unsigned ctl = ip_front_ctl(r, p, v, V);
  if (CTL_HEAD(ctl)) {
    if (esc) r->out_port_q[p][v] = (uint8_t)o;
    r->out_vc_q[p][v] = (uint8_t)ovc;
  }
  ip_pop(r, cb, p, v, V);
  r->in_ptr_q[p] = (uint8_t)rr_next((unsigned)v, (unsigned)V);
  if (!CTL_TAIL(ctl)) return 0;
  ip_route_clear(r, p, v);
  return CRED_MAKE((unsigned)v);
}

/* SPIN sends VC v's front flit (spin_i, spin_vc_i) without allocation: it
 * leaves as req_flit_o would (xbar_flit_o), and its tail frees the VC
 * without a credit (the spin refills it). */
DP_FN flit_t spin_input_port_spin_flit(router_t *r, cycle_bits_t *cb, int p, int v, const int V)
{
  const spin_fifo_t f = spin_input_port_fifo(r, p, v, V);
  flit_t w = spin_fifo_front(&f);
  if (cb->nmin && CTL_HEAD(w.ctl)) w.ext = ip_rh_rewrite(w.ext, r->via_q[p][v]);
  ip_pop(r, cb, p, v, V);
  if (CTL_TAIL(w.ctl)) ip_route_clear(r, p, v);
  return w;
}

/* The word on the input link (flit_i): a flit enters the VC it names. */
DP_FN void spin_input_port_write(router_t *r, int p, const flit_t *w, const int V)
{
  spin_fifo_t f;
  unsigned v;
  if (CTL_KIND(w->ctl) != KIND_FLIT) return;
  v = CTL_VC(w->ctl);
  f = spin_input_port_fifo(r, p, (int)v, V);
  spin_fifo_push(&f, w);
  r->nonempty[p] |= (uint8_t)(1u << v);
  r->in_ports |= (uint16_t)(1u << p);
  r->buffered++;
}
