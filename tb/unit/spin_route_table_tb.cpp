// spin_route_table_tb.cpp - rtl/spin_route_table.sv (combinational: one
// router's routing table, a lookup per input port) against its C twin,
// spin_route_table() of cmodel/spin_route_table.c (from the C model's
// library), on the same rows.  Parameters: -DP_NumNodes=<N>
// -DP_NumPorts=<P> -DP_EntryW=<P or 2P> (same as -G); with EntryW = 2P the
// entry is escape routing's {mask_e, mask_a}, two rows on the C side.
//
// +cycles+N random vectors: every 256 vectors a new table (masks of every
// density, 0 included); each port's destination inside the network, at its
// edges (0, N - 1), or outside it (N up to 65535: no port).  Every port's
// mask_o is compared.
#include "Vspin_route_table.h"
#include "unit_tb.h"

extern "C" {
#include "datapath.h"
}

#if !defined(P_NumNodes) || !defined(P_NumPorts) || !defined(P_EntryW)
#error "P_NumNodes, P_NumPorts and P_EntryW must be defined"
#endif
static_assert(P_EntryW == P_NumPorts || P_EntryW == 2 * P_NumPorts, "EntryW: P or 2P");
static_assert(P_NumPorts <= 8, "a row entry is a byte");

namespace {

const unsigned kNodes = P_NumNodes, kPorts = P_NumPorts, kEntryW = P_EntryW;
const bool kEscape = P_EntryW == 2 * P_NumPorts;

unsigned random_dst(Rng& rng) {
  switch (rng.below(8)) {
  case 0: return 0;
  case 1: return kNodes - 1;
  case 2: return kNodes + rng.below(65536 - kNodes);   // outside the network
  case 3: return 65535;
  default: return rng.below(kNodes);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_route_table> b(argc, argv, "spin_route_table");
  Rng rng(b.seed());
  std::printf("spin_route_table NumNodes=%u NumPorts=%u EntryW=%u seed=%u vectors=%" PRIu64 "\n",
              kNodes, kPorts, kEntryW, b.seed(), b.cycles());
  static port_mask_t rows_a[P_NumNodes], rows_e[P_NumNodes];   // the C twin's rows
  uint64_t outside = 0;
  for (uint64_t n = 0; n < b.cycles(); n++) {
    b.set_cycle(n);
    if (n % 256 == 0) {
      for (unsigned d = 0; d < kNodes; d++) {
        rows_a[d] = static_cast<port_mask_t>(rng.u32() & ((1u << kPorts) - 1u));
        rows_e[d] = static_cast<port_mask_t>(kEscape ? rng.u32() & ((1u << kPorts) - 1u) : 0);
        put_bits(b->table_i, d * kEntryW, kPorts, rows_a[d]);
        if (kEscape) put_bits(b->table_i, d * kEntryW + kPorts, kPorts, rows_e[d]);
      }
    }
    unsigned dst[8];
    for (unsigned p = 0; p < kPorts; p++) {
      dst[p] = random_dst(rng);
      put_bits(b->dst_i, 16 * p, 16, dst[p]);
      outside += dst[p] >= kNodes;
    }
    b.eval();
    for (unsigned p = 0; p < kPorts; p++) {
      const uint64_t ref = spin_route_table(rows_a, kNodes, dst[p]) |
                           (kEscape ? spin_route_table(rows_e, kNodes, dst[p]) << kPorts : 0u);
      b.check(strf("mask_o[%u]", p).c_str(), get_bits(b->mask_o, p * kEntryW, kEntryW), ref,
              [&] { return strf("dst_i[%u]=%u (table %u nodes)", p, dst[p], kNodes); });
    }
  }
  std::printf("coverage: %" PRIu64 " lookups outside the network\n", outside);
  b.finish(0);
}
