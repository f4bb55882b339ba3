// spin_switch_alloc_tb.cpp - rtl/spin_switch_alloc.sv (the output stage of
// switch allocation) against its C twin, cmodel/spin_switch_alloc.c (from
// the C model's library): spin_switch_alloc_request() for each input's
// request, then spin_switch_alloc_grant() for each output, on the pointers
// out_ptr_q[o] of router_t.  Parameter: -DP_NumPorts=<P> (same as -G).
//
// Every cycle each input requests (req_i) one output (req_port_i) or not;
// the request rate and how many outputs the requests spread over (one hot
// output, two, or any) change by phases, so outputs see from no request to
// every input at once.  win_valid_o and win_o of every output, and gnt_o of
// every input, are compared with the C grant; the pointers move as the C
// grant moves them, and only there.  Rare resets.
#include "Vspin_switch_alloc.h"
#include "unit_tb.h"

extern "C" {
#include "datapath.h"
}

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif
static_assert(P_NumPorts >= 2 && P_NumPorts <= MAX_PORTS, "the router has 2 to 16 ports");

namespace {

const unsigned kPorts = P_NumPorts;
const unsigned kPortW = clog2u(kPorts);

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_switch_alloc> b(argc, argv, "spin_switch_alloc");
  Rng rng(b.seed());
  std::printf("spin_switch_alloc NumPorts=%u seed=%u cycles=%" PRIu64 "\n", kPorts, b.seed(),
              b.cycles());

  uint8_t out_ptr_q[MAX_PORTS] = {};   // the C twin's registers
  unsigned req_pct = 50, spread = 0, hot = 0;
  uint64_t contended = 0, wins = 0;
  std::string prev = "reset";

  b->clk_i = 0;
  b->req_i = rng.u32() & ((1u << kPorts) - 1u);
  b.reset(3);

  for (uint64_t c = 0; c < b.cycles(); c++) {
    if (c % 64 == 0) {
      const unsigned rates[] = {10, 50, 90, 100};
      req_pct = rates[rng.below(4)];
      spread = rng.below(3);
      hot = rng.below(kPorts);
    }
    if (rng.below(10000) == 0) {
      b->req_i = rng.u32() & ((1u << kPorts) - 1u);
      b.reset(1 + rng.below(3));
      for (uint8_t& p : out_ptr_q) p = 0;
      prev = "reset";
    }
    unsigned req = 0, port[MAX_PORTS] = {};
    uint64_t req_port = 0;   // 16 ports of 4 bits: 64
    cycle_t cw;
    cycle_bits_t cb;
    std::memset(&cw, 0, sizeof cw);
    std::memset(&cb, 0, sizeof cb);
    for (unsigned p = 0; p < kPorts; p++) {
      port[p] = spread == 0 ? hot : spread == 1 ? (hot + rng.below(2)) % kPorts : rng.below(kPorts);
      if (rng.pct(req_pct)) {
        req |= 1u << p;
        spin_switch_alloc_request(&cw, &cb, static_cast<int>(p), port[p]);
      } else if (rng.pct(50)) {
        port[p] = rng.below(1u << kPortW);   // an idle input's port field: anything
      }
      req_port |= static_cast<uint64_t>(port[p]) << (p * kPortW);
    }
    b->req_i = req;
    b->req_port_i = req_port;
    b.eval();

    auto now = [&] { return strf("req_i=0x%x req_port_i=0x%" PRIx64, req, req_port); };
    auto inputs = [&] { return now() + "; previous edge: " + prev; };
    int win[MAX_PORTS];
    unsigned win_valid = 0, gnt = 0;
    for (unsigned o = 0; o < kPorts; o++) {
      win[o] = spin_switch_alloc_grant(&out_ptr_q[o], cw.oreq[o], kPorts);
      if (win[o] >= 0) win_valid |= 1u << o;
      contended += (cw.oreq[o] & (cw.oreq[o] - 1u)) != 0;
    }
    for (unsigned p = 0; p < kPorts; p++)
      if ((req >> p & 1u) && win[port[p]] == static_cast<int>(p)) gnt |= 1u << p;
    b.check("win_valid_o", b->win_valid_o, win_valid, inputs);
    for (unsigned o = 0; o < kPorts; o++)
      if (win[o] >= 0)
        b.check(strf("win_o[%u]", o).c_str(), get_bits(b->win_o, o * kPortW, kPortW),
                static_cast<uint64_t>(win[o]), inputs);
    b.check("gnt_o", b->gnt_o, gnt, inputs);
    wins += static_cast<unsigned>(__builtin_popcount(gnt));

    prev = now();
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " contended outputs, %" PRIu64 " grants\n", contended, wins);
  b.finish(0);
}
