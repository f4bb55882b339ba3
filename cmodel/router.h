/* router.h - one input-buffered VCT router, cycle-exact C twin of
 * rtl/spin_router.sv.  docs/microarchitecture.md is the contract.
 *
 * Every field named *_q is a register of the RTL with the same name.
 */
#ifndef SPIN_ROUTER_H
#define SPIN_ROUTER_H

#include <stdint.h>
#include "flit.h"
#include "spin.h"
#include "topology.h"

#define MAX_PORTS 16
#define MAX_VCS   4
#define BUF_DEPTH 5

/* ALGO_FAVORS_NMIN: FAvORS-Min's selection toward each packet's current
 * target, which is its intermediate router while the route header's via bit
 * is set; the source router may set it (docs/microarchitecture.md, 4.3).
 * ALGO_ESCAPE (Duato): VC 0 is the escape VC, routed west-first (mask_esc);
 * VCs 1..V-1 are fully adaptive over the minimal ports (mask_det).  Needs
 * V >= 2 and SPIN off. */
typedef enum {
  ALGO_XY = 0, ALGO_WEST_FIRST = 1, ALGO_FAVORS_MIN = 2, ALGO_ESCAPE = 3,
  ALGO_FAVORS_NMIN = 4, ALGO_DF_MIN = 5, ALGO_UGAL = 6
} route_algo_t;

/* ALGO_DF_MIN and ALGO_UGAL (C model only, dragonflies): the hierarchical
 * minimal route (ROUTE_DF_MIN), and UGAL-L's choice at the source between it
 * and a Valiant detour through a random intermediate group; a head's
 * downstream VC is its hop phase, the global links it has crossed (vc_phase,
 * docs/microarchitecture.md 4.5), so 2 VCs (minimal) or 3 (UGAL) make them
 * deadlock-free without SPIN. */

/* The mechanisms that keep a network live past saturation (on in "live"
 * mode, the default; all off is the SPIN paper's router): injection
 * admission (section 6), rerouting of waiting heads (section 4.2) and SPIN
 * probe adoption (section 12.4). */
typedef struct {
  int admit;               /* injection admission (section 6): 0 off, 1 on, 2 on
                              only while a NIC of the router has its window cut
                              to half or less (sections 6 and 8) */
  int reroute, adopt;
  int admit_occ;           /* occupancy admission (section 6): 0 off (both modes), 1 at
                              most one busy network input, 2 none */
  int window;              /* the NICs' injection window (section 8): packets a
                              node may have in flight, 0 no limit (both modes) */
  int window_slack;        /* with a window of 2 or more: cycles over its
                              zero-load latency before a packet is late */
  int early_credit;        /* a downstream VC is free in the cycle its credit
                              arrives (section 5): 0 off (both modes) */
  int window_notice;       /* with a window: a packet leaves it when its delivery
                              notice arrives (section 8), 0 at delivery */
  int throttle;            /* the recovery throttle's epoch in cycles (section 8,
                              throttle.h), 0 off */
  int min_cycles;          /* the minimal routes of favors_min, favors_nmin and
                              escape's adaptive VCs: least zero-load cycles (1)
                              or least hops (0, both modes) (section 4) */
} router_mode_t;

typedef struct {
  int ports;               /* P: NIC ports 0..nics-1 + network ports */
  int nics;                /* NIC ports (concentration), >= 1 */
  unsigned nic_mask;       /* bits 0..nics-1 */
  unsigned global_mask;    /* vc_phase: the outputs (= inputs) that are global links */
  int vc_phase;            /* ALGO_DF_MIN, ALGO_UGAL: a head's downstream VC is its phase */
  int node0;               /* the first node of this router (id * nics) */
  int vcs;                 /* V: 1..4 */
  int id;                  /* router id (row of the route table) */
  int nodes;               /* routers in the network (SPIN's priorities) */
  int dsts;                /* nodes: columns of the route table */
  const port_mask_t *mask_det; /* dsts entries: allowed output ports for each dst
                              (escape: the adaptive VCs' ports) */
  const port_mask_t *mask_esc; /* escape only: dsts entries, the escape VC's ports */
  route_algo_t algo;
  int spin;                /* SPIN deadlock recovery on */
  unsigned tdd;            /* SPIN deadlock-detection threshold, cycles */
  int admit;               /* injection admission (section 6) in this cycle: 0 or
                              1; with level 2 the NICs set it every cycle */
  int admit_occ;           /* occupancy admission (section 6): 0, 1 or 2 */
  int reroute;             /* a waiting head routes again every cycle (section 4.2) */
  int early_credit;        /* a credit frees its VC in the cycle it arrives (section 5) */
  int adopt;               /* SPIN probe adoption (section 12.3) */
  uint16_t xlat[MAX_PORTS]; /* per output: its link's latency - 1 (SPIN, section 12.1) */
  const sm_fmt_t *fmt;     /* SPIN: the layout of its messages and SmPipe (12.1) */
} router_cfg_t;

typedef struct {
  /* input VCs, index [port][vc] */
  uint8_t rd_q[MAX_PORTS][MAX_VCS];       /* FIFO read slot */
  uint8_t cnt_q[MAX_PORTS][MAX_VCS];      /* FIFO occupancy in flits */
  uint8_t route_valid_q[MAX_PORTS][MAX_VCS];
  uint8_t out_port_q[MAX_PORTS][MAX_VCS];
  uint8_t out_vc_q[MAX_PORTS][MAX_VCS];   /* valid once the head has left */
  uint8_t via_q[MAX_PORTS][MAX_VCS];      /* FAvORS-NMin: the route is toward mid (4.3) */
  port_mask_t mask_a_q[MAX_PORTS][MAX_VCS];   /* escape: the route set, adaptive VCs */
  port_mask_t mask_e_q[MAX_PORTS][MAX_VCS];   /* escape: the route set, escape VC */
  /* allocators */
  uint8_t in_ptr_q[MAX_PORTS];            /* per input port, over VCs */
  uint8_t out_ptr_q[MAX_PORTS];           /* per output port, over inputs */
  uint8_t ovc_busy_q[MAX_PORTS];          /* per output port, bit per downstream VC */
  uint8_t ovc_age_q[MAX_PORTS][MAX_VCS];  /* cycles a downstream VC has been busy, saturating */
  uint32_t lfsr_q;
  /* derived from the registers above, kept for speed (not registers) */
  int buffered;                           /* flits in all input VCs */
  uint8_t spin_busy;                      /* sp.state_q != FSM_OFF, sp.is_deadlock_q, or a
                                             message in SPIN's input or output stage */
  uint8_t nonempty[MAX_PORTS];            /* bit v: cnt_q[p][v] > 0 */
  uint8_t routed[MAX_PORTS];              /* bit v: route_valid_q[p][v] */
  uint16_t in_ports;                      /* bit p: nonempty[p] != 0 */
  uint16_t full_ports;                    /* bit o: every downstream VC of o is busy */
  uint16_t busy_ports;                    /* bit o: some downstream VC of o is busy */
  uint64_t next_cycle;                    /* the cycle after the last evaluation: the
                                             network skips idle routers, whose busy
                                             VCs' ages catch up when next evaluated */
  /* FIFO storage (not reset): input VC (p, v) holds the slots from
   * (p * vcs + v) * BUF_DEPTH on, so a router with few ports and VCs uses
   * the first few cache lines only.  A flit is kept as its data word and
   * ctl byte, and its ext word in buf_ext only when that is not 0 (packets
   * leave ext 0), flagged in ext_nz. */
  uint8_t buf_ctl[MAX_PORTS * MAX_VCS * BUF_DEPTH];
  uint8_t ext_nz[MAX_PORTS * MAX_VCS];    /* bit slot: buf_ext holds that slot's ext */
  uint64_t buf_data[MAX_PORTS * MAX_VCS * BUF_DEPTH];
  uint64_t buf_ext[MAX_PORTS * MAX_VCS * BUF_DEPTH];
  spin_router_t sp;                       /* SPIN state (spin.h) */
} router_t;

void router_reset(router_t *r, const router_cfg_t *cfg, uint64_t run_seed);

/* Where a router's inputs come from and its outputs go.  inj[k] is the flit
 * at NIC port k < nics (that NIC's injection register); a network port p
 * reads flit[up[p]] and cred[up[p]], or nothing when up[p] < 0.  Output port
 * p reaches input port down[p] & 15 of router down[p] >> 4 (none when
 * down[p] < 0): when the step writes a non-idle flit there it sets bit
 * (down[p] & 15) of wake[down[p] >> 4], for a credit bit 16 + (down[p] & 15). */
typedef struct {
  const flit_t *inj;
  const flit_t *flit;
  const uint8_t *cred;
  const int *up;
  const int *down;
  uint32_t *wake;
} router_links_t;

/* The same cycle, for a caller that knows which links carry something.
 * in_mask bit p: the flit at port p may be non-idle; bit 16 + p (a network
 * port): the credit at port p may be non-zero.  Only those links are read;
 * the others count as idle words.  Only the output registers that carry
 * something are written; the others are left as they were.  Returns the
 * written registers: bit p for out_flit[p], bit 16 + p for out_cred[p]. */
unsigned router_eval(router_t *r, const router_cfg_t *cfg, uint64_t cycle, unsigned in_mask,
                     const router_links_t *in, flit_t *out_flit, uint8_t *out_cred,
                     spin_stats_t *st);

/* router_eval compiled for one configuration (SPIN on or off, 1 VC or
 * more): the same function for every cfg with the same spin and vcs. */
typedef unsigned (*router_eval_fn)(router_t *r, const router_cfg_t *cfg, uint64_t cycle,
                                   unsigned in_mask, const router_links_t *in,
                                   flit_t *out_flit, uint8_t *out_cred, spin_stats_t *st);
router_eval_fn router_eval_for(const router_cfg_t *cfg);

/* The router must be stepped even with nothing buffered or arriving. */
static inline int router_busy(const router_t *r)
{
  return r->buffered > 0 || r->spin_busy;
}

#endif
