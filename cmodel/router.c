/* router.c - one router: the datapath modules (datapath.h) and the SPIN
 * unit (spin_unit.c) wired together as in the RTL.  RTL twin:
 * rtl/spin_router.sv (router_eval).  See router.h; docs/microarchitecture.md
 * is the contract.
 *
 * The cycle (eval, at the end) reads as a table of contents: each line is
 * one stage, a loop over the ports or outputs that can change (the RTL's
 * generate loops) calling one module's function, the SPIN unit between
 * them.  Only what can change is visited: input ports holding flits,
 * outputs requested or carrying a SPIN word, links that deliver something.
 * The masks walked (nonempty, routed, in_ports, full_ports, busy_ports) are
 * derived from the registers and kept up to date wherever those registers
 * change.
 */
#include <string.h>
#define DP_INLINE                 /* the modules inlined into each instance of eval */
#include "datapath.h"
#include "spin_fifo.c"            /* each after the ones whose functions it calls */
#include "spin_route_table.c"
#include "spin_ovc_tracker.c"
#include "spin_switch_alloc.c"
#include "spin_crossbar.c"
#include "spin_input_port.c"
#include "lfsr.h"

void router_reset(router_t *r, const router_cfg_t *cfg, uint64_t run_seed)
{
  memset(r, 0, sizeof *r);
  r->lfsr_q = lfsr_seed(run_seed, (unsigned)cfg->id);
}

/* Output p carries something this cycle: tell its reader (bit 1: a flit,
 * 0x10000: a credit). */
static inline void wake_reader(const router_links_t *in, int p, unsigned bit)
{
  const int d = in->down[p];
  if (d >= 0) in->wake[d >> 4] |= bit << (d & 15);
}

/* ---- the stages of eval, in its order ---- */

/* Output-VC trackers: the ages of the cycles the network skipped this
 * router (nothing buffered or arriving, so only its busy VCs' ages changed,
 * by one each cycle). */
static inline DP_ALWAYS_INLINE void ovc_catch_up(router_t *r, uint64_t cycle,
                                                 const cycle_bits_t *cb, const int V)
{
  unsigned m;
  if (cb->favors && r->busy_ports && cycle > r->next_cycle)
    for (m = r->busy_ports; m; m &= m - 1u) {
      const int o = (int)low_bit(m);
      spin_ovc_tracker_skip(r->ovc_busy_q[o], r->ovc_age_q[o], cycle - r->next_cycle, V);
    }
  r->next_cycle = cycle + 1;
}

/* Output o's busy VCs changed: the router's summaries of them (full_ports:
 * every VC busy; busy_ports: any). */
static inline DP_ALWAYS_INLINE void ovc_flags(router_t *r, int o, unsigned all_vcs)
{
  const unsigned b = r->ovc_busy_q[o];
  if ((b & all_vcs) == all_vcs) r->full_ports |= (uint16_t)(1u << o);
  else r->full_ports &= (uint16_t)~(1u << o);
  if (b) r->busy_ports |= (uint16_t)(1u << o);
  else r->busy_ports &= (uint16_t)~(1u << o);
}

/* Output-VC trackers: the credits that arrive this cycle (network outputs).
 * Without early credits they free their VCs at the edge (ovc_clr); with
 * them (section 5) at once, for everything the cycle decides (port_free,
 * the VC a head takes), the ages staying until the edge. */
static inline DP_ALWAYS_INLINE void ovc_credits(router_t *r, unsigned in_mask,
                                                const router_links_t *in, cycle_t *cw,
                                                cycle_bits_t *cb, const int early)
{
  unsigned m;
  for (m = in_mask >> 16; m; m &= m - 1u) {
    const int o = (int)low_bit(m);
    const unsigned c = spin_ovc_tracker_credit(in->cred[in->up[o]]);
    if (!c) continue;
    cb->ochg |= 1u << o;
    if (early) {
      r->ovc_busy_q[o] &= (uint8_t)~c;
      ovc_flags(r, o, cb->all_vcs);
    } else {
      cw->ovc_clr[o] |= (uint8_t)c;
    }
  }
}

/* Input ports holding flits: their route units. */
static inline DP_ALWAYS_INLINE void in_route(router_t *r, const router_cfg_t *cfg, cycle_t *cw,
                                             cycle_bits_t *cb, const int spin, const int V,
                                             const int esc)
{
  unsigned m;
  for (m = r->in_ports; m; m &= m - 1u)
    spin_input_port_route(r, cfg, cw, cb, (int)low_bit(m), spin, V, esc);
}

/* SPIN unit (spin_unit.c), before allocation: timers, special messages,
 * spin flits.  It sees the registers of this cycle (a route computed now is
 * not yet visible).  When it has nothing to do (spin_unit_idle) its step
 * and its view of the front flits are skipped: speed only, the result is
 * the same. */
static inline DP_ALWAYS_INLINE void su_pre(router_t *r, const router_cfg_t *cfg, uint64_t cycle,
                                           unsigned in_mask, const router_links_t *in,
                                           spin_stats_t *st, cycle_bits_t *cb, spin_ctx_t *sc,
                                           const int spin, const int V)
{
  const int P = cb->P;
  const int nmin = cb->nmin;
  const unsigned all_vcs = cb->all_vcs;
  int p, v;
  unsigned m;
  static const flit_t idle = {0, 0, KIND_IDLE};
  flit_t front[MAX_PORTS][MAX_VCS];   /* SPIN's view of the front flits */
  const flit_t *in_flit[MAX_PORTS];   /* SPIN's view of the links of this cycle */
  uint8_t in_cred[MAX_PORTS];
  if (spin) {                    /* what spin_unit_post reads, then the rest */
    sc->ports = P;
    sc->nics = cfg->nics;
    sc->vcs = V;
    sc->tdd = cfg->tdd;
    sc->cnt = (const uint8_t(*)[SPIN_MAX_VCS])r->cnt_q;
    sc->cnt_loaded = 0;                    /* spin_unit_pre clears the rest */
    sc->in_ports = r->in_ports;            /* the VCs at the start of the cycle, for the watch */
    sc->nonempty = 0;
    for (m = r->in_ports & ~cb->nics; m; m &= m - 1u) {   /* network ports only */
      p = (int)low_bit(m);
      sc->nonempty |= (uint64_t)r->nonempty[p] << (p * SPIN_MAX_VCS);
    }
    {                              /* a special message or an arm notice arrives */
      int sm_in = 0;
      for (m = in_mask & ~(cb->nics | cb->nics << 16); m && !sm_in; m &= m - 1u) {
        const unsigned b = low_bit(m);
        sm_in = b < 16 ? CTL_KIND(in->flit[in->up[b]].ctl) >= KIND_PROBE
                       : CRED_ARM(in->cred[in->up[b - 16]]);
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
        spin_fifo_t f;
        v = (int)low_bit(vm);
        f = spin_input_port_fifo(r, p, v, V);
        front[p][v] = spin_fifo_front(&f);
        sc->front[p][v] = &front[p][v];
      }
    }
    for (p = 0; p < cfg->nics; p++) {
      in_flit[p] = in_mask & (1u << p) ? &in->inj[p] : &idle;
      in_cred[p] = 0;
    }
    for (; p < P; p++) {
      const int u = in->up[p];
      in_flit[p] = in_mask & (1u << p) ? &in->flit[u] : &idle;
      in_cred[p] = in_mask & (0x10000u << p) ? in->cred[u] : 0;
    }
    spin_unit_pre(&r->sp, sc, in_flit, in_cred, st);
    cb->sm_outs = sc->sm_out;
    cb->spin_outs = sc->out_busy;
    cb->spin_ins = sc->in_busy;
    cb->hold = sc->hold;
    cb->frozen_req = sc->frozen_req;
  }
}

/* Input ports holding flits and sending no spin flit: stage 1, each
 * port's request to the switch allocator.  Injection admission (section
 * 6): a head at a NIC port may take a network output only while every
 * network output has a free downstream VC (an unconnected output is never
 * busy); occupancy admission: only while at most one (level 1) or no
 * (level 2) network input port holds flits.  Escape routing reads the trackers' free adaptive VCs and
 * VC 0. */
static inline DP_ALWAYS_INLINE void in_request(router_t *r, const router_cfg_t *cfg,
                                               cycle_t *cw, cycle_bits_t *cb, const int spin,
                                               const int V, const int esc)
{
  const int P = cb->P;
  unsigned m;
  cb->admitted = !cfg->admit || (cb->port_free | cb->nics) == (1u << P) - 1u;
  if (cfg->admit_occ) {
    const unsigned busy_in = r->in_ports & ~cb->nics;   /* network inputs holding flits */
    if (cfg->admit_occ == 1 ? (busy_in & (busy_in - 1u)) != 0 : busy_in != 0) cb->admitted = 0;
  }
  if (esc) {
    int o;
    for (o = 0; o < P; o++) {
      const unsigned f = spin_ovc_tracker_free(r->ovc_busy_q[o], cb->all_vcs);
      if (f >> 1) cb->free_a |= 1u << o;
      if (f & 1u) cb->free0 |= 1u << o;
    }
  }
  for (m = r->in_ports & ~cb->spin_ins; m; m &= m - 1u) {
    const int p = (int)low_bit(m);
    const int op = spin_input_port_request(r, cw, cb, p, cb->nics >> p & 1u ? cb->admitted : 1,
                                           spin, V, esc);
    if (op >= 0) spin_switch_alloc_request(cw, cb, p, (unsigned)op);
  }
}

/* Input ports that computed a route: their route registers. */
static inline DP_ALWAYS_INLINE void in_latch(router_t *r, const cycle_t *cw,
                                             const cycle_bits_t *cb, const int spin, const int V,
                                             const int esc)
{
  unsigned m;
  for (m = cb->routing; m; m &= m - 1u)
    spin_input_port_latch(r, cw, cb, (int)low_bit(m), spin, V, esc);
}

/* Output o carries a spin flit: the SPIN unit names its input and VC and
 * the downstream VC; the input port sends it through the crossbar, without
 * allocation.  Its tail ends the VC's spin. */
static inline DP_ALWAYS_INLINE void out_spin(router_t *r, const router_links_t *in,
                                             flit_t *out_flit, cycle_bits_t *cb,
                                             const spin_ctx_t *sc, int o, const int V)
{
  const int sp = sc->spin_src_port[o], sv = sc->spin_src_vc[o];
  const flit_t w = spin_input_port_spin_flit(r, cb, sp, sv, V);
  spin_crossbar(&w, CTL_VC(sc->spin_flit[o].ctl), &out_flit[o]);
  cb->wf |= 1u << o;
  wake_reader(in, o, 1u);
  if (CTL_TAIL(w.ctl))
    r->sp.spinning_q[sp][sv] = r->sp.frozen_q[sp][sv] = r->sp.armed_q[sp][sv] = 0;
}

/* Output o carries the special message of the SPIN unit's output stage
 * (spin_sm_out): it takes the output register instead of the crossbar. */
static inline DP_ALWAYS_INLINE void out_sm(const router_links_t *in, flit_t *out_flit,
                                           cycle_bits_t *cb, const spin_ctx_t *sc, int o)
{
  out_flit[o] = sc->sm_word[o];
  cb->wf |= 1u << o;
  wake_reader(in, o, 1u);
}

/* Output o, requested: the switch allocator picks the input; a head gets
 * the tracker's lowest free downstream VC (escape: VC 0 when the input says
 * so, else the lowest free adaptive one); the flit goes through the
 * crossbar; the input port pops it and, at a tail, sends its credit. */
static inline DP_ALWAYS_INLINE void out_switch(router_t *r, const router_links_t *in,
                                               flit_t *out_flit, uint8_t *out_cred,
                                               spin_stats_t *st, cycle_t *cw, cycle_bits_t *cb,
                                               int o, const int V, const int esc)
{
  const int w = spin_switch_alloc_grant(&r->out_ptr_q[o], cw->oreq[o], (unsigned)cb->P);
  const flit_t f = spin_input_port_req_flit(r, cw, cb, w, V);
  unsigned ovc, cred;
  if (CTL_HEAD(f.ctl)) {
    ovc = cb->vc_phase && !(cb->nics >> o & 1u) ? cw->req_ph[w]   /* its hop phase (4.5) */
          : !esc ? spin_ovc_tracker_first_free(r->ovc_busy_q[o], cb->all_vcs)
          : cw->req_esc[w] ? 0u : spin_ovc_tracker_first_free_a(r->ovc_busy_q[o], cb->all_vcs);
    cw->ovc_set[o] |= (uint8_t)(1u << ovc);
    cb->ochg |= 1u << o;
    if (cb->nmin && (cb->nics >> w & 1u) && (f.ext & RH_VIA)) st->detours++;
  } else {
    ovc = r->out_vc_q[w][V == 1 ? 0 : cw->req_vc[w]];
  }
  spin_crossbar(&f, ovc, &out_flit[o]);
  cb->wf |= 1u << o;
  wake_reader(in, o, 1u);
  cred = spin_input_port_grant(r, cw, cb, w, (unsigned)o, ovc, V, esc);
  if (cred) {
    out_cred[w] = (uint8_t)cred;
    cb->wc |= 1u << w;
    wake_reader(in, w, 0x10000u);
    if (cb->nics >> o & 1u) {               /* ejection VCs free at the tail */
      cw->ovc_clr[o] |= (uint8_t)(1u << ovc);
      cb->ochg |= 1u << o;
    }
  }
}

/* Each output in use: a spin flit, else a special message, else switch
 * allocation and traversal. */
static inline DP_ALWAYS_INLINE void outputs(router_t *r, const router_links_t *in,
                                            flit_t *out_flit,
                                            uint8_t *out_cred, spin_stats_t *st, cycle_t *cw,
                                            cycle_bits_t *cb, const spin_ctx_t *sc, const int V,
                                            const int esc)
{
  unsigned m;
  for (m = cb->requested | cb->spin_outs | cb->sm_outs; m; m &= m - 1u) {
    const int o = (int)low_bit(m);
    if (cb->spin_outs & (1u << o)) out_spin(r, in, out_flit, cb, sc, o, V);
    else if (cb->sm_outs & (1u << o)) out_sm(in, out_flit, cb, sc, o);
    else out_switch(r, in, out_flit, out_cred, st, cw, cb, o, V, esc);
  }
}

/* Output-VC trackers: the credits that came back (unless early credits
 * took them at the start of the cycle), then the clock edge of every output
 * that changed and, under FAvORS (which reads the ages), of every busy one. */
static inline DP_ALWAYS_INLINE void ovc_update(router_t *r, const router_cfg_t *cfg,
                                               unsigned in_mask, const router_links_t *in,
                                               cycle_t *cw, cycle_bits_t *cb, const int V)
{
  unsigned m;
  if (!cfg->early_credit) ovc_credits(r, in_mask, in, cw, cb, 0);
  for (m = cb->ochg | (cb->favors ? r->busy_ports : 0u); m; m &= m - 1u) {
    const int o = (int)low_bit(m);
    spin_ovc_tracker_next(&r->ovc_busy_q[o], r->ovc_age_q[o], cw->ovc_set[o], cw->ovc_clr[o],
                          cb->favors, V);
    if (cb->ochg & (1u << o)) ovc_flags(r, o, cb->all_vcs);   /* else only its ages moved */
  }
}

/* SPIN unit: arm notices upstream, on the credit wires. */
static inline DP_ALWAYS_INLINE void su_arm_out(const router_links_t *in, uint8_t *out_cred,
                                               cycle_bits_t *cb, const spin_ctx_t *sc)
{
  int p;
  if (!cb->spin_idle)
    for (p = 0; p < cb->P; p++)
      if (sc->arm_out[p]) {
        out_cred[p] = (uint8_t)((cb->wc & (1u << p) ? out_cred[p] : 0u) | sc->arm_out[p]);
        cb->wc |= 1u << p;
        wake_reader(in, p, 0x10000u);
      }
}

/* Input ports: the flit on each input link enters its VC. */
static inline DP_ALWAYS_INLINE void in_write(router_t *r, unsigned in_mask,
                                             const router_links_t *in, const cycle_bits_t *cb,
                                             const int V)
{
  unsigned m;
  for (m = in_mask & 0xFFFFu; m; m &= m - 1u) {
    const int p = (int)low_bit(m);
    spin_input_port_write(r, p, cb->nics >> p & 1u ? &in->inj[p] : &in->flit[in->up[p]], V);
  }
}

/* SPIN unit, after allocation: the watch of spin_fsm_post. */
static inline DP_ALWAYS_INLINE void su_post(router_t *r, spin_stats_t *st,
                                            const cycle_bits_t *cb, spin_ctx_t *sc,
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
static inline DP_ALWAYS_INLINE unsigned eval(router_t *r, const router_cfg_t *cfg,
                                             uint64_t cycle, unsigned in_mask,
                                             const router_links_t *in, flit_t *out_flit,
                                             uint8_t *out_cred, spin_stats_t *st,
                                             const int spin, const int V, const int esc)
{
  cycle_t cw;
  cycle_bits_t cb;
  spin_ctx_t sc;                 /* SPIN's view and results, filled only when SPIN is on */

  cb.P = cfg->ports;
  cb.nics = cfg->nic_mask;
  cb.favors = cfg->algo == ALGO_FAVORS_MIN || cfg->algo == ALGO_FAVORS_NMIN;
  cb.nmin = cfg->algo == ALGO_FAVORS_NMIN || cfg->algo == ALGO_UGAL;   /* a route header */
  cb.ugal = cfg->algo == ALGO_UGAL;
  cb.vc_phase = cfg->vc_phase;
  cb.global = cfg->global_mask;
  cb.all_vcs = (1u << V) - 1u;
  cb.port_free = ~(unsigned)r->full_ports & ((1u << cb.P) - 1u);
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

  ovc_catch_up(r, cycle, &cb, V);                                    /* spin_ovc_tracker */
  if (cfg->early_credit) {                                           /* spin_ovc_tracker */
    ovc_credits(r, in_mask, in, &cw, &cb, 1);
    cb.port_free = ~(unsigned)r->full_ports & ((1u << cb.P) - 1u);
  }
  in_route(r, cfg, &cw, &cb, spin, V, esc);                          /* spin_input_port */
  su_pre(r, cfg, cycle, in_mask, in, st, &cb, &sc, spin, V);         /* spin_unit */
  in_request(r, cfg, &cw, &cb, spin, V, esc);                        /* spin_input_port */
  in_latch(r, &cw, &cb, spin, V, esc);                               /* spin_input_port */
  outputs(r, in, out_flit, out_cred, st, &cw, &cb, &sc, V, esc);
  /* ^ per output: spin_input_port, spin_switch_alloc, spin_ovc_tracker, spin_crossbar */
  ovc_update(r, cfg, in_mask, in, &cw, &cb, V);                     /* spin_ovc_tracker */
  su_arm_out(in, out_cred, &cb, &sc);                                /* spin_unit */
  in_write(r, in_mask, in, &cb, V);                                  /* spin_input_port */
  su_post(r, st, &cb, &sc, spin);                                    /* spin_unit */
  if (cb.any_draw) r->lfsr_q = lfsr_step(r->lfsr_q);                 /* spin_lfsr */
  return cb.wf | cb.wc << 16;
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
