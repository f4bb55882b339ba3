/* traffic.h - synthetic traffic patterns and trace files.
 *
 * A generator creates packets at the sources; the NIC model (nic.h) queues
 * them and injects them.  Synthetic patterns inject a Bernoulli process per
 * node at `rate` flits/node/cycle: a node creates a packet in a cycle with
 * probability rate / mean_len, where mean_len = 1 + 4 * long_frac
 * (long packets have PKT_LONG_FLITS flits, short ones 1).  Patterns and the
 * trace format are defined in docs/traffic.md.
 *
 * The generator owns its pseudo-random stream (a 64-bit PRNG seeded from the
 * run seed); it is not the router LFSR of the contract.  Same seed, same
 * topology, same arguments: same packets, in both the standalone simulator
 * and the co-simulation.
 */
#ifndef SPIN_TRAFFIC_H
#define SPIN_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>
#include "topology.h"

#define PKT_SHORT_FLITS 1
#define PKT_LONG_FLITS  5
#define PKT_MAX_FLITS   5

/* The largest cycle a trace may name, and the largest --cycles, --warmup and
 * --drain-limit: 10^15.  Any cycle of a run then fits in 64 bits with room
 * to spare (no overflow of now + 1 or of a sum of two limits), and is exact
 * in a double (below 2^53), as JSON readers hold numbers. */
#define SIM_MAX_CYCLE 1000000000000000ull

typedef enum {
  TRAFFIC_UNIFORM_RANDOM = 0,
  TRAFFIC_TRANSPOSE,
  TRAFFIC_BIT_COMPLEMENT,
  TRAFFIC_BIT_REVERSE,
  TRAFFIC_BIT_ROTATION,
  TRAFFIC_SHUFFLE,
  TRAFFIC_TORNADO,
  TRAFFIC_NEIGHBOR,
  TRAFFIC_GROUP_SHIFT,   /* dragonfly: a random node of the next group */
  TRAFFIC_HOTSPOT,
  TRAFFIC_TRACE
} traffic_kind_t;

/* Called once per created packet.  Within a cycle: synthetic patterns in
 * increasing source order, traces in file order. */
typedef void (*traffic_emit_fn)(void *ctx, int src, int dst, int flits);

typedef struct traffic traffic_t;   /* opaque */

/* spec: a pattern name (docs/traffic.md), "hotspot" or "hotspot:NODE",
 * or "trace:PATH".  rate: flits/node/cycle, from 0 up to mean_len (one packet
 * per node per cycle; ignored for traces).
 * long_frac: fraction of packets that are long, in [0, 1] (ignored for traces).
 * Returns NULL with a one-line message in err on bad input (unknown pattern,
 * pattern that needs a power-of-two node count, trace syntax error with
 * file:line, rate out of range, ...). */
traffic_t *traffic_new(const char *spec, const topo_t *topo, double rate,
                       double long_frac, uint64_t seed,
                       char *err, size_t errlen);

/* The same for a trace in memory (len bytes; name stands for the file in
 * messages): the trace parser's entry point for tests and fuzzing. */
traffic_t *traffic_trace_buf(const char *name, const char *buf, size_t len,
                             const topo_t *topo, char *err, size_t errlen);

/* Creates the packets of cycle `cycle`; returns how many were emitted.
 * Must be called with cycle = 0, 1, 2, ... (none repeated); a cycle before
 * traffic_next_cycle() creates nothing and changes nothing, so it may be
 * skipped. */
int traffic_tick(traffic_t *tg, uint64_t cycle, traffic_emit_fn emit, void *ctx);

/* The cycle of the next packet traffic_tick will emit (no packet is due
 * before it), or UINT64_MAX when none is left. */
uint64_t traffic_next_cycle(const traffic_t *tg);

/* A trace with no packet left to emit; synthetic patterns never are. */
int traffic_exhausted(const traffic_t *tg);

traffic_kind_t traffic_kind(const traffic_t *tg);

/* Destination of `src` under a permutation pattern (uniform_random, hotspot
 * and traces are not permutations: -1).  A node mapped to itself does not
 * inject. */
int traffic_perm_dest(const traffic_t *tg, int src);

void traffic_free(traffic_t *tg);

#endif
