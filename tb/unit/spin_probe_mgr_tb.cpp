// spin_probe_mgr_tb.cpp - rtl/spin_probe_mgr.sv (the probe manager of one
// input port, with its mark) against its C twin, spin_probe_in() of
// cmodel/spin_probe_mgr.c on a spin_router_t and a spin_ctx_t, clocked
// together.  The RTL gives one probe word for every output and leaves the
// new path entry to each output's arbiter; the bench writes that entry as
// spin_sm_arb does before it compares.  kill_i (a lower port adopted this
// cycle) is the C model's router already in MOVE when the probe is
// handled.  Parameters: -DP_NumPorts, -DP_NumVcs, -DP_Port (as -G...).
//
// +cycles+N clock edges.  Every cycle: a probe (or another message, or
// nothing) from a random sender among few routers (so marks match and
// loops come round), with any n and x; the router in OFF or DD mostly,
// sometimes in a recovery; the VCs at the port empty, unrouted, ejecting or
// waiting for random outputs; adoption on or off.  Compared: which outputs
// get the probe and its word; whether the port adopts the loop and, when it
// does, the loop's VC, start, cycles and first port; after the edge, the
// mark (sender, n, x).
#include "Vspin_probe_mgr.h"
#include "spin_mut_tb.h"

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif

namespace {

const int kPorts = P_NumPorts, kVcs = P_NumVcs, kPort = P_Port;
const unsigned kNodes = 5, kTdd = 2;

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_probe_mgr> b(argc, argv, "spin_probe_mgr");
  Rng rng(b.seed());
  spin_router_t s;
  std::memset(&s, 0, sizeof s);
  std::printf("spin_probe_mgr NumPorts=%d NumVcs=%d Port=%d seed=%u cycles=%" PRIu64 "\n", kPorts,
              kVcs, kPort, b.seed(), b.cycles());
  b->kind_i = 0;
  b->adopt_en_i = 0;
  b->kill_i = 0;
  b.reset();
  uint8_t cnt[SPIN_MAX_PORTS][SPIN_MAX_VCS], rv[SPIN_MAX_PORTS][SPIN_MAX_VCS],
      op[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  sm_path_t last_path = {0, 0};
  uint64_t n_forwarded = 0, n_adopted = 0, n_forked = 0;   // what the stimulus reached
  uint64_t n_confirmed = 0;                                  // own probes that confirmed
  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    const unsigned id = rng.below(kNodes), top = rng.below(kNodes);
    const bool adopt = rng.pct(70), kill = rng.pct(5);
    static const spin_state_t states[] = {FSM_OFF, FSM_DD, FSM_DD, FSM_DD, FSM_MOVE, FSM_FROZEN};
    const spin_state_t state = states[rng.below(6)];
    const bool is_dl = rng.pct(10);
    // the message: a probe mostly, from few senders, paths that repeat
    static const unsigned kinds[] = {KIND_PROBE, KIND_PROBE, KIND_PROBE, KIND_MOVE, KIND_IDLE};
    const unsigned kind = kinds[rng.below(5)];
    const unsigned sender = rng.below(kNodes), n = rng.pct(10) ? 60 + rng.below(4) : 1 + rng.below(36);
    unsigned x = rng.pct(50) ? 0 : rng.below(40);
    // a probe that comes round carries at least the x it had (x only grows)
    if (s.mark_n_q[kPort] && sender == s.mark_sender_q[kPort] && x < s.mark_x_q[kPort])
      x = s.mark_x_q[kPort] + rng.below(8);
    sm_path_t path = last_path;
    if (rng.pct(30)) {   // entries are ports of the router: 1..P-1
      path.lo = path.hi = 0;
      for (unsigned i = 0; i < SM_MAX_PATH; i++)
        path = path_put(path, i, 1 + rng.below(kPorts - 1));
      last_path = path;
    }
    flit_t w = sm_make(kind, sender, n, x, 0, path);
    // the VCs of every port (only Port's matter)
    std::memset(cnt, 0, sizeof cnt);
    std::memset(rv, 0, sizeof rv);
    std::memset(op, 0, sizeof op);
    for (int p = 0; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        cnt[p][v] = rng.pct(90) ? static_cast<uint8_t>(1 + rng.below(5)) : 0;
        rv[p][v] = rng.pct(92);
        op[p][v] = rng.pct(10) ? 0 : static_cast<uint8_t>(1 + rng.below(kPorts - 1));
        if (rng.pct(50)) op[p][v] = static_cast<uint8_t>(path_get(path, rng.below(n < 32 ? n : 32)));
      }
    // the loop buffer, for spin_unit_pre()'s rule: the router's own probe
    // that just confirmed its loop (MOVE, that very loop latched) is not
    // handed to spin_probe_in(); the RTL has no such test (the recovery
    // test drops it), so the bench checks that both agree
    const bool same_loop = rng.pct(30);
    const unsigned loop_n = same_loop ? n : rng.below(64);
    const sm_path_t loop_path = same_loop ? path : last_path;

    // RTL inputs
    for (int i = 0; i < 4; i++) b->st_i[i] = 0;
    put_bits(b->st_i, kMutState, 3, static_cast<uint64_t>(state));
    put_bits(b->st_i, kMutIsDl, 1, is_dl);
    b->id_i = id;
    b->top_i = top;
    b->adopt_en_i = adopt;
    b->kill_i = kill;
    b->kind_i = kind;
    put_bits(b->data_i, 0, 64, w.data);
    put_bits(b->data_i, 64, 64, w.ext);
    put_vc_views(b, cnt, rv, op, kPorts, kVcs);
    b.eval();

    // C: the router's state as the RTL sees it, then the probe as
    // spin_unit_pre hands it over
    spin_ctx_t c;
    spin_stats_t st;
    std::memset(&c, 0, sizeof c);
    std::memset(&st, 0, sizeof st);
    c.ports = kPorts;
    c.vcs = kVcs;
    c.id = static_cast<int>(id);
    c.nodes = kNodes;
    c.tdd = kTdd;
    c.cycle = static_cast<uint64_t>(top) * 4u * kTdd;   // top = cycle / (4 t_DD) mod N
    c.adopt = adopt;
    c.cnt = cnt;
    c.route_valid = rv;
    c.out_port = op;
    s.state_q = kill ? FSM_MOVE : state;
    s.is_deadlock_q = is_dl;
    s.loop.n_q = static_cast<uint8_t>(loop_n & 63u);
    s.loop.start_q = 0;
    s.loop.path_q = loop_path;
    const uint64_t adopted0 = st.probes_adopted;
    const bool confirmed = sender == id && s.state_q == FSM_MOVE && s.loop.n_q == n &&
                           s.loop.start_q == 0 && path_eq(s.loop.path_q, path);
    n_confirmed += kind == KIND_PROBE && confirmed;
    if (kind == KIND_PROBE && !confirmed) spin_probe_in(&s, &c, kPort, &w, &st);
    const bool c_adopted = st.probes_adopted != adopted0;
    n_adopted += c_adopted;
    n_forked += st.probes_forked;

    auto inputs = [&] {
      return strf("state=%d is_deadlock=%d kill=%d adopt_en=%d id=%u top=%u kind=%u sender=%u n=%u "
                  "x=%u", static_cast<int>(state), is_dl, kill, adopt, id, top, kind, sender, n, x);
    };
    // which outputs get the probe, and its word with the output's entry
    unsigned ref_valid = 0;
    for (int o = 1; o < kPorts; o++)
      if (c.offer[o].rank && CTL_KIND(c.offer[o].w.ctl) == KIND_PROBE && c.offer[o].src == kPort)
        ref_valid |= 1u << o;
    b.check("offer_valid_o", b->offer_valid_o, ref_valid, inputs);
    n_forwarded += ref_valid != 0;
    for (int o = 1; o < kPorts; o++) {
      if (!((ref_valid >> o) & 1u)) continue;
      flit_t rtl;
      rtl.data = get_bits(b->offer_o, 0, 64);
      rtl.ext = get_bits(b->offer_o, 64, 64);
      rtl.ctl = static_cast<uint8_t>(get_bits(b->offer_o, 128, 3));
      const unsigned rn = sm_n(&rtl);
      rtl = sm_make(CTL_KIND(rtl.ctl), sm_sender(&rtl), rn, sm_delay(&rtl), sm_idx(&rtl),
                    rn ? path_put(sm_path(&rtl), rn - 1u, static_cast<unsigned>(o)) : sm_path(&rtl));
      b.check("offer_o[63:0] (with the output's entry)", rtl.data, c.offer[o].w.data, inputs);
      b.check("offer_o[127:64] (with the output's entry)", rtl.ext, c.offer[o].w.ext, inputs);
      b.check("offer_o kind", CTL_KIND(rtl.ctl), KIND_PROBE, inputs);
    }
    if (!kill) {
      b.check("adopt_o", b->adopt_o, c_adopted, inputs);
      if (c_adopted) {
        b.check("adopt_vc_o", b->adopt_vc_o, s.dd_vc_q, inputs);
        b.check("adopt_start_o", b->adopt_start_o, s.loop.start_q, inputs);
        b.check("adopt_cyc_o", b->adopt_cyc_o, s.loop.cyc_q, inputs);
        b.check("adopt_port0_o", b->adopt_port0_o, s.loop.port0_q, inputs);
      }
    }
    b.tick();
    const uint32_t obs = b->obs_o;   // obs_port_t: mark_x, mark_n, mark_sender (bit 0)
    b.check("mark_sender", obs & 0xFFFu, s.mark_sender_q[kPort], inputs);
    b.check("mark_n", obs >> 12 & 63u, s.mark_n_q[kPort], inputs);
    b.check("mark_x", obs >> 18 & 63u, s.mark_x_q[kPort], inputs);
    // an adoption moved the C router to MOVE: the next cycle sets it again
    s.loop.n_q = s.loop.start_q = s.loop.cyc_q = 0;
  }
  std::printf("probes forwarded %" PRIu64 ", forked %" PRIu64 ", loops adopted %" PRIu64
              ", own probes that confirmed %" PRIu64 "\n",
              n_forwarded, n_forked, n_adopted, n_confirmed);
  // a run that never forwards or adopts tests little: the stimulus is broken
  b.finish(n_forwarded && n_adopted && n_confirmed && (kVcs == 1 || n_forked) ? 0 : 1);
}
