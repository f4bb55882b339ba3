/* spin_obs.h - the SPIN observation word: the one table of its fields.
 *
 * spin_router (Spin = 1) shows the architectural SPIN registers of
 * docs/microarchitecture.md, section 12, on spin_obs_o, and the generated
 * network top shows every router's on dbg_spin_obs_o.  The co-simulation
 * packs the C model's registers (spin_router_t, cmodel/spin.h) by this table
 * and compares the two words every cycle (contract, section 10).  The RTL's
 * packing is the concatenation at the end of rtl/spin_unit.sv, and its
 * width spin_pkg::obs_width(); every co-simulation checks that width
 * against this table when it starts, and the comparison itself the order.
 *
 * The widths of many fields depend on the router's parameters (the message
 * widths IdW, CycW, its TddW, ports and VCs): a table entry's width
 * is an expression of spin_obs_dims_t d, and an entry of width 0 is not in
 * the word.  A field wider than 64 bits is two entries, _lo and _hi.
 *
 * A router's word, P ports and V VCs per port, least significant bit first:
 *   the router record                 spin_obs_router_w(d) bits
 *   a port record per network input   spin_obs_port_w(d) bits each, p = 1..P-1
 *   a VC record per VC of those       spin_obs_vc_w(d) bits each, (p-1)*V + v
 * Within a record the fields of its kind follow in the order of the table,
 * the first at bit 0.
 *
 * Not in the word: spins_q and t_expiry (statistics).
 *
 * C99 and C++: the harness (C++) includes it; nothing in the C model does.
 */
#ifndef SPIN_TB_SPIN_OBS_H
#define SPIN_TB_SPIN_OBS_H

#include <stdint.h>
/* spin_router_t.  Through router.h: spin.h may be included only once. */
#include "router.h"

/* The parameters the word's layout depends on. */
typedef struct {
  unsigned ports, vcs, pw;            /* P, V, clog2(P) */
  unsigned idw, cycw, tddw;           /* the router's IdW, CycW, TddW */
  unsigned smw, forkw;                /* a message's bits; its fork entries' (V > 1) */
  unsigned cntw, epw;                 /* max(TddW, CycW + 1); TddW + 2 */
} spin_obs_dims_t;

static inline spin_obs_dims_t spin_obs_dims(const sm_fmt_t *f, int ports, int vcs, unsigned tddw)
{
  spin_obs_dims_t d;
  d.ports = (unsigned)ports;
  d.vcs = (unsigned)vcs;
  d.pw = f->portw;
  d.idw = f->idw;
  d.cycw = f->cycw;
  d.tddw = tddw;
  d.forkw = f->k * f->chw;
  d.smw = f->o_fork + d.forkw;
  d.cntw = tddw > f->cycw + 1 ? tddw : f->cycw + 1;
  d.epw = tddw + 2;
  return d;
}

/* What the C model computes instead of keeping a register: the RTL counts
 * the rotating priority's epoch (ep_q, the cycles left in it, 4 t_DD - 1
 * down to 0) and its top router (top_q), the C model takes both from the
 * cycle number (12.1). */
typedef struct {
  uint64_t cycle;   /* cycles stepped since reset (network_t.cycle) */
  unsigned tdd;
  unsigned nodes;
} spin_obs_ctx_t;

typedef enum { SPIN_OBS_ROUTER, SPIN_OBS_PORT, SPIN_OBS_VC } spin_obs_kind_t;

/* Where the C model keeps a field: in spin_router_t (REG), or nowhere, the
 * value being computed from the cycle (CYCLE; the same in every router). */
typedef enum { SPIN_OBS_REG, SPIN_OBS_CYCLE } spin_obs_from_t;

#define SPIN_OBS_LO(w) ((w) < 64u ? (w) : 64u)
#define SPIN_OBS_HI(w) ((w) - SPIN_OBS_LO(w))
#define SPIN_OBS_FK(d) ((d)->vcs > 1 ? 6u : 0u)

/* The table.  X(kind, from, identifier, name, width, value): width is an
 * expression of d (const spin_obs_dims_t *); value is the C model's
 * register, read from s (const spin_router_t *) at input port p and VC v,
 * or computed from c (const spin_obs_ctx_t *).  name is the register's
 * name on both sides. */
#define SPIN_OBS_FIELDS(X)                                                                     \
  X(ROUTER, REG,   state,        "state_q",           3,          s->state_q)                  \
  X(ROUTER, REG,   cnt,          "cnt_q",             d->cntw,    s->cnt_q)                    \
  X(ROUTER, REG,   dd_port,      "dd_port_q",         d->pw,      s->dd_port_q)                \
  X(ROUTER, REG,   dd_vc,        "dd_vc_q",           2,          s->dd_vc_q)                  \
  X(ROUTER, REG,   is_deadlock,  "is_deadlock_q",     1,          s->is_deadlock_q)            \
  X(ROUTER, REG,   source_id,    "source_id_q",       d->idw,     s->source_id_q)              \
  X(ROUTER, REG,   pm_sent,      "pm_sent_q",         1,          s->pm_sent_q)                \
  X(ROUTER, REG,   loop_cyc,     "loop.cyc_q",        d->cycw,    s->loop.cyc_q)               \
  X(ROUTER, REG,   loop_port0,   "loop.port0_q",      d->pw,      s->loop.port0_q)             \
  X(ROUTER, REG,   loop_fk0,     "loop.fk0_q",        SPIN_OBS_FK(d), s->loop.fk0_q)           \
  X(ROUTER, REG,   loop_fork_lo, "loop.fork_q[63:0]", SPIN_OBS_LO(d->forkw), s->loop.fork_lo_q) \
  X(ROUTER, REG,   loop_fork_hi, "loop.fork_q[..:64]", SPIN_OBS_HI(d->forkw), s->loop.fork_hi_q) \
  X(ROUTER, CYCLE, top,          "top_q",             d->idw,     spin_obs_top(c))             \
  X(ROUTER, CYCLE, ep,           "ep_q",              d->epw,     spin_obs_ep(c))              \
  X(ROUTER, REG,   smi_port,     "smi_q.port",        d->pw,      s->smi_port_q)               \
  X(ROUTER, REG,   smi_kind,     "smi_q.kind",        3,          CTL_KIND(s->smi_q.ctl))      \
  X(ROUTER, REG,   smi_lo,       "smi_q.data[63:0]",  SPIN_OBS_LO(d->smw), s->smi_q.data)      \
  X(ROUTER, REG,   smi_hi,       "smi_q.data[..:64]", SPIN_OBS_HI(d->smw), s->smi_q.ext)       \
  X(ROUTER, REG,   smo_src,      "smo_q.src",         2 * d->ports, spin_obs_smo_src(s))       \
  X(ROUTER, REG,   smo_fwd_lo,   "smo_q.fwd[63:0]",   SPIN_OBS_LO(d->smw), s->smo_fwd_q.data)  \
  X(ROUTER, REG,   smo_fwd_hi,   "smo_q.fwd[..:64]",  SPIN_OBS_HI(d->smw), s->smo_fwd_q.ext)   \
  X(ROUTER, REG,   smo_fwd_kind, "smo_q.fwd.kind",    3,          CTL_KIND(s->smo_fwd_q.ctl))  \
  X(ROUTER, REG,   smo_own_lo,   "smo_q.own[63:0]",   SPIN_OBS_LO(d->smw), s->smo_own_q.data)  \
  X(ROUTER, REG,   smo_own_hi,   "smo_q.own[..:64]",  SPIN_OBS_HI(d->smw), s->smo_own_q.ext)   \
  X(ROUTER, REG,   smo_own_kind, "smo_q.own.kind",    3,          CTL_KIND(s->smo_own_q.ctl))  \
  X(ROUTER, REG,   smo_fork,     "smo_q.fork",        d->ports,   s->smo_fork_q)               \
  X(PORT,   REG,   mark_sender,  "mark_sender_q",     d->idw,     s->mark_sender_q[p])         \
  X(PORT,   REG,   mark_cyc,     "mark_cyc_q",        d->cycw,    s->mark_cyc_q[p])            \
  X(PORT,   REG,   mark_out,     "mark_out_q",        d->ports,   s->mark_out_q[p])            \
  X(PORT,   REG,   mark_fk,      "mark_fk_q",         SPIN_OBS_FK(d), s->mark_fk_q[p])         \
  X(PORT,   REG,   loop_out,     "loop_out_q",        d->pw,      s->loop_out_q[p])            \
  X(VC,     REG,   frozen,       "frozen_q",          1,          s->frozen_q[p][v])           \
  X(VC,     REG,   armed,        "armed_q",           1,          s->armed_q[p][v])            \
  X(VC,     REG,   spinning,     "spinning_q",        1,          s->spinning_q[p][v])         \
  X(VC,     REG,   spin_ovc,     "spin_ovc_q",        2,          s->spin_ovc_q[p][v])         \
  X(VC,     REG,   popped,       "popped_q",          1,          s->popped_q >> (p * SPIN_MAX_VCS + v) & 1u)

static inline uint64_t spin_obs_ep(const spin_obs_ctx_t *c)
{
  return 4u * (uint64_t)c->tdd - 1u - c->cycle % (4u * (uint64_t)c->tdd);
}
static inline uint64_t spin_obs_top(const spin_obs_ctx_t *c)
{
  return (uint64_t)spin_top(c->cycle, c->tdd, (int)c->nodes);
}
/* smo_q's source of every output, 2 bits an output, port 0 first. */
static inline uint64_t spin_obs_smo_src(const spin_router_t *s)
{
  uint64_t v = 0;
  int o;
  for (o = 0; o < SPIN_MAX_PORTS; o++) v |= (uint64_t)(s->smo_src_q[o] & 3u) << (2 * o);
  return v;
}

#define SPIN_OBS_COUNT_(k, f, id, name, w, e) +1
enum { SPIN_OBS_NFIELDS = 0 SPIN_OBS_FIELDS(SPIN_OBS_COUNT_) };

/* One getter and one width per field, and the table of them. */
#define SPIN_OBS_GETTER_(k, f, id, name, w, e)                                            \
  static inline uint64_t spin_obs_get_##id(const spin_router_t *s, int p, int v,       \
                                           const spin_obs_ctx_t *c)                    \
  {                                                                                    \
    (void)s; (void)p; (void)v; (void)c;                                                \
    return (uint64_t)(e);                                                              \
  }                                                                                    \
  static inline unsigned spin_obs_w_##id(const spin_obs_dims_t *d)                     \
  {                                                                                    \
    (void)d;                                                                           \
    return (unsigned)(w);                                                              \
  }
SPIN_OBS_FIELDS(SPIN_OBS_GETTER_)

typedef struct {
  spin_obs_kind_t kind;
  spin_obs_from_t from;
  const char *name;
  unsigned (*width)(const spin_obs_dims_t *d);
  uint64_t (*get)(const spin_router_t *s, int p, int v, const spin_obs_ctx_t *c);
} spin_obs_field_t;

#define SPIN_OBS_ENTRY_(k, f, id, name, w, e) \
  {SPIN_OBS_##k, SPIN_OBS_##f, name, spin_obs_w_##id, spin_obs_get_##id},
static const spin_obs_field_t spin_obs_fields[SPIN_OBS_NFIELDS] = {
    SPIN_OBS_FIELDS(SPIN_OBS_ENTRY_)};

/* A record's width. */
static inline unsigned spin_obs_kind_w(const spin_obs_dims_t *d, spin_obs_kind_t k)
{
  unsigned w = 0;
  int i;
  for (i = 0; i < SPIN_OBS_NFIELDS; i++)
    if (spin_obs_fields[i].kind == k) w += spin_obs_fields[i].width(d);
  return w;
}

/* Bits of one router's word. */
static inline unsigned spin_obs_width(const spin_obs_dims_t *d)
{
  return spin_obs_kind_w(d, SPIN_OBS_ROUTER) +
         (d->ports - 1) * (spin_obs_kind_w(d, SPIN_OBS_PORT) + d->vcs * spin_obs_kind_w(d, SPIN_OBS_VC));
}

/* The bit of field f's instance at input port p (1..ports-1) and VC v in a
 * router's word (p, v ignored where the kind has no such index). */
static inline unsigned spin_obs_lsb(const spin_obs_dims_t *d, int f, int p, int v)
{
  unsigned lsb = 0;
  int i;
  for (i = 0; i < f; i++)
    if (spin_obs_fields[i].kind == spin_obs_fields[f].kind) lsb += spin_obs_fields[i].width(d);
  switch (spin_obs_fields[f].kind) {
  case SPIN_OBS_ROUTER:
    return lsb;
  case SPIN_OBS_PORT:
    return spin_obs_kind_w(d, SPIN_OBS_ROUTER) + (unsigned)(p - 1) * spin_obs_kind_w(d, SPIN_OBS_PORT) +
           lsb;
  case SPIN_OBS_VC:
  default:
    return spin_obs_kind_w(d, SPIN_OBS_ROUTER) + (d->ports - 1) * spin_obs_kind_w(d, SPIN_OBS_PORT) +
           (unsigned)((p - 1) * (int)d->vcs + v) * spin_obs_kind_w(d, SPIN_OBS_VC) + lsb;
  }
}

/* Names of the values of state_q (spin_state_t; the RTL's spin_state_e). */
static const char *const spin_obs_state_names[] = {
    "OFF", "DD", "MOVE", "PROBE_MOVE", "FORWARD_PROGRESS", "KILL_MOVE", "FROZEN"};

#endif
