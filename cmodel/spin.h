/* spin.h - SPIN deadlock recovery in the C model, one file per RTL module:
 * the unit that wires them (spin_unit.c), the counter FSM (spin_fsm.c), the
 * probe manager (spin_probe_mgr.c), the move manager (spin_move_mgr.c), the
 * loop buffer (spin_loop_buf.c) and the special-message arbitration of an
 * output (spin_sm_arb.c).
 * docs/microarchitecture.md, section 12, is the contract.  RTL twins: rtl/spin_fsm.sv,
 * spin_probe_mgr.sv, spin_move_mgr.sv, spin_loop_buf.sv, spin_sm_arb.sv and
 * spin_unit.sv.  Special messages record at most SM_MAX_PATH (32) hops; with
 * 1 VC per port a loop may have up to SM_MAX_LOOP (63), its later hops
 * unrecorded.
 */
#ifndef SPIN_SPIN_H
#define SPIN_SPIN_H

#include <stdint.h>
#include <string.h>
#include "flit.h"

#define SPIN_MAX_PORTS 8
#define SPIN_MAX_VCS   4
#define SPIN_RESOLVE_BINS 4096
/* Cycles from a spin to the probe_move: the longest packet plus one, so the
 * packets spun in are whole before the loop is checked again. */
#define SPIN_SETTLE    6
/* A router that spun for someone else waits this long for a probe_move or
 * kill_move before it gives the recovery up on its own. */
#define SPIN_RELEASE   (SPIN_SETTLE + 2 * SM_MAX_LOOP + 2)
/* The move's delay (7 bits) holds 2 x the longest loop, in cycles: a loop
 * is taken only when it takes at most SM_MAX_LOOP cycles round. */
#if 2 * SM_MAX_LOOP > 127
#error "SM delay field too narrow for SM_MAX_LOOP"
#endif

typedef enum {
  FSM_OFF = 0, FSM_DD, FSM_MOVE, FSM_PROBE_MOVE, FSM_FORWARD_PROGRESS, FSM_KILL_MOVE, FSM_FROZEN
} spin_state_t;

/* Loop buffer: the path latched when the router's own probe returns, or
 * when it adopts a loop another router's probe went round (12.3).  The
 * loop is entries start_q .. n_q - 1 of path_q: entry start_q is this
 * router's output, n_q - start_q is the loop length in hops (start_q is 0
 * for the router's own probe), and cyc_q the cycles round it (the hops
 * when every link takes 1 cycle). */
typedef struct {
  uint8_t n_q;          /* the probe's n: the loop ends at entry n_q - 1 */
  uint8_t start_q;      /* the entry of this router's output */
  uint8_t cyc_q;        /* cycles round the loop, at most SM_MAX_LOOP */
  uint8_t port0_q;      /* that output (entry start_q) */
  sm_path_t path_q;     /* 3 bits a port, oldest first */
} loop_buf_t;

typedef struct {
  spin_state_t state_q;
  uint16_t cnt_q;       /* the counter: expires in a cycle where it is 0 */
  uint8_t dd_port_q, dd_vc_q;   /* the VC the counter watches; in a recovery, the loop's VC */
  uint8_t is_deadlock_q;
  uint16_t source_id_q;
  uint8_t pm_sent_q;    /* PROBE_MOVE: the probe_move has left */
  uint8_t spins_q;      /* spins of the current recovery (sender) */
  uint64_t t_expiry;    /* statistics only: expiry that sent the winning probe */
  uint64_t t_detect, t_first_spin, t_last_spin;   /* statistics only: the record (spin_log.h) */
  loop_buf_t loop;
  /* per input VC [port][vc] */
  uint8_t frozen_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  uint8_t armed_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  uint8_t spin_ovc_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];   /* downstream VC the spin fills */
  uint8_t spinning_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];   /* spin in progress */
  /* per input port: the last probe forwarded from it (sender, n, x; n = 0:
   * none), to drop a probe that comes round again (12.3) */
  uint16_t mark_sender_q[SPIN_MAX_PORTS];
  uint8_t mark_n_q[SPIN_MAX_PORTS];
  uint8_t mark_x_q[SPIN_MAX_PORTS];
} spin_router_t;

typedef struct {
  uint64_t probes_sent, probes_forked, probes_dropped, probes_returned;
  uint64_t probes_adopted;      /* loops taken from another router's probe (12.3) */
  uint64_t moves_sent, probe_moves_sent, kill_moves_sent;
  uint64_t moves_dropped;
  uint64_t spins, deadlocks_resolved, false_positives;
  uint64_t frozen_timeouts;     /* FROZEN routers that left a recovery on their own timeout */
  uint64_t max_spins, max_spins_loop;
  uint64_t bound_violations;   /* recoveries that spun more than m-1 times (2m-1 under
                                  FAvORS-NMin, 4.3) */
  uint64_t recoveries;
  uint64_t detours;             /* FAvORS-NMin: heads that left their source toward mid (4.3) */
  uint64_t expiry_to_resolve_sum, expiry_to_resolve_max;
  /* resolved recoveries by expiry-to-resolution cycles; the last bin holds
   * SPIN_RESOLVE_BINS - 1 cycles or more (for the median) */
  uint32_t resolve_hist[SPIN_RESOLVE_BINS];
  struct spin_log *log;         /* the record of resolved deadlocks, or NULL (spin_log.h) */
} spin_stats_t;

/* Median cycles from expiry to resolution (the lower one of an even count);
 * 0 when nothing was resolved. */
static inline unsigned spin_resolve_median(const spin_stats_t *k)
{
  uint64_t seen = 0, half = (k->deadlocks_resolved + 1) / 2;
  unsigned b;
  if (!k->deadlocks_resolved) return 0;
  for (b = 0; b < SPIN_RESOLVE_BINS; b++) {
    seen += k->resolve_hist[b];
    if (seen >= half) return b;
  }
  return SPIN_RESOLVE_BINS - 1;
}

/* One special message offered to an output port. */
typedef struct {
  flit_t w;
  int rank;             /* 3 probe_move, 2 move/kill_move, 1 probe */
  int prio;             /* sender's rotating priority */
  int src;              /* input port, or the FSM (ports count) */
} sm_offer_t;

static inline int sm_rank(unsigned kind)
{
  return kind == KIND_PROBE_MOVE ? 3 : kind == KIND_PROBE ? 1 : 2;
}

/* The router of top priority at `cycle`: it changes every epoch of 4 t_DD. */
static inline int spin_top(uint64_t cycle, unsigned tdd, int n)
{
  return (int)((cycle / (4u * (uint64_t)tdd)) % (uint64_t)n);
}

/* Rotating priority of router r at `cycle` (higher wins). */
static inline int spin_prio(uint64_t cycle, unsigned tdd, int n, int r)
{
  int top = spin_top(cycle, tdd, n);
  if (r == top) return n - 1;
  return r > top ? r - top - 1 : n - (top - r) - 1;
}

/* Loop buffer (spin_loop_buf.c): latch a loop (the probe's n, the entry of this
 * router's output, the path), empty it when the recovery ends, read the
 * output of hop i (0: this router's output into the loop; 0 is returned
 * for an unrecorded hop), and the loop length. */
void loop_latch(loop_buf_t *l, unsigned n, unsigned start, unsigned cyc, sm_path_t path);
void loop_clear(loop_buf_t *l);
unsigned loop_port(const loop_buf_t *l, unsigned i);
unsigned loop_len(const loop_buf_t *l);

/* A special message going onto a link that takes xlat cycles beyond 1
 * (contract 12.1): a probe's x grows by xlat, a move's or probe_move's
 * delay shrinks by it (not below 0).  spin_sm_arb.c. */
void spin_onto_link(flit_t *w, unsigned xlat);

#endif

/* What the router shows the SPIN logic in one cycle (read-only views of its
 * input VCs, registers of cycle t), and what SPIN returns. */
typedef struct {
  int ports, vcs, id, nodes;
  unsigned tdd;
  int adopt;                          /* probe adoption on (12.3) */
  int nmin;                           /* FAvORS-NMin: the bound is 2m - 1 spins (4.3) */
  const uint8_t *xlat;                /* per output: its link's latency - 1 */
  uint64_t cycle;
  /* views of the router's input VCs [port][vc] */
  const uint8_t (*cnt)[SPIN_MAX_VCS];
  const uint8_t (*route_valid)[SPIN_MAX_VCS];
  const uint8_t (*out_port)[SPIN_MAX_VCS];
  unsigned in_ports;                  /* bit p: a VC at input p holds a flit */
  const flit_t *front[SPIN_MAX_PORTS][SPIN_MAX_VCS];   /* NULL when empty */
  /* results */
  sm_offer_t offer[SPIN_MAX_PORTS];   /* best SM per output, rank 0 = none */
  unsigned out_busy;                  /* outputs taken by a spin flit */
  unsigned in_busy;                   /* inputs sending a spin flit */
  flit_t spin_flit[SPIN_MAX_PORTS];   /* per output */
  int spin_src_port[SPIN_MAX_PORTS], spin_src_vc[SPIN_MAX_PORTS];
  uint8_t arm_out[SPIN_MAX_PORTS];    /* arm notice per input port's credit: 0 or CRED_ARM_MAKE */
  int cnt_loaded;                     /* the FSM loaded the counter this cycle */
} spin_ctx_t;

/* A whole packet waits at the front of VC (p, v) for output o. */
static inline int spin_vc_waits(const spin_ctx_t *c, int p, int v, unsigned o)
{
  const flit_t *f = c->front[p][v];
  return f && c->route_valid[p][v] && c->out_port[p][v] == o && CTL_HEAD(f->ctl) &&
         c->cnt[p][v] == HEAD_LEN(f->data);
}

/* A router spins at most one packet per input port and per output port (one
 * flit each per cycle): may a VC at input p bound for output o be frozen?
 * (Output 0 names no port: then only the input counts.) */
static inline int spin_may_freeze(const spin_router_t *s, const spin_ctx_t *c, int p, unsigned o)
{
  int pp, v;
  for (pp = 1; pp < c->ports; pp++)
    for (v = 0; v < c->vcs; v++)
      if (s->frozen_q[pp][v] && (pp == p || (o && c->out_port[pp][v] == o))) return 0;
  return 1;
}

/* The router leaves a recovery: VCs that are not spinning thaw, and the FSM
 * goes back to deadlock detection (the caller loads the counter). */
static inline void spin_leave(spin_router_t *s)
{
  int p, v;
  for (p = 0; p < SPIN_MAX_PORTS; p++)
    for (v = 0; v < SPIN_MAX_VCS; v++)
      if (!s->spinning_q[p][v]) s->frozen_q[p][v] = s->armed_q[p][v] = 0;
  s->is_deadlock_q = 0;
  s->state_q = FSM_DD;
}

/* The lowest VC at input p holding a whole packet for output o; -1 when
 * there is none. */
static inline int spin_waiting_vc(const spin_ctx_t *c, int p, unsigned o)
{
  int v;
  for (v = 0; v < c->vcs; v++)
    if (spin_vc_waits(c, p, v, o)) return v;
  return -1;
}

/* The lowest VC at input p holding a whole packet for output o that may be
 * frozen; -1 when there is none. */
static inline int spin_freezable_vc(const spin_router_t *s, const spin_ctx_t *c, int p, unsigned o)
{
  return spin_may_freeze(s, c, p, o) ? spin_waiting_vc(c, p, o) : -1;
}

/* The output port of a move, probe_move or kill_move on input p: its path
 * entry idx, or, past the recorded path (the entry reads 0; 1 VC per port
 * only), the route of the VC at p if it holds flits; 0 when there is none
 * (the message is dropped). */
static inline unsigned spin_next_port(const spin_ctx_t *c, int p, const flit_t *w)
{
  unsigned o = sm_port(w, sm_idx(w));
  if (o || c->vcs != 1) return o;
  return c->cnt[p][0] && c->route_valid[p][0] ? c->out_port[p][0] : 0;
}

/* Offers an SM to output o; the better offer stays (rank, then sender
 * priority, then lower source).  Returns 1 when it displaced nothing better.
 * spin_sm_arb.c. */
int spin_offer(spin_ctx_t *c, int o, const flit_t *w, int src, spin_stats_t *st);

/* The router takes the loop of a probe that came back to it (its own, or,
 * with adoption, another router's that went round the loop through input
 * p): VC v at p becomes the loop's VC, the loop buffer latches (n, start,
 * path), and a move goes out round the loop (MOVE state).  spin_fsm.c. */
void spin_take_loop(spin_router_t *s, spin_ctx_t *c, int p, int v, unsigned n,
                    unsigned start, unsigned cyc, sm_path_t path, spin_stats_t *st);

/* Probe manager: a probe from another router (or this router's own probe
 * back on another port) arrived on input p.  Forks it, drops it, or, with
 * adoption, takes the loop it went round. */
void spin_probe_in(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w, spin_stats_t *st);

/* The two bits of the SPIN state a move manager tests (12.4;
 * rtl/spin_move_flags.sv) for a move, probe_move or kill_move of kind from
 * sender on input p, bound for output o: *ok, the state accepts it (another
 * router's move or probe_move: OFF or DD free of any recovery, or FROZEN for
 * its sender; another router's kill_move: the recovery is its sender's; the
 * router's own move, probe_move, kill_move: MOVE, PROBE_MOVE with its
 * probe_move sent, KILL_MOVE); *blk, a frozen VC uses input p or is routed
 * to o (!spin_may_freeze).  spin_move_flags.c. */
void spin_move_flags(const spin_router_t *s, const spin_ctx_t *c, int p, unsigned kind,
                     unsigned sender, unsigned o, int *ok, int *blk);

/* Move manager: move, probe_move or kill_move of another router on input p.
 * May freeze a VC and change the FSM (next-state variables in *s). */
void spin_move_in(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w, spin_stats_t *st);

/* Move manager: the router's own move, probe_move or kill_move back on input
 * p with path left (n > 0), half way round a loop that passes through its
 * sender twice (a figure 8).  A move or probe_move in the matching sender
 * state freezes a whole packet at p waiting for path entry 0 and goes on
 * with delay - 1; a kill_move in KILL_MOVE goes on.  The state is unchanged. */
void spin_move_through(spin_router_t *s, spin_ctx_t *c, int p, const flit_t *w,
                       spin_stats_t *st);

/* The counter FSM for one cycle, before allocation: timers, the router's
 * own returning messages, arm notices, spin flits, the SMs it originates.
 * in_flit/in_cred: the links of this cycle.  Called by spin_unit_pre. */
void spin_fsm_pre(spin_router_t *s, spin_ctx_t *c, const flit_t *const *in_flit,
                  const uint8_t *in_cred, spin_stats_t *st);

/* After allocation: the deadlock-detection watch sees which VCs sent their
 * front flit this cycle (popped bit [p*SPIN_MAX_VCS + v]) and whether any
 * network VC holds flits at the end of the cycle. */
void spin_fsm_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped,
                   spin_stats_t *st);

/* The SPIN unit (spin_unit.c), what the router calls.  spin_unit_idle: 1
 * when the unit has nothing to do this cycle: the FSM off or counting with
 * no expiry now, no recovery, no VC frozen, and (sm_in = 0) no special
 * message or arm notice on the links.  spin_unit_pre would then offer
 * nothing, send no spin flit or arm notice and leave the state alone, so the
 * router may skip it.  spin_unit_pre: before allocation, the FSM, then the
 * other routers' messages through the move and probe managers (c's results
 * cleared first).  spin_unit_post: after allocation (spin_fsm_post). */
static inline int spin_unit_idle(const spin_router_t *s, int sm_in)
{
  uint64_t f[sizeof s->frozen_q / 8];
  unsigned i;
  if (sm_in || s->is_deadlock_q || s->state_q > FSM_DD || (s->state_q == FSM_DD && !s->cnt_q))
    return 0;
  memcpy(f, s->frozen_q, sizeof f);
  for (i = 0; i < sizeof f / 8; i++)
    if (f[i]) return 0;
  return 1;
}
void spin_unit_pre(spin_router_t *s, spin_ctx_t *c, const flit_t *const *in_flit,
                   const uint8_t *in_cred, spin_stats_t *st);
void spin_unit_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped, spin_stats_t *st);
