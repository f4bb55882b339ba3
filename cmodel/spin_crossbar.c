/* spin_crossbar.c - switch traversal: each output takes the flit of the
 * input that won it and the downstream VC stamped into it.  RTL twin:
 * rtl/spin_crossbar.sv.  The winner is the switch allocator's, or for a
 * spin flit the SPIN unit's (it names the input and the VC).
 * datapath.h says how this file is compiled.
 */
#include "datapath.h"

/* One output: the winning input's flit in with the downstream VC ovc in
 * its VC field; an idle word when no input won the output (in NULL). */
DP_FN void spin_crossbar(const flit_t *in, unsigned ovc, flit_t *out)
{
  if (!in) {
    out->data = out->ext = 0;
    out->ctl = KIND_IDLE;
    return;
  }
  out->data = in->data;
  out->ext = in->ext;
  out->ctl = (uint8_t)(((unsigned)in->ctl & ~(3u << 5)) | (ovc & 3u) << 5);
}
