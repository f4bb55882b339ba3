// spin_fsm_tb.cpp - rtl/spin_fsm.sv (the counter FSM of a router with its
// loop buffer, the spin and the arm chain, docs/microarchitecture.md 12.3,
// 12.6, 12.7) against its C twin, spin_fsm_pre(), spin_fsm_home(),
// spin_take_loop() and spin_fsm_post() of cmodel/spin_fsm.c on a
// spin_router_t, clocked together.
//
// The bench plays the rest of spin_unit and of the router.  One message is
// handled a cycle, as the input stage hands it over (its hop counted).  A
// message the FSM does not take goes to the C model's probe or move manager
// (spin_probe_in, spin_move_in, as spin_unit_pre hands it over), and their
// decision, read from the C state's change, is what the RTL FSM gets on
// adopt_* and mm_* (the managers have benches of their own).  The router's
// input VCs hold one packet each (arriving flit by flit, routed after a
// while, rerouted now and then while they wait and are not frozen, leaving
// at random when routed and not frozen; a spinning VC sends a flit every
// cycle and, at its tail, its spin ends: the router's traversal,
// cmodel/router.c, on the C side); in the last 150 cycles of every 1,000 no
// new packet comes, so that the router empties and its watch goes OFF.  The
// watch sees the VCs as they are at the start of the cycle and the VCs that
// sent a flit in the cycle before (popped_i, registered).
// Parameters: -DP_NumPorts, -DP_NumVcs, -DP_IdW, -DP_CycW, -DP_TddW,
// -DP_ForkW (as -G...).
//
// +cycles+N clock edges after one reset.  The messages handled: the FSM's
// own, back after a while: a probe home on any input (a VC there waiting for
// its first output, mostly), with cycles of 1 to CycMax (capped at 30 with
// the co-simulation's widths, whose CycMax would hold a recovery for half a
// million cycles) and now and then one more; a move, probe_move or kill_move
// sent with delay 2C + 2 and counting down one a cycle: home after exactly
// its loop's C cycles mostly (delay C + 2; a move or probe_move on the
// watched input with a whole packet for the loop's first output mostly),
// a cycle early (a figure 8 at delay lc + 3) or late (lc + 1), or any time
// (half way round: a figure 8).  Other routers' probes (some of the sender
// of an input's mark with more cycles, to be adopted), moves and
// probe_moves (whole packets waiting for them, mostly; delays at and around
// lc + 2; again and again for the sender the router is frozen for),
// kill_moves of the recovery it is in or of another.  Arm notices on any
// output, and on the outputs of frozen VCs.  Compared every cycle: the
// state the managers see after steps 1 to 3 (state, recovery bit, source,
// pm_sent, frozen VCs, records), whether the FSM takes the message home,
// the spin flits, the FSM's own message (output, kind, word), the arm
// notices, the frozen VCs after the managers; after every edge every
// register (state, counter, watch, recovery bit, source, pm_sent, records,
// loop buffer, frozen, armed, spinning, spin VC, popped, epoch, top).
#include <algorithm>
#include <deque>

#include "Vspin_fsm.h"
#include "spin_tb.h"

extern "C" {
#include "../spin_obs.h"   // spin_obs_ep, spin_obs_top: the epoch and top the RTL counts
}

using namespace spin_tb;

#ifndef P_TddW
#error "P_TddW must be defined"
#endif
#ifndef P_ForkW
#error "P_ForkW must be defined"
#endif

namespace {

// The network: 6 routers with small ids, 3,000 with wide ones.
const unsigned kNodes = P_IdW >= 12 ? 3000 : 6, kId = P_IdW >= 12 ? 2049 : 2, kTdd = 6;
static_assert(kNodes <= (1u << P_IdW), "router ids must fit IdW");
static_assert(kTdd < (1u << P_TddW), "t_DD must fit TddW");

// One input VC: one packet of len flits, arrived of them, sent of them.
struct Vc {
  unsigned len = 0, arrived = 0, sent = 0;
  bool routed = false;
  unsigned op = 0;
  unsigned cnt() const { return arrived - sent; }
  bool head() const { return cnt() && sent == 0; }
  bool tail() const { return cnt() && sent == len - 1; }
};

// A message to hand to the FSM at cycle `due` (port -1: chosen then).
struct Msg {
  uint64_t due;
  sm_t m;
  int port;
  uint64_t sent_at;     // own moves, probe_moves, kill_moves: the delay shrinks by the cycles since
  bool setup;           // arrange a VC for it at the port it arrives on
};

uint32_t frozen_mask(const spin_router_t& s) {
  uint32_t m = 0;
  for (int p = 0; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++)
      if (s.frozen_q[p][v]) m |= 1u << (p * SPIN_MAX_VCS + v);
  return m;
}
uint32_t vc_mask(const uint8_t (&a)[SPIN_MAX_PORTS][SPIN_MAX_VCS]) {
  uint32_t m = 0;
  for (int p = 0; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++)
      if (a[p][v]) m |= 1u << (p * SPIN_MAX_VCS + v);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_fsm> b(argc, argv, "spin_fsm");
  Rng rng(b.seed());
  std::printf("spin_fsm NumPorts=%d NumVcs=%d IdW=%d CycW=%d TddW=%d ForkW=%d seed=%u "
              "cycles=%" PRIu64 "\n", kPorts, kVcs, P_IdW, P_CycW, P_TddW, P_ForkW, b.seed(),
              b.cycles());
  const sm_fmt_t fmt = make_fmt(0);
  if (P_ForkW != (kVcs > 1 ? fmt.k * fmt.chw : 1u)) {
    std::printf("FAIL spin_fsm: ForkW=%d, the layout's fork entries take %u bits\n", P_ForkW,
                fmt.k * fmt.chw);
    std::exit(2);
  }
  // the longest loop the echoes take (cycles): CycMax of the small widths, a
  // bound as short with the wide ones (a loop of their CycMax would hold a
  // recovery for half a million cycles)
  const unsigned kCmax = std::min(fmt.cyc_max, 30u);
  Events ev;
  const size_t e_probe = ev.add("probe sent (DD expiry)", 700);
  const size_t e_taken = ev.add("loop taken (own probe home)", 200);
  // (80 before a probe came round only at its mark's exact age, 12.4)
  const size_t e_adopt = ev.add("loop adopted", 10);
  const size_t e_home = ev.add("move or probe_move home: frozen, FORWARD_PROGRESS", 70);
  const size_t e_late = ev.add("move or probe_move home late (delay lc + 1): dropped", 50);
  const size_t e_spin = ev.add("sender's spin", 70);
  const size_t e_fspin = ev.add("FROZEN router's spin", 120);
  const size_t e_timeout = ev.add("FROZEN timeout", 30);
  const size_t e_kill_move = ev.add("kill_move after MOVE", 300);
  const size_t e_kill_pm = ev.add("kill_move after PROBE_MOVE", 60);
  const size_t e_pm = ev.add("probe_move sent", 70);
  const size_t e_kill_home = ev.add("recovery ended by its kill_move home", 170);
  const size_t e_kill_late = ev.add("kill_move home in KILL_MOVE, delay not C + 2: goes on", 15);
  const size_t e_kill_fig8 = ev.add("own kill_move half way (figure 8): forwarded", 25);
  const size_t e_kill_exp = ev.add("recovery ended by KILL_MOVE expiry", 170);
  const size_t e_resolved = ev.add("deadlock resolved (spins)", 60);
  const size_t e_false = ev.add("false positive (no spin)", 300);
  const size_t e_arm_up = ev.add("arm notice passed upstream", 160);
  const size_t e_arm_end = ev.add("arm chain ends at the loop's VC", 80);
  const size_t e_flits = ev.add("spin flit", 500);
  const size_t e_release = ev.add("recovery left for another's kill_move", 120);
  const size_t e_fig8 = ev.add("own move frozen half way (figure 8)", 15);
  const size_t e_fig8_edge = ev.add("own move or probe_move half way at delay lc + 3", 30);
  const size_t e_enter = ev.add("FROZEN entered", 200);
  const size_t e_off = ev.add("watch to OFF", 30);
  const size_t e_replace = ev.add("own message of step 4 replaces step 3's", 30);
  const size_t e_cycmax = ev.add("loop of CycMax cycles taken", fmt.cyc_max == kCmax ? 25 : 0);
  const size_t e_home_max = ev.add("move or probe_move home at CycMax + 2: frozen",
                                   fmt.cyc_max == kCmax ? 5 : 0);
  const size_t e_past = ev.add("own probe home past CycMax: not taken",
                               fmt.cyc_max == kCmax ? 20 : 0);
  const size_t e_one = ev.add("loop of 1 cycle taken", 15);

  spin_router_t s;
  std::memset(&s, 0, sizeof s);
  spin_stats_t st;
  std::memset(&st, 0, sizeof st);
  Vc vc[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  std::deque<Msg> queue;
  uint64_t state_cycles[FSM_FROZEN + 1] = {0};
  const uint8_t xlat[SPIN_MAX_PORTS] = {0};

  b->en_i = 1;
  b->id_i = kId;
  b->nodes_i = kNodes;
  b->tdd_i = kTdd;
  b->h_valid_i = 0;
  b->adopt_i = 0;
  b->mm_freeze_i = b->mm_enter_i = b->mm_release_i = 0;
  b->arm_in_i = 0;
  b.reset();

  // A VC at port p made to hold a whole packet routed to o (unless it is
  // frozen or its packet has begun to leave); true when it does.
  bool draining = false;   // no new packet arrives (so that the router empties)
  auto make_whole = [&](int p, int v, unsigned o) {
    Vc& q = vc[p][v];
    if (s.frozen_q[p][v] || (q.len && q.sent) || (draining && q.len == 0)) return false;
    if (q.len == 0) q.len = 1 + rng.below(5);
    q.arrived = q.len;
    q.sent = 0;
    q.routed = true;
    q.op = o;
    return true;
  };
  // Every VC at p that holds flits routed (not frozen ones: left alone).
  auto route_all = [&](int p, unsigned mask) {
    for (int v = 0; v < kVcs; v++) {
      Vc& q = vc[p][v];
      if (s.frozen_q[p][v] || (draining && q.len == 0)) continue;
      if (q.len == 0) {
        q.len = 1 + rng.below(5);
        q.arrived = 1;
        q.sent = 0;
      }
      if (q.sent == 0 || !q.routed) {
        q.routed = true;
        q.op = mask ? rng.pick_bit(mask) : 1 + rng.below(kPorts - 1);
      }
    }
  };

  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    draining = cyc % 1000 >= 850;   // the last 150 cycles of every 1,000
    // ---- routes of this cycle (heads at the front), reroutes ----
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        Vc& q = vc[p][v];
        if (q.len && !q.routed && q.head() && rng.pct(60)) {
          q.routed = true;
          q.op = rng.pct(5) ? 0u : 1 + rng.below(kPorts - 1);
        } else if (q.routed && q.head() && !s.frozen_q[p][v] && rng.pct(2)) {
          q.op = 1 + rng.below(kPorts - 1);
        }
      }

    // ---- the message handled this cycle ----
    bool h_valid = false;
    int h_port = 0;
    sm_t hm;
    std::memset(&hm, 0, sizeof hm);
    if (!queue.empty() && queue.front().due <= cyc) {
      Msg x = queue.front();
      queue.pop_front();
      hm = x.m;
      if (x.m.kind == KIND_PROBE) {
        h_port = x.port > 0 ? x.port : 1 + static_cast<int>(rng.below(kPorts - 1));
        if (x.setup) {   // a VC there waits for its first output
          const int v = static_cast<int>(rng.below(kVcs));
          if (rng.pct(60)) make_whole(h_port, v, hm.p0);
          else route_all(h_port, 1u << hm.p0);
        }
      } else if (x.m.sender == kId) {   // own move, probe_move, kill_move
        h_port = rng.pct(80) && s.dd_port_q ? s.dd_port_q : 1 + static_cast<int>(rng.below(kPorts - 1));
        // sent with 2C + 2: the delay left after the cycles it took (12.1)
        const uint64_t spent = cyc - x.sent_at;
        hm.t = hm.t > spent ? hm.t - static_cast<unsigned>(spent) : 0u;
        if (x.setup) {
          const int v = h_port == s.dd_port_q && rng.pct(70) ? s.dd_vc_q : static_cast<int>(rng.below(kVcs));
          make_whole(h_port, v, s.loop.port0_q ? s.loop.port0_q : 1 + rng.below(kPorts - 1));
        }
      } else {   // another router's
        h_port = x.port > 0 ? x.port : 1 + static_cast<int>(rng.below(kPorts - 1));
      }
      h_valid = true;
    } else if (rng.pct(25)) {   // another router's message, or a stale one of its own
      unsigned sender = 1 + rng.below(kNodes - 1);
      if (sender == kId) sender = 0;
      h_port = 1 + static_cast<int>(rng.below(kPorts - 1));
      const unsigned pick = rng.below(100);
      if (pick < 38) {   // a probe; now and then one that came round the port's mark
        hm = draw_sm(rng, fmt, KIND_PROBE, sender);
        hm.t = 1 + rng.below(kCmax + 1);   // (its hop counted: a cycle at least)
        if (s.mark_cyc_q[h_port] && s.mark_sender_q[h_port] != kId && rng.pct(50)) {
          // the mark's sender, more cycles than the mark: mostly as many more
          // as the mark's age (that very probe came round), else a later one
          const unsigned age = spin_mark_age(&s, fmt.cyc_max, cyc, h_port);
          hm.sender = s.mark_sender_q[h_port];
          hm.t = s.mark_cyc_q[h_port] +
                 (age <= kCmax && rng.pct(70) ? age : rng.pct(20) ? 1 : 1 + rng.below(kCmax / 2 + 1));
          if (kVcs > 1) hm.fk = std::min(63u, s.mark_fk_q[h_port] + rng.below(2));
          route_all(h_port, s.mark_out_q[h_port]);
        } else if (rng.pct(60)) {
          route_all(h_port, 0);
        }
      } else if (pick < 76) {   // a move or probe_move, of the recovery it is in now and then
        hm = draw_sm(rng, fmt, rng.pct(50) ? KIND_MOVE : KIND_PROBE_MOVE, sender);
        if (s.state_q == FSM_FROZEN && rng.pct(60)) hm.sender = s.source_id_q;
        // a loop of lc cycles, the delay left of 2 lc + 2: lost below lc + 2
        hm.lc = 1 + rng.below(kCmax);
        hm.t = rng.pct(20)   ? hm.lc + 1 + rng.below(2)
               : rng.pct(10) ? rng.below(hm.lc + 1)
                             : hm.lc + 2 + rng.below(hm.lc + 1);
        if (rng.pct(75)) {   // a whole packet waits for its next hop
          const unsigned o = s.loop_out_q[h_port] && hm.kind == KIND_PROBE_MOVE &&
                                     s.source_id_q == hm.sender
                                 ? s.loop_out_q[h_port]
                                 : 1 + rng.below(kPorts - 1);
          for (int v = 0; v < kVcs; v++)
            if (!s.frozen_q[h_port][v] && vc[h_port][v].routed && vc[h_port][v].sent == 0)
              vc[h_port][v].op = o;
          make_whole(h_port, static_cast<int>(rng.below(kVcs)), o);
        }
      } else if (pick < 94) {   // a kill_move, mostly of the recovery it is in
        hm = draw_sm(rng, fmt, KIND_KILL_MOVE, rng.pct(70) && s.source_id_q != kId ? s.source_id_q : sender);
        hm.lc = 1 + rng.below(kCmax);
        hm.t = rng.pct(30) ? hm.lc + 1 + rng.below(2) : rng.below(2 * hm.lc + 3);
      } else {   // its own move, probe_move or kill_move of an earlier loop, home or half way
        static const unsigned kinds[] = {KIND_MOVE, KIND_PROBE_MOVE, KIND_KILL_MOVE};
        hm = draw_sm(rng, fmt, kinds[rng.below(3)], kId);
        hm.lc = 1 + rng.below(kCmax);
        hm.t = rng.pct(80) ? rng.below(hm.lc + 3) : hm.lc + 3 + rng.below(hm.lc);
        if (s.dd_port_q && rng.pct(70)) h_port = s.dd_port_q;
        if (s.loop.port0_q && rng.pct(50))
          make_whole(h_port, static_cast<int>(rng.below(kVcs)), s.loop.port0_q);
      }
      h_valid = true;
    }
    const flit_t h_w = sm_pack(&fmt, &hm);
    if (h_valid) hm = sm_unpack(&fmt, &h_w);

    // ---- arm notices from downstream ----
    uint8_t in_cred[SPIN_MAX_PORTS] = {0};
    unsigned arm_in = 0, arm_in_vc = 0;
    for (int o = 1; o < kPorts; o++) {
      bool arm = rng.pct(3);
      for (int p = 1; p < kPorts && !arm; p++)
        for (int v = 0; v < kVcs; v++)
          if (s.frozen_q[p][v] && !s.armed_q[p][v] && vc[p][v].op == static_cast<unsigned>(o) &&
              rng.pct(25))
            arm = true;
      if (!arm) continue;
      const unsigned av = rng.below(kVcs);   // a VC of the downstream router
      in_cred[o] = CRED_ARM_MAKE(av);
      arm_in |= 1u << o;
      arm_in_vc |= av << (2 * o);
    }

    // ---- the views ----
    Views views;
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        const Vc& q = vc[p][v];
        views.set(p, v, q.cnt(), q.len, q.head(), q.tail(), q.routed, q.routed ? q.op : 0);
      }

    // ---- RTL, before the managers' decisions ----
    b->cnt_nz_i = views.cnt_nz();
    b->rv_i = views.rv_mask();
    views.put_ops(b->op_i);
    b->whole_i = views.whole_mask();
    b->tail_i = views.tail_mask();
    b->arm_in_i = arm_in;
    b->arm_in_vc_i = arm_in_vc;
    b->h_valid_i = h_valid;
    b->h_port_i = static_cast<uint8_t>(h_port);
    b->h_kind_i = static_cast<uint8_t>(h_valid ? hm.kind : 0);
    put_word(b->h_data_i, 0, h_valid ? h_w : flit_t{0, 0, 0});
    b->adopt_i = 0;
    b->mm_freeze_i = b->mm_enter_i = b->mm_release_i = 0;
    b->popped_i = 0;
    b.eval();

    // ---- C, steps 1 to 3 ----
    spin_ctx_t c;
    ctx_init(&c, &fmt, xlat, 0);
    views.to_ctx(&c);
    c.id = static_cast<int>(kId);
    c.nodes = static_cast<int>(kNodes);
    c.tdd = kTdd;
    c.adopt = 1;
    c.cycle = cyc;
    const spin_router_t s0 = s;
    const spin_stats_t st0 = st;
    spin_fsm_pre(&s, &c, in_cred, &st);
    const spin_router_t s1 = s;
    const unsigned own_pre = c.own_out;
    const uint8_t arm_pre[SPIN_MAX_PORTS] = {c.arm_out[0], c.arm_out[1], c.arm_out[2], c.arm_out[3],
                                             c.arm_out[4], c.arm_out[5], c.arm_out[6], c.arm_out[7]};

    auto inputs = [&] {
      std::string d = strf("state %d cnt %u watch %u.%u is_deadlock %d source %u pm_sent %d "
                           "loop cyc %u port0 %u frozen 0x%x armed 0x%x spinning 0x%x; ",
                           static_cast<int>(s0.state_q), s0.cnt_q, s0.dd_port_q, s0.dd_vc_q,
                           s0.is_deadlock_q, s0.source_id_q, s0.pm_sent_q, s0.loop.cyc_q,
                           s0.loop.port0_q, frozen_mask(s0), vc_mask(s0.armed_q),
                           vc_mask(s0.spinning_q));
      if (h_valid) d += strf("handled on %d: %s; ", h_port, sm_str(hm).c_str());
      d += strf("arm in 0x%x vc 0x%x; VCs (cnt/len/routed/op):", arm_in, arm_in_vc);
      for (int p = 1; p < kPorts; p++)
        for (int v = 0; v < kVcs; v++)
          if (vc[p][v].len)
            d += strf(" %d.%d:%u/%u/%d/%u", p, v, vc[p][v].cnt(), vc[p][v].len, vc[p][v].routed,
                      vc[p][v].op);
      return d;
    };
    b.check("state_o", b->state_o, s.state_q, inputs);
    b.check("is_deadlock_o", b->is_deadlock_o, s.is_deadlock_q, inputs);
    b.check("source_id_o", b->source_id_o, s.source_id_q, inputs);
    b.check("pm_sent_o", b->pm_sent_o, s.pm_sent_q, inputs);
    b.check("frozen_pre_o", b->frozen_pre_o, frozen_mask(s), inputs);
    for (int p = 0; p < kPorts; p++)
      b.check(strf("loop_out_o[%d]", p).c_str(), get_bits(b->loop_out_o, 3u * p, 3), s.loop_out_q[p],
              inputs);
    b.check("frozen_q_o", b->frozen_q_o, frozen_mask(s0), inputs);
    const spin_obs_ctx_t now = {cyc, kTdd, kNodes}, next = {cyc + 1, kTdd, kNodes};
    b.check("top_o", b->top_o, spin_obs_top(&now), inputs);
    b.check("out_busy_o", b->out_busy_o, c.out_busy, inputs);
    b.check("in_busy_o", b->in_busy_o, c.in_busy, inputs);
    for (int o = 0; o < kPorts; o++) {
      if (!(c.out_busy >> o & 1u)) continue;
      const int sp = c.spin_src_port[o];
      b.check(strf("spin_src_o[%d]", o).c_str(), get_bits(b->spin_src_o, 3u * o, 3),
              static_cast<unsigned>(sp), inputs);
      b.check(strf("spin_ovc_o[%d]", o).c_str(), get_bits(b->spin_ovc_o, 2u * o, 2),
              CTL_VC(c.spin_flit[o].ctl), inputs);
      b.check(strf("spin_vc_o[%d]", sp).c_str(), get_bits(b->spin_vc_o, 2u * sp, 2),
              static_cast<unsigned>(c.spin_src_vc[o]), inputs);
    }

    // ---- step 4, or the managers (spin_unit_pre's handle) ----
    bool home = false, adopted = false;
    if (h_valid) {
      home = hm.sender == kId && spin_fsm_home(&s, &c, h_port, &hm, &st);
      b.check("home_o", b->home_o, home, inputs);
      if (!home) {
        if (hm.kind == KIND_PROBE) spin_probe_in(&s, &c, h_port, &hm, &st);
        else spin_move_in(&s, &c, h_port, &hm, &st);
      }
    }
    if (st.probes_adopted != st0.probes_adopted) {
      adopted = true;
      b->adopt_i = 1;
      // (each masked to its port's width: a Verilated input keeps bits above it)
      b->adopt_vc_i = s.dd_vc_q & 3u;
      b->adopt_cyc_i = s.loop.cyc_q & field_max(P_CycW);
      b->adopt_port0_i = s.loop.port0_q & 7u;
      b->adopt_fk0_i = s.loop.fk0_q & 63u;
    }
    const uint32_t mm_new = h_valid && !home && hm.kind != KIND_PROBE
                                ? frozen_mask(s) & ~frozen_mask(s1) : 0u;
    if (mm_new) {
      const int v = __builtin_ctz(mm_new) - h_port * SPIN_MAX_VCS;
      b->mm_freeze_i = 1;
      b->mm_vc_i = static_cast<uint8_t>(v);
      b->mm_out_i = s.loop_out_q[h_port];
      b->mm_enter_i = hm.sender != kId;
    }
    const bool released = h_valid && !home && hm.kind == KIND_KILL_MOVE && hm.sender != kId &&
                          s1.is_deadlock_q && !s.is_deadlock_q;
    b->mm_release_i = released;
    b.eval();
    b.check("own_out_o", b->own_out_o, c.own_out, inputs);
    if (c.own_out) {
      b.check("own_kind_o", b->own_kind_o, c.own.kind, inputs);
      check_word(b, "own_data_o", get_word(b->own_data_o, 0), sm_pack(&fmt, &c.own), inputs);
    }
    for (int p = 0; p < kPorts; p++) {
      b.check(strf("arm_o[%d]", p).c_str(), b->arm_o >> p & 1u, c.arm_out[p] != 0, inputs);
      if (c.arm_out[p])
        b.check(strf("arm_vc_o[%d]", p).c_str(), get_bits(b->arm_vc_o, 2u * p, 2),
                CRED_ARM_VC(c.arm_out[p]), inputs);
    }
    b.check("frozen_o", b->frozen_o, frozen_mask(s), inputs);

    // ---- what this cycle reached ----
    ev.hit(e_probe, s0.state_q == FSM_DD && s0.cnt_q == 0 && own_pre && c.own.kind == KIND_PROBE);
    ev.hit(e_taken, st.probes_returned != st0.probes_returned);
    ev.hit(e_adopt, adopted);
    ev.hit(e_home, home && s.state_q == FSM_FORWARD_PROGRESS);
    ev.hit(e_spin, st.spins != st0.spins);
    ev.hit(e_fspin, s0.state_q == FSM_FROZEN && s0.cnt_q == 0 && !s0.pm_sent_q);
    ev.hit(e_timeout, st.frozen_timeouts != st0.frozen_timeouts);
    ev.hit(e_kill_move, s0.state_q == FSM_MOVE && s0.cnt_q == 0);
    ev.hit(e_kill_pm, s0.state_q == FSM_PROBE_MOVE && s0.cnt_q == 0 && s0.pm_sent_q);
    ev.hit(e_pm, s0.state_q == FSM_PROBE_MOVE && s0.cnt_q == 0 && !s0.pm_sent_q);
    ev.hit(e_kill_home, home && hm.kind == KIND_KILL_MOVE && s1.state_q == FSM_KILL_MOVE &&
                            hm.t == s1.loop.cyc_q + 2);
    ev.hit(e_kill_late, home && hm.kind == KIND_KILL_MOVE && s1.state_q == FSM_KILL_MOVE &&
                            hm.t != s1.loop.cyc_q + 2);
    ev.hit(e_kill_fig8, h_valid && !home && hm.kind == KIND_KILL_MOVE && hm.sender == kId &&
                            c.fwd_mask != 0);
    ev.hit(e_late, home && (hm.kind == KIND_MOVE || hm.kind == KIND_PROBE_MOVE) &&
                       hm.t == hm.lc + 1 && s.state_q == s1.state_q);
    ev.hit(e_kill_exp, s0.state_q == FSM_KILL_MOVE && s0.cnt_q == 0);
    ev.hit(e_resolved, st.deadlocks_resolved != st0.deadlocks_resolved);
    ev.hit(e_false, st.false_positives != st0.false_positives);
    for (int p = 1; p < kPorts; p++) ev.hit(e_arm_up, arm_pre[p] != 0);
    {
      const bool sender = s0.state_q >= FSM_MOVE && s0.state_q <= FSM_KILL_MOVE;
      const int dp = s0.dd_port_q, dv = s0.dd_vc_q;
      ev.hit(e_arm_end, sender && s0.frozen_q[dp][dv] && !s0.armed_q[dp][dv] && s1.armed_q[dp][dv]);
    }
    ev.hit(e_flits, c.out_busy != 0);
    ev.hit(e_release, released);
    ev.hit(e_fig8, mm_new && hm.sender == kId);
    ev.hit(e_fig8_edge, h_valid && !home && hm.kind != KIND_PROBE && hm.kind != KIND_KILL_MOVE &&
                            hm.sender == kId && hm.t == hm.lc + 3);
    ev.hit(e_enter, mm_new && hm.sender != kId);
    ev.hit(e_replace, own_pre && c.own_out && (c.own.kind != KIND_PROBE || own_pre != c.own_out) &&
                      (st.probes_returned != st0.probes_returned || adopted || home));
    ev.hit(e_cycmax, (st.probes_returned != st0.probes_returned || adopted) && s.loop.cyc_q == fmt.cyc_max);
    ev.hit(e_home_max, home && s.state_q == FSM_FORWARD_PROGRESS && hm.t == fmt.cyc_max + 2);
    ev.hit(e_past, home == false && h_valid && hm.kind == KIND_PROBE && hm.sender == kId &&
                       s1.state_q == FSM_DD && hm.t == fmt.cyc_max + 1);
    ev.hit(e_one, (st.probes_returned != st0.probes_returned || adopted) && s.loop.cyc_q == 1);

    // ---- its own message comes back, now and then ----
    if (c.own_out) {
      Msg x;
      x.m = c.own;
      x.port = -1;
      x.sent_at = cyc;
      x.setup = rng.pct(75);
      bool back = false;
      switch (c.own.kind) {
        case KIND_PROBE:
          back = rng.pct(60);
          x.due = cyc + 2 + rng.below(10);
          // the loop's cycles (its hop counted: 1 at least), the bound and one past it now and then
          x.m.t = rng.pct(8) ? kCmax : rng.pct(5) ? kCmax + 1 : 1 + rng.below(kCmax);
          if (kVcs > 1) {
            x.m.fk = rng.below(std::min(fmt.k, 4u) + 1);
            draw_forks(rng, fmt, &x.m);
          }
          break;
        default: {   // move, probe_move, kill_move: sent with delay 2C + 2
          // back after C cycles mostly (home at delay C + 2), one early (a
          // figure 8 at lc + 3) or late (lc + 1), or any time up to 2C + 2
          const unsigned cc = s.loop.cyc_q, pick = rng.below(100);
          back = rng.pct(c.own.kind == KIND_KILL_MOVE ? 70 : 85);
          x.due = cyc + (pick < 70   ? cc
                         : pick < 76 ? cc - 1
                         : pick < 82 ? cc + 1
                                     : 1 + rng.below(2 * cc + 2));
          if (x.due <= cyc) x.due = cyc + 1;
          break;
        }
      }
      if (back) {
        auto at = std::find_if(queue.begin(), queue.end(), [&](const Msg& y) { return y.due > x.due; });
        queue.insert(at, x);
      }
    }

    // ---- the router: spin flits leave, others at random, flits arrive ----
    uint64_t popped = 0;
    for (int o = 0; o < kPorts; o++)
      if (c.out_busy >> o & 1u) {
        const int p = c.spin_src_port[o], v = c.spin_src_vc[o];
        if (vc[p][v].tail()) s.spinning_q[p][v] = s.frozen_q[p][v] = s.armed_q[p][v] = 0;
        vc[p][v].sent++;
        popped |= 1ull << (p * SPIN_MAX_VCS + v);
      }
    for (int p = 1; p < kPorts; p++) {
      bool sent = c.in_busy >> p & 1u;
      for (int v = 0; v < kVcs; v++) {
        Vc& q = vc[p][v];
        const uint64_t bit = 1ull << (p * SPIN_MAX_VCS + v);
        if (!(popped & bit) && !sent && q.cnt() && q.routed && !s.frozen_q[p][v] &&
            !(c.out_busy >> q.op & 1u) && rng.pct(12)) {
          q.sent++;
          popped |= bit;
          sent = true;
        }
        if (q.len && q.sent == q.len) q = Vc();
        if (q.len == 0 && !draining && rng.pct(20)) {
          q.len = 1 + rng.below(5);
          q.arrived = 0;
        }
        if (q.len && q.arrived < q.len && rng.pct(70)) q.arrived++;
      }
    }
    // the watch: the VCs at the start of the cycle (c.nonempty), the pops of
    // the cycle before (popped_q); this cycle's pops registered
    b->popped_i = static_cast<uint32_t>(popped);
    spin_fsm_post(&s, &c, popped, &st);
    ev.hit(e_off, s1.state_q != FSM_OFF && s.state_q == FSM_OFF);
    b.tick();

    state_cycles[s.state_q]++;
    // ---- the registers after the edge ----
    b.check("state_q", b->state_q_o, s.state_q, inputs);
    b.check("cnt_q", b->cnt_q_o, s.cnt_q, inputs);
    b.check("dd_port_q", b->dd_port_q_o, s.dd_port_q, inputs);
    b.check("dd_vc_q", b->dd_vc_q_o, s.dd_vc_q, inputs);
    b.check("is_deadlock_q", b->is_deadlock_q_o, s.is_deadlock_q, inputs);
    b.check("source_id_q", b->source_id_q_o, s.source_id_q, inputs);
    b.check("pm_sent_q", b->pm_sent_q_o, s.pm_sent_q, inputs);
    for (int p = 0; p < kPorts; p++)
      b.check(strf("loop_out_q[%d]", p).c_str(), get_bits(b->loop_out_q_o, 3u * p, 3),
              s.loop_out_q[p], inputs);
    b.check("loop.cyc_q", b->loop_cyc_q_o, s.loop.cyc_q, inputs);
    b.check("loop.port0_q", b->loop_port0_q_o, s.loop.port0_q, inputs);
    if (kVcs > 1) {
      b.check("loop.fk0_q", b->loop_fk0_q_o, s.loop.fk0_q, inputs);
      b.check("loop.fork_q[63:0]", get_bits(b->loop_fork_q_o, 0, P_ForkW < 64 ? P_ForkW : 64),
              s.loop.fork_lo_q, inputs);
      if (P_ForkW > 64)
        b.check("loop.fork_q[..:64]", get_bits(b->loop_fork_q_o, 64, P_ForkW - 64), s.loop.fork_hi_q,
                inputs);
    }
    b.check("frozen_q", b->frozen_q_o, frozen_mask(s), inputs);
    b.check("armed_q", b->armed_q_o, vc_mask(s.armed_q), inputs);
    b.check("spinning_q", b->spinning_q_o, vc_mask(s.spinning_q), inputs);
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++)
        b.check(strf("spin_ovc_q[%d][%d]", p, v).c_str(),
                get_bits(b->spin_ovc_q_o, 2u * (p * SPIN_MAX_VCS + v), 2), s.spin_ovc_q[p][v], inputs);
    b.check("popped_q", b->popped_q_o, s.popped_q, inputs);
    b.check("ep_q", b->ep_q_o, spin_obs_ep(&next), inputs);
    b.check("top_q", b->top_o, spin_obs_top(&next), inputs);
  }
  std::printf("spin_fsm: cycles in OFF %" PRIu64 ", DD %" PRIu64 ", MOVE %" PRIu64
              ", PROBE_MOVE %" PRIu64 ", FORWARD_PROGRESS %" PRIu64 ", KILL_MOVE %" PRIu64
              ", FROZEN %" PRIu64 "\n", state_cycles[FSM_OFF], state_cycles[FSM_DD],
              state_cycles[FSM_MOVE], state_cycles[FSM_PROBE_MOVE],
              state_cycles[FSM_FORWARD_PROGRESS], state_cycles[FSM_KILL_MOVE],
              state_cycles[FSM_FROZEN]);
  std::printf("spin_fsm: C model counters: probes returned %" PRIu64 ", adopted %" PRIu64
              ", spins %" PRIu64 ", resolved %" PRIu64 ", false positives %" PRIu64
              ", frozen timeouts %" PRIu64 "\n", st.probes_returned, st.probes_adopted, st.spins,
              st.deadlocks_resolved, st.false_positives, st.frozen_timeouts);
  b.finish(ev.report("spin_fsm", b.cycles()) ? 1 : 0);
}
