/* record.h - the run's record as JSON files, for the pictures of
 * scripts/pictures.py (docs/usage.md, "The run's record"):
 *   deadlocks.json  every deadlock SPIN resolved: source router, cycles of
 *                   detection and spins, the loop as routers and ports
 *   links.json      flits carried by every directed network link
 * The network must have been recording (net_record) since reset. */
#ifndef SPIN_RECORD_H
#define SPIN_RECORD_H

#include "sim.h"

/* Each returns 0, or -1 when the file cannot be written. */
int record_deadlocks_json(const char *path, const sim_t *s);
int record_links_json(const char *path, const sim_t *s);

#endif
