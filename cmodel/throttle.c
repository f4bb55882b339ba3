/* throttle.c - the recovery throttle (throttle.h, contract 8). */
#include "throttle.h"

void throttle_init(throttle_t *t, uint64_t epoch)
{
  t->epoch = epoch;
  t->index = t->count = 0;
  t->on = 0;
  t->on_cycles = t->turned_on = 0;
}

int throttle_step(throttle_t *t, uint64_t now, int recovering)
{
  uint64_t k;
  if (!t->epoch) return 0;
  k = now / t->epoch;
  if (k != t->index) {   /* the first cycle of epoch k: decide from epoch index */
    const int was = t->on;
    t->on = t->on ? t->count != 0 : 8u * t->count > t->epoch;
    if (k > t->index + 1u) t->on = 0;   /* a whole epoch skipped: none recovered in it */
    if (t->on && !was) t->turned_on++;
    t->index = k;
    t->count = 0;
  }
  if (recovering) t->count++;
  if (t->on) t->on_cycles++;
  return t->on;
}
