/* spin_switch_alloc.c - the output stage of the separable switch
 * allocator.  RTL twin: rtl/spin_switch_alloc.sv.
 *
 * Each input port presents at most one request, for one output (stage 1,
 * spin_input_port.c, chose it).  Each output has a round-robin arbiter over
 * the input ports (arbiter.h); its pointer, out_ptr_q[o] of router.h, moves
 * to winner + 1 whenever it grants.  datapath.h says how this file is
 * compiled.
 */
#include "arbiter.h"
#include "datapath.h"

/* Input port p requests output o (req_i, req_port_i): a bit of oreq[o]. */
DP_FN void spin_switch_alloc_request(cycle_t *cw, cycle_bits_t *cb, int p, unsigned o)
{
  cw->oreq[o] |= (uint16_t)(1u << p);
  cb->requested |= 1u << o;
}

/* Output o's arbiter over its requests oreq (bit p: input p), with
 * pointer *out_ptr_q: the winner (win_o), -1 when none (win_valid_o); the
 * pointer moves past a winner. */
DP_FN int spin_switch_alloc_grant(uint8_t *out_ptr_q, unsigned oreq, unsigned P)
{
  const int w = rr_pick(oreq, *out_ptr_q, P);
  if (w >= 0) *out_ptr_q = (uint8_t)rr_next((unsigned)w, P);
  return w;
}
