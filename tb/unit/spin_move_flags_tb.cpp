// spin_move_flags_tb.cpp - rtl/spin_move_flags.sv (the two bits of the SPIN
// state each of the eight chained move managers tests) against its C twin,
// spin_move_flags() of cmodel/spin_move_flags.c, which the C move manager
// decides by.  Parameters: -DP_NumPorts, -DP_NumVcs (as -G...).
//
// Combinational: +cycles+N vectors.  Every vector: the router in any state,
// mostly free or frozen for one of a few senders (recovery bit, source,
// probe_move sent); a few VCs frozen, each routed to a random output; on
// each link a message from one of those senders (this router among them),
// and for each of the 2 x (NumPorts - 1) managers (slot k < NumPorts - 1:
// the probe_move of link k, else the move or kill_move of link
// k - NumPorts + 1) a kill_move or not and a random output, often one a
// frozen VC is routed to.  ok_o and blk_o of every manager are compared
// with the C function for the manager's class: a kill_move, else a
// probe_move in the first half of the slots and a move in the second.
#include "Vspin_move_flags.h"
#include "spin_mut_tb.h"

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif

namespace {

const int kPorts = P_NumPorts, kVcs = P_NumVcs;
const int kLinks = kPorts - 1, kSlots = 2 * kLinks;
const unsigned kNodes = 4, kIdW = 12;

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_move_flags> b(argc, argv, "spin_move_flags");
  Rng rng(b.seed());
  std::printf("spin_move_flags NumPorts=%d NumVcs=%d seed=%u vectors=%" PRIu64 "\n", kPorts, kVcs,
              b.seed(), b.cycles());
  uint64_t n_ok = 0, n_blk = 0;   // what the stimulus reached
  uint8_t op[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  for (uint64_t vec = 0; vec < b.cycles(); vec++) {
    b.set_cycle(vec);
    const unsigned id = rng.below(kNodes);

    spin_router_t s;
    draw_spin_state(rng, kNodes, &s);
    uint32_t frozen = 0;
    const int pct_frozen = rng.pct(30) ? 0 : 5 + static_cast<int>(rng.below(20));
    std::memset(op, 0, sizeof op);
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        op[p][v] = static_cast<uint8_t>(rng.below(kPorts));
        if (p == 0 || !rng.pct(pct_frozen)) continue;   // the NIC's port never freezes
        frozen |= 1u << (p * SPIN_MAX_VCS + v);
        s.frozen_q[p][v] = 1;
      }

    spin_ctx_t c;
    std::memset(&c, 0, sizeof c);
    c.ports = kPorts;
    c.vcs = kVcs;
    c.id = static_cast<int>(id);
    c.nodes = kNodes;
    c.out_port = op;

    const bool cnt_loaded = rng.pct(20);
    const uint32_t armed = static_cast<uint32_t>(rng.next()) & frozen;
    put_spin_mut(b->st_i, s, cnt_loaded, frozen, armed);
    put_bits(b->op_i, 0, 64, 0);
    put_bits(b->op_i, 64, 32, 0);
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) put_bits(b->op_i, 3 * (p * SPIN_MAX_VCS + v), 3, op[p][v]);

    unsigned snd[SPIN_MAX_PORTS], o[2 * SPIN_MAX_PORTS];
    bool kill[2 * SPIN_MAX_PORTS];
    unsigned own_bits = 0, kill_bits = 0;
    uint64_t o_bits = 0;
    for (int q = 0; q < kLinks; q++) {
      snd[q] = rng.pct(30) ? id : (rng.pct(40) ? s.source_id_q : rng.below(kNodes));
      put_bits(b->snd_i, static_cast<unsigned>(q) * kIdW, kIdW, snd[q]);
    }
    for (int k = 0; k < kSlots; k++) {
      kill[k] = k >= kLinks && rng.pct(40);
      // often an output a frozen VC is routed to
      const int fp = 1 + static_cast<int>(rng.below(kLinks)), fv = static_cast<int>(rng.below(kVcs));
      o[k] = rng.pct(40) ? op[fp][fv] : rng.below(kPorts);
      if (snd[k % kLinks] == id) own_bits |= 1u << k;
      if (kill[k]) kill_bits |= 1u << k;
      o_bits |= static_cast<uint64_t>(o[k]) << (3 * k);
    }
    b->own_i = own_bits;
    b->kill_i = kill_bits;
    put_bits(b->o_i, 0, 3 * kSlots, o_bits);
    b.eval();

    auto inputs = [&] {
      std::string snds;
      for (int q = 0; q < kLinks; q++) snds += strf("%s%u", q ? "," : "", snd[q]);
      return strf("state=%d is_deadlock=%u source=%u pm_sent=%u frozen=0x%x id=%u senders=%s "
                  "own=0x%x kill=0x%x o=0x%" PRIx64,
                  static_cast<int>(s.state_q), s.is_deadlock_q, s.source_id_q, s.pm_sent_q, frozen,
                  id, snds.c_str(), own_bits, kill_bits, o_bits);
    };
    unsigned ok_ref = 0, blk_ref = 0;
    for (int k = 0; k < kSlots; k++) {
      int ok, blk;
      const unsigned kind = kill[k] ? KIND_KILL_MOVE : (k < kLinks ? KIND_PROBE_MOVE : KIND_MOVE);
      spin_move_flags(&s, &c, 1 + k % kLinks, kind, snd[k % kLinks], o[k], &ok, &blk);
      ok_ref |= static_cast<unsigned>(ok != 0) << k;
      blk_ref |= static_cast<unsigned>(blk != 0) << k;
    }
    b.check("ok_o", b->ok_o, ok_ref, inputs);
    b.check("blk_o", b->blk_o, blk_ref, inputs);
    n_ok += static_cast<uint64_t>(__builtin_popcount(ok_ref));
    n_blk += static_cast<uint64_t>(__builtin_popcount(blk_ref));
  }
  std::printf("stimulus: %" PRIu64 " ok bits, %" PRIu64 " blk bits set of %" PRIu64 " each\n", n_ok,
              n_blk, b.cycles() * static_cast<uint64_t>(kSlots));
  b.finish(0);
}
