/* spin_ovc_tracker.c - which downstream VCs of one output port are free,
 * and since when each is busy.  RTL twin: rtl/spin_ovc_tracker.sv.
 *
 * Registers (router.h): ovc_busy_q[o], bit v set while downstream VC v is
 * taken, and ovc_age_q[o][v], the cycles it has been busy (0 when free,
 * saturating at 255; only FAvORS reads them, so the router updates them only
 * under FAvORS).  A VC becomes busy when a head is sent into it (set) and
 * free when its credit comes back (network outputs) or, at the ejection
 * output, when its tail is sent: the NIC never stalls (clr).
 * datapath.h says how this file is compiled.
 */
#include "bits.h"
#include "datapath.h"

/* The free VCs (free_o); any of them: any_free_o. */
DP_FN unsigned spin_ovc_tracker_free(unsigned busy_q, unsigned all_vcs)
{
  return all_vcs & ~busy_q;
}

/* The lowest free VC (first_free_o), 0 when none is. */
DP_FN unsigned spin_ovc_tracker_first_free(unsigned busy_q, unsigned all_vcs)
{
  const unsigned m = all_vcs & ~busy_q;
  return m ? low_bit(m) : 0u;
}

/* The lowest free VC above VC 0 (first_free_a_o: escape routing's adaptive
 * VCs), 0 when none is. */
DP_FN unsigned spin_ovc_tracker_first_free_a(unsigned busy_q, unsigned all_vcs)
{
  const unsigned m = all_vcs & ~1u & ~busy_q;
  return m ? low_bit(m) : 0u;
}

/* The least age of the VCs (min_age_o: FAvORS's measure of contention). */
DP_FN unsigned spin_ovc_tracker_min_age(const uint8_t *age_q, int V)
{
  unsigned best = 255;
  int v;
  for (v = 0; v < V; v++)
    if (age_q[v] < best) best = age_q[v];
  return best;
}

/* min_age_o of each of the router's P outputs, into port_age. */
DP_FN void spin_ovc_tracker_ages(const router_t *r, int P, int V, uint8_t *port_age)
{
  int o;
  for (o = 0; o < P; o++) port_age[o] = (uint8_t)spin_ovc_tracker_min_age(r->ovc_age_q[o], V);
}

/* The VC a credit word frees (credit_i of a network output): a bit to clear. */
DP_FN unsigned spin_ovc_tracker_credit(unsigned cred)
{
  return CRED_VALID(cred) ? 1u << CRED_VC(cred) : 0u;
}

/* The clock edge: busy VCs (set, a head went in; clr, freed) and, with
 * ages, their ages: a free VC's is 0, one taken this cycle starts at 0 (with
 * early credits it may have been busy until this cycle), the others count
 * up to 255. */
DP_FN void spin_ovc_tracker_next(uint8_t *busy_q, uint8_t *age_q, unsigned set, unsigned clr,
                                 int ages, int V)
{
  const unsigned b = ((unsigned)*busy_q | set) & ~clr;
  int v;
  *busy_q = (uint8_t)b;
  if (!ages) return;
  for (v = 0; v < V; v++) {
    if (!(b & (1u << v)) || (set & (1u << v))) age_q[v] = 0;
    else if (age_q[v] < 255) age_q[v]++;
  }
}

/* k clock edges with nothing set or freed (the network skipped the router:
 * nothing buffered or arriving), at once: each busy VC's age grows by k. */
DP_FN void spin_ovc_tracker_skip(unsigned busy_q, uint8_t *age_q, uint64_t k, int V)
{
  int v;
  for (v = 0; v < V; v++)
    if (busy_q & (1u << v)) age_q[v] = (uint8_t)(age_q[v] + k >= 255 ? 255 : age_q[v] + k);
}
