/* bits.h - the lowest set bit of a mask, shared by the arbiters, the route
 * selection, the router step and the NICs. */
#ifndef SPIN_BITS_H
#define SPIN_BITS_H

#include <stdint.h>

/* Index of the lowest set bit of m; m is not 0. */
static inline unsigned low_bit64(uint64_t m)
{
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(m);
#else
  unsigned b = 0;
  while (!(m & 1u)) {
    m >>= 1;
    b++;
  }
  return b;
#endif
}

static inline unsigned low_bit(unsigned m)
{
#if defined(__GNUC__)
  return (unsigned)__builtin_ctz(m);
#else
  return low_bit64(m);
#endif
}

#endif
