/* spin_log.h - the record of the deadlocks SPIN resolved in a run: one entry
 * per recovery that spun.  The network opens it at the recovery's first
 * spin, with the loop walked along the spinning VCs (net_step; the messages
 * carry no path), and the FSM completes it when the recovery ends
 * (spin_fsm.c, finish); record.c turns it into deadlocks.json.
 * Statistics only: no register of the model reads it. */
#ifndef SPIN_SPIN_LOG_H
#define SPIN_SPIN_LOG_H

#include <stddef.h>
#include <stdint.h>

#define SPIN_LOG_MAX      10000  /* entries kept; the rest are only counted */

typedef struct {
  int source;                    /* the router that latched the loop */
  uint64_t detected;             /* the cycle it latched it (probe home or adopted) */
  uint64_t first_spin, last_spin;
  unsigned spins;
  int adopted;                   /* the loop came from another router's probe */
  int closed;                    /* the walk came back to the source's loop VC */
  unsigned len;                  /* hops walked */
  uint8_t *port;                 /* output port of each hop, from the source on */
} spin_log_entry_t;

typedef struct spin_log {
  spin_log_entry_t *e;
  size_t n, cap;                 /* entries kept, allocated */
  uint64_t total;                /* entries opened, kept or not */
  uint64_t spins;                /* spins of all of them */
} spin_log_t;

/* A new entry (spins 0; the ports are copied); its index, or -1 when it is
 * only counted (the record is full, or memory ran out). */
int64_t spin_log_open(spin_log_t *log, const spin_log_entry_t *e);
/* Entry i's recovery ended after `spins` spins, the last in cycle last. */
void spin_log_done(spin_log_t *log, int64_t i, unsigned spins, uint64_t last);
void spin_log_free(spin_log_t *log);

#endif
