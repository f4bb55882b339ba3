/* throttle.h - the recovery throttle (contract 8): a network-wide rule that
 * holds injection back while SPIN is busy recovering from deadlocks.
 *
 * Time runs in epochs of E cycles.  A cycle counts when some router of the
 * network is in a recovery (its counter FSM past DD).  At the first cycle of
 * each epoch the throttle turns on when more than E / 8 cycles of the epoch
 * before counted, and, once on, turns off after an epoch in which none did.
 * While it is on, every NIC keeps at most one packet in flight and every
 * router applies injection admission and occupancy admission (contract 6).
 *
 * Measured reason (docs/results.md, "The recovery throttle"): a 1-VC mesh
 * with failed links past saturation forms deadlocks faster than SPIN
 * resolves them when every node keeps several packets in flight, and
 * falls to two thirds of its peak; with one packet a node and admission
 * it forms far fewer and keeps its peak. */
#ifndef SPIN_THROTTLE_H
#define SPIN_THROTTLE_H

#include <stdint.h>

/* --throttle's bounds: 0 (off) or an epoch of THROTTLE_MIN..THROTTLE_MAX cycles. */
#define THROTTLE_MIN 16u
#define THROTTLE_MAX 1048576u

typedef struct {
  uint64_t epoch;        /* E cycles; 0: the throttle is off */
  uint64_t index;        /* the epoch of the last cycle stepped (now / E) */
  uint64_t count;        /* cycles of that epoch in which a router recovered */
  int on;
  uint64_t on_cycles;    /* statistics: cycles stepped with the throttle on */
  uint64_t turned_on;    /* statistics: times it turned on */
} throttle_t;

void throttle_init(throttle_t *t, uint64_t epoch);

/* Cycle now (stepped in increasing order; cycles skipped in between are
 * idle: nothing recovers in them); recovering: some router is in a recovery
 * in cycle now.  Returns whether the throttle is on in cycle now. */
int throttle_step(throttle_t *t, uint64_t now, int recovering);

#endif
