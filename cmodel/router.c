/* router.c - see router.h and docs/microarchitecture.md.
 *
 * The step visits only what can change: input ports holding flits, outputs
 * requested or carrying a SPIN word, links that deliver something.  The
 * masks it walks (nonempty, routed, in_ports, full_ports) are derived from
 * the registers and kept up to date wherever those registers change.
 */
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

/* First storage slot of input VC (p, v). */
static inline unsigned vc_base(int p, int v, int vcs)
{
  return (unsigned)(p * vcs + v) * BUF_DEPTH;
}

/* The ext word of slot `slot` of input VC (p, v). */
static inline uint64_t buf_ext_of(const router_t *r, int p, int v, int vcs, unsigned slot)
{
  return (r->ext_nz[p * vcs + v] >> slot) & 1u ? r->buf_ext[vc_base(p, v, vcs) + slot] : 0;
}

/* FIFO pop at input VC (p, v). */
static inline void fifo_pop(router_t *r, int p, int v)
{
  uint8_t *rd = &r->rd_q[p][v];
  *rd = (uint8_t)(*rd + 1 == BUF_DEPTH ? 0 : *rd + 1);
  if (!--r->cnt_q[p][v]) {
    r->nonempty[p] &= (uint8_t)~(1u << v);
    if (!r->nonempty[p]) r->in_ports &= (uint8_t)~(1u << p);
  }
  r->buffered--;
}

/* Output p carries something this cycle: tell its reader (bit 1: a flit,
 * 0x100: a credit). */
static inline void wake_reader(const router_links_t *in, int p, unsigned bit)
{
  const int d = in->down[p];
  if (d >= 0) in->wake[d >> 3] |= (uint16_t)(bit << (d & 7));
}

/* Per output: the least busy-cycles of its downstream VCs (section 4). */
static inline void router_port_ages(const router_t *r, int P, int V, uint8_t *port_age)
{
  int o, u;
  for (o = 0; o < P; o++) {
    port_age[o] = 255;
    for (u = 0; u < V; u++)
      if (r->ovc_age_q[o][u] < port_age[o]) port_age[o] = r->ovc_age_q[o][u];
  }
}

/* The least port age over the ports of mask (FAvORS-NMin's t_active, 4.3). */
static inline unsigned min_age(unsigned mask, const uint8_t *port_age, int P)
{
  unsigned best = 255;
  int o;
  for (o = 0; o < P; o++)
    if ((mask & (1u << o)) && port_age[o] < best) best = port_age[o];
  return best;
}

/* A head flit leaving input VC (p, v) under FAvORS-NMin: via from the VC's
 * route, offer cleared (4.3). */
static inline uint64_t rh_rewrite(uint64_t ext, unsigned via)
{
  return (ext & ~(uint64_t)(RH_VIA | RH_OFFER)) | (via ? RH_VIA : 0u);
}

static inline void route_clear(router_t *r, int p, int v)
{
  r->route_valid_q[p][v] = 0;
  r->routed[p] &= (uint8_t)~(1u << v);
}

#if defined(__GNUC__)
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define ALWAYS_INLINE
#endif

/* The wires of one cycle, between the stages below: each stage is a
 * function named after the RTL module it mirrors (ovc_: the output-VC
 * tracker, ip_: the input ports, sa_: the switch allocator, su_: the SPIN
 * unit) and runs once per cycle in the order of eval.  Every stage is
 * inlined into eval, so the compiler still drops what SPIN off or a single
 * VC makes constant. */
typedef struct {
  int P;                         /* ports */
  int favors, nmin;              /* FAvORS-Min or -NMin; FAvORS-NMin */
  unsigned all_vcs;              /* bit v: VC v exists */
  unsigned port_free;            /* bit o: output o has a free downstream VC */
  uint8_t rc_vc[MAX_PORTS];      /* VC routed this cycle at input p (bit p of routing) */
  uint8_t rc_port[MAX_PORTS];
  uint8_t rc_via[MAX_PORTS];     /* FAvORS-NMin: the route computed at input p is toward mid */
  uint8_t req_vc[MAX_PORTS];     /* stage 1: VC chosen at input p */
  uint8_t rc_a[MAX_PORTS], rc_e[MAX_PORTS];   /* escape: route set looked up at input p */
  uint8_t req_esc[MAX_PORTS];    /* escape: input p's head takes the escape VC */
  uint8_t oreq[MAX_PORTS];       /* stage 2: inputs requesting output o */
  uint8_t ovc_set[MAX_PORTS], ovc_clr[MAX_PORTS];
  uint8_t port_age[MAX_PORTS];   /* per output: the least busy-cycles of its VCs */
} cycle_t;

/* The scalar wires of one cycle, apart from the arrays above so that the
 * compiler keeps them in registers. */
typedef struct {
  int any_draw;                  /* some stage drew from the LFSR */
  unsigned wf, wc;               /* flit / credit registers written, bit per port */
  unsigned routing;              /* bit p: input p computed a route this cycle */
  unsigned requested;            /* outputs some input requests */
  unsigned ochg;                 /* outputs whose ovc_busy_q may change */
  unsigned free_a, free0;        /* escape, bit o: an adaptive VC / VC 0 of o is free */
  int ages_known;                /* port_age filled (only FAvORS-Min reads it) */
  unsigned sm_outs;              /* outputs carrying a special message */
  unsigned spin_outs;            /* outputs carrying a spin flit */
  unsigned spin_ins;             /* inputs sending a spin flit */
  unsigned hold;                 /* inputs held by SPIN's input stage (SmPipe 1, 2) */
  uint64_t frozen_req;           /* VCs frozen for switch allocation (spin_ctx_t) */
  uint64_t popped;               /* bit p * SPIN_MAX_VCS + v: VC (p, v) sent a flit */
  int admitted;                  /* injection admission (section 6) */
  int spin_idle;                 /* SPIN has nothing to do this cycle (spin_unit_idle) */
} cycle_bits_t;

/* Output-VC tracker (rtl/spin_ovc_tracker.sv): the ages of the cycles the
 * network skipped this router. */
ALWAYS_INLINE
static inline void ovc_catch_up(router_t *r, uint64_t cycle, cycle_t *cw, const int V)
{
  const int favors = cw->favors;
  int v, o;
  unsigned m;
  /* Ages of the cycles the network skipped this router (nothing buffered or
   * arriving, so only the ages of its busy VCs changed: one each cycle). */
  if (favors && r->busy_ports && cycle > r->next_cycle) {
    const uint64_t k = cycle - r->next_cycle;
    for (m = r->busy_ports; m; m &= m - 1u) {
      o = (int)low_bit(m);
      for (v = 0; v < V; v++)
        if (r->ovc_busy_q[o] & (1u << v))
          r->ovc_age_q[o][v] = (uint8_t)(r->ovc_age_q[o][v] + k >= 255 ? 255
                                         : r->ovc_age_q[o][v] + k);
    }
  }
  r->next_cycle = cycle + 1;
}

/* Input ports (rtl/spin_input_port.sv), route unit. */
ALWAYS_INLINE
static inline void ip_route(router_t *r, const router_cfg_t *cfg, cycle_t *cw, cycle_bits_t *cb,
                            const int spin, const int V, const int esc)
{
  const int P = cw->P;
  const int favors = cw->favors;
  const int nmin = cw->nmin;
  const unsigned all_vcs = cw->all_vcs;
  const unsigned port_free = cw->port_free;
  int p, v;
  unsigned m;
  /* Route compute: one unit per input port, serving the lowest VC whose
   * head flit is at the front without a route; with reroute, when there is
   * none, the lowest VC whose head waits at the front with a route and is
   * not frozen (section 4.2). */
  for (m = r->in_ports; m; m &= m - 1u) {
    unsigned need;
    int first = 1;                /* a first route, not a reroute (4.2) */
    p = (int)low_bit(m);
    need = (unsigned)r->nonempty[p] & ~(unsigned)r->routed[p] & all_vcs;
    if (!need && cfg->reroute && !esc) {
      first = 0;
      unsigned vm;
      for (vm = (unsigned)r->nonempty[p] & all_vcs; vm && !need; vm &= vm - 1u) {
        v = (int)low_bit(vm);
        if (CTL_HEAD(r->buf_ctl[vc_base(p, v, V) + r->rd_q[p][v]]) &&
            !(spin && r->sp.frozen_q[p][v]))
          need = 1u << v;
      }
    }
    if (!need) continue;
    v = (int)low_bit(need);
    {
      unsigned dst = HEAD_DST(r->buf_data[vc_base(p, v, V) + r->rd_q[p][v]]);
      unsigned mask;
      int drew;
      if (nmin) {                 /* the current target and the source's choice (4.3) */
        const uint64_t rh = buf_ext_of(r, p, v, V, r->rd_q[p][v]);
        const unsigned mid = RH_MID(rh);
        int via = first ? (rh & RH_VIA) && mid != (unsigned)cfg->id : r->via_q[p][v];
        if (!via && first && p == 0 && (rh & RH_OFFER) && !(cfg->mask_det[dst] & port_free)) {
          const unsigned mm = cfg->mask_det[mid];
          unsigned t_min, t_nm;
          if (!cb->ages_known) {
            router_port_ages(r, P, V, cw->port_age);
            cb->ages_known = 1;
          }
          t_min = min_age(cfg->mask_det[dst], cw->port_age, P);
          t_nm = mm & port_free ? 0u : min_age(mm, cw->port_age, P);
          via = t_min > RH_DETOUR(rh) + t_nm;
        }
        if (via) dst = mid;
        cw->rc_via[p] = (uint8_t)via;
      }
      mask = cfg->mask_det[dst];
      cw->rc_vc[p] = (uint8_t)v;
      cb->routing |= 1u << p;
      if (esc) {                  /* the route set only: the port is chosen in stage 1 */
        cw->rc_a[p] = (uint8_t)mask;
        cw->rc_e[p] = cfg->mask_esc[dst];
        continue;
      }
      if (favors && !(mask & port_free) && !cb->ages_known) {
        router_port_ages(r, P, V, cw->port_age);
        cb->ages_known = 1;
      }
      cw->rc_port[p] = (uint8_t)route_select(mask, port_free, lfsr_draw(r->lfsr_q, (unsigned)p),
                                         favors, cw->port_age, (unsigned)P, &drew);
      cb->any_draw |= drew;
    }
  }
}

/* SPIN unit (rtl/spin_unit.sv, cmodel/spin_unit.c), before allocation. */
ALWAYS_INLINE
static inline void su_pre(router_t *r, const router_cfg_t *cfg, uint64_t cycle, unsigned in_mask,
                          const router_links_t *in, spin_stats_t *st, cycle_t *cw, cycle_bits_t *cb,
                          spin_ctx_t *sc, const int spin, const int V)
{
  const int P = cw->P;
  const int nmin = cw->nmin;
  const unsigned all_vcs = cw->all_vcs;
  int p, v;
  unsigned m;
  static const flit_t idle = {0, 0, KIND_IDLE};
  flit_t front[MAX_PORTS][MAX_VCS];   /* SPIN's view of the front flits */
  const flit_t *in_flit[MAX_PORTS];   /* SPIN's view of the links of this cycle */
  uint8_t in_cred[MAX_PORTS];
  /* SPIN: timers, special messages, spin flits (spin_unit.c).  It sees the
   * registers of this cycle (a route computed now is not yet visible).  When
   * it has nothing to do (spin_unit_idle) its step before allocation and its
   * view of the front flits are skipped: speed only, the result is the same. */
  if (spin) {                    /* what spin_unit_post reads, then the rest */
    sc->ports = P;
    sc->vcs = V;
    sc->tdd = cfg->tdd;
    sc->cnt = (const uint8_t(*)[SPIN_MAX_VCS])r->cnt_q;
    sc->cnt_loaded = 0;                    /* spin_unit_pre clears the rest */
    sc->in_ports = r->in_ports;            /* the VCs at the start of the cycle, for the watch */
    sc->nonempty = 0;
    for (m = r->in_ports & ~1u; m; m &= m - 1u) {
      p = (int)low_bit(m);
      sc->nonempty |= (uint64_t)r->nonempty[p] << (p * SPIN_MAX_VCS);
    }
    {                              /* a special message or an arm notice arrives */
      int sm_in = 0;
      for (m = in_mask & 0xFEFEu; m && !sm_in; m &= m - 1u) {
        const unsigned b = low_bit(m);
        sm_in = b < 8 ? CTL_KIND(in->flit[in->up[b]].ctl) >= KIND_PROBE
                      : CRED_ARM(in->cred[in->up[b - 8]]);
      }
      cb->spin_idle = spin_unit_idle(&r->sp, sm_in);
    }
  }
  if (!cb->spin_idle) {
    sc->id = cfg->id;
    sc->nodes = cfg->nodes;
    sc->adopt = cfg->adopt;
    sc->nmin = nmin;
    sc->xlat = cfg->xlat;
    sc->fmt = cfg->fmt;
    sc->sm_pipe = (int)cfg->fmt->s;
    sc->cycle = cycle;
    sc->route_valid = (const uint8_t(*)[SPIN_MAX_VCS])r->route_valid_q;
    sc->out_port = (const uint8_t(*)[SPIN_MAX_VCS])r->out_port_q;
    memset(sc->front, 0, sizeof sc->front);   /* NULL: the VC is empty */
    for (m = r->in_ports; m; m &= m - 1u) {
      unsigned vm;
      p = (int)low_bit(m);
      for (vm = r->nonempty[p] & all_vcs; vm; vm &= vm - 1u) {
        unsigned slot, i;
        v = (int)low_bit(vm);
        slot = r->rd_q[p][v];
        i = vc_base(p, v, V) + slot;
        front[p][v].data = r->buf_data[i];
        front[p][v].ext = buf_ext_of(r, p, v, V, slot);
        front[p][v].ctl = r->buf_ctl[i];
        sc->front[p][v] = &front[p][v];
      }
    }
    in_flit[0] = in_mask & 1u ? in->inj : &idle;
    in_cred[0] = 0;
    for (p = 1; p < P; p++) {
      const int u = in->up[p];
      in_flit[p] = in_mask & (1u << p) ? &in->flit[u] : &idle;
      in_cred[p] = in_mask & (0x100u << p) ? in->cred[u] : 0;
    }
    spin_unit_pre(&r->sp, sc, in_flit, in_cred, st);
    cb->sm_outs = sc->sm_out;
    cb->spin_outs = sc->out_busy;
    cb->spin_ins = sc->in_busy;
    cb->hold = sc->hold;
    cb->frozen_req = sc->frozen_req;
  }
}

/* Switch allocator (rtl/spin_switch_alloc.sv), stage 1. */
ALWAYS_INLINE
static inline void sa_inputs(router_t *r, const router_cfg_t *cfg, cycle_t *cw, cycle_bits_t *cb,
                             const int spin, const int V, const int esc)
{
  const int P = cw->P;
  const unsigned all_vcs = cw->all_vcs;
  const unsigned port_free = cw->port_free;
  int p, v, o;
  unsigned m;
  /* Injection admission (section 6): a head at the NIC port may take a
   * network output only while every network output has a free downstream
   * VC (an unconnected output is never busy). */
  cb->admitted = !cfg->admit || (port_free | 1u) == (1u << P) - 1u;

  /* Escape routing, stage 1: a head at the front requests when its route set
   * offers a free VC (an adaptive VC on a port of mask_a, or VC 0 on a port
   * of mask_e); the winning head then draws its port among those. */
  if (esc) {
    for (o = 0; o < P; o++) {
      const unsigned b = r->ovc_busy_q[o];
      if (~b & all_vcs & ~1u) cb->free_a |= 1u << o;
      if (!(b & 1u)) cb->free0 |= 1u << o;
    }
    for (m = r->in_ports & ~cb->spin_ins; m; m &= m - 1u) {
      unsigned req = 0, vm, use[MAX_VCS], amask[MAX_VCS];
      p = (int)low_bit(m);
      for (vm = r->nonempty[p] & all_vcs; vm; vm &= vm - 1u) {
        v = (int)low_bit(vm);
        if (CTL_HEAD(r->buf_ctl[vc_base(p, v, V) + r->rd_q[p][v]])) {
          unsigned a, e;
          if (r->routed[p] & (1u << v)) {
            a = r->mask_a_q[p][v];
            e = r->mask_e_q[p][v];
          } else if ((cb->routing & (1u << p)) && cw->rc_vc[p] == v) {
            a = cw->rc_a[p];
            e = cw->rc_e[p];
          } else {
            continue;                      /* waits for the route unit */
          }
          use[v] = ((a & cb->free_a) | (e & cb->free0)) & ~(cb->spin_outs | cb->sm_outs);
          amask[v] = a;
          if (!use[v] || (p == 0 && !((a | e) & 1u) && !cb->admitted)) continue;
        } else {
          use[v] = 0;
          if ((cb->spin_outs | cb->sm_outs) & (1u << r->out_port_q[p][v])) continue;
        }
        req |= 1u << v;
      }
      if (req) {
        unsigned op;
        v = rr_pick(req, r->in_ptr_q[p], (unsigned)V);
        cw->req_vc[p] = (uint8_t)v;
        if (use[v]) {
          int drew;
          op = select_port(use[v], lfsr_draw(r->lfsr_q, (unsigned)p), &drew);
          cb->any_draw |= drew;
          cw->req_esc[p] = !((amask[v] & cb->free_a) >> op & 1u);
        } else {
          op = r->out_port_q[p][v];
        }
        cw->oreq[op] |= (uint8_t)(1u << p);
        cb->requested |= 1u << op;
      }
    }
  }

  /* Switch allocation, stage 1: each input port picks one VC.  Frozen VCs,
   * inputs sending a spin flit and the input whose special message SPIN
   * handles (SmPipe = 1, held) take no part. */
  for (m = esc ? 0u : r->in_ports & ~(cb->spin_ins | cb->hold); m; m &= m - 1u) {
    unsigned req = 0, vm;
    p = (int)low_bit(m);
    /* "& all_vcs" changes nothing, but with V known it bounds the loop */
    for (vm = r->nonempty[p] & all_vcs; vm; vm &= vm - 1u) {
      unsigned op;
      v = (int)low_bit(vm);
      if (spin && (cb->frozen_req >> (p * SPIN_MAX_VCS + v) & 1u)) continue;   /* frozen (SPIN) */
      if ((cb->routing & (1u << p)) && (V == 1 || cw->rc_vc[p] == v)) op = cw->rc_port[p];
      else if (r->routed[p] & (1u << v)) op = r->out_port_q[p][v];
      else continue;                       /* waits for the route unit */
      if (CTL_HEAD(r->buf_ctl[vc_base(p, v, V) + r->rd_q[p][v]]) &&
          (!(port_free & (1u << op)) || (p == 0 && op != 0 && !cb->admitted)))
        continue;
      if ((cb->spin_outs | cb->sm_outs) & (1u << op)) continue;
      req |= 1u << v;
    }
    if (req) {
      unsigned op;
      v = V == 1 ? 0 : rr_pick(req, r->in_ptr_q[p], (unsigned)V);   /* one VC: it wins */
      cw->req_vc[p] = (uint8_t)v;
      op = (cb->routing & (1u << p)) && (V == 1 || cw->rc_vc[p] == v) ? cw->rc_port[p]
                                                                     : r->out_port_q[p][v];
      cw->oreq[op] |= (uint8_t)(1u << p);
      cb->requested |= 1u << op;
    }
  }
}

/* Input ports (rtl/spin_input_port.sv), after switch allocation's stage 1. */
ALWAYS_INLINE
static inline void ip_route_latch(router_t *r, cycle_t *cw, cycle_bits_t *cb, const int spin,
                                  const int V, const int esc)
{
  const int nmin = cw->nmin;
  int p, v;
  unsigned m;
  /* Route registers: the routed VC keeps its route (cleared below if its
   * tail leaves this cycle). */
  for (m = cb->routing; m; m &= m - 1u) {
    p = (int)low_bit(m);
    v = V == 1 ? 0 : cw->rc_vc[p];
    if (spin && r->sp.frozen_q[p][v]) continue;   /* a move froze it this cycle: its route stays */
    r->route_valid_q[p][v] = 1;
    if (nmin) r->via_q[p][v] = cw->rc_via[p];
    if (esc) {
      r->mask_a_q[p][v] = cw->rc_a[p];
      r->mask_e_q[p][v] = cw->rc_e[p];
    } else {
      r->out_port_q[p][v] = cw->rc_port[p];
    }
    r->routed[p] |= (uint8_t)(1u << v);
  }
}

/* Switch allocator (rtl/spin_switch_alloc.sv), stage 2, and switch traversal
 * (rtl/spin_crossbar.sv, the output registers). */
ALWAYS_INLINE
static inline void sa_outputs(router_t *r, const router_links_t *in,
                              flit_t *out_flit, uint8_t *out_cred, spin_stats_t *st, cycle_t *cw,
                              cycle_bits_t *cb, spin_ctx_t *sc, const int V, const int esc)
{
  const int P = cw->P;
  const int nmin = cw->nmin;
  const unsigned all_vcs = cw->all_vcs;
  int v, o;
  unsigned m;
  /* Stage 2: each output port picks one input; switch traversal.  An output
   * carrying a spin flit or a special message sends that instead. */
  for (m = cb->requested | cb->spin_outs | cb->sm_outs; m; m &= m - 1u) {
    int w;
    o = (int)low_bit(m);
    if (cb->spin_outs & (1u << o)) {
      int sp = sc->spin_src_port[o], sv = sc->spin_src_vc[o];
      out_flit[o] = sc->spin_flit[o];
      if (nmin && CTL_HEAD(out_flit[o].ctl))
        out_flit[o].ext = rh_rewrite(out_flit[o].ext, r->via_q[sp][sv]);
      cb->wf |= 1u << o;
      wake_reader(in, o, 1u);
      fifo_pop(r, sp, sv);
      cb->popped |= 1ull << (sp * SPIN_MAX_VCS + sv);
      if (CTL_TAIL(sc->spin_flit[o].ctl)) {   /* no credit: the VC is refilled */
        route_clear(r, sp, sv);
        r->sp.spinning_q[sp][sv] = r->sp.frozen_q[sp][sv] = r->sp.armed_q[sp][sv] = 0;
      }
      continue;
    }
    if (cb->sm_outs & (1u << o)) {             /* as spin_sm_out put it on the link */
      out_flit[o] = sc->sm_word[o];
      cb->wf |= 1u << o;
      wake_reader(in, o, 1u);
      continue;
    }
    w = rr_pick(cw->oreq[o], r->out_ptr_q[o], (unsigned)P);
    v = V == 1 ? 0 : cw->req_vc[w];
    {
      const unsigned slot = r->rd_q[w][v], i = vc_base(w, v, V) + slot;
      const unsigned head = CTL_HEAD(r->buf_ctl[i]), tail = CTL_TAIL(r->buf_ctl[i]);
      unsigned ovc;
      if (head) {
        if (!esc) {
          ovc = low_bit(all_vcs & ~(unsigned)r->ovc_busy_q[o]);   /* lowest free VC */
        } else {                              /* lowest free adaptive VC, else VC 0 */
          ovc = cw->req_esc[w] ? 0u : low_bit(all_vcs & ~1u & ~(unsigned)r->ovc_busy_q[o]);
          r->out_port_q[w][v] = (uint8_t)o;
        }
        r->out_vc_q[w][v] = (uint8_t)ovc;
        cw->ovc_set[o] |= (uint8_t)(1u << ovc);
        cb->ochg |= 1u << o;
      } else {
        ovc = r->out_vc_q[w][v];
      }
      out_flit[o].data = r->buf_data[i];
      out_flit[o].ext = buf_ext_of(r, w, v, V, slot);
      if (nmin && head) {
        out_flit[o].ext = rh_rewrite(out_flit[o].ext, r->via_q[w][v]);
        if (w == 0 && r->via_q[w][v]) st->detours++;
      }
      out_flit[o].ctl = CTL_MAKE(KIND_FLIT, head, tail, ovc);
      cb->wf |= 1u << o;
      wake_reader(in, o, 1u);
      fifo_pop(r, w, v);
      cb->popped |= 1ull << (w * SPIN_MAX_VCS + v);
      if (tail) {
        out_cred[w] = CRED_MAKE(v);
        cb->wc |= 1u << w;
        wake_reader(in, w, 0x100u);
        route_clear(r, w, v);
        if (o == 0) {                         /* ejection VCs free at the tail */
          cw->ovc_clr[0] |= (uint8_t)(1u << ovc);
          cb->ochg |= 1u;
        }
      }
      r->in_ptr_q[w] = (uint8_t)rr_next((unsigned)v, (unsigned)V);
      r->out_ptr_q[o] = (uint8_t)rr_next((unsigned)w, (unsigned)P);
    }
  }
}

/* Output-VC tracker (rtl/spin_ovc_tracker.sv), end of the cycle. */
ALWAYS_INLINE
static inline void ovc_update(router_t *r, unsigned in_mask, const router_links_t *in, cycle_t *cw,
                              cycle_bits_t *cb, const int V)
{
  const int favors = cw->favors;
  const unsigned all_vcs = cw->all_vcs;
  int v, o;
  unsigned m;
  /* Credits from downstream free output VCs (network ports only). */
  for (m = in_mask >> 8; m; m &= m - 1u) {
    o = (int)low_bit(m);
    const unsigned c = in->cred[in->up[o]];
    if (CRED_VALID(c)) {
      cw->ovc_clr[o] |= (uint8_t)(1u << CRED_VC(c));
      cb->ochg |= 1u << o;
    }
  }
  for (m = cb->ochg; m; m &= m - 1u) {
    unsigned b;
    o = (int)low_bit(m);
    b = ((unsigned)r->ovc_busy_q[o] | cw->ovc_set[o]) & ~(unsigned)cw->ovc_clr[o];
    r->ovc_busy_q[o] = (uint8_t)b;
    if ((b & all_vcs) == all_vcs) r->full_ports |= (uint8_t)(1u << o);
    else r->full_ports &= (uint8_t)~(1u << o);
    if (b) r->busy_ports |= (uint8_t)(1u << o);
    else r->busy_ports &= (uint8_t)~(1u << o);
  }
  /* Ages (only FAvORS-Min reads them).  A free VC's age is already 0 unless
   * it was freed this cycle, so only outputs with a busy VC or a change. */
  if (favors) {
    for (m = r->busy_ports | cb->ochg; m; m &= m - 1u) {
      o = (int)low_bit(m);
      for (v = 0; v < V; v++) {
        uint8_t *a = &r->ovc_age_q[o][v];
        if (!(r->ovc_busy_q[o] & (1u << v))) *a = 0;
        else if (!(cw->ovc_set[o] & (1u << v)) && *a < 255) (*a)++;
      }
    }
  }
}

/* SPIN unit (rtl/spin_unit.sv): arm notices upstream, on the credit wires. */
ALWAYS_INLINE
static inline void su_arm_out(const router_links_t *in, uint8_t *out_cred, cycle_t *cw,
                              cycle_bits_t *cb, spin_ctx_t *sc)
{
  const int P = cw->P;
  int p;
  if (!cb->spin_idle)
    for (p = 0; p < P; p++)
      if (sc->arm_out[p]) {
        out_cred[p] = (uint8_t)((cb->wc & (1u << p) ? out_cred[p] : 0u) | sc->arm_out[p]);
        cb->wc |= 1u << p;
        wake_reader(in, p, 0x100u);
      }
}

/* Input ports (rtl/spin_input_port.sv), end of the cycle. */
ALWAYS_INLINE
static inline void ip_write(router_t *r, unsigned in_mask, const router_links_t *in, const int V)
{
  int p;
  unsigned m;
  /* Buffer write: the flit on each input link enters its VC. */
  for (m = in_mask & 0xFFu; m; m &= m - 1u) {
    const flit_t *f;
    unsigned vc, slot;
    p = (int)low_bit(m);
    f = p ? &in->flit[in->up[p]] : in->inj;
    if (CTL_KIND(f->ctl) != KIND_FLIT) continue;
    vc = CTL_VC(f->ctl);
    slot = (unsigned)r->rd_q[p][vc] + r->cnt_q[p][vc];
    if (slot >= BUF_DEPTH) slot -= BUF_DEPTH;
    {
      const unsigned i = vc_base(p, (int)vc, V) + slot;
      uint8_t *nz = &r->ext_nz[p * V + (int)vc];
      r->buf_data[i] = f->data;
      r->buf_ctl[i] = f->ctl;
      if (f->ext) {
        r->buf_ext[i] = f->ext;
        *nz = (uint8_t)(*nz | 1u << slot);
      } else if (*nz & (1u << slot)) {
        *nz = (uint8_t)(*nz & ~(1u << slot));
      }
    }
    r->cnt_q[p][vc]++;
    r->nonempty[p] |= (uint8_t)(1u << vc);
    r->in_ports |= (uint8_t)(1u << p);
    r->buffered++;
  }
}

/* SPIN unit (rtl/spin_unit.sv), after allocation: the watch of spin_fsm_post. */
ALWAYS_INLINE
static inline void su_post(router_t *r, spin_stats_t *st, cycle_bits_t *cb, spin_ctx_t *sc,
                           const int spin)
{
  if (spin) {
    spin_unit_post(&r->sp, sc, cb->popped, st);
    r->spin_busy = (uint8_t)(r->sp.state_q != FSM_OFF || r->sp.is_deadlock_q ||
                             spin_stages_busy(&r->sp) || r->sp.popped_q);
  }
}

/* The cycle, for SPIN on or off (spin) and V VCs per port: the stages
 * above in order.  Inlined into router_eval once per common case. */
ALWAYS_INLINE
static inline unsigned eval(router_t *r, const router_cfg_t *cfg, uint64_t cycle,
                            unsigned in_mask, const router_links_t *in,
                            flit_t *out_flit, uint8_t *out_cred,
                            spin_stats_t *st, const int spin, const int V, const int esc)
{
  cycle_t cw;
  cycle_bits_t cb;
  spin_ctx_t sc;                 /* SPIN's view and results, filled only when SPIN is on */

  cw.P = cfg->ports;
  cw.favors = cfg->algo == ALGO_FAVORS_MIN || cfg->algo == ALGO_FAVORS_NMIN;
  cw.nmin = cfg->algo == ALGO_FAVORS_NMIN;
  cw.all_vcs = (1u << V) - 1u;
  cw.port_free = ~(unsigned)r->full_ports & ((1u << cw.P) - 1u);
  cb.any_draw = 0;
  cb.wf = cb.wc = 0;
  cb.routing = cb.requested = cb.ochg = 0;
  cb.free_a = cb.free0 = 0;
  cb.ages_known = 0;
  cb.sm_outs = cb.spin_outs = cb.spin_ins = cb.hold = 0;
  cb.frozen_req = 0;
  cb.popped = 0;
  cb.spin_idle = 1;
  memset(cw.oreq, 0, sizeof cw.oreq);
  memset(cw.ovc_set, 0, sizeof cw.ovc_set);
  memset(cw.ovc_clr, 0, sizeof cw.ovc_clr);

  ovc_catch_up(r, cycle, &cw, V);
  ip_route(r, cfg, &cw, &cb, spin, V, esc);
  su_pre(r, cfg, cycle, in_mask, in, st, &cw, &cb, &sc, spin, V);
  sa_inputs(r, cfg, &cw, &cb, spin, V, esc);
  ip_route_latch(r, &cw, &cb, spin, V, esc);
  sa_outputs(r, in, out_flit, out_cred, st, &cw, &cb, &sc, V, esc);
  ovc_update(r, in_mask, in, &cw, &cb, V);
  su_arm_out(in, out_cred, &cw, &cb, &sc);
  ip_write(r, in_mask, in, V);
  su_post(r, st, &cb, &sc, spin);
  if (cb.any_draw) r->lfsr_q = lfsr_step(r->lfsr_q);
  return cb.wf | cb.wc << 8;
}

/* The instances of eval: SPIN on; SPIN on with 1 VC; SPIN off with 1 VC; SPIN off;
 * escape. */
#define EVAL_INSTANCE(name, spin, V, esc)                                              \
  static unsigned name(router_t *r, const router_cfg_t *cfg, uint64_t cycle,           \
                       unsigned in_mask, const router_links_t *in, flit_t *out_flit,   \
                       uint8_t *out_cred, spin_stats_t *st)                            \
  {                                                                                    \
    return eval(r, cfg, cycle, in_mask, in, out_flit, out_cred, st, spin, V, esc);     \
  }
EVAL_INSTANCE(eval_spin, 1, cfg->vcs, 0)
EVAL_INSTANCE(eval_spin_1vc, 1, 1, 0)
EVAL_INSTANCE(eval_1vc, 0, 1, 0)
EVAL_INSTANCE(eval_vcs, 0, cfg->vcs, 0)
EVAL_INSTANCE(eval_esc, 0, cfg->vcs, 1)

router_eval_fn router_eval_for(const router_cfg_t *cfg)
{
  return cfg->algo == ALGO_ESCAPE ? eval_esc
         : cfg->spin ? (cfg->vcs == 1 ? eval_spin_1vc : eval_spin)
         : cfg->vcs == 1 ? eval_1vc : eval_vcs;
}

unsigned router_eval(router_t *r, const router_cfg_t *cfg, uint64_t cycle, unsigned in_mask,
                     const router_links_t *in, flit_t *out_flit, uint8_t *out_cred,
                     spin_stats_t *st)
{
  return router_eval_for(cfg)(r, cfg, cycle, in_mask, in, out_flit, out_cred, st);
}

void router_step(router_t *r, const router_cfg_t *cfg, uint64_t cycle,
                 const flit_t *const *in_flit, const uint8_t *in_cred,
                 flit_t *out_flit, uint8_t *out_cred, spin_stats_t *st)
{
  flit_t flit[MAX_PORTS];
  uint8_t cred[MAX_PORTS];
  int up[MAX_PORTS], down[MAX_PORTS];
  router_links_t in;
  unsigned in_mask = 0;
  int p;
  for (p = 0; p < cfg->ports; p++) {
    out_flit[p].ctl = KIND_IDLE;
    out_flit[p].data = out_flit[p].ext = 0;
    out_cred[p] = 0;
    flit[p] = *in_flit[p];
    cred[p] = in_cred[p];
    up[p] = p;
    down[p] = -1;   /* no reader to tell */
    if (CTL_KIND(flit[p].ctl) != KIND_IDLE) in_mask |= 1u << p;
    if (p > 0 && cred[p] != 0) in_mask |= 0x100u << p;
  }
  in.inj = &flit[0];
  in.flit = flit;
  in.cred = cred;
  in.up = up;
  in.down = down;
  in.wake = NULL;
  router_eval(r, cfg, cycle, in_mask, &in, out_flit, out_cred, st);
}
