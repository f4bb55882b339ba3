/* datapath.h - the router's datapath in C, one file per RTL module:
 *
 *   cmodel/spin_fifo.c         rtl/spin_fifo.sv          an input VC's FIFO
 *   cmodel/spin_input_port.c   rtl/spin_input_port.sv    an input port: its VCs,
 *                                                        route unit, stage 1
 *   cmodel/spin_route_table.c  rtl/spin_route_table.sv   the route-table lookup
 *   cmodel/spin_ovc_tracker.c  rtl/spin_ovc_tracker.sv   an output's downstream VCs
 *   cmodel/spin_switch_alloc.c rtl/spin_switch_alloc.sv  the output stage of
 *                                                        switch allocation
 *   cmodel/spin_crossbar.c     rtl/spin_crossbar.sv      switch traversal
 *   cmodel/spin_link_pipe.c    rtl/spin_link_pipe.sv     a long link's registers
 *
 * router.c wires them as rtl/spin_router.sv wires the modules (its cycle is
 * a list of calls into them), network.c the link pipelines as the generated
 * network top does.  docs/microarchitecture.md is the contract.
 *
 * How the functions are compiled (DP_FN).  Each file compiles alone into
 * the library like any other: its functions are then external, and the
 * unit benches of tb/unit/ call them.  router.c and network.c include the
 * files they use with DP_INLINE defined: the same functions are then static
 * and always inlined, so each instance of the router's cycle (SPIN on or
 * off, 1 VC or more, escape routing) drops what its constants make dead, as
 * one long function did.  Without inlining the C model ran 19% slower
 * (mesh8x8, FAvORS-Min, SPIN on, 0.1).  With DP_INLINE there are no
 * prototypes: a file is included after the files whose functions it calls
 * (router.c lists the order).
 */
#ifndef SPIN_DATAPATH_H
#define SPIN_DATAPATH_H

#include <stdint.h>
#include "flit.h"
#include "network.h"
#include "router.h"

#if defined(__GNUC__)
#define DP_ALWAYS_INLINE __attribute__((always_inline))
#else
#define DP_ALWAYS_INLINE
#endif
#ifdef DP_INLINE
#define DP_FN static inline DP_ALWAYS_INLINE
#else
#define DP_FN
#endif
/* A file's own helpers. */
#define DP_LOCAL static inline DP_ALWAYS_INLINE

/* The wires of one router cycle, between the modules: what each one's
 * function computes for the next (as the nets of rtl/spin_router.sv do).
 * The arrays (cycle_t) are apart from the scalars (cycle_bits_t), so that
 * the compiler keeps the latter in registers. */
typedef struct {
  uint8_t rc_vc[MAX_PORTS];      /* route unit of input p: the VC it serves (bit p of routing) */
  uint8_t rc_port[MAX_PORTS];    /* ... the port it chose */
  uint8_t rc_via[MAX_PORTS];     /* ... FAvORS-NMin: the route is toward mid */
  uint16_t rc_dst[MAX_PORTS];    /* ... the destination it looked up (rt_dst_o) */
  port_mask_t rc_a[MAX_PORTS], rc_e[MAX_PORTS];   /* ... escape: the route set looked up */
  uint8_t req_vc[MAX_PORTS];     /* stage 1: VC chosen at input p */
  uint8_t req_esc[MAX_PORTS];    /* escape: input p's head takes the escape VC */
  uint8_t req_ph[MAX_PORTS];     /* vc_phase: the downstream VC input p's head takes (4.5) */
  uint16_t oreq[MAX_PORTS];      /* inputs requesting output o */
  uint8_t ovc_set[MAX_PORTS], ovc_clr[MAX_PORTS];   /* downstream VCs taken / freed */
  uint8_t port_age[MAX_PORTS];   /* per output: the least busy-cycles of its VCs (min_age_o) */
} cycle_t;

typedef struct {
  int P;                         /* ports */
  unsigned nics;                 /* the NIC ports (bits 0..nics-1) */
  int favors, nmin;              /* FAvORS-Min or -NMin; a route header (FAvORS-NMin, UGAL) */
  int ugal;                      /* UGAL: the source's choice by queues x hops (4.5) */
  int vc_phase;                  /* a head's downstream VC is its hop phase (4.5) */
  unsigned global;               /* vc_phase: the ports that are global links */
  unsigned all_vcs;              /* bit v: VC v exists */
  unsigned port_free;            /* bit o: output o has a free downstream VC (any_free_o) */
  int any_draw;                  /* some input port drew from the LFSR */
  unsigned wf, wc;               /* flit / credit registers written, bit per port */
  unsigned routing;              /* bit p: input p computed a route this cycle */
  unsigned requested;            /* outputs some input requests */
  unsigned ochg;                 /* outputs whose ovc_busy_q may change */
  unsigned free_a, free0;        /* escape, bit o: an adaptive VC / VC 0 of o is free */
  int ages_known;                /* port_age filled (only FAvORS reads it) */
  unsigned sm_outs;              /* outputs carrying a special message */
  unsigned spin_outs;            /* outputs carrying a spin flit */
  unsigned spin_ins;             /* inputs sending a spin flit */
  unsigned hold;                 /* inputs SPIN's input stage holds from allocation (12.2) */
  uint64_t frozen_req;           /* bit p * SPIN_MAX_VCS + v: VC (p, v) frozen for switch
                                    allocation (spin_ctx_t's frozen_req) */
  uint64_t popped;               /* bit p * SPIN_MAX_VCS + v: VC (p, v) sent a flit */
  int admitted;                  /* injection admission (section 6) */
  int spin_idle;                 /* SPIN has nothing to do this cycle (spin_unit_idle) */
} cycle_bits_t;

/* One FIFO (spin_fifo.c): its two registers and its depth slots of
 * storage, which the caller owns.  A slot keeps its ext word in ext only
 * when that is not 0 (packets leave it 0): bit s of *ext_nz says so. */
typedef struct {
  uint8_t *rd_q, *cnt_q;
  uint8_t *ctl;
  uint64_t *data, *ext;
  uint8_t *ext_nz;
  unsigned depth;
} spin_fifo_t;

#ifndef DP_INLINE
/* spin_fifo.c */
flit_t spin_fifo_front(const spin_fifo_t *f);
unsigned spin_fifo_front_ctl(const spin_fifo_t *f);
unsigned spin_fifo_pop(spin_fifo_t *f);
void spin_fifo_push(spin_fifo_t *f, const flit_t *w);

/* spin_route_table.c */
unsigned spin_route_table(const port_mask_t *rows, unsigned nodes, unsigned dst);

/* spin_ovc_tracker.c */
unsigned spin_ovc_tracker_free(unsigned busy_q, unsigned all_vcs);
unsigned spin_ovc_tracker_first_free(unsigned busy_q, unsigned all_vcs);
unsigned spin_ovc_tracker_first_free_a(unsigned busy_q, unsigned all_vcs);
unsigned spin_ovc_tracker_min_age(const uint8_t *age_q, int V);
void spin_ovc_tracker_ages(const router_t *r, int P, int V, uint8_t *port_age);
unsigned spin_ovc_tracker_credit(unsigned cred);
void spin_ovc_tracker_next(uint8_t *busy_q, uint8_t *age_q, unsigned set, unsigned clr, int ages,
                           int V);
void spin_ovc_tracker_skip(unsigned busy_q, uint8_t *age_q, uint64_t k, int V);

/* spin_switch_alloc.c */
void spin_switch_alloc_request(cycle_t *cw, cycle_bits_t *cb, int p, unsigned o);
int spin_switch_alloc_grant(uint8_t *out_ptr_q, unsigned oreq, unsigned P);

/* spin_crossbar.c */
void spin_crossbar(const flit_t *in, unsigned ovc, flit_t *out);

/* spin_input_port.c */
spin_fifo_t spin_input_port_fifo(router_t *r, int p, int v, int V);
void spin_input_port_route(router_t *r, const router_cfg_t *cfg, cycle_t *cw, cycle_bits_t *cb,
                           int p, int spin, int V, int esc);
int spin_input_port_request(router_t *r, cycle_t *cw, cycle_bits_t *cb, int p, int admit,
                            int spin, int V, int esc);
void spin_input_port_latch(router_t *r, const cycle_t *cw, const cycle_bits_t *cb, int p, int spin,
                           int V, int esc);
flit_t spin_input_port_req_flit(router_t *r, const cycle_t *cw, const cycle_bits_t *cb, int p,
                                int V);
unsigned spin_input_port_grant(router_t *r, const cycle_t *cw, cycle_bits_t *cb, int p,
                               unsigned o, unsigned ovc, int V, int esc);
flit_t spin_input_port_spin_flit(router_t *r, cycle_bits_t *cb, int p, int v, int V);
void spin_input_port_write(router_t *r, int p, const flit_t *f, int V);

/* spin_link_pipe.c */
int spin_link_pipe_step(net_pipe_t *pp, const flit_t *d_f, uint8_t d_c, flit_t *q_f,
                        uint8_t *q_c);
#endif

#endif
