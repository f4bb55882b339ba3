/* spin_fifo.c - the FIFO of one input VC.  RTL twin: rtl/spin_fifo.sv.
 *
 * Registers rd_q (the front slot) and cnt_q (entries held); depth slots of
 * storage, which reset leaves as they were.  A push writes slot
 * (rd_q + cnt_q) mod depth, a pop moves rd_q on by one (wrapping at depth),
 * the front is slot rd_q.  In a cycle that does both, the RTL writes the
 * slot of the cycle's registers; the router pops first and pushes after,
 * which writes the same slot (the pop moves rd_q up by one and cnt_q down
 * by one).  The caller never pushes a full FIFO nor pops an empty one
 * (spin_fifo.sv asserts it).  datapath.h says how this file is compiled.
 */
#include "datapath.h"

/* The front entry (rdata_o), valid while cnt_q > 0. */
DP_FN flit_t spin_fifo_front(const spin_fifo_t *f)
{
  const unsigned s = *f->rd_q;
  flit_t w;
  w.data = f->data[s];
  w.ext = (*f->ext_nz >> s) & 1u ? f->ext[s] : 0;
  w.ctl = f->ctl[s];
  return w;
}

/* The front entry's ctl byte alone (its kind, head, tail and VC). */
DP_FN unsigned spin_fifo_front_ctl(const spin_fifo_t *f)
{
  return f->ctl[*f->rd_q];
}

/* Drops the front entry; returns the entries left. */
DP_FN unsigned spin_fifo_pop(spin_fifo_t *f)
{
  *f->rd_q = (uint8_t)(*f->rd_q + 1u == f->depth ? 0u : *f->rd_q + 1u);
  return --*f->cnt_q;
}

/* Writes w behind the last entry. */
DP_FN void spin_fifo_push(spin_fifo_t *f, const flit_t *w)
{
  unsigned s = (unsigned)*f->rd_q + *f->cnt_q;
  if (s >= f->depth) s -= f->depth;
  f->data[s] = w->data;
  f->ctl[s] = w->ctl;
  if (w->ext) {
    f->ext[s] = w->ext;
    *f->ext_nz = (uint8_t)(*f->ext_nz | 1u << s);
  } else if (*f->ext_nz & (1u << s)) {
    *f->ext_nz = (uint8_t)(*f->ext_nz & ~(1u << s));
  }
  ++*f->cnt_q;
}
