/* diag.h - figures of the summary that say why a run went as it did
 * (docs/usage.md, "The summary").  Statistics only: no register of the
 * model reads them, and the RTL has no twin.
 *
 * Loops standing (diag_loops): the dependency loops among the network's
 * waiting VCs, from the network as it is (the summary takes them when the
 * run ends: none when it drained).  A network input VC *waits* when its
 * front flit is a head routed to a network output, it is not spinning, and
 * every VC of the downstream input port is busy (allocated, as its router's
 * output sees it); it waits for those VCs.  A loop is a set of VCs that wait
 * on each other: a strongly connected part of that graph of two VCs or more
 * (with 1 VC a VC waits for one VC, and a loop is a cycle).  Its hops are its
 * VCs; its cycles the sum, over them, of the hop a special message takes
 * into each (L + SmPipe, contract 12.1), which is what a probe round the
 * loop counts with 1 VC.  A loop of more cycles than CycMax is beyond the
 * reach of the messages' widths (12.9): no probe can bring it home.
 *
 * Failed links (diag_faults_note when faults apply, diag_faults_step after
 * each cycle's step, contract 4.4): packets whose head crossed a link in the cycle it
 * failed or later (it had been routed to the link before: the link keeps
 * carrying what was committed to it), and packets whose head had been
 * routed to a failed link and left its router by another output (routed
 * again, 4.2: the live mode's rerouting).
 */
#ifndef SPIN_DIAG_H
#define SPIN_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include "faults.h"
#include "network.h"

#define DIAG_LOOPS_KEPT 64   /* loops described one by one; the rest are only counted */

typedef struct {
  int r, p, v;               /* a network input VC: router, input port, VC */
  int out;                   /* the output its head is routed to */
} diag_vc_t;

typedef struct {
  unsigned hops;             /* VCs in the loop */
  uint64_t cycles;           /* sum of L + SmPipe over its hops */
  unsigned frozen;           /* of its VCs, frozen by SPIN (a recovery under way) */
  diag_vc_t *vc;             /* its VCs: with 1 VC in the order they wait, from the
                                lowest router's; otherwise by router, port, VC */
} diag_loop_t;

typedef struct {
  uint64_t loops;            /* loops standing */
  uint64_t beyond_reach;     /* of those, longer than CycMax cycles (SPIN on) */
  uint64_t longest_hops, longest_cycles;   /* the longest by cycles (hops of that one) */
  uint64_t waiting;          /* network input VCs waiting, in a loop or not */
  size_t kept;               /* loops in loop[] (the first DIAG_LOOPS_KEPT) */
  diag_loop_t loop[DIAG_LOOPS_KEPT];
} diag_loops_t;

/* The loops standing in net now.  Returns 0, or -1 when out of memory
 * (*out then counts nothing).  diag_loops_free releases the VCs kept. */
int diag_loops(diag_loops_t *out, const network_t *net);
void diag_loops_free(diag_loops_t *d);

/* Waiting behind a front (diag_behind): a *front* is a network input port
 * that some waiting VC waits for and that holds a VC that does not wait (its
 * packet moves: it streams, ejects, or is still on the link, or the VC is
 * empty with its credit on the way back).  A waiting VC is *behind* a front
 * when a chain of waiting VCs leads from it to that front.  When a run does
 * not drain and no loop stands, the packets still move, too slowly to drain
 * in time, and the front most VCs wait behind is where (the summary's
 * "waiting behind").  The link into a front is given from its upstream
 * side: router r's output o, to router r2's input p2. */
typedef struct {
  uint64_t fronts;           /* fronts in the network */
  uint64_t behind;           /* waiting VCs behind one front or more, each once */
  uint64_t most;             /* waiting VCs behind the front below */
  int r, o, r2, p2;          /* its link (r = -1 when there is no front): the front
                                with the most VCs behind it, then the longest link,
                                then the lowest (r2, p2) */
  unsigned latency;          /* that link's latency, cycles */
} diag_behind_t;

/* The fronts of net now (diag_behind_t).  Returns 0, or -1 when out of
 * memory (*out then counts nothing). */
int diag_behind(diag_behind_t *out, const network_t *net);

typedef struct {
  uint64_t crossed;          /* heads that crossed a failed link */
  uint64_t rerouted;         /* heads routed to a failed link that left by another output */
  /* state: per router, the failed outputs (bit p), and per input VC the
   * packet (id + 1; 0 none) whose head was routed to one of them */
  int n, ports, vcs;
  uint8_t *failed;
  uint32_t *watch;
  int *ends;                 /* routers with a failed output ... */
  int n_ends;                /* ... and how many */
  int applied;               /* faults taken into failed[] */
} diag_faults_t;

/* In a cycle whose faults have just applied (their tables built, before
 * the step): takes them in and notes the heads routed to a failed output.
 * Returns 0, or -1 when out of memory (the counts stop there). */
int diag_faults_note(diag_faults_t *d, const network_t *net, const faults_t *fs);
/* After the step of every cycle: counts the heads that left a router at the
 * end of a failed link by a failed output (crossed) or, routed to one
 * before, by another (rerouted), and notes the heads now routed to a failed
 * output.  Nothing before the first fault. */
int diag_faults_step(diag_faults_t *d, const network_t *net);
void diag_faults_free(diag_faults_t *d);

#endif
