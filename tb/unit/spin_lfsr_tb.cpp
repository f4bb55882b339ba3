// spin_lfsr_tb.cpp - rtl/spin_lfsr.sv against lfsr_seed/lfsr_step of
// cmodel/lfsr.h.
//
// The first reset loads seed 0, which must give state 1.  Then every cycle
// step_i is random (rate changing by phases: never, half, always) and
// seed_i is random (it must be ignored outside reset); state_o is compared
// with the C state, which steps with lfsr_step() when step_i is high.
// Resets recur (about every 2000 cycles) with seeds 0, 1, all ones, the MSB,
// the toggle mask, router seeds lfsr_seed(s, id) and random values; the C
// state is reloaded with lfsr_seed(seed, 0), i.e. the seed, 0 replaced by 1,
// as router_reset() does.
#include "Vspin_lfsr.h"
#include "unit_tb.h"

extern "C" {
#include "lfsr.h"
}

int main(int argc, char** argv) {
  Bench<Vspin_lfsr> b(argc, argv, "spin_lfsr");
  Rng rng(b.seed());
  std::printf("spin_lfsr seed=%u cycles=%" PRIu64 "\n", b.seed(), b.cycles());

  uint32_t state;  // C twin state
  unsigned step_pct = 50;
  uint64_t resets = 0;
  int prev_step = -1;  // step_i at the previous edge (-1: that edge was a reset)

  auto do_reset = [&](uint32_t seed) {
    b->seed_i = seed;
    b->step_i = rng.u32() & 1u;  // ignored during reset
    b.reset(1 + rng.below(3));
    state = lfsr_seed(seed, 0);
    resets++;
    prev_step = -1;
    b.check("state_o after reset", b->state_o, state,
            [&] { return strf("reset with seed_i=0x%08x", seed); });
  };

  b->clk_i = 0;
  do_reset(0);
  b.check("state_o after reset with seed 0", b->state_o, 1u,
          [&] { return std::string("reset with seed_i=0x00000000"); });

  for (uint64_t c = 0; c < b.cycles(); c++) {
    if (c % 128 == 0) {
      const unsigned rates[] = {0, 50, 100, 100};
      step_pct = rates[rng.below(4)];
    }
    if (rng.below(2000) == 0) {
      uint32_t seed;
      switch (rng.below(7)) {
        case 0: seed = 0; break;
        case 1: seed = 1; break;
        case 2: seed = 0xFFFFFFFFu; break;
        case 3: seed = 0x80000000u; break;
        case 4: seed = LFSR_TOGGLE; break;
        case 5: seed = lfsr_seed(rng.next(), rng.below(256)); break;
        default: seed = rng.u32(); break;
      }
      do_reset(seed);
    }

    const unsigned step = rng.pct(step_pct) ? 1u : 0u;
    const uint32_t seed_noise = rng.u32();
    b->step_i = step;
    b->seed_i = seed_noise;
    b.eval();
    b.check("state_o", b->state_o, state, [&] {
      return strf("step_i=%u seed_i=0x%08x, step_i at the previous edge=%d", step, seed_noise,
                  prev_step);
    });

    if (step) state = lfsr_step(state);
    prev_step = static_cast<int>(step);
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " resets\n", resets);
  b.finish(0);
}
