// spin_link_pipe_tb.cpp - rtl/spin_link_pipe.sv (the registers of a link of
// latency Stages + 1, one direction) against its C twin,
// spin_link_pipe_step() of cmodel/spin_link_pipe.c (from the C model's
// library), on a net_pipe_t of Stages entries: the network's step gives it
// the sender's new register value and reads what it gives out in the next
// cycle, so the word the C pipeline gives out at step t is what the RTL's
// q_o shows during cycle t.  Parameters: -DP_Width=<W> -DP_Stages=<S> (same
// as -G): Width = FlitW + 7 carries link words (the C pipeline's flit,
// credit 0), Width = 6 credit words (its credit, flit idle).
//
// Stimulus: legal words, either idle (all zero) or not (a flit or special
// message of random data, or a non-zero credit word), in phases from all
// idle (the C pipeline then stops stepping) through bursts to all busy.
// q_o is compared every cycle (an idle word where the C pipeline did not
// step).  Rare resets.
#include "Vspin_link_pipe.h"
#include "link_tb.h"

extern "C" {
#include "datapath.h"
}

#if !defined(P_Width) || !defined(P_Stages)
#error "P_Width and P_Stages must be defined"
#endif
static_assert(P_Stages >= 1 && P_Stages <= 1023, "links of 2 to 1,024 cycles");

namespace {

const bool kCred = P_Width == 6;   // a credit word, else a link word
const unsigned kFlitW = kCred ? 0 : P_Width - 7;
static_assert(P_Width == 6 || (P_Width >= 23 && P_Width <= 135), "a credit or a link word");

struct pipe_c {
  flit_t flit[P_Stages];
  uint8_t cred[P_Stages];
  net_pipe_t pp;
  pipe_c() { reset(); }
  void reset() {
    std::memset(flit, 0, sizeof flit);
    std::memset(cred, 0, sizeof cred);
    std::memset(&pp, 0, sizeof pp);
    pp.stages = P_Stages;
    pp.flit = flit;
    pp.cred = cred;
  }
};

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_link_pipe> b(argc, argv, "spin_link_pipe");
  Rng rng(b.seed());
  std::printf("spin_link_pipe Width=%d Stages=%d seed=%u cycles=%" PRIu64 "\n", P_Width, P_Stages,
              b.seed(), b.cycles());
  pipe_c c;
  unsigned busy_pct = 50;
  uint64_t skipped = 0;
  std::string prev = "reset";
  static const flit_t kIdle = {0, 0, KIND_IDLE};

  b->clk_i = 0;
  put_bits(b->d_i, 0, P_Width, 0);
  b.reset(3);
  for (uint64_t n = 0; n < b.cycles(); n++) {
    if (n % 64 == 0) {
      const unsigned rates[] = {0, 5, 50, 95, 100};
      busy_pct = rates[rng.below(5)];
    }
    if (rng.below(10000) == 0) {
      b.reset(1 + rng.below(3));
      c.reset();
      prev = "reset";
    }
    flit_t d_f = kIdle;
    uint8_t d_c = 0;
    if (rng.pct(busy_pct)) {
      if (kCred) {
        d_c = static_cast<uint8_t>(1 + rng.below(63));
      } else {
        d_f.data = rng.next();
        d_f.ext = rng.next();
        d_f.ctl = CTL_MAKE(1 + rng.below(5), rng.below(2), rng.below(2), rng.below(4));
        d_f = link_trim(d_f, kFlitW);
      }
    }
    if (kCred) put_bits(b->d_i, 0, P_Width, d_c);
    else put_link(b->d_i, 0, kFlitW, d_f);
    b.eval();

    flit_t q_f = kIdle;
    uint8_t q_c = 0;
    skipped += !spin_link_pipe_step(&c.pp, &d_f, d_c, &q_f, &q_c);
    auto now = [&] {
      return kCred ? strf("d_i=0x%x", d_c) : strf("d_i=%s", flit_str(d_f).c_str());
    };
    auto inputs = [&] { return now() + "; previous edge: " + prev; };
    if (kCred) b.check("q_o", get_bits(b->q_o, 0, P_Width), q_c, inputs);
    else check_flit(b, "q_o", get_link(b->q_o, 0, kFlitW), q_f, inputs);
    prev = now();
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " cycles the C pipeline did not step\n", skipped);
  b.finish(0);
}
