/* lfsr.h - the per-router pseudo-random source of the contract (C twin of
 * rtl/spin_lfsr.sv and of the selection in rtl/spin_route_select.sv).
 *
 * 32-bit Galois LFSR, right shift, toggle mask 0xD0000001
 * (x^32 + x^31 + x^29 + x + 1, maximal length 2^32 - 1).
 * Seed of router r for run seed s:  (s[31:0] ^ (r * 0x9E3779B9)) mod 2^32,
 * replaced by 1 when it is 0.  The LFSR steps once at the end of every cycle
 * in which at least one input port of the router drew a value; otherwise it
 * holds.  Port p draws the byte  rotr32(lfsr, (5 * p) mod 32)[7:0].
 */
#ifndef SPIN_LFSR_H
#define SPIN_LFSR_H

#include <stdint.h>
#include "bits.h"

#define LFSR_TOGGLE 0xD0000001u
#define LFSR_ID_MIX 0x9E3779B9u

static inline uint32_t lfsr_step(uint32_t s)
{
  return (s >> 1) ^ ((0u - (s & 1u)) & LFSR_TOGGLE);
}

static inline uint32_t lfsr_seed(uint64_t run_seed, unsigned router_id)
{
  uint32_t s = (uint32_t)run_seed ^ (uint32_t)(router_id * LFSR_ID_MIX);
  return s ? s : 1u;
}

static inline unsigned lfsr_draw(uint32_t s, unsigned port)
{
  unsigned k = (5u * port) & 31u;
  uint32_t r = k ? ((s >> k) | (s << (32u - k))) : s;
  return r & 0xFFu;
}

static inline unsigned popcount8(unsigned m)
{
  /* bit-parallel count (no popcnt instruction in baseline x86-64) */
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  m = (m + (m >> 4)) & 0x0F0F0F0Fu;
  return (m * 0x01010101u) >> 24;
}

/* The k-th (0-based, from bit 0 up) set bit of m; m has more than k bits set. */
static inline unsigned nth_set_bit(unsigned m, unsigned k)
{
  for (; k; k--) m &= m - 1u;   /* drop the k lowest set bits */
  return low_bit(m);
}

/* Picks one port of a non-empty candidate mask.  With one candidate no value
 * is drawn (*drew = 0); with n > 1 the draw byte d picks the
 * ((d * n) >> 8)-th candidate and *drew = 1. */
static inline unsigned select_port(unsigned cand, unsigned draw, int *drew)
{
  unsigned n;
  if (!(cand & (cand - 1u))) {   /* one candidate */
    *drew = 0;
    return nth_set_bit(cand, 0);
  }
  n = popcount8(cand);
  *drew = 1;
  return nth_set_bit(cand, (draw * n) >> 8);
}

#endif
