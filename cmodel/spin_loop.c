/* spin_loop.c - the loop buffer (docs/microarchitecture.md, 12.2): the
 * length and path of the loop that the router's own probe brought back.
 * RTL twin: rtl/spin_loop_buf.sv. */
#include "spin.h"

void loop_latch(loop_buf_t *l, unsigned n, sm_path_t path)
{
  l->n_q = (uint8_t)n;
  l->path_q = path;
}

/* The recovery ended: the loop is forgotten (its path is kept, unread, as
 * in the RTL). */
void loop_clear(loop_buf_t *l)
{
  l->n_q = 0;
}

unsigned loop_port(const loop_buf_t *l, unsigned i)
{
  return path_get(l->path_q, i);
}
