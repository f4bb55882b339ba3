/* sim.h - one simulation run: topology, traffic, NICs, the C network model,
 * and the phases (warm-up, measurement, drain).  Used by the standalone
 * simulator (spinsim.c) and by the co-simulation harness (tb/), which steps
 * the RTL between sim_cycle_pre() and sim_cycle_post().
 *
 * Cycle t:  sim_cycle_pre   a link failure due at cycle t replaces the
 *                           routing tables (built then: faults.h);
 *                           traffic creates the packets of cycle t; the
 *                           NICs compute their next injection registers
 *           net_step        the C network (and the RTL, in co-simulation)
 *                           takes one clock edge
 *           sim_cycle_post  the injection registers advance; the sink takes
 *                           the ejection registers (visible in cycle t+1)
 */
#ifndef SPIN_SIM_H
#define SPIN_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "faults.h"
#include "network.h"
#include "nic.h"
#include "throttle.h"
#include "topology.h"
#include "traffic.h"

/* sim_opts_t.tdd values that name a rule instead of a threshold (a
 * threshold is 2 or more). */
#define SIM_TDD_AUTO  0u
#define SIM_TDD_COVER 1u

typedef struct {
  const char *topo;          /* topology name (topology.h) */
  const char *traffic;       /* pattern or trace:PATH */
  route_algo_t algo;
  int vcs;
  double rate;               /* flits/node/cycle */
  double long_frac;          /* fraction of 5-flit packets */
  uint64_t cycles;           /* injection window, warm-up included */
  uint64_t warmup;           /* cycles before measurement starts */
  uint64_t drain_limit;      /* cycles allowed for draining after injection */
  uint64_t seed;
  int spin;                  /* SPIN deadlock recovery */
  unsigned tdd;              /* SPIN detection threshold; SIM_TDD_AUTO or SIM_TDD_COVER:
                                a rule (sim_auto_tdd, sim_cover_tdd), which sim_init
                                resolves in its copy of the options */
  const char *tdd_rule;      /* set by sim_init: the rule that chose tdd, "auto" or
                                "cover"; NULL when given */
  router_mode_t mode;        /* live-mode mechanisms (all on) or the paper's (all off) */
  sm_opts_t sm;              /* SPIN: SmPipe and the messages' widths (0: the network's) */
  const char *faults;        /* run-time link failures (faults.h), or NULL */
} sim_opts_t;

typedef enum { SIM_RUNNING = 0, SIM_DRAINED, SIM_STUCK, SIM_ERROR } sim_status_t;

typedef struct {
  sim_opts_t o;
  topo_t topo;
  traffic_t *tg;
  network_t net;
  nic_t nic;
  sink_t sink;               /* the C model's sink (model 0) */
  uint64_t now;              /* the cycle being simulated */
  uint64_t inject_end;       /* first cycle without injection */
  uint64_t skipped;          /* idle cycles skipped (sim_idle_skip) */
  faults_t faults;           /* run-time link failures (tables built at each
                                stage's cycle) */
  diag_faults_t diag;        /* statistics: packets across and around failed links
                                (diag.h) */
  throttle_t thr;            /* the recovery throttle (contract 8) */
  int tables_changed;        /* sim_cycle_pre replaced the tables: the RTL's
                                follow before it is clocked (co-simulation) */
  int admit_set;             /* sim_cycle_pre set the routers' admission (window-gated
                                admission, or the recovery throttle turning on or
                                off): the RTL's follow before it is clocked */
  int failed;                /* sim_cycle_pre could not build a stage's tables
                                (s->err): sim_cycle_post fails the cycle */
  char err[512];
} sim_t;

/* The library's defaults: the live router's local rules (admission,
 * rerouting, adoption, SmPipe 2), no injection window, no early credits. */
void sim_defaults(sim_opts_t *o);
/* The live mode (LIVE 1: window-gated admission, rerouting, adoption, SmPipe
 * 2, the NICs' window of 1 to 4 with a slack of 8 and early credits;
 * contract 13) or the paper's router (0: all off, SmPipe 0). */
void sim_set_mode(sim_opts_t *o, int live);

/* The t_DD of --tdd auto (contract 12.3): the hop diameter times the longest
 * link's latency, at least 128 (the paper's) and at most 32768, so that the
 * rotating priority's epoch, 4 t_DD, outlasts the round trip of a loop's
 * special messages over long links. */
unsigned sim_auto_tdd(const topo_t *t);
/* --tdd cover (contract 12.3): 128, or ceil(C / 3) where more, for C =
 * loop, the longest loop the network can form (sm_loop_bound: each network
 * VC once, L + S cycles a hop); sim_init refuses more than 32768. */
uint64_t sim_cover_tdd(uint64_t loop);
/* --tdd's argument: "auto" (SIM_TDD_AUTO), "cover" (SIM_TDD_COVER) or a
 * threshold of 2..32768 into *tdd; -1 for anything else. */
int sim_tdd_parse(const char *s, unsigned *tdd);
/* The threshold tdd (a value, SIM_TDD_AUTO or SIM_TDD_COVER) gives on
 * topology t with vcs VCs and SmPipe sm_pipe into *out, and the rule that
 * chose it ("auto", "cover" or NULL) into *rule; -1 with the reason in err
 * when cover needs more than 32768. */
int sim_tdd_resolve(const topo_t *t, int vcs, int sm_pipe, unsigned tdd, unsigned *out,
                    const char **rule, char *err, size_t errlen);
const char *algo_name(route_algo_t a);
int algo_parse(const char *s, route_algo_t *a);

/* models: 1 (C only) or 2 (C and RTL; the RTL sink is the caller's). */
int sim_init(sim_t *s, const sim_opts_t *o, int models);
void sim_free(sim_t *s);

/* Synthetic traffic is injected for o.cycles cycles; a trace until its last
 * packet, and at least o.cycles cycles. */
static inline int sim_injecting(const sim_t *s)
{
  return s->now < s->o.cycles ||
         (traffic_kind(s->tg) == TRAFFIC_TRACE && !traffic_exhausted(s->tg));
}
static inline int sim_measuring(const sim_t *s)
{
  return s->now >= s->o.warmup && s->now < s->o.cycles;
}

/* Deliveries in the current cycle count toward measured throughput: the
 * window (warmup, cycles]. */
static inline int sim_counting(const sim_t *s)
{
  return s->now > s->o.warmup && s->now <= s->o.cycles;
}

void sim_cycle_pre(sim_t *s);
/* Returns -1 when the sink found a protocol error, or sim_cycle_pre could
 * not build a stage's tables (message in s->err). */
int sim_cycle_post(sim_t *s);

/* After a cycle: running, drained (injection over, nothing outstanding), or
 * stuck (drain limit reached with packets outstanding). */
sim_status_t sim_status(const sim_t *s);

/* Skips a long idle stretch at once, exactly as if each of its cycles had
 * been simulated (contract, section 10): called before sim_cycle_pre, when
 * the whole network is idle it jumps to the cycle of the next packet (at
 * most to `limit`), without stepping the network cycle by cycle.  With SPIN
 * on it skips whole periods of the rotating priority (4 t_DD N cycles) only.
 * Returns the number of cycles skipped (0 when the network is busy or the
 * next packet is near); a co-simulation does not clock the RTL for them. */
uint64_t sim_idle_skip(sim_t *s, uint64_t limit);

/* Runs the C model alone to the end, idle stretches skipped. */
sim_status_t sim_run(sim_t *s);

#endif
