/* spin_obs.h - the SPIN observation word: the one table of its fields.
 *
 * spin_router (Spin = 1) shows the architectural SPIN registers of
 * docs/microarchitecture.md, section 12, on spin_obs_o, and the generated
 * network top shows every router's on dbg_spin_obs_o.  The co-simulation
 * packs the C model's registers (spin_router_t, cmodel/spin.h) by this table
 * and compares the two words every cycle (contract, section 10).  The RTL's
 * packing is the records obs_router_t, obs_port_t and obs_vc_t of
 * rtl/spin_pkg.sv; every co-simulation build checks their widths against
 * this table when it compiles (tb/rtl_array.cpp, tb/rtl_top.cpp), and the
 * co-simulation itself checks the order.
 *
 * A router's word, P ports and V VCs per port, least significant bit first:
 *   the router record                 SPIN_OBS_ROUTER_W bits
 *   a port record per network input   SPIN_OBS_PORT_W bits each, p = 1..P-1
 *   a VC record per VC of those       SPIN_OBS_VC_W bits each, (p-1)*V + v
 * Within a record the fields of its kind follow in the order of the table,
 * the first at bit 0.  So a field is added, renamed or widened by one line
 * here and one in the matching struct of spin_pkg (whose last member is bit
 * 0), in the same order.
 *
 * Not in the word: spins_q and t_expiry (statistics; the RTL keeps spins_q
 * only for the SpinBound_A assertion, outside synthesis).
 *
 * C99 and C++: the harness (C++) includes it; nothing in the C model does.
 */
#ifndef SPIN_TB_SPIN_OBS_H
#define SPIN_TB_SPIN_OBS_H

#include <stdint.h>
/* spin_router_t.  Through router.h: spin.h's include guard ends before its
 * second half, so spin.h may be included only once. */
#include "router.h"

/* What the C model computes instead of keeping a register: the RTL counts
 * the rotating priority's epoch (ep_q, cycles 0..4 t_DD - 1) and its top
 * router (top_q), the C model takes both from the cycle number (12.1). */
typedef struct {
  uint64_t cycle;   /* cycles stepped since reset (network_t.cycle) */
  unsigned tdd;
  unsigned nodes;
} spin_obs_ctx_t;

typedef enum { SPIN_OBS_ROUTER, SPIN_OBS_PORT, SPIN_OBS_VC } spin_obs_kind_t;

/* Where the C model keeps a field: in spin_router_t (REG), or nowhere, the
 * value being computed from the cycle (CYCLE; the same in every router). */
typedef enum { SPIN_OBS_REG, SPIN_OBS_CYCLE } spin_obs_from_t;

/* The table.  X(kind, from, identifier, name, width, value): value is the C
 * model's register, read from s (const spin_router_t *) at input port p and
 * VC v, or computed from c (const spin_obs_ctx_t *).  name is the register's
 * name on both sides. */
#define SPIN_OBS_FIELDS(X)                                                                 \
  X(ROUTER, REG,   state,       "state_q",             3,  s->state_q)                     \
  X(ROUTER, REG,   cnt,         "cnt_q",               16, s->cnt_q)                       \
  X(ROUTER, REG,   dd_port,     "dd_port_q",           3,  s->dd_port_q)                   \
  X(ROUTER, REG,   dd_vc,       "dd_vc_q",             2,  s->dd_vc_q)                     \
  X(ROUTER, REG,   is_deadlock, "is_deadlock_q",       1,  s->is_deadlock_q)               \
  X(ROUTER, REG,   source_id,   "source_id_q",         12, s->source_id_q)                 \
  X(ROUTER, REG,   pm_sent,     "pm_sent_q",           1,  s->pm_sent_q)                   \
  X(ROUTER, REG,   loop_n,      "loop.n_q",            6,  s->loop.n_q)                    \
  X(ROUTER, REG,   loop_start,  "loop.start_q",        6,  s->loop.start_q)                \
  X(ROUTER, REG,   loop_cyc,    "loop.cyc_q",          6,  s->loop.cyc_q)                  \
  X(ROUTER, REG,   loop_port0,  "loop.port0_q",        3,  s->loop.port0_q)                \
  X(ROUTER, REG,   path_lo,     "loop.path_q[63:0]",   64, s->loop.path_q.lo)              \
  X(ROUTER, REG,   path_hi,     "loop.path_q[95:64]", 3 * SM_MAX_PATH - 64, s->loop.path_q.hi) \
  X(ROUTER, CYCLE, top,         "top_q",               12, spin_obs_top(c))                \
  X(ROUTER, CYCLE, ep,          "ep_q",                18, spin_obs_ep(c))                 \
  X(PORT,   REG,   mark_sender, "mark_sender_q",       12, s->mark_sender_q[p])            \
  X(PORT,   REG,   mark_n,      "mark_n_q",            6,  s->mark_n_q[p])                 \
  X(PORT,   REG,   mark_x,      "mark_x_q",            6,  s->mark_x_q[p])                 \
  X(VC,     REG,   frozen,      "frozen_q",            1,  s->frozen_q[p][v])              \
  X(VC,     REG,   armed,       "armed_q",             1,  s->armed_q[p][v])               \
  X(VC,     REG,   spinning,    "spinning_q",          1,  s->spinning_q[p][v])            \
  X(VC,     REG,   spin_ovc,    "spin_ovc_q",          2,  s->spin_ovc_q[p][v])

static inline uint64_t spin_obs_ep(const spin_obs_ctx_t *c)
{
  return c->cycle % (4u * (uint64_t)c->tdd);
}
static inline uint64_t spin_obs_top(const spin_obs_ctx_t *c)
{
  return (uint64_t)spin_top(c->cycle, c->tdd, (int)c->nodes);
}

/* Record widths, as constant expressions (for static_assert). */
#define SPIN_OBS_SUM_ROUTER_(k, f, id, name, w, e) + (SPIN_OBS_##k == SPIN_OBS_ROUTER ? (w) : 0)
#define SPIN_OBS_SUM_PORT_(k, f, id, name, w, e) + (SPIN_OBS_##k == SPIN_OBS_PORT ? (w) : 0)
#define SPIN_OBS_SUM_VC_(k, f, id, name, w, e) + (SPIN_OBS_##k == SPIN_OBS_VC ? (w) : 0)
enum {
  SPIN_OBS_ROUTER_W = 0 SPIN_OBS_FIELDS(SPIN_OBS_SUM_ROUTER_),
  SPIN_OBS_PORT_W = 0 SPIN_OBS_FIELDS(SPIN_OBS_SUM_PORT_),
  SPIN_OBS_VC_W = 0 SPIN_OBS_FIELDS(SPIN_OBS_SUM_VC_)
};
#define SPIN_OBS_COUNT_(k, f, id, name, w, e) +1
enum { SPIN_OBS_NFIELDS = 0 SPIN_OBS_FIELDS(SPIN_OBS_COUNT_) };

/* Bits of one router's word. */
static inline unsigned spin_obs_width(int ports, int vcs)
{
  return SPIN_OBS_ROUTER_W + (unsigned)(ports - 1) * (SPIN_OBS_PORT_W + (unsigned)vcs * SPIN_OBS_VC_W);
}

/* One getter per field, and the table of them. */
#define SPIN_OBS_GETTER_(k, f, id, name, w, e)                                            \
  static inline uint64_t spin_obs_get_##id(const spin_router_t *s, int p, int v,       \
                                           const spin_obs_ctx_t *c)                    \
  {                                                                                    \
    (void)s; (void)p; (void)v; (void)c;                                                \
    return (uint64_t)(e);                                                              \
  }
SPIN_OBS_FIELDS(SPIN_OBS_GETTER_)

typedef struct {
  spin_obs_kind_t kind;
  spin_obs_from_t from;
  const char *name;
  unsigned width;
  uint64_t (*get)(const spin_router_t *s, int p, int v, const spin_obs_ctx_t *c);
} spin_obs_field_t;

#define SPIN_OBS_ENTRY_(k, f, id, name, w, e) {SPIN_OBS_##k, SPIN_OBS_##f, name, w, spin_obs_get_##id},
static const spin_obs_field_t spin_obs_fields[SPIN_OBS_NFIELDS] = {
    SPIN_OBS_FIELDS(SPIN_OBS_ENTRY_)};

/* The bit of field f's instance at input port p (1..ports-1) and VC v in a
 * router's word (p, v ignored where the kind has no such index). */
static inline unsigned spin_obs_lsb(int f, int p, int v, int ports, int vcs)
{
  unsigned lsb = 0;
  int i;
  for (i = 0; i < f; i++)
    if (spin_obs_fields[i].kind == spin_obs_fields[f].kind) lsb += spin_obs_fields[i].width;
  switch (spin_obs_fields[f].kind) {
  case SPIN_OBS_ROUTER:
    return lsb;
  case SPIN_OBS_PORT:
    return SPIN_OBS_ROUTER_W + (unsigned)(p - 1) * SPIN_OBS_PORT_W + lsb;
  case SPIN_OBS_VC:
  default:
    return SPIN_OBS_ROUTER_W + (unsigned)(ports - 1) * SPIN_OBS_PORT_W +
           (unsigned)((p - 1) * vcs + v) * SPIN_OBS_VC_W + lsb;
  }
}

/* Names of the values of state_q (spin_state_t; the RTL's spin_state_e). */
static const char *const spin_obs_state_names[] = {
    "OFF", "DD", "MOVE", "PROBE_MOVE", "FORWARD_PROGRESS", "KILL_MOVE", "FROZEN"};

#endif
