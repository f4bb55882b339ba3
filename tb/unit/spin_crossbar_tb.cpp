// spin_crossbar_tb.cpp - rtl/spin_crossbar.sv (combinational switch
// traversal) against its C twin, spin_crossbar() of cmodel/spin_crossbar.c
// (from the C model's library), called for each output with the flit of the
// input that won it (NULL when none did) and the output's downstream VC.
// Parameters: -DP_NumPorts=<P> -DP_FlitW=<W> (same as -G).
//
// +cycles+N random vectors: a random link word on every input (every kind,
// head and tail bit and VC, data of any FlitW bits); each output won or not
// (win_valid_i, at rates from none to all), by any input (win_i, several
// outputs often by the same one), with any VC (ovc_i).  Every output's
// whole link word is compared.
#include "Vspin_crossbar.h"
#include "link_tb.h"

extern "C" {
#include "datapath.h"
}

#if !defined(P_NumPorts) || !defined(P_FlitW)
#error "P_NumPorts and P_FlitW must be defined"
#endif

namespace {

const unsigned kPorts = P_NumPorts;
const unsigned kPortW = clog2u(kPorts);

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_crossbar> b(argc, argv, "spin_crossbar");
  Rng rng(b.seed());
  std::printf("spin_crossbar NumPorts=%u FlitW=%d seed=%u vectors=%" PRIu64 "\n", kPorts, P_FlitW,
              b.seed(), b.cycles());
  uint64_t outputs = 0;
  for (uint64_t n = 0; n < b.cycles(); n++) {
    b.set_cycle(n);
    flit_t in[MAX_PORTS];
    unsigned valid = 0, win[MAX_PORTS], ovc[MAX_PORTS], ovc_bits = 0;
    uint64_t win_bits = 0;   // 16 ports of 4 bits: 64
    const unsigned valid_pct = rng.pct(10) ? 0 : rng.pct(10) ? 100 : 50;
    const unsigned one = rng.below(kPorts);   // the input many outputs take
    for (unsigned p = 0; p < kPorts; p++) {
      in[p].data = rng.next();
      in[p].ext = rng.next();
      in[p].ctl = CTL_MAKE(rng.below(8), rng.below(2), rng.below(2), rng.below(4));
      in[p] = link_trim(in[p], P_FlitW);
      put_link(b->in_flit_i, p, P_FlitW, in[p]);
    }
    for (unsigned o = 0; o < kPorts; o++) {
      if (rng.pct(valid_pct)) valid |= 1u << o;
      win[o] = rng.pct(30) ? one : rng.below(kPorts);
      ovc[o] = rng.below(4);
      win_bits |= static_cast<uint64_t>(win[o]) << (o * kPortW);
      ovc_bits |= ovc[o] << (2 * o);
    }
    b->win_valid_i = valid;
    b->win_i = win_bits;
    b->ovc_i = ovc_bits;
    b.eval();
    auto inputs = [&] {
      std::string s = strf("win_valid_i=0x%x win_i=0x%" PRIx64 " ovc_i=0x%x; inputs:", valid,
                           win_bits, ovc_bits);
      for (unsigned p = 0; p < kPorts; p++) s += strf("\n    %u %s", p, flit_str(in[p]).c_str());
      return s;
    };
    for (unsigned o = 0; o < kPorts; o++) {
      flit_t out;
      spin_crossbar(valid >> o & 1u ? &in[win[o]] : nullptr, ovc[o], &out);
      check_flit(b, strf("out_flit_o[%u]", o).c_str(), get_link(b->out_flit_o, o, P_FlitW), out,
                 inputs);
      outputs += valid >> o & 1u;
    }
  }
  std::printf("coverage: %" PRIu64 " outputs won\n", outputs);
  b.finish(0);
}
