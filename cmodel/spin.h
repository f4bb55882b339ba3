/* spin.h - SPIN deadlock recovery in the C model, one file per RTL module:
 * the unit that wires them (spin_unit.c), the special-message input stage
 * (spin_sm_in.c), the counter FSM (spin_fsm.c), the probe manager
 * (spin_probe_mgr.c), the move manager (spin_move_mgr.c), the output stage
 * (spin_sm_out.c) and the loop buffer (spin_loop_buf.c).
 * docs/microarchitecture.md, section 12, is the contract.  RTL twins:
 * rtl/spin_sm_in.sv, spin_fsm.sv, spin_probe_mgr.sv, spin_move_mgr.sv,
 * spin_sm_out.sv, spin_loop_buf.sv and spin_unit.sv; SPIN's constants and
 * states: spin_pkg.sv.  A message's layout and widths are in sm_fmt.h.
 */
#ifndef SPIN_SPIN_H
#define SPIN_SPIN_H

#include <stdint.h>
#include <string.h>
#include "flit.h"
#include "sm_fmt.h"

#define SPIN_MAX_PORTS 16
#define SPIN_MAX_VCS   4
#define SPIN_RESOLVE_BINS 4096
/* Cycles from a spin to the probe_move: the longest packet plus one, so the
 * packets spun in are whole before the loop is checked again. */
#define SPIN_SETTLE    6

typedef enum {
  FSM_OFF = 0, FSM_DD, FSM_MOVE, FSM_PROBE_MOVE, FSM_FORWARD_PROGRESS, FSM_KILL_MOVE, FSM_FROZEN
} spin_state_t;

/* Loop buffer (12.3): the loop this router sends its messages round (its
 * own probe's, or one it adopted), or, FROZEN, the C of the recovery it is
 * frozen for.  cyc_q is the loop's cycles (C; 0: no loop), port0_q this
 * router's output into it; with V > 1, the loop's fork entries are read from
 * fk0_q on. */
typedef struct {
  uint32_t cyc_q;
  uint8_t port0_q;
  uint8_t fk0_q;
  uint64_t fork_lo_q, fork_hi_q;
} loop_buf_t;

typedef struct {
  spin_state_t state_q;
  uint32_t cnt_q;       /* the counter: expires in a cycle where it is 0 */
  uint8_t dd_port_q, dd_vc_q;   /* the VC the counter watches; in a recovery, the loop's VC */
  uint8_t is_deadlock_q;
  uint16_t source_id_q;
  uint8_t pm_sent_q;    /* PROBE_MOVE: the probe_move has left; FROZEN: the spin is done */
  uint32_t spins_q;     /* spins of the current recovery (sender) */
  uint64_t t_expiry;    /* statistics only: expiry that sent the winning probe */
  uint64_t t_detect, t_last_spin;   /* statistics only: the record (spin_log.h) */
  int64_t log_entry;    /* statistics only: this recovery's entry in the record, or -1 */
  uint8_t log_walk;     /* statistics only: the loop is to be walked into the record */
  uint8_t adopted;      /* statistics only: the loop was adopted (12.4) */
  uint32_t loop_hops;   /* statistics only: the loop's routers (m), walked by the network at
                           the recovery's first spin (network.c); 0 before */
  loop_buf_t loop;
  /* per input VC [port][vc] */
  uint8_t frozen_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  uint8_t armed_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  uint8_t spin_ovc_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];   /* downstream VC the spin fills */
  uint8_t spinning_q[SPIN_MAX_PORTS][SPIN_MAX_VCS];   /* spin in progress */
  uint64_t popped_q;    /* the network VCs that sent their front flit in the cycle before,
                           bit p*SPIN_MAX_VCS + v (the watch, 12.3) */
  /* per input port: the mark, a probe forwarded from it (sender, cyc, the
   * outputs it left by, fk; cyc = 0: none) and the cycle it was written,
   * plus 1 (0: never), from which its age (spin_mark_age), 12.4 */
  uint16_t mark_sender_q[SPIN_MAX_PORTS];
  uint32_t mark_cyc_q[SPIN_MAX_PORTS];
  uint16_t mark_out_q[SPIN_MAX_PORTS];
  uint8_t mark_fk_q[SPIN_MAX_PORTS];
  uint64_t mark_at_q[SPIN_MAX_PORTS];
  /* per input port: the output of the VC frozen at it in the router's last
   * recovery (0: none), the loop's next hop for that recovery's probe_move
   * and kill_move (12.1); cleared when the router starts a recovery */
  uint8_t loop_out_q[SPIN_MAX_PORTS];
  /* SmPipe = 1 (12.2): the message registered by the input stage (kind 0:
   * none) and its port; the output stage's winners (per output: 0 none, 1
   * the handled message, 2 the FSM's), the two words, and the outputs the
   * handled probe forked to (its D, for the fork entry). */
  flit_t smi_q;
  uint8_t smi_port_q;
  uint8_t smo_src_q[SPIN_MAX_PORTS];   /* SPIN_MAX_PORTS = 16 bytes: spin_stages_busy reads them
                                          as two words */
  flit_t smo_fwd_q, smo_own_q;
  uint16_t smo_fork_q;
} spin_router_t;

typedef struct {
  uint64_t probes_sent, probes_forked, probes_dropped, probes_returned;
  uint64_t probes_adopted;      /* loops taken from another router's probe (12.4) */
  /* probes dropped, by cause (12.8); they add up to probes_dropped */
  uint64_t drop_contention, drop_busy, drop_outranked, drop_not_blocked, drop_came_round,
      drop_length;
  uint64_t moves_sent, probe_moves_sent, kill_moves_sent;
  uint64_t moves_dropped;
  uint64_t spins, deadlocks_resolved, false_positives;
  uint64_t frozen_timeouts;     /* FROZEN routers that left a recovery on their own timeout */
  uint64_t max_spins, max_spins_loop;
  uint64_t longest_hops, longest_cycles;   /* the longest loop resolved */
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

/* Why a probe was dropped (12.8). */
typedef enum {
  DROP_CONTENTION, DROP_BUSY, DROP_OUTRANKED, DROP_NOT_BLOCKED, DROP_CAME_ROUND, DROP_LENGTH
} spin_drop_t;
void spin_drop_probe(spin_stats_t *st, spin_drop_t why);

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

static inline int sm_rank(unsigned kind)
{
  return kind == KIND_PROBE_MOVE ? 3 : kind == KIND_PROBE ? 1 : 2;
}

/* The router of top priority at `cycle`: it changes every epoch of 4 t_DD. */
/* The age of input p's mark in cycle `cycle`: the cycles since it was
 * written, saturating at CycMax + 1 (the RTL's mk_age_q; 12.4).  A mark
 * stands while it holds a probe (cyc != 0) of age CycMax or less. */
static inline unsigned spin_mark_age(const spin_router_t *s, unsigned cyc_max, uint64_t cycle,
                                     int p)
{
  const uint64_t at = s->mark_at_q[p];
  return !at || cycle + 1u - at > cyc_max ? cyc_max + 1u : (unsigned)(cycle + 1u - at);
}

static inline int spin_mark_standing(const spin_router_t *s, unsigned cyc_max, uint64_t cycle,
                                     int p)
{
  return s->mark_cyc_q[p] && spin_mark_age(s, cyc_max, cycle, p) <= cyc_max;
}

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

/* Loop buffer (spin_loop_buf.c): latch a loop, empty it when the recovery
 * ends (only its cycles). */
void loop_latch(loop_buf_t *l, unsigned cyc, unsigned port0, unsigned fk0, const sm_t *forks);
void loop_clear(loop_buf_t *l);

/* What the router shows the SPIN logic in one cycle (read-only views of its
 * input VCs, registers of cycle t), and what SPIN returns. */
typedef struct {
  int ports, vcs, id, nodes;
  int nics;                           /* ports 0..nics-1 are NIC ports, never in a loop */
  unsigned tdd;
  int adopt;                          /* probe adoption on (12.4) */
  int nmin;                           /* FAvORS-NMin: the bound is 2m - 1 spins (4.3) */
  int sm_pipe;                        /* SmPipe (12.1) */
  const sm_fmt_t *fmt;                /* the message layout */
  const uint16_t *xlat;               /* per output: its link's latency - 1 */
  uint64_t cycle;
  /* views of the router's input VCs [port][vc] */
  const uint8_t (*cnt)[SPIN_MAX_VCS];
  const uint8_t (*route_valid)[SPIN_MAX_VCS];
  const uint8_t (*out_port)[SPIN_MAX_VCS];
  unsigned in_ports;                  /* bit p: a VC at input p holds a flit */
  uint64_t nonempty;                  /* bit p*SPIN_MAX_VCS + v: VC (p, v) holds a flit
                                         (both at the start of the cycle) */
  const flit_t *front[SPIN_MAX_PORTS][SPIN_MAX_VCS];   /* NULL when empty */
  /* the offers of the handled message and of the FSM (12.2) */
  unsigned fwd_mask;                  /* outputs the handled message goes on by */
  sm_t fwd;                           /* it, as forwarded (before its links) */
  int fwd_port;                       /* the port it was handled on */
  unsigned fwd_fork;                  /* a probe that forked: the outputs it forked to */
  unsigned own_out;                   /* the FSM's message: its output, 0 none */
  sm_t own;
  /* results */
  unsigned sm_out;                    /* outputs carrying an SM this cycle */
  flit_t sm_word[SPIN_MAX_PORTS];     /* per output: the SM, as it goes onto the link */
  unsigned hold;                      /* inputs held from allocation (12.2) */
  uint64_t frozen_req;                /* VCs switch allocation skips, bit p*SPIN_MAX_VCS + v:
                                         after this cycle's message (SmPipe 0), or after
                                         the FSM's counter (SmPipe 1, 2: 12.2) */
  unsigned out_busy;                  /* outputs taken by a spin flit */
  unsigned in_busy;                   /* inputs sending a spin flit */
  flit_t spin_flit[SPIN_MAX_PORTS];   /* per output */
  int spin_src_port[SPIN_MAX_PORTS], spin_src_vc[SPIN_MAX_PORTS];
  uint8_t arm_out[SPIN_MAX_PORTS];    /* arm notice per input port's credit: 0 or CRED_ARM_MAKE */
  int cnt_loaded;                     /* the FSM loaded the counter this cycle */
} spin_ctx_t;

/* VC (p, v) holds flits with a route. */
static inline int spin_vc_routed(const spin_ctx_t *c, int p, int v)
{
  return c->cnt[p][v] && c->route_valid[p][v];
}

/* A whole packet waits at the front of VC (p, v) for output o. */
static inline int spin_vc_waits(const spin_ctx_t *c, int p, int v, unsigned o)
{
  const flit_t *f = c->front[p][v];
  return f && c->route_valid[p][v] && c->out_port[p][v] == o && CTL_HEAD(f->ctl) &&
         c->cnt[p][v] == HEAD_LEN(f->data);
}

/* The distinct outputs other than the NIC ports that the VCs at input p
 * holding flits with a route wait for (bit o). */
static inline unsigned spin_outputs_at(const spin_ctx_t *c, int p)
{
  unsigned d = 0;
  int v;
  for (v = 0; v < c->vcs; v++)
    if (spin_vc_routed(c, p, v)) d |= 1u << c->out_port[p][v];
  return d & ~((1u << c->nics) - 1u);
}

/* The k-th set bit of mask (lowest first), 0 when there is none. */
static inline unsigned spin_nth_port(unsigned mask, unsigned k)
{
  unsigned o;
  for (o = 0; mask >> o; o++)
    if (mask >> o & 1u) {
      if (!k) return o;
      k--;
    }
  return 0;
}

/* A router spins at most one packet per input port and per output port (one
 * flit each per cycle): may a VC at input p bound for output o be frozen? */
static inline int spin_may_freeze(const spin_router_t *s, const spin_ctx_t *c, int p, unsigned o)
{
  int pp, v;
  for (pp = c->nics; pp < c->ports; pp++)
    for (v = 0; v < c->vcs; v++)
      if (s->frozen_q[pp][v] && (pp == p || c->out_port[pp][v] == o)) return 0;
  return 1;
}

/* The router leaves a recovery: VCs that are not spinning thaw, the loop
 * buffer empties, and the FSM goes back to deadlock detection (the caller
 * loads the counter). */
static inline void spin_leave(spin_router_t *s)
{
  int p, v;
  for (p = 0; p < SPIN_MAX_PORTS; p++)
    for (v = 0; v < SPIN_MAX_VCS; v++)
      if (!s->spinning_q[p][v]) s->frozen_q[p][v] = s->armed_q[p][v] = 0;
  s->is_deadlock_q = 0;
  s->state_q = FSM_DD;
  loop_clear(&s->loop);
}

/* Loads the counter: it holds v after this cycle's edge (the watch does not
 * count it down in this cycle, 12.3). */
static inline void spin_load(spin_router_t *s, spin_ctx_t *c, unsigned v)
{
  s->cnt_q = v;
  c->cnt_loaded = 1;
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

/* Freezes VC v at input p, bound for output o, for the current recovery. */
static inline void spin_freeze(spin_router_t *s, int p, int v, unsigned o)
{
  s->frozen_q[p][v] = 1;
  s->armed_q[p][v] = 0;
  s->loop_out_q[p] = (uint8_t)o;
}

/* The next hop of a move, probe_move or kill_move handled on input p
 * (12.1): the output, 0 when there is none; a fork entry read advances
 * m->fk. */
unsigned spin_next_hop(const spin_router_t *s, const spin_ctx_t *c, int p, sm_t *m);

/* The FSM's own message, offered to output o (12.2); one offered before in
 * the same cycle is dropped. */
void spin_offer_own(spin_ctx_t *c, unsigned o, const sm_t *m, spin_stats_t *st);

/* The handled message, forwarded out of outputs mask (fork: the outputs a
 * probe forked to, 0 when it did not). */
void spin_offer_fwd(spin_ctx_t *c, int p, unsigned mask, const sm_t *m, unsigned fork);

/* The SM input stage (spin_sm_in.c): the port of the best SM arriving in
 * this cycle, 0 when none; the others are dropped (counted). */
int spin_sm_select(const spin_ctx_t *c, const flit_t *const *in_flit, spin_stats_t *st);

/* The SM output stage (spin_sm_out.c): the offers of this cycle to each
 * output, and (SmPipe = 1) the words registered in the cycle before, into
 * c->sm_out and c->sm_word (as they go onto the links). */
void spin_sm_out(spin_router_t *s, spin_ctx_t *c, spin_stats_t *st);

/* The router takes the loop of a probe that came back to it (its own, or,
 * with adoption, another router's that went round the loop through input
 * p): VC v at p becomes the loop's VC, the loop buffer latches it, and a
 * move goes out round the loop (MOVE state).  spin_fsm.c. */
void spin_take_loop(spin_router_t *s, spin_ctx_t *c, int p, int v, unsigned cyc, unsigned port0,
                    unsigned fk0, const sm_t *forks, spin_stats_t *st);

/* Probe manager: a probe from another router (or this router's own probe
 * back, not confirming a loop) handled on input p.  Forks it, drops it, or,
 * with adoption, takes the loop it went round. */
void spin_probe_in(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *m, spin_stats_t *st);

/* Move manager: a move, probe_move or kill_move handled on input p that is
 * not its sender's coming home (12.5). */
void spin_move_in(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *m, spin_stats_t *st);

/* The counter FSM for one cycle, before allocation, steps 1 to 3: arm
 * notices, spin flits, the counter.  in_cred: the credit words of this
 * cycle.  Called by spin_unit_pre. */
void spin_fsm_pre(spin_router_t *s, spin_ctx_t *c, const uint8_t *in_cred, spin_stats_t *st);

/* Step 4: the router's own message handled on input p.  Returns 1 when the
 * FSM took it, 0 when it goes on to the probe or move manager. */
int spin_fsm_home(spin_router_t *s, spin_ctx_t *c, int p, const sm_t *m, spin_stats_t *st);

/* After allocation: the deadlock-detection watch (12.3), from the VCs at the
 * start of the cycle (c->nonempty) and those that sent their front flit in
 * the cycle before (s->popped_q); then popped_q takes this cycle's (popped,
 * bit p*SPIN_MAX_VCS + v). */
void spin_fsm_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped,
                   spin_stats_t *st);

/* The SPIN unit (spin_unit.c), what the router calls.  spin_unit_idle: 1
 * when the unit has nothing to do this cycle: the FSM off or counting with
 * no expiry now, no recovery, no VC frozen, nothing registered in the input
 * or output stage, and (sm_in = 0) no special message or arm notice on the
 * links.  spin_unit_pre would then offer nothing, send no spin flit or arm
 * notice and leave the state alone, so the router may skip it.
 * spin_unit_pre: before allocation (c's results cleared first).
 * spin_unit_post: after allocation (spin_fsm_post). */
/* A message waits in the input or the output stage (SmPipe = 1). */
static inline int spin_stages_busy(const spin_router_t *s)
{
  uint64_t o[2];
  memcpy(o, s->smo_src_q, sizeof o);   /* SPIN_MAX_PORTS bytes */
  return o[0] || o[1] || CTL_KIND(s->smi_q.ctl);
}
static inline int spin_unit_idle(const spin_router_t *s, int sm_in)
{
  uint64_t f[sizeof s->frozen_q / 8];
  unsigned i;
  if (sm_in || s->is_deadlock_q || s->state_q > FSM_DD || (s->state_q == FSM_DD && !s->cnt_q) ||
      spin_stages_busy(s))
    return 0;
  memcpy(f, s->frozen_q, sizeof f);
  for (i = 0; i < sizeof f / 8; i++)
    if (f[i]) return 0;
  return 1;
}
void spin_unit_pre(spin_router_t *s, spin_ctx_t *c, const flit_t *const *in_flit,
                   const uint8_t *in_cred, spin_stats_t *st);
void spin_unit_post(spin_router_t *s, spin_ctx_t *c, const uint64_t popped, spin_stats_t *st);

/* A special message going onto output o's link (12.1): a probe that forked
 * (fork: the outputs it forked to) records which of them this is.
 * spin_sm_out.c. */
flit_t spin_onto_link(const sm_fmt_t *f, const sm_t *m, unsigned o, unsigned fork);

/* A message handled by a router accounts for the hop it came over, a link
 * of xlat + 1 cycles (12.1): a probe's cyc grows by the hop's
 * h = xlat + 1 + SmPipe, a move's, probe_move's or kill_move's delay
 * shrinks by h (not below 0).  spin_sm_out.c. */
void spin_hop_in(const sm_fmt_t *f, sm_t *m, unsigned xlat);

#endif
