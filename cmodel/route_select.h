/* route_select.h - choosing one output port from a route mask (C twin of
 * rtl/spin_route_select.sv; docs/microarchitecture.md, section 4).
 *
 * cand = mask & port_free.  When that is empty: with least_busy (FAvORS-Min)
 * the port of mask with the smallest port_age (lowest port on a tie), and no
 * draw; otherwise cand = mask.  One candidate: taken, no draw.  n > 1: the
 * ((draw * n) >> 8)-th candidate, and *drew = 1.
 */
#ifndef SPIN_ROUTE_SELECT_H
#define SPIN_ROUTE_SELECT_H

#include <stdint.h>
#include "lfsr.h"

static inline unsigned route_select(unsigned mask, unsigned port_free, unsigned draw,
                                    int least_busy, const uint8_t *port_age, unsigned ports,
                                    int *drew)
{
  unsigned cand = mask & port_free;
  if (!cand && least_busy) {
    unsigned o, best = 0, best_age = 256;
    for (o = 0; o < ports; o++)
      if ((mask & (1u << o)) && port_age[o] < best_age) {
        best_age = port_age[o];
        best = o;
      }
    *drew = 0;
    return best;
  }
  return select_port(cand ? cand : mask, draw, drew);
}

#endif
