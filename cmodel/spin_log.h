/* spin_log.h - the record of the deadlocks SPIN resolved in a run: one entry
 * per recovery that spun, written by the FSM when the recovery ends
 * (spin_fsm.c, finish) and turned into deadlocks.json by record.c.
 * Statistics only: no register of the model reads it. */
#ifndef SPIN_SPIN_LOG_H
#define SPIN_SPIN_LOG_H

#include <stddef.h>
#include <stdint.h>

#define SPIN_LOG_MAX      10000  /* entries kept; the rest are only counted */
#define SPIN_LOG_MAX_LOOP 64     /* hops kept of a loop (SPIN reaches 63) */

typedef struct {
  int source;                    /* the router that latched the loop */
  uint64_t detected;             /* the cycle it latched it (probe home or adopted) */
  uint64_t first_spin, last_spin;
  unsigned spins;
  int adopted;                   /* the loop came from another router's probe */
  unsigned len;                  /* hops */
  uint8_t port[SPIN_LOG_MAX_LOOP];   /* output port of each hop, from the source on */
} spin_log_entry_t;

typedef struct spin_log {
  spin_log_entry_t *e;
  size_t n, cap;                 /* entries kept, allocated */
  uint64_t total;                /* entries added, kept or not */
  uint64_t spins;                /* spins of all of them */
} spin_log_t;

void spin_log_add(spin_log_t *log, const spin_log_entry_t *e);
void spin_log_free(spin_log_t *log);

#endif
