/* faults.h - links that fail while the network runs (contract, section 4.4).
 *
 * A fault takes one bidirectional link out of the routing tables from a
 * given cycle on, as a real network's failover does: the tables of every
 * router are recomputed for the topology without the failed links (the ones
 * failed before included).  The link itself keeps carrying what was already
 * committed to it (routed heads, their packets, credits, SPIN messages).
 *
 * Specification (spinsim --faults, make FAULTS=; one --faults per run):
 *   CYCLE@R:P[,CYCLE@R:P...]   inline: at cycle CYCLE the link at router R
 *                              port P fails (either end names the link)
 *   file:PATH                  a file of lines "CYCLE R:P"; '#' starts a
 *                              comment, of any length; blank lines are
 *                              skipped
 * Before the run, faults_check refuses a stage (the faults of one cycle)
 * that disconnects the network, or leaves the routing function without a
 * route (XY or west-first on a mesh), naming the fault, without building a
 * table: connectivity from one union-find pass over the stages in reverse
 * order, routability from the ports left at the routers of the stage's
 * links.  A stage's tables are built when it applies (faults_apply, at its
 * cycle), into the network's own tables: a run holds one reduced topology
 * beside them, whatever the number of faults, and builds nothing for the
 * faults after its end.
 */
#ifndef SPIN_FAULTS_H
#define SPIN_FAULTS_H

#include <stddef.h>
#include <stdint.h>
#include "topology.h"

#define FAULTS_MAX 256   /* faults per run */

typedef struct {
  uint64_t cycle;        /* the first cycle whose route computations avoid the link */
  int r, p;              /* one end of the link, as given */
  int line;              /* file: its line; inline: its position, from 1 */
} fault_t;

typedef struct {
  int n;                 /* faults, in cycle order (ties: as given) */
  fault_t f[FAULTS_MAX];
  int stages;            /* distinct cycles */
  uint64_t at[FAULTS_MAX];   /* stage i applies at cycle at[i] */
  int last[FAULTS_MAX];      /* stage i covers faults [.. last[i]] */
  int next;              /* the next stage to apply */
  const char *path;      /* file:PATH's path (the caller's string), or NULL: inline */
  route_fn_t fn;         /* faults_check: the routing function of the tables */
  int esc;               /* faults_check: also the escape VC's west-first tables */
  int have_red;          /* red holds the topology less the stages applied */
  topo_t red;
} faults_t;

/* Parses spec against topology t.  Returns 0, or -1 with a message naming
 * the file and line (or the inline item) in err. */
int faults_parse(const char *spec, const topo_t *t, faults_t *fs, char *err, size_t errlen);

/* Checks, before the run, every stage against routing function fn on
 * topology t (and, when esc, the escape VC's west-first function), as
 * building its tables would: returns 0, or -1 with the message the first
 * failing table would give, naming the fault of the stage after which the
 * network is disconnected or unroutable ("FILE:LINE: with the links failed
 * by cycle C: ...").  Builds no table; remembers fn and esc for
 * faults_apply. */
int faults_check(faults_t *fs, const topo_t *t, route_fn_t fn, int esc, char *err,
                 size_t errlen);

/* Applies the next stage: takes its links out of the reduced topology (a
 * copy of t made at the first stage) and writes the tables of every router
 * into masks (routers x routers, index r*N+d) and, with esc, masks_esc.
 * Returns 0, or -1 with a message (out of memory; a stage faults_check
 * accepted routes).  Nothing to apply: 0, tables untouched. */
int faults_apply(faults_t *fs, const topo_t *t, port_mask_t *masks, port_mask_t *masks_esc, char *err,
                 size_t errlen);

/* The cycle of the next stage, or UINT64_MAX when none is left. */
static inline uint64_t faults_next_cycle(const faults_t *fs)
{
  return fs->next < fs->stages ? fs->at[fs->next] : UINT64_MAX;
}

/* Faults applied so far (those of the stages before next). */
static inline int faults_applied(const faults_t *fs)
{
  return fs->next ? fs->last[fs->next - 1] + 1 : 0;
}

void faults_free(faults_t *fs);

#endif
