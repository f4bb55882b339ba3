// spin_move_mgr_tb.cpp - rtl/spin_move_mgr.sv (the move manager of one input
// port and one message class) against its C twin: spin_move_in() of
// cmodel/spin_move_mgr.c for another router's move, probe_move or kill_move,
// spin_move_through() for this router's own one half way round a figure 8,
// as spin_unit_pre calls them.  Parameters: -DP_NumPorts,
// -DP_NumVcs, -DP_Port, -DP_Rank (as -G...).
//
// Combinational: +cycles+N vectors.  Every vector: a message of any kind
// (mostly of the instance's class) from a few senders, this router among
// them, with n, idx and delay around the edges that matter (idx >= n,
// delay < 2, path entries past the recorded 32); the router in any state,
// mostly free or frozen for one of those senders; a few VCs frozen or
// spinning; the VCs at the port empty, unrouted, or fronting whole or
// partial packets bound for random outputs, often the message's next one.
// The instance tests two bits of the state (rtl/spin_move_flags.sv): ok,
// whether the state accepts its message (another router's move or
// probe_move: free, or frozen for its sender; its kill_move: the recovery
// is its sender's; the router's own: the matching sender state), and blk,
// whether a frozen VC uses its input or its output; the bench takes them
// from the C state by spin_move_flags() (cmodel/spin_move_flags.c, which
// the C manager decides by too; the RTL flags have their own bench,
// spin_move_flags_tb.cpp).  Compared: the whole SPIN state after the instance
// (spin_mut_t: state, counter, recovery, frozen and armed VCs), its decision
// (another router's message taken, its own taken, a release) against the
// C state's change, whether the message would freeze a VC in a state that
// takes it with nothing frozen (may_o, the C manager run on such a state),
// whether a message goes on, on which output, and its word.
#include "Vspin_move_mgr.h"
#include "spin_mut_tb.h"

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif

namespace {

const int kPorts = P_NumPorts, kVcs = P_NumVcs, kPort = P_Port, kRank = P_Rank;
const unsigned kNodes = 4;
}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_move_mgr> b(argc, argv, "spin_move_mgr");
  Rng rng(b.seed());
  std::printf("spin_move_mgr NumPorts=%d NumVcs=%d Port=%d Rank=%d seed=%u vectors=%" PRIu64 "\n",
              kPorts, kVcs, kPort, kRank, b.seed(), b.cycles());
  uint64_t n_frozen = 0, n_forwarded = 0, n_released = 0;   // what the stimulus reached
  uint8_t cnt[SPIN_MAX_PORTS][SPIN_MAX_VCS], rv[SPIN_MAX_PORTS][SPIN_MAX_VCS],
      op[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  flit_t front[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  for (uint64_t vec = 0; vec < b.cycles(); vec++) {
    b.set_cycle(vec);
    const unsigned id = rng.below(kNodes), tdd = 2 + rng.below(200);
    // the message: mostly of this instance's class
    static const unsigned kinds[] = {KIND_MOVE,      KIND_KILL_MOVE, KIND_PROBE_MOVE,
                                     KIND_PROBE_MOVE, KIND_MOVE,     KIND_KILL_MOVE,
                                     KIND_PROBE,     KIND_FLIT,      KIND_IDLE};
    const unsigned kind = rng.pct(80) ? (kRank == 3 ? KIND_PROBE_MOVE
                                                    : (rng.pct(60) ? KIND_MOVE : KIND_KILL_MOVE))
                                      : kinds[rng.below(9)];
    const unsigned sender = rng.below(kNodes);
    const bool own = sender == id;
    const unsigned n = rng.pct(10) ? 33 + rng.below(31) : 1 + rng.below(12);
    // own messages come back with path left (idx < n); others anywhere
    unsigned idx = own ? rng.below(n) : (rng.pct(10) ? n + rng.below(3) : rng.below(n));
    if (idx > 63) idx = 63;
    const unsigned delay = rng.pct(10) ? rng.below(2) : rng.below(128);
    sm_path_t path = {0, 0};
    for (unsigned i = 0; i < SM_MAX_PATH; i++)
      if (!rng.pct(5)) path = path_put(path, i, 1 + rng.below(kPorts - 1));
    const flit_t w = sm_make(kind, sender, n, delay, idx, path);
    const unsigned next = idx < SM_MAX_PATH ? path_get(path, idx) : 0;

    // the router's SPIN state: mostly free, or frozen for one of the senders
    spin_router_t s;
    draw_spin_state(rng, kNodes, &s);
    const bool cnt_loaded = rng.pct(20);
    uint32_t frozen = 0, armed = 0, spinning = 0;
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        const unsigned k = static_cast<unsigned>(p * SPIN_MAX_VCS + v);
        if (!rng.pct(8)) continue;
        frozen |= 1u << k;
        if (rng.pct(50)) armed |= 1u << k;
        if (rng.pct(40)) spinning |= 1u << k;
      }
    for (int p = 0; p < SPIN_MAX_PORTS; p++)
      for (int v = 0; v < SPIN_MAX_VCS; v++) {
        const unsigned k = static_cast<unsigned>(p * SPIN_MAX_VCS + v);
        s.frozen_q[p][v] = (frozen >> k) & 1u;
        s.armed_q[p][v] = (armed >> k) & 1u;
        s.spinning_q[p][v] = (spinning >> k) & 1u;
      }
    // the VCs of every port
    std::memset(cnt, 0, sizeof cnt);
    std::memset(rv, 0, sizeof rv);
    std::memset(op, 0, sizeof op);
    std::memset(front, 0, sizeof front);
    uint32_t whole = 0;
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        const unsigned k = static_cast<unsigned>(p * SPIN_MAX_VCS + v);
        if (rng.pct(15)) continue;   // empty
        const unsigned len = 1 + rng.below(5);
        const bool head = rng.pct(85);
        cnt[p][v] = static_cast<uint8_t>(head && rng.pct(80) ? len : 1 + rng.below(5));
        rv[p][v] = rng.pct(90);
        op[p][v] = static_cast<uint8_t>(rng.pct(60) && next ? next : rng.below(kPorts));
        front[p][v].data = static_cast<uint64_t>(len) << 32;
        front[p][v].ext = 0;
        front[p][v].ctl = CTL_MAKE(KIND_FLIT, head, 0, 0);
        if (head && cnt[p][v] == len && rv[p][v]) whole |= 1u << k;
      }

    // RTL inputs
    put_spin_mut(b->st_i, s, cnt_loaded, frozen, armed);
    b->tdd_i = tdd;
    b->kind_i = kind;
    put_bits(b->data_i, 0, 64, w.data);
    put_bits(b->data_i, 64, 64, w.ext);
    b->whole_i = whole;
    b->spinning_i = spinning;
    put_vc_views(b, cnt, rv, op, kPorts, kVcs);
    b->own_i = own;

    // C: the message as spin_unit_pre hands it to the move manager
    spin_ctx_t c;
    spin_stats_t st;
    std::memset(&c, 0, sizeof c);
    std::memset(&st, 0, sizeof st);
    c.ports = kPorts;
    c.vcs = kVcs;
    c.id = static_cast<int>(id);
    c.nodes = kNodes;
    c.tdd = tdd;
    c.cnt = cnt;
    c.route_valid = rv;
    c.out_port = op;
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++)
        if (cnt[p][v]) c.front[p][v] = &front[p][v];
    // the instance's two bits of the state, as spin_unit gives them
    unsigned ok = 0, blk = 0;
    // (the rule of the instance's class: its chain slot, not the message, says
    // which of the router's own sender states it tests)
    {
      int ok_c, blk_c;
      spin_move_flags(&s, &c, kPort, kind == KIND_KILL_MOVE ? KIND_KILL_MOVE
                                     : (kRank == 3 ? KIND_PROBE_MOVE : KIND_MOVE),
                      sender, spin_next_port(&c, kPort, &w), &ok_c, &blk_c);
      ok = static_cast<unsigned>(ok_c);
      blk = static_cast<unsigned>(blk_c);
    }
    b->ok_i = ok;
    b->blk_i = blk;
    b.eval();
    const spin_router_t s0 = s;
    // may_o: the message would freeze a VC in a state that takes it with
    // nothing frozen (the C manager on such a state, with its own context)
    bool may = false;
    if (kind == KIND_MOVE || kind == KIND_PROBE_MOVE) {
      if (sm_rank(kind) == kRank && (!own || idx != n)) {
        spin_router_t sf;
        std::memset(&sf, 0, sizeof sf);
        sf.state_q = own ? (kind == KIND_MOVE ? FSM_MOVE : FSM_PROBE_MOVE) : FSM_DD;
        sf.pm_sent_q = 1;
        spin_ctx_t cf = c;
        spin_stats_t stf;
        std::memset(&stf, 0, sizeof stf);
        if (!own) spin_move_in(&sf, &cf, kPort, &w, &stf);
        else spin_move_through(&sf, &cf, kPort, &w, &stf);
        for (int v = 0; v < kVcs; v++) may = may || sf.frozen_q[kPort][v];
      }
    }

    const bool mine = kind >= KIND_PROBE && kind <= KIND_KILL_MOVE && kind != KIND_PROBE &&
                      sm_rank(kind) == kRank;
    const spin_state_t state0 = s.state_q;
    const uint16_t cnt0 = s.cnt_q;
    if (mine) {
      if (!own) spin_move_in(&s, &c, kPort, &w, &st);
      else if (idx != n) spin_move_through(&s, &c, kPort, &w, &st);
    }

    auto inputs = [&] {
      return strf("state=%d is_deadlock=%u source=%u pm_sent=%d cnt=%u frozen=0x%x armed=0x%x "
                  "spinning=0x%x whole=0x%x id=%u kind=%u sender=%u n=%u idx=%u delay=%u next=%u "
                  "ok=%u blk=%u",
                  static_cast<int>(state0), static_cast<unsigned>(get_bits(b->st_i, kMutIsDl, 1)),
                  static_cast<unsigned>(get_bits(b->st_i, kMutSource, 12)),
                  static_cast<int>(get_bits(b->st_i, kMutPmSent, 1)), cnt0, frozen, armed,
                  spinning, whole, id, kind, sender, n, idx, delay, next, ok, blk);
    };
    // the message going on
    int ref_o = -1;
    for (int o = 0; o < kPorts; o++)
      if (c.offer[o].rank) ref_o = o;
    b.check("offer_valid_o", b->offer_valid_o, ref_o >= 0, inputs);
    if (ref_o >= 0) {
      n_forwarded++;
      b.check("offer_port_o", b->offer_port_o, static_cast<unsigned>(ref_o), inputs);
      b.check("offer_o[63:0]", get_bits(b->offer_o, 0, 64), c.offer[ref_o].w.data, inputs);
      b.check("offer_o[127:64]", get_bits(b->offer_o, 64, 64), c.offer[ref_o].w.ext, inputs);
      b.check("offer_o kind", get_bits(b->offer_o, 128, 3), CTL_KIND(c.offer[ref_o].w.ctl), inputs);
    }
    // the SPIN state after the instance
    uint32_t ref_frozen = 0, ref_armed = 0;
    for (int p = 0; p < SPIN_MAX_PORTS; p++)
      for (int v = 0; v < SPIN_MAX_VCS; v++) {
        const unsigned k = static_cast<unsigned>(p * SPIN_MAX_VCS + v);
        if (s.frozen_q[p][v]) ref_frozen |= 1u << k;
        if (s.armed_q[p][v]) ref_armed |= 1u << k;
      }
    n_frozen += ref_frozen != frozen;
    n_released += state0 != s.state_q && s.state_q == FSM_DD;
    b.check("st_o.state", get_bits(b->st_o, kMutState, 3), static_cast<unsigned>(s.state_q), inputs);
    b.check("st_o.cnt", get_bits(b->st_o, kMutCnt, 16), s.cnt_q, inputs);
    b.check("st_o.cnt_loaded", get_bits(b->st_o, kMutCntLoaded, 1), cnt_loaded, inputs);
    b.check("st_o.is_deadlock", get_bits(b->st_o, kMutIsDl, 1), s.is_deadlock_q, inputs);
    b.check("st_o.source_id", get_bits(b->st_o, kMutSource, 12), s.source_id_q, inputs);
    b.check("st_o.pm_sent", get_bits(b->st_o, kMutPmSent, 1), s.pm_sent_q, inputs);
    b.check("st_o.frozen", get_bits(b->st_o, kMutFrozen, 32), ref_frozen, inputs);
    b.check("st_o.armed", get_bits(b->st_o, kMutArmed, 32), ref_armed, inputs);
    // the decision: another router's message taken (FROZEN for it), its own
    // taken (a VC frozen, the state as it was), a release (only a kill_move
    // clears is_deadlock here)
    const bool froze = kind != KIND_KILL_MOVE && ref_frozen != frozen;
    b.check("take_o", b->take_o, froze && !own, inputs);
    b.check("hold_o", b->hold_o, froze && own, inputs);
    b.check("rel_o", b->rel_o, s0.is_deadlock_q && !s.is_deadlock_q, inputs);
    b.check("may_o", b->may_o, may, inputs);
  }
  std::printf("messages forwarded %" PRIu64 ", VCs frozen %" PRIu64 ", routers released %" PRIu64
              "\n", n_forwarded, n_frozen, n_released);
  // a run that never freezes or forwards tests little: the stimulus is broken
  b.finish(n_forwarded && n_frozen && (kRank == 3 || n_released) ? 0 : 1);
}
