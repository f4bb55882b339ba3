/* spin_link_pipe.c - the registers a link of latency L > 1 adds
 * (docs/microarchitecture.md, section 1).  RTL twin: rtl/spin_link_pipe.sv.
 *
 * net_pipe_t (network.h) holds both directions of one such link as seen
 * from its reader: the flit words the peer's output sends and the credit
 * words the reader's output gets back, L - 1 registers each.  The RTL puts
 * one spin_link_pipe on each (Stages = L - 1).  A ring of stages entries,
 * oldest at head: each step gives out the oldest word pair and takes the
 * new one in its place, so a word goes in at step t and comes out at step
 * t + L - 1, as it leaves the RTL's last stage.  All stages idle and an idle
 * pair coming in: nothing is stored and nothing given out (the reader reads
 * an idle word), so an empty pipeline costs nothing; the ring's position
 * does not matter then.  datapath.h says how this file is compiled.
 */
#include "datapath.h"

/* One clock edge: d_f/d_c come in (the peer's registers), q_f/q_c receive
 * the pair that leaves (what the reader reads next cycle).  Returns 0 when
 * the pipeline was empty and fed an idle pair: q_f/q_c are not written and
 * read as idle; 1 otherwise. */
DP_FN int spin_link_pipe_step(net_pipe_t *pp, const flit_t *d_f, uint8_t d_c, flit_t *q_f,
                              uint8_t *q_c)
{
  const int h = pp->head;
  const int in_busy = CTL_KIND(d_f->ctl) != KIND_IDLE || d_c;
  int out_busy;
  if (!pp->held && !in_busy) return 0;
  out_busy = CTL_KIND(pp->flit[h].ctl) != KIND_IDLE || pp->cred[h];
  *q_f = pp->flit[h];
  *q_c = pp->cred[h];
  pp->flit[h] = *d_f;
  pp->cred[h] = d_c;
  pp->held += in_busy - out_busy;
  pp->head = h + 1 == pp->stages ? 0 : h + 1;
  return 1;
}
