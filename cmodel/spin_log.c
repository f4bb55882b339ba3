/* spin_log.c - the record of resolved deadlocks (spin_log.h). */
#include <stdlib.h>
#include <string.h>
#include "spin_log.h"

void spin_log_add(spin_log_t *log, const spin_log_entry_t *e)
{
  log->total++;
  log->spins += e->spins;
  if (log->n == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 64;
    spin_log_entry_t *ne;
    if (log->n >= SPIN_LOG_MAX) return;
    if (cap > SPIN_LOG_MAX) cap = SPIN_LOG_MAX;
    ne = realloc(log->e, cap * sizeof *ne);
    if (!ne) return;             /* out of memory: counted, not kept */
    log->e = ne;
    log->cap = cap;
  }
  memcpy(&log->e[log->n++], e, sizeof *e);
}

void spin_log_free(spin_log_t *log)
{
  free(log->e);
  memset(log, 0, sizeof *log);
}
