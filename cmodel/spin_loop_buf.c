/* spin_loop_buf.c - the loop buffer (docs/microarchitecture.md, 12.2): the
 * loop that the router's own probe brought back, or that it adopted from
 * another router's probe.  RTL twin: rtl/spin_loop_buf.sv. */
#include "spin.h"

void loop_latch(loop_buf_t *l, unsigned n, unsigned start, unsigned cyc, sm_path_t path)
{
  l->n_q = (uint8_t)n;
  l->start_q = (uint8_t)start;
  l->cyc_q = (uint8_t)cyc;
  l->port0_q = (uint8_t)path_get(path, start);
  l->path_q = path;
}

/* The recovery ended: the loop is forgotten (its path and first port are
 * kept, unread, as in the RTL). */
void loop_clear(loop_buf_t *l)
{
  l->n_q = 0;
  l->start_q = 0;
  l->cyc_q = 0;
}

unsigned loop_port(const loop_buf_t *l, unsigned i)
{
  return i ? path_get(l->path_q, l->start_q + i) : l->port0_q;
}

unsigned loop_len(const loop_buf_t *l)
{
  return (unsigned)l->n_q - l->start_q;
}
