/* arbiter.h - round-robin arbiter (C twin of rtl/spin_rr_arbiter.sv).
 *
 * N requesters, a pointer ptr in [0, N).  The winner is the first requester
 * found scanning ptr, ptr+1, ..., N-1, 0, ..., ptr-1.  The pointer moves to
 * winner + 1 (mod N) only in a cycle where the caller says the grant was
 * used (update); otherwise it holds.
 */
#ifndef SPIN_ARBITER_H
#define SPIN_ARBITER_H

#include "bits.h"

/* Returns the winner, or -1 when req is 0.  req bit i = requester i. */
static inline int rr_pick(unsigned req, unsigned ptr, unsigned n)
{
  unsigned i;
  if (!req) return -1;
  if (ptr < n && n < 32) {
    /* the scan from ptr up finds the lowest request at or above ptr;
     * without one, it wraps round to the lowest request */
    unsigned all = req & ((1u << n) - 1u), up = all & (~0u << ptr);
    if (!all) return -1;
    return (int)low_bit(up ? up : all);
  }
  for (i = 0; i < n; i++) {
    unsigned c = ptr + i;
    if (c >= n) c -= n;
    if (req & (1u << c)) return (int)c;
  }
  return -1;
}

static inline unsigned rr_next(unsigned winner, unsigned n)
{
  return winner + 1u == n ? 0u : winner + 1u;
}

#endif
