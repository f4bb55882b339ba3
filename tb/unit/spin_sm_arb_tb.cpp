// spin_sm_arb_tb.cpp - rtl/spin_sm_arb.sv (combinational: the special
// message one output carries) against its C twins in cmodel/spin_sm_arb.c:
// spin_offer(), offered the same words in the same order, with a probe
// manager's copy getting this output in its newest path entry as
// spin_probe_in() writes it (path_put), then spin_onto_link() for the winner (a longer link's extra cycles: contract
// 12.1).
// Parameters: -DP_NumPorts=<P> -DP_Out=<o> (the same as -G...).
//
// +cycles+N random vectors: each offer valid or not, of every class, from
// senders that often tie in priority, with any n, delay and path; the
// output busy with a spin flit now and then; the link's xlat 0 to 15.
// valid_o and all 131 bits of offer_o are compared.
#include "Vspin_sm_arb.h"
#include "unit_tb.h"

extern "C" {
#include "spin.h"
}

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif
#ifndef P_Out
#error "P_Out must be defined"
#endif

namespace {

const int kPorts = P_NumPorts;
const int kOffers = kPorts + 1;   // [0], [1]: the FSM; [1 + p]: input port p
const unsigned kOfferW = 3 + 128;
const unsigned kPrioW = 13;

flit_t random_sm(Rng& rng, int nodes) {
  static const unsigned kinds[] = {KIND_PROBE, KIND_MOVE, KIND_PROBE_MOVE, KIND_KILL_MOVE};
  sm_path_t path;
  path.lo = rng.next();
  path.hi = rng.next() & 0xFFFFFFFFull;
  if (rng.pct(50)) path.lo = path.hi = 0;   // a clean path: the entry write is seen
  return sm_make(kinds[rng.below(4)], rng.below(static_cast<unsigned>(nodes)), rng.below(64),
                 rng.below(128), rng.below(64), path);
}

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_sm_arb> b(argc, argv, "spin_sm_arb");
  Rng rng(b.seed());
  std::printf("spin_sm_arb NumPorts=%d Out=%d seed=%u vectors=%" PRIu64 "\n", kPorts, P_Out,
              b.seed(), b.cycles());
  for (uint64_t v = 0; v < b.cycles(); v++) {
    b.set_cycle(v);
    // few nodes: equal priorities (ties broken by source) are common
    const int nodes = rng.pct(50) ? 2 + static_cast<int>(rng.below(3)) : 64;
    const unsigned tdd = 2 + rng.below(64);
    const uint64_t cycle = rng.next() >> 20;
    const bool busy = rng.pct(10);
    const unsigned xlat = rng.pct(40) ? 0 : rng.below(16);
    flit_t w[kOffers];
    unsigned valid = 0;
    spin_ctx_t c;
    spin_stats_t st;
    std::memset(&c, 0, sizeof c);
    std::memset(&st, 0, sizeof st);
    c.ports = kPorts;
    c.nodes = nodes;
    c.tdd = tdd;
    c.cycle = cycle;
    c.out_busy = busy ? 1u << P_Out : 0u;
    for (int k = 0; k < kOffers; k++) {
      w[k] = random_sm(rng, nodes);
      if (rng.pct(45)) valid |= 1u << k;
      put_bits(b->offer_i, k * kOfferW, 64, w[k].data);
      put_bits(b->offer_i, k * kOfferW + 64, 64, w[k].ext);
      put_bits(b->offer_i, k * kOfferW + 128, 3, CTL_KIND(w[k].ctl));
      // the unit's key (spin_pkg::sm_prio_key): {sender <= top, sender}; the C
      // model's spin_offer ranks by spin_prio, so the two orders are compared
      const uint64_t snd = sm_sender(&w[k]);
      const uint64_t top = static_cast<uint64_t>(spin_top(cycle, tdd, nodes));
      put_bits(b->prio_i, k * kPrioW, kPrioW, (static_cast<uint64_t>(snd <= top) << 12) | snd);
      b->rank_i = (b->rank_i & ~(3u << (2 * k))) |
                  static_cast<unsigned>(sm_rank(CTL_KIND(w[k].ctl))) << (2 * k);
    }
    b->valid_i = valid;
    b->busy_i = busy;
    b->xlat_i = xlat;
    b.eval();
    // the C model's order: the FSM's two offers, then ports 1..P-1
    for (int k = 0; k < kOffers; k++) {
      if (!((valid >> k) & 1u)) continue;
      flit_t x = w[k];
      if (k >= 2 && CTL_KIND(x.ctl) == KIND_PROBE && sm_n(&x) >= 1) {   // spin_probe_in's copy
        x = sm_make(KIND_PROBE, sm_sender(&x), sm_n(&x), sm_delay(&x), sm_idx(&x),
                    path_put(sm_path(&x), sm_n(&x) - 1u, P_Out));
      }
      spin_offer(&c, P_Out, &x, k < 2 ? kPorts : k - 1, &st);
    }
    const bool ref_valid = c.offer[P_Out].rank != 0;
    flit_t ref;
    std::memset(&ref, 0, sizeof ref);
    if (ref_valid) {
      ref = c.offer[P_Out].w;
      spin_onto_link(&ref, xlat);
    }
    auto inputs = [&] {
      return strf("valid_i=0x%x busy_i=%d xlat_i=%u nodes=%d top=%d", valid, busy, xlat, nodes,
                  spin_top(cycle, tdd, nodes));
    };
    b.check("valid_o", b->valid_o, ref_valid, inputs);
    b.check("offer_o[63:0]", get_bits(b->offer_o, 0, 64), ref_valid ? ref.data : 0, inputs);
    b.check("offer_o[127:64]", get_bits(b->offer_o, 64, 64), ref_valid ? ref.ext : 0, inputs);
    b.check("offer_o kind", get_bits(b->offer_o, 128, 3), ref_valid ? CTL_KIND(ref.ctl) : 0,
            inputs);
  }
  b.finish(0);
}
