/* network.h - routers joined by links of 1 to 1,024 cycles; the two-phase
 * cycle step.
 *
 * Every link register (a router's flit and credit output registers) is kept
 * in two banks: in cycle t routers read bank t&1 (the values registered at
 * the end of cycle t-1) and write bank (t+1)&1, so the result never depends
 * on the order routers are visited.  A router with nothing buffered and
 * nothing arriving is skipped: its step would change no register.
 *
 * Only non-idle link registers are written.  valid[bank][r] names the
 * registers router r wrote into that bank in its last write of it; every
 * other register of the bank reads as idle (net_flit_out, net_cred_out),
 * whatever its storage holds.  The port-0 credit registers, which the NICs
 * read in place, are kept exact.  A router also marks, in the bank it
 * writes, the input ports of the routers its non-idle registers reach
 * (wake), so each router knows which of its links carry something without
 * reading them, and an idle router costs a few loads.
 *
 * A link of latency L > 1 (contract section 1) adds L - 1 registers in each
 * direction (net_pipe_t): the reader's port reads an extra register slot
 * (index n*ports + k, in both banks), which the end of each step fills from
 * the pipeline, marking the reader's wake bit itself.
 */
#ifndef SPIN_NETWORK_H
#define SPIN_NETWORK_H

#include <stdint.h>
#include "router.h"
#include "spin_log.h"
#include "topology.h"

/* The extra registers of one direction pair of a link of latency L > 1, seen
 * from router r's port p: flits from the peer's output to r's input p, and
 * credits from the peer's input to r's output p, each L - 1 stages after the
 * peer's own register.  Stage values for the next L - 1 cycles, oldest at
 * head.  spin_link_pipe.c steps it (RTL twin: rtl/spin_link_pipe.sv, one per
 * direction). */
typedef struct {
  int r, p;                   /* the reader */
  int src;                    /* the peer's register index, q*ports + qp */
  int slot;                   /* the register index r's port p reads */
  int stages;                 /* L - 1 */
  int head;
  int held;                   /* stages holding a non-idle flit or a non-zero credit:
                                 an empty pipeline fed nothing is not stepped */
  flit_t *flit;               /* stages entries */
  uint8_t *cred;
} net_pipe_t;

typedef struct {
  int n, ports, vcs;
  int nics, nodes;            /* NIC ports a router; nodes = n * nics */
  const topo_t *topo;         /* the topology it was built for (its links) */
  route_algo_t algo;
  uint64_t cycle;             /* cycles stepped since reset */
  router_t *rt;
  router_cfg_t *cfg;
  router_eval_fn eval;        /* router_eval for this network's configuration */
  port_mask_t *masks;         /* n*nodes route masks of algo (escape: the adaptive VCs') */
  port_mask_t *masks_esc;     /* escape only: n*nodes west-first masks of the escape VC */
  int *up;                    /* (r,p) -> index of the upstream link register, -1 none */
  int *down;                  /* link register index -> (reader router << 4) | reader port,
                                 -1 none (NIC port registers go to the NICs) */
  flit_t *flit_reg[2];        /* bank, index r*ports + p: router r output port p */
  uint8_t *cred_reg[2];
  uint32_t *valid[2];         /* per router: bit p, flit_reg of port p holds this bank's
                                 value; bit 16 + p, cred_reg of port p does */
  uint32_t *wake[2];          /* per router: bit p, input link p carries a non-idle flit
                                 in this bank; bit 16 + p, a non-zero credit */
  flit_t idle;                /* all zeros: what an unwritten flit register reads */
  int *ejecting;              /* the routers whose NIC ports' flit registers were written in
                                 the last step, in increasing order ... */
  int n_ejecting;             /* ... and how many */
  int recovering;             /* after the last step: some router's FSM past DD
                                 (net_recovering) */
  flit_t *inj;                /* per node: the NIC's injection register (input of its
                                 router's NIC port, node k: router k / nics, port k % nics) */
  spin_stats_t spin;          /* SPIN counters of the whole network */
  sm_fmt_t fmt;               /* SPIN: the layout of the special messages (12.1) */
  net_pipe_t *pipe;           /* the links of latency > 1, one entry per direction */
  int n_pipe;
  /* The run's record (net_record; statistics only, NULL when off): flits
   * sent on each network output, index r*ports + p, and the deadlocks SPIN
   * resolved (spin.log points at it). */
  uint64_t *link_flits;
  spin_log_t *log;
} network_t;

/* The routing function whose tables algo reads (mask_det). */
route_fn_t net_route_fn(route_algo_t algo, int min_cycles);

/* Builds the network for a topology; -1 and a message on error.
 * spin: SPIN on (1) or off (0); tdd: its detection threshold in cycles;
 * mode: the live-mode mechanisms (router.h); sm: SmPipe and the widths of
 * SPIN's messages (sm_fmt.h). */
int net_init(network_t *net, const topo_t *topo, route_algo_t algo, int vcs,
             int spin, unsigned tdd, router_mode_t mode, const sm_opts_t *sm, uint64_t seed,
             char *err, unsigned long errlen);
void net_free(network_t *net);

/* Starts the record of the run (link loads and resolved deadlocks); -1
 * when out of memory. */
int net_record(network_t *net);

/* One cycle: every router reads the current link registers and net->inj,
 * then all registers advance together. */
void net_step(network_t *net);

/* Current (registered) values, as the RTL shows them after the clock edge. */
static inline const flit_t *net_flit_out(const network_t *net, int r, int p)
{
  const int b = (int)(net->cycle & 1);
  if (!((net->valid[b][r] >> p) & 1u)) return &net->idle;
  return &net->flit_reg[b][r * net->ports + p];
}
static inline uint8_t net_cred_out(const network_t *net, int r, int p)
{
  const int b = (int)(net->cycle & 1);
  if (!((net->valid[b][r] >> (16 + p)) & 1u)) return 0;
  return net->cred_reg[b][r * net->ports + p];
}
static inline unsigned net_occupancy(const network_t *net, int r, int p, int v)
{
  return net->rt[r].cnt_q[p][v];
}
unsigned long net_buffered(const network_t *net);

/* A link pipeline holds a non-idle flit or a non-zero credit (the current
 * bank's reader slots included); with sm_only, a special message. */
int net_pipes_busy(const network_t *net, int sm_only);
/* Whether some router is in a SPIN recovery in this cycle: its counter FSM
 * past DD (MOVE, PROBE_MOVE, FORWARD_PROGRESS, KILL_MOVE or FROZEN; the
 * recovery throttle, contract 8). */
int net_recovering(const network_t *net);

#endif
