/* nic.h - network interfaces: source queues and injection into router port 0,
 * ejection sinks with reassembly, and the scoreboard that checks every packet
 * is delivered exactly once, to its destination, intact.
 *
 * One nic_t serves every node.  Injection is computed once per cycle from the
 * credits of the reference model (the C model); the same injection register
 * drives every model under test.  Each model has its own sink_t; the
 * scoreboard marks a packet delivered per model (up to SB_MAX_MODELS).
 */
#ifndef SPIN_NIC_H
#define SPIN_NIC_H

#include <stddef.h>
#include <stdint.h>
#include "flit.h"

#define SB_MAX_MODELS 2
#define NIC_WINDOW_MAX 8   /* the injection window's largest size (contract 8) */

typedef struct {
  uint64_t t_create;
  uint16_t src, dst;
  uint8_t len;
  uint8_t done;          /* bit m: delivered by model m */
  uint8_t measured;      /* created inside the measurement window */
  uint64_t due;          /* injection window: the last cycle the packet is in
                            flight without being late (contract 8) */
  uint32_t rh;           /* FAvORS-NMin route header (ext[31:0] of the head as
                            injected; 0 without it): flit.h, RH_* */
} pkt_t;

typedef struct {
  pkt_t *ring;           /* packet ids [oldest, next_id) at ring[id & mask] */
  uint64_t mask;
  uint64_t next_id, oldest;
  unsigned all_done;     /* (1 << models) - 1 */
} scoreboard_t;

typedef struct {
  uint64_t *q;           /* packet ids waiting at the source */
  uint32_t cap, head, len;
  uint64_t cur;          /* packet being injected */
  uint8_t cur_flit;      /* next flit of cur to send; 0 = none in progress */
  uint8_t cur_vc;
  uint8_t busy;          /* router port-0 VCs holding a packet of this NIC */
  uint64_t created;      /* packets this node created (fairness counts the
                            nodes that created any) */
  uint8_t flight;        /* injection window: its packets in flight (started,
                            not yet delivered by the reference model) */
  uint64_t fl[NIC_WINDOW_MAX];   /* their ids, oldest first */
  uint64_t fl_due[NIC_WINDOW_MAX];   /* the cycle each becomes late to its node */
  uint64_t fl_seen[NIC_WINDOW_MAX];  /* with notices: the cycle its delivery
                                        notice arrives (0: not delivered) */
  uint16_t w16;          /* window of 2 or more: its size now, in 1/16 packets
                            (16 .. 16 W) */
  uint64_t cut_after;    /* a late packet of an id below this halves it no more */
} nic_src_t;

typedef struct {
  int n, vcs;
  int nics, routers;     /* NICs a router (node k: router k / nics, port k % nics) */
  nic_src_t *src;
  flit_t *inj_next;      /* next value of each node's injection register */
  uint64_t *active;      /* bit r: node r has a packet queued or in flight, a
                            router VC held, or a non-idle inj_next */
  scoreboard_t sb;
  uint64_t created, injected;
  uint64_t meas_created_flits;   /* flits of the packets created in the measurement window */
  const int *dist;       /* FAvORS-NMin: routers x routers hop distances (NULL: no route
                            header) */
  const struct topo_s *ugal;   /* UGAL: the dragonfly (NULL: not UGAL) */
  uint64_t mid_seed;     /* FAvORS-NMin, UGAL: the run seed the intermediate draw mixes in */
  int window;            /* injection window (contract 8): packets a node may
                            have in flight; 0 = no limit */
  int slack;             /* with a window of 2 or more: cycles a packet may
                            exceed its zero-load latency before it is late */
  int notice;            /* delivery notices (contract 8): a packet leaves its
                            node's window when the notice of its delivery
                            arrives, 3 + D(b, a) cycles later; 0: at delivery */
  int *zcyc;             /* window >= 2 or notices: routers x routers zero-load
                            cycle distances (topo_cycle_dist; owned) */
  uint64_t win_held;     /* node-cycles a packet was ready to start and the
                            window held it */
  uint64_t win_cuts, win_grows;   /* window of 2 or more: halvings, on-time deliveries */
  int cap;               /* with a window, the recovery throttle's limit (contract
                            8): 1 while it is on, a node starts a packet only
                            with none in flight; 0 none */
} nic_t;

/* Per-model ejection sink with its statistics. */
typedef struct {
  uint64_t id;
  uint8_t next;          /* next flit index expected; 0 = a head */
} sink_vc_t;

#define LAT_HIST 65536

typedef struct {
  int model, n, vcs;
  sink_vc_t *vc;         /* n * vcs */
  uint64_t delivered, flits;
  uint64_t meas_flits;   /* flits ejected inside the measurement window */
  uint64_t *src_flits;   /* per source node: its flits among meas_flits (fairness) */
  uint64_t meas_pkts;
  double lat_sum;
  uint64_t lat_max;
  uint32_t *hist;        /* latency histogram of the latencies below LAT_HIST */
  uint64_t *over;        /* the latencies of LAT_HIST cycles or more, each one
                            kept (rare: a jammed or overloaded run) */
  size_t n_over, cap_over;
  char err[256];         /* first protocol error, empty if none */
} sink_t;

int nic_init(nic_t *nic, int nodes, int vcs, int models);

/* Concentration: nics nodes a router (nodes / nics routers); 1 after
 * nic_init. */
void nic_concentrate(nic_t *nic, int nics);
void nic_free(nic_t *nic);

/* FAvORS-NMin (docs/microarchitecture.md, 4.3): every packet created from
 * now on gets a route header with an intermediate router drawn from its
 * number and `seed`; dist is the topology's routers x routers hop distance
 * table (kept, not copied).  The header's mid is that router's first node. */
void nic_route_header(nic_t *nic, const int *dist, uint64_t seed);

/* UGAL (4.5): every packet created from now on gets a route header whose
 * mid is the first node of the router where the global link from the
 * source's group to a random intermediate group lands, with the minimal and
 * the detour's hops; t is the dragonfly (kept, not copied). */
void nic_route_ugal(nic_t *nic, const struct topo_s *t, uint64_t seed);

/* The intermediate router of packet `id` from src to dst among n routers
 * (n >= 3, src != dst): uniform over the others, from a hash of (id, seed). */
unsigned nic_mid(uint64_t id, uint64_t seed, unsigned src, unsigned dst, unsigned n);

/* Injection window (contract 8): at most `window` packets a node in flight
 * (0: no limit).  With 2 or more the window tunes itself between 1 and
 * `window`: a node starts no packet while one of its packets in flight is
 * late (in flight longer than its zero-load latency plus `slack` cycles),
 * a late packet halves the node's window, a packet delivered on time grows
 * it by 1/window.  t gives the zero-load latencies.  Returns 0, or -1 when
 * out of memory. */
int nic_window(nic_t *nic, const struct topo_s *t, int window, int slack, int notice);

/* Queues a new packet created in `cycle` (traffic_emit_fn compatible via nic_emit_ctx). */
void nic_create(nic_t *nic, int src, int dst, int flits, uint64_t cycle, int measured);

/* Computes every injection register's next value in cycle `now` from the
 * credits the routers' NIC ports show in this cycle: node k reads
 * cred[(k / nics) * cred_stride + k % nics]. */
void nic_inject(nic_t *nic, const uint8_t *cred, int cred_stride, uint64_t now);
/* Window-gated admission (contract 6 and 8): 1 when node's window is cut to
 * half its maximum or less (or the window is not self-tuned, under 2). */
int nic_window_cut(const nic_t *nic, int node);

/* Packets created and not yet delivered by every model. */
static inline uint64_t nic_outstanding(const nic_t *nic)
{
  return nic->sb.next_id - nic->sb.oldest;
}

int sink_init(sink_t *s, int model, int nodes, int vcs);
void sink_free(sink_t *s);

/* Takes the flit on node r's ejection link in cycle `now`; measuring: inside
 * the measurement window.  Returns 0, or -1 with s->err set. */
int sink_eject(sink_t *s, nic_t *nic, int r, const flit_t *f, uint64_t now, int measuring);

/* The pct-th percentile of the measured latencies: the smallest latency
 * that at least pct percent of them do not exceed; exact at any value. */
double sink_percentile(const sink_t *s, double pct);

#endif
