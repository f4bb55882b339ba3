// spin_route_select_tb.cpp - rtl/spin_route_select.sv (combinational)
// against route_select() of cmodel/route_select.h (FAvORS-Min's least-busy
// fallback driven at random), and select_port() of cmodel/lfsr.h, with the
// candidate mask formed as route_select() does for spin_input_port_route()
// (cmodel/spin_input_port.c):
//   cand = mask & port_free; if (!cand) cand = mask;
//   port = select_port(cand, draw, &drew);
// Parameter: -DP_NumPorts=<P> (same as -GNumPorts=<P>).
//
// +cycles+N random vectors: non-zero masks of every density, port_free all
// ones, all zeros or random, draw random or at the edges of the k buckets;
// then, when the space is at most 2^24 vectors, every (mask != 0,
// port_free, draw) combination.  port_o and drew_o are compared for each.
// "cycle" in a failure message is the vector number.
#include "Vspin_route_select.h"
#include "unit_tb.h"

extern "C" {
#include "route_select.h"
}

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif
static_assert(P_NumPorts >= 2 && P_NumPorts <= 16, "route_select() handles up to 16 ports");

namespace {

const unsigned kPorts = P_NumPorts;
const unsigned kAll = (1u << kPorts) - 1u;

void apply(Bench<Vspin_route_select>& b, unsigned mask, unsigned port_free, unsigned draw,
           bool least_busy = false, const uint8_t* age = nullptr) {
  static const uint8_t kZero[16] = {0};
  if (!age) age = kZero;
  for (unsigned p = 0; p < kPorts; p++) put_bits(b->port_age_i, 8 * p, 8, age[p]);
  b->mask_i = mask;
  b->port_free_i = port_free;
  b->draw_i = draw;
  b->least_busy_i = least_busy;
  b.eval();
  unsigned cand = mask & port_free;
  int drew = 0;
  const unsigned port = route_select(mask, port_free, draw, least_busy, age, kPorts, &drew);
  auto inputs = [&] {
    std::string ages;   // port 0 first
    for (unsigned p = 0; p < kPorts; p++) ages += strf("%s%u", p ? " " : "", age[p]);
    return strf("mask_i=0x%x port_free_i=0x%x draw_i=%u least_busy_i=%d port_age_i={%s} (cand 0x%x)",
                mask, port_free, draw, least_busy, ages.c_str(), cand);
  };
  b.check("port_o", b->port_o, port, inputs);
  b.check("drew_o", b->drew_o, static_cast<unsigned>(drew), inputs);
}

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_route_select> b(argc, argv, "spin_route_select");
  Rng rng(b.seed());
  const uint64_t space = static_cast<uint64_t>(kAll) * (kAll + 1u) * 256u;
  const bool exhaustive = space <= (1u << 24);
  std::printf("spin_route_select NumPorts=%u seed=%u vectors=%" PRIu64 " random%s\n", kPorts,
              b.seed(), b.cycles(),
              exhaustive ? strf(" + %" PRIu64 " exhaustive", space).c_str() : "");

  uint64_t v = 0;
  for (; v < b.cycles(); v++) {
    b.set_cycle(v);
    unsigned mask;
    do {
      switch (rng.below(4)) {
        case 0: mask = 1u << rng.below(kPorts); break;
        case 1: mask = rng.u32() & rng.u32(); break;
        case 2: mask = rng.u32(); break;
        default: mask = rng.u32() | rng.u32(); break;
      }
      mask &= kAll;
    } while (!mask);
    unsigned port_free;
    switch (rng.below(4)) {
      case 0: port_free = kAll; break;
      case 1: port_free = 0; break;
      default: port_free = rng.u32() & kAll; break;
    }
    unsigned draw;
    if (rng.pct(25)) {  // next to a bucket edge: (d * n) >> 8 changes at d = 256 * j / n
      const unsigned n = 2 + rng.below(kPorts - 1);
      const unsigned j = 1 + rng.below(n - 1);
      const int d = static_cast<int>((256 * j + n - 1) / n) - 1 + static_cast<int>(rng.below(2));
      draw = static_cast<unsigned>(d) & 0xFFu;
    } else {
      draw = rng.u32() & 0xFFu;
    }
    uint8_t age[16];
    for (unsigned p = 0; p < kPorts; p++) {  // small values make ties frequent
      static const uint8_t kAges[] = {0, 1, 2, 7, 254, 255};
      age[p] = rng.pct(50) ? kAges[rng.below(6)] : static_cast<uint8_t>(rng.u32());
    }
    apply(b, mask, port_free, draw, rng.pct(50), age);
  }

  if (exhaustive) {
    for (unsigned mask = 1; mask <= kAll; mask++)
      for (unsigned port_free = 0; port_free <= kAll; port_free++)
        for (unsigned draw = 0; draw < 256; draw++) {
          b.set_cycle(v++);
          apply(b, mask, port_free, draw);
        }
  }
  b.finish(0);
}
