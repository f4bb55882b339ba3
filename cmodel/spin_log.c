/* spin_log.c - the record of resolved deadlocks (spin_log.h). */
#include <stdlib.h>
#include <string.h>
#include "spin_log.h"

int64_t spin_log_open(spin_log_t *log, const spin_log_entry_t *e)
{
  spin_log_entry_t *d;
  log->total++;
  if (log->n == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 64;
    spin_log_entry_t *ne;
    if (log->n >= SPIN_LOG_MAX) return -1;
    if (cap > SPIN_LOG_MAX) cap = SPIN_LOG_MAX;
    ne = realloc(log->e, cap * sizeof *ne);
    if (!ne) return -1;          /* out of memory: counted, not kept */
    log->e = ne;
    log->cap = cap;
  }
  d = &log->e[log->n];
  *d = *e;
  d->spins = 0;
  d->port = malloc(e->len ? e->len : 1);
  if (!d->port) return -1;
  memcpy(d->port, e->port, e->len);
  return (int64_t)log->n++;
}

void spin_log_done(spin_log_t *log, int64_t i, unsigned spins, uint64_t last)
{
  log->spins += spins;
  if (i < 0 || (size_t)i >= log->n) return;
  log->e[i].spins = spins;
  log->e[i].last_spin = last;
}

void spin_log_free(spin_log_t *log)
{
  size_t i;
  for (i = 0; i < log->n; i++) free(log->e[i].port);
  free(log->e);
  memset(log, 0, sizeof *log);
}
