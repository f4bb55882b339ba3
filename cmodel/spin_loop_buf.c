/* spin_loop_buf.c - the loop buffer (docs/microarchitecture.md, 12.3): the
 * loop that the router's own probe brought back, or that it adopted from
 * another router's probe.  RTL twin: rtl/spin_loop_buf.sv. */
#include "spin.h"

void loop_latch(loop_buf_t *l, unsigned cyc, unsigned port0, unsigned fk0, const sm_t *forks)
{
  l->cyc_q = cyc;
  l->port0_q = (uint8_t)port0;
  l->fk0_q = (uint8_t)fk0;
  l->fork_lo_q = forks->fork_lo;
  l->fork_hi_q = forks->fork_hi;
}

/* The recovery ended: the loop is forgotten (its first port and fork
 * entries are kept, unread, as in the RTL). */
void loop_clear(loop_buf_t *l)
{
  l->cyc_q = 0;
}
