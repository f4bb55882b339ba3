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
// its first output, mostly; now and then only the next port's VCs wait for
// it, and the loop must not be taken: a VC index one past the port's VCs
// reaches the next port's VC 0 when NumVcs is MaxVcs, 4), with cycles of 1 to CycMax (capped at 30 with
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

// What one cycle handles, decides and compares: the message handed over,
// the arm notices from downstream, the views of the input VCs, the C
// context, the C state before step 1 (s0) and after step 3 (s1), and what
// step 4 and the managers decided.
struct Cycle {
  uint64_t cyc = 0;
  bool h_valid = false;
  int h_port = 0;
  sm_t hm;
  flit_t h_w;
  uint8_t in_cred[SPIN_MAX_PORTS] = {0};
  unsigned arm_in = 0, arm_in_vc = 0;
  Views views;
  spin_ctx_t c;
  spin_router_t s0, s1;
  spin_stats_t st0;
  unsigned own_pre = 0;
  uint8_t arm_pre[SPIN_MAX_PORTS] = {0};
  bool home = false, adopted = false, released = false;
  bool beside = false;   // its own probe home where only the next port's VC 0 waits for p0
  uint64_t mm_new = 0;

  Cycle() { std::memset(&hm, 0, sizeof hm); }
  Cycle(const Cycle&) = delete;   // c points into views
};

// The bench: the RTL FSM, its C twin's state, the router around it and the
// corner cases reached.
class FsmBench : public SpinBench<Vspin_fsm> {
 public:
  // The configuration printed, the message layout checked against the
  // build's ForkW, the corner cases to count.
  FsmBench(int argc, char** argv)
      : SpinBench(argc, argv, "spin_fsm", strf(" TddW=%d ForkW=%d", P_TddW, P_ForkW)) {
    std::memset(&s_, 0, sizeof s_);
    std::memset(&st_, 0, sizeof st_);
    fmt_ = make_fmt(0);
    check_layout();
    // the longest loop the echoes take (cycles): CycMax of the small widths, a
    // bound as short with the wide ones (a loop of their CycMax would hold a
    // recovery for half a million cycles)
    cmax_ = std::min(fmt_.cyc_max, 30u);
    add_events();
  }

  void reset();
  void run() {
    for (uint64_t cyc = 0; cyc < b_.cycles(); cyc++) cycle(cyc);
  }
  [[noreturn]] void report();

 private:
  void check_layout() const;
  void add_events();
  void cycle(uint64_t cyc);
  // stimulus
  bool make_whole(int p, int v, unsigned o);
  bool waits_for(int p, int v, unsigned o) const;
  void route_all(int p, unsigned mask);
  void reroute();
  void next_message(Cycle& k);
  void take_queued(Cycle& k);
  void draw_message(Cycle& k);
  void draw_probe(Cycle& k, unsigned sender);
  void draw_move(Cycle& k, unsigned sender);
  void draw_kill_move(Cycle& k, unsigned sender);
  void draw_stale_own(Cycle& k);
  void arm_notices(Cycle& k);
  void echo_own(const Cycle& k);
  uint64_t traffic(const Cycle& k);
  // the two models
  void drive_rtl(Cycle& k);
  void c_steps_1_to_3(Cycle& k);
  void step_4_and_managers(Cycle& k);
  // comparisons and counts
  std::string describe(const Cycle& k) const;
  void check_pre(Cycle& k);
  void check_decisions(Cycle& k);
  void check_registers(Cycle& k);
  void count_events(const Cycle& k);

  sm_fmt_t fmt_;
  unsigned cmax_ = 0;   // the longest loop of the echoes
  size_t e_probe, e_taken, e_adopt, e_home, e_late, e_spin, e_fspin, e_timeout, e_kill_move,
      e_kill_pm, e_pm, e_kill_home, e_kill_late, e_kill_fig8, e_kill_exp, e_resolved, e_false,
      e_arm_up, e_arm_end, e_flits, e_release, e_fig8, e_fig8_edge, e_enter, e_off, e_replace,
      e_cycmax, e_home_max, e_past, e_one, e_beside;

  spin_router_t s_;
  spin_stats_t st_;
  Vc vc_[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  std::deque<Msg> queue_;
  uint64_t state_cycles_[FSM_FROZEN + 1] = {0};
  const uint16_t xlat_[SPIN_MAX_PORTS] = {0};
  bool draining_ = false;   // no new packet arrives (so that the router empties)
};

void FsmBench::check_layout() const {
  if (P_ForkW != (kVcs > 1 ? fmt_.k * fmt_.chw : 1u)) {
    std::printf("FAIL spin_fsm: ForkW=%d, the layout's fork entries take %u bits\n", P_ForkW,
                fmt_.k * fmt_.chw);
    std::exit(2);
  }
}

void FsmBench::add_events() {
  const bool cmax = fmt_.cyc_max == cmax_;   // loops of CycMax come round
  e_probe = ev_.add("probe sent (DD expiry)", 700);
  e_taken = ev_.add("loop taken (own probe home)", 200);
  // (80 before a probe came round only at its mark's exact age, 12.4)
  e_adopt = ev_.add("loop adopted", 10);
  e_home = ev_.add("move or probe_move home: frozen, FORWARD_PROGRESS", 70);
  e_late = ev_.add("move or probe_move home late (delay lc + 1): dropped", 50);
  e_spin = ev_.add("sender's spin", 70);
  e_fspin = ev_.add("FROZEN router's spin", 120);
  e_timeout = ev_.add("FROZEN timeout", 30);
  e_kill_move = ev_.add("kill_move after MOVE", 300);
  e_kill_pm = ev_.add("kill_move after PROBE_MOVE", 60);
  e_pm = ev_.add("probe_move sent", 70);
  e_kill_home = ev_.add("recovery ended by its kill_move home", 170);
  e_kill_late = ev_.add("kill_move home in KILL_MOVE, delay not C + 2: goes on", 15);
  e_kill_fig8 = ev_.add("own kill_move half way (figure 8): forwarded", 25);
  e_kill_exp = ev_.add("recovery ended by KILL_MOVE expiry", 170);
  e_resolved = ev_.add("deadlock resolved (spins)", 60);
  e_false = ev_.add("false positive (no spin)", 300);
  e_arm_up = ev_.add("arm notice passed upstream", 160);
  e_arm_end = ev_.add("arm chain ends at the loop's VC", 80);
  e_flits = ev_.add("spin flit", 500);
  e_release = ev_.add("recovery left for another's kill_move", 120);
  e_fig8 = ev_.add("own move frozen half way (figure 8)", 15);
  e_fig8_edge = ev_.add("own move or probe_move half way at delay lc + 3", 30);
  e_enter = ev_.add("FROZEN entered", 200);
  e_off = ev_.add("watch to OFF", 30);
  e_replace = ev_.add("own message of step 4 replaces step 3's", 30);
  e_cycmax = ev_.add("loop of CycMax cycles taken", cmax ? 25 : 0);
  e_home_max = ev_.add("move or probe_move home at CycMax + 2: frozen", cmax ? 5 : 0);
  e_past = ev_.add("own probe home past CycMax: not taken", cmax ? 20 : 0);
  e_one = ev_.add("loop of 1 cycle taken", 15);
  e_beside = ev_.add("own probe home, no VC at its port waiting for p0, the next port's VC 0 "
                     "waiting for it: not taken", 10);
}

void FsmBench::reset() {
  b_->en_i = 1;
  b_->id_i = kId;
  b_->nodes_i = kNodes;
  b_->tdd_i = kTdd;
  b_->h_valid_i = 0;
  b_->adopt_i = 0;
  b_->mm_freeze_i = b_->mm_enter_i = b_->mm_release_i = 0;
  b_->arm_in_i = 0;
  b_.reset();
}

// One cycle: the stimulus, the RTL and C steps 1 to 3, step 4 or the
// managers, the router's traffic, the edge; compared after each.
void FsmBench::cycle(uint64_t cyc) {
  Cycle k;
  k.cyc = cyc;
  draining_ = cyc % 1000 >= 850;   // the last 150 cycles of every 1,000
  reroute();
  next_message(k);
  arm_notices(k);
  drive_rtl(k);
  c_steps_1_to_3(k);
  check_pre(k);
  step_4_and_managers(k);
  check_decisions(k);
  count_events(k);
  echo_own(k);
  const uint64_t popped = traffic(k);
  // the watch: the VCs at the start of the cycle (c.nonempty), the pops of
  // the cycle before (popped_q); this cycle's pops registered
  b_->popped_i = popped;
  spin_fsm_post(&s_, &k.c, popped, &st_);
  ev_.hit(e_off, k.s1.state_q != FSM_OFF && s_.state_q == FSM_OFF);
  b_.tick();
  state_cycles_[s_.state_q]++;
  check_registers(k);
}

// A VC at port p made to hold a whole packet routed to o (unless it is
// frozen or its packet has begun to leave); true when it does.
// VC v at port p holds flits routed to output o.
bool FsmBench::waits_for(int p, int v, unsigned o) const {
  const Vc& q = vc_[p][v];
  return q.cnt() && q.routed && q.op == o;
}

bool FsmBench::make_whole(int p, int v, unsigned o) {
  Vc& q = vc_[p][v];
  if (s_.frozen_q[p][v] || (q.len && q.sent) || (draining_ && q.len == 0)) return false;
  if (q.len == 0) q.len = 1 + rng_.below(5);
  q.arrived = q.len;
  q.sent = 0;
  q.routed = true;
  q.op = o;
  return true;
}

// Every VC at p that holds flits routed (not frozen ones: left alone).
void FsmBench::route_all(int p, unsigned mask) {
  for (int v = 0; v < kVcs; v++) {
    Vc& q = vc_[p][v];
    if (s_.frozen_q[p][v] || (draining_ && q.len == 0)) continue;
    if (q.len == 0) {
      q.len = 1 + rng_.below(5);
      q.arrived = 1;
      q.sent = 0;
    }
    if (q.sent == 0 || !q.routed) {
      q.routed = true;
      q.op = mask ? rng_.pick_bit(mask) : 1 + rng_.below(kPorts - 1);
    }
  }
}

// Routes of this cycle (heads at the front), reroutes.
void FsmBench::reroute() {
  for (int p = 1; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++) {
      Vc& q = vc_[p][v];
      if (q.len && !q.routed && q.head() && rng_.pct(60)) {
        q.routed = true;
        q.op = rng_.pct(5) ? 0u : 1 + rng_.below(kPorts - 1);
      } else if (q.routed && q.head() && !s_.frozen_q[p][v] && rng_.pct(2)) {
        q.op = 1 + rng_.below(kPorts - 1);
      }
    }
}

// The message handled this cycle: one of its own that is due, else now and
// then another router's or a stale one of its own; as the link carries it.
void FsmBench::next_message(Cycle& k) {
  if (!queue_.empty() && queue_.front().due <= k.cyc) take_queued(k);
  else if (rng_.pct(25)) draw_message(k);
  k.h_w = sm_pack(&fmt_, &k.hm);
  if (k.h_valid) k.hm = sm_unpack(&fmt_, &k.h_w);
}

// The FSM's own message (or one queued for it) back.
void FsmBench::take_queued(Cycle& k) {
  Msg x = queue_.front();
  queue_.pop_front();
  k.hm = x.m;
  if (x.m.kind == KIND_PROBE) {
    k.h_port = x.port > 0 ? x.port : 1 + static_cast<int>(rng_.below(kPorts - 1));
    if (x.setup) {   // a VC there waits for its first output
      const int v = static_cast<int>(rng_.below(kVcs));
      if (rng_.pct(60)) {
        make_whole(k.h_port, v, k.hm.p0);
      } else if (rng_.pct(75) || k.h_port + 1 >= kPorts) {
        route_all(k.h_port, 1u << k.hm.p0);
      } else {   // none there waits for p0, the next port's VCs do (a VC of the
                 // wrong port must not confirm the loop)
        route_all(k.h_port, ((1u << kPorts) - 2u) & ~(1u << k.hm.p0));
        route_all(k.h_port + 1, 1u << k.hm.p0);
      }
    }
  } else if (x.m.sender == kId) {   // own move, probe_move, kill_move
    k.h_port = rng_.pct(80) && s_.dd_port_q ? s_.dd_port_q
                                            : 1 + static_cast<int>(rng_.below(kPorts - 1));
    // sent with 2C + 2: the delay left after the cycles it took (12.1)
    const uint64_t spent = k.cyc - x.sent_at;
    k.hm.t = k.hm.t > spent ? k.hm.t - static_cast<unsigned>(spent) : 0u;
    if (x.setup) {
      const int v = k.h_port == s_.dd_port_q && rng_.pct(70) ? s_.dd_vc_q
                                                             : static_cast<int>(rng_.below(kVcs));
      make_whole(k.h_port, v, s_.loop.port0_q ? s_.loop.port0_q : 1 + rng_.below(kPorts - 1));
    }
  } else {   // another router's
    k.h_port = x.port > 0 ? x.port : 1 + static_cast<int>(rng_.below(kPorts - 1));
  }
  k.h_valid = true;
}

// Another router's message, or a stale one of its own.
void FsmBench::draw_message(Cycle& k) {
  unsigned sender = 1 + rng_.below(kNodes - 1);
  if (sender == kId) sender = 0;
  k.h_port = 1 + static_cast<int>(rng_.below(kPorts - 1));
  const unsigned pick = rng_.below(100);
  if (pick < 38) draw_probe(k, sender);
  else if (pick < 76) draw_move(k, sender);
  else if (pick < 94) draw_kill_move(k, sender);
  else draw_stale_own(k);
  k.h_valid = true;
}

// A probe; now and then one that came round the port's mark.
void FsmBench::draw_probe(Cycle& k, unsigned sender) {
  const int hp = k.h_port;
  sm_t& hm = k.hm;
  hm = draw_sm(rng_, fmt_, KIND_PROBE, sender);
  hm.t = 1 + rng_.below(cmax_ + 1);   // (its hop counted: a cycle at least)
  if (s_.mark_cyc_q[hp] && s_.mark_sender_q[hp] != kId && rng_.pct(50)) {
    // the mark's sender, more cycles than the mark: mostly as many more
    // as the mark's age (that very probe came round), else a later one
    const unsigned age = spin_mark_age(&s_, fmt_.cyc_max, k.cyc, hp);
    hm.sender = s_.mark_sender_q[hp];
    hm.t = s_.mark_cyc_q[hp] +
           (age <= cmax_ && rng_.pct(70) ? age : rng_.pct(20) ? 1 : 1 + rng_.below(cmax_ / 2 + 1));
    if (kVcs > 1) hm.fk = std::min(63u, s_.mark_fk_q[hp] + rng_.below(2));
    route_all(hp, s_.mark_out_q[hp]);
  } else if (rng_.pct(60)) {
    route_all(hp, 0);
  }
}

// A move or probe_move, of the recovery it is in now and then.
void FsmBench::draw_move(Cycle& k, unsigned sender) {
  const int hp = k.h_port;
  sm_t& hm = k.hm;
  hm = draw_sm(rng_, fmt_, rng_.pct(50) ? KIND_MOVE : KIND_PROBE_MOVE, sender);
  if (s_.state_q == FSM_FROZEN && rng_.pct(60)) hm.sender = s_.source_id_q;
  // a loop of lc cycles, the delay left of 2 lc + 2: lost below lc + 2
  hm.lc = 1 + rng_.below(cmax_);
  hm.t = rng_.pct(20)   ? hm.lc + 1 + rng_.below(2)
         : rng_.pct(10) ? rng_.below(hm.lc + 1)
                        : hm.lc + 2 + rng_.below(hm.lc + 1);
  if (rng_.pct(75)) {   // a whole packet waits for its next hop
    const unsigned o = s_.loop_out_q[hp] && hm.kind == KIND_PROBE_MOVE &&
                               s_.source_id_q == hm.sender
                           ? s_.loop_out_q[hp]
                           : 1 + rng_.below(kPorts - 1);
    for (int v = 0; v < kVcs; v++)
      if (!s_.frozen_q[hp][v] && vc_[hp][v].routed && vc_[hp][v].sent == 0) vc_[hp][v].op = o;
    make_whole(hp, static_cast<int>(rng_.below(kVcs)), o);
  }
}

// A kill_move, mostly of the recovery it is in.
void FsmBench::draw_kill_move(Cycle& k, unsigned sender) {
  sm_t& hm = k.hm;
  hm = draw_sm(rng_, fmt_, KIND_KILL_MOVE,
               rng_.pct(70) && s_.source_id_q != kId ? s_.source_id_q : sender);
  hm.lc = 1 + rng_.below(cmax_);
  hm.t = rng_.pct(30) ? hm.lc + 1 + rng_.below(2) : rng_.below(2 * hm.lc + 3);
}

// Its own move, probe_move or kill_move of an earlier loop, home or half way.
void FsmBench::draw_stale_own(Cycle& k) {
  static const unsigned kinds[] = {KIND_MOVE, KIND_PROBE_MOVE, KIND_KILL_MOVE};
  sm_t& hm = k.hm;
  hm = draw_sm(rng_, fmt_, kinds[rng_.below(3)], kId);
  hm.lc = 1 + rng_.below(cmax_);
  hm.t = rng_.pct(80) ? rng_.below(hm.lc + 3) : hm.lc + 3 + rng_.below(hm.lc);
  if (s_.dd_port_q && rng_.pct(70)) k.h_port = s_.dd_port_q;
  if (s_.loop.port0_q && rng_.pct(50))
    make_whole(k.h_port, static_cast<int>(rng_.below(kVcs)), s_.loop.port0_q);
}

// Arm notices from downstream: on any output now and then, and on the
// outputs of frozen VCs.
void FsmBench::arm_notices(Cycle& k) {
  for (int o = 1; o < kPorts; o++) {
    bool arm = rng_.pct(3);
    for (int p = 1; p < kPorts && !arm; p++)
      for (int v = 0; v < kVcs; v++)
        if (s_.frozen_q[p][v] && !s_.armed_q[p][v] && vc_[p][v].op == static_cast<unsigned>(o) &&
            rng_.pct(25))
          arm = true;
    if (!arm) continue;
    const unsigned av = rng_.below(kVcs);   // a VC of the downstream router
    k.in_cred[o] = CRED_ARM_MAKE(av);
    k.arm_in |= 1u << o;
    k.arm_in_vc |= av << (2 * o);
  }
}

// The views of the input VCs, and the RTL's inputs before the managers'
// decisions.
void FsmBench::drive_rtl(Cycle& k) {
  Views& views = k.views;
  for (int p = 1; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++) {
      const Vc& q = vc_[p][v];
      views.set(p, v, q.cnt(), q.len, q.head(), q.tail(), q.routed, q.routed ? q.op : 0);
    }
  k.beside = false;
  if (k.h_valid && k.hm.kind == KIND_PROBE && k.hm.sender == kId && k.h_port + 1 < kPorts &&
      waits_for(k.h_port + 1, 0, k.hm.p0)) {
    k.beside = true;
    for (int v = 0; v < kVcs; v++)
      if (waits_for(k.h_port, v, k.hm.p0)) k.beside = false;
  }
  b_->cnt_nz_i = views.cnt_nz();
  b_->rv_i = views.rv_mask();
  views.put_ops(b_->op_i);
  b_->whole_i = views.whole_mask();
  b_->tail_i = views.tail_mask();
  b_->arm_in_i = k.arm_in;
  b_->arm_in_vc_i = k.arm_in_vc;
  b_->h_valid_i = k.h_valid;
  b_->h_port_i = static_cast<uint8_t>(k.h_port);
  b_->h_kind_i = static_cast<uint8_t>(k.h_valid ? k.hm.kind : 0);
  put_word(b_->h_data_i, 0, k.h_valid ? k.h_w : flit_t{0, 0, 0});
  b_->adopt_i = 0;
  b_->mm_freeze_i = b_->mm_enter_i = b_->mm_release_i = 0;
  b_->popped_i = 0;
  b_.eval();
}

// C, steps 1 to 3 (spin_fsm_pre).
void FsmBench::c_steps_1_to_3(Cycle& k) {
  spin_ctx_t& c = k.c;
  ctx_init(&c, &fmt_, xlat_, 0);
  k.views.to_ctx(&c);
  c.id = static_cast<int>(kId);
  c.nodes = static_cast<int>(kNodes);
  c.tdd = kTdd;
  c.adopt = 1;
  c.cycle = k.cyc;
  k.s0 = s_;
  k.st0 = st_;
  spin_fsm_pre(&s_, &c, k.in_cred, &st_);
  k.s1 = s_;
  k.own_pre = c.own_out;
  std::memcpy(k.arm_pre, c.arm_out, sizeof k.arm_pre);
}

// The inputs of the cycle, for a mismatch.
std::string FsmBench::describe(const Cycle& k) const {
  const spin_router_t& s0 = k.s0;
  std::string d = strf("state %d cnt %u watch %u.%u is_deadlock %d source %u pm_sent %d "
                       "loop cyc %u port0 %u frozen 0x%" PRIx64 " armed 0x%" PRIx64 " spinning 0x%" PRIx64 "; ",
                       static_cast<int>(s0.state_q), s0.cnt_q, s0.dd_port_q, s0.dd_vc_q,
                       s0.is_deadlock_q, s0.source_id_q, s0.pm_sent_q, s0.loop.cyc_q,
                       s0.loop.port0_q, frozen_mask(s0), vc_mask(s0.armed_q),
                       vc_mask(s0.spinning_q));
  if (k.h_valid) d += strf("handled on %d: %s; ", k.h_port, sm_str(k.hm).c_str());
  d += strf("arm in 0x%x vc 0x%x; VCs (cnt/len/routed/op):", k.arm_in, k.arm_in_vc);
  for (int p = 1; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++)
      if (vc_[p][v].len)
        d += strf(" %d.%d:%u/%u/%d/%u", p, v, vc_[p][v].cnt(), vc_[p][v].len, vc_[p][v].routed,
                  vc_[p][v].op);
  return d;
}

// What the managers see after steps 1 to 3, the spin flits.
void FsmBench::check_pre(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  const spin_ctx_t& c = k.c;
  b_.check("state_o", b_->state_o, s_.state_q, inputs);
  b_.check("is_deadlock_o", b_->is_deadlock_o, s_.is_deadlock_q, inputs);
  b_.check("source_id_o", b_->source_id_o, s_.source_id_q, inputs);
  b_.check("pm_sent_o", b_->pm_sent_o, s_.pm_sent_q, inputs);
  b_.check("frozen_pre_o", b_->frozen_pre_o, frozen_mask(s_), inputs);
  for (int p = 0; p < kPorts; p++)
    b_.check(strf("loop_out_o[%d]", p).c_str(), get_bits(b_->loop_out_o, kPortW * p, kPortW),
             s_.loop_out_q[p], inputs);
  b_.check("frozen_q_o", b_->frozen_q_o, frozen_mask(k.s0), inputs);
  const spin_obs_ctx_t now = {k.cyc, kTdd, kNodes};
  b_.check("top_o", b_->top_o, spin_obs_top(&now), inputs);
  b_.check("out_busy_o", b_->out_busy_o, c.out_busy, inputs);
  b_.check("in_busy_o", b_->in_busy_o, c.in_busy, inputs);
  for (int o = 0; o < kPorts; o++) {
    if (!(c.out_busy >> o & 1u)) continue;
    const int sp = c.spin_src_port[o];
    b_.check(strf("spin_src_o[%d]", o).c_str(), get_bits(b_->spin_src_o, kPortW * o, kPortW),
             static_cast<unsigned>(sp), inputs);
    b_.check(strf("spin_ovc_o[%d]", o).c_str(), get_bits(b_->spin_ovc_o, 2u * o, 2),
             CTL_VC(c.spin_flit[o].ctl), inputs);
    b_.check(strf("spin_vc_o[%d]", sp).c_str(), get_bits(b_->spin_vc_o, 2u * sp, 2),
             static_cast<unsigned>(c.spin_src_vc[o]), inputs);
  }
}

// Step 4, or the managers (spin_unit_pre's handle); their decisions, read
// from the C state's change, go to the RTL.
void FsmBench::step_4_and_managers(Cycle& k) {
  const sm_t& hm = k.hm;
  const int hp = k.h_port;
  if (k.h_valid) {
    k.home = hm.sender == kId && spin_fsm_home(&s_, &k.c, hp, &k.hm, &st_);
    b_.check("home_o", b_->home_o, k.home, [&] { return describe(k); });
    if (!k.home) {
      if (hm.kind == KIND_PROBE) spin_probe_in(&s_, &k.c, hp, &k.hm, &st_);
      else spin_move_in(&s_, &k.c, hp, &k.hm, &st_);
    }
  }
  if (st_.probes_adopted != k.st0.probes_adopted) {
    k.adopted = true;
    b_->adopt_i = 1;
    // (each masked to its port's width: a Verilated input keeps bits above it)
    b_->adopt_vc_i = s_.dd_vc_q & 3u;
    b_->adopt_cyc_i = s_.loop.cyc_q & field_max(P_CycW);
    b_->adopt_port0_i = s_.loop.port0_q & field_max(kPortW);
    b_->adopt_fk0_i = s_.loop.fk0_q & 63u;
  }
  k.mm_new = k.h_valid && !k.home && hm.kind != KIND_PROBE
                 ? frozen_mask(s_) & ~frozen_mask(k.s1) : 0ull;
  if (k.mm_new) {
    const int v = __builtin_ctzll(k.mm_new) - hp * SPIN_MAX_VCS;
    b_->mm_freeze_i = 1;
    b_->mm_vc_i = static_cast<uint8_t>(v);
    b_->mm_out_i = s_.loop_out_q[hp];
    b_->mm_enter_i = hm.sender != kId;
  }
  k.released = k.h_valid && !k.home && hm.kind == KIND_KILL_MOVE && hm.sender != kId &&
               k.s1.is_deadlock_q && !s_.is_deadlock_q;
  b_->mm_release_i = k.released;
  b_.eval();
}

// The FSM's own message, the arm notices, the frozen VCs after the managers.
void FsmBench::check_decisions(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  const spin_ctx_t& c = k.c;
  b_.check("own_out_o", b_->own_out_o, c.own_out, inputs);
  if (c.own_out) {
    b_.check("own_kind_o", b_->own_kind_o, c.own.kind, inputs);
    check_word(b_, "own_data_o", get_word(b_->own_data_o, 0), sm_pack(&fmt_, &c.own), inputs);
  }
  for (int p = 0; p < kPorts; p++) {
    b_.check(strf("arm_o[%d]", p).c_str(), b_->arm_o >> p & 1u, c.arm_out[p] != 0, inputs);
    if (c.arm_out[p])
      b_.check(strf("arm_vc_o[%d]", p).c_str(), get_bits(b_->arm_vc_o, 2u * p, 2),
               CRED_ARM_VC(c.arm_out[p]), inputs);
  }
  b_.check("frozen_o", b_->frozen_o, frozen_mask(s_), inputs);
}

// What this cycle reached.
void FsmBench::count_events(const Cycle& k) {
  const spin_router_t &s0 = k.s0, &s1 = k.s1;
  const spin_stats_t& st0 = k.st0;
  const spin_ctx_t& c = k.c;
  const sm_t& hm = k.hm;
  const bool home = k.home, h_valid = k.h_valid;
  const bool taken = st_.probes_returned != st0.probes_returned;
  ev_.hit(e_probe, s0.state_q == FSM_DD && s0.cnt_q == 0 && k.own_pre && c.own.kind == KIND_PROBE);
  ev_.hit(e_taken, taken);
  ev_.hit(e_adopt, k.adopted);
  ev_.hit(e_home, home && s_.state_q == FSM_FORWARD_PROGRESS);
  ev_.hit(e_spin, st_.spins != st0.spins);
  ev_.hit(e_fspin, s0.state_q == FSM_FROZEN && s0.cnt_q == 0 && !s0.pm_sent_q);
  ev_.hit(e_timeout, st_.frozen_timeouts != st0.frozen_timeouts);
  ev_.hit(e_kill_move, s0.state_q == FSM_MOVE && s0.cnt_q == 0);
  ev_.hit(e_kill_pm, s0.state_q == FSM_PROBE_MOVE && s0.cnt_q == 0 && s0.pm_sent_q);
  ev_.hit(e_pm, s0.state_q == FSM_PROBE_MOVE && s0.cnt_q == 0 && !s0.pm_sent_q);
  ev_.hit(e_kill_home, home && hm.kind == KIND_KILL_MOVE && s1.state_q == FSM_KILL_MOVE &&
                           hm.t == s1.loop.cyc_q + 2);
  ev_.hit(e_kill_late, home && hm.kind == KIND_KILL_MOVE && s1.state_q == FSM_KILL_MOVE &&
                           hm.t != s1.loop.cyc_q + 2);
  ev_.hit(e_kill_fig8, h_valid && !home && hm.kind == KIND_KILL_MOVE && hm.sender == kId &&
                           c.fwd_mask != 0);
  ev_.hit(e_late, home && (hm.kind == KIND_MOVE || hm.kind == KIND_PROBE_MOVE) &&
                      hm.t == hm.lc + 1 && s_.state_q == s1.state_q);
  ev_.hit(e_kill_exp, s0.state_q == FSM_KILL_MOVE && s0.cnt_q == 0);
  ev_.hit(e_resolved, st_.deadlocks_resolved != st0.deadlocks_resolved);
  ev_.hit(e_false, st_.false_positives != st0.false_positives);
  for (int p = 1; p < kPorts; p++) ev_.hit(e_arm_up, k.arm_pre[p] != 0);
  {
    const bool sender = s0.state_q >= FSM_MOVE && s0.state_q <= FSM_KILL_MOVE;
    const int dp = s0.dd_port_q, dv = s0.dd_vc_q;
    ev_.hit(e_arm_end, sender && s0.frozen_q[dp][dv] && !s0.armed_q[dp][dv] && s1.armed_q[dp][dv]);
  }
  ev_.hit(e_flits, c.out_busy != 0);
  ev_.hit(e_release, k.released);
  ev_.hit(e_fig8, k.mm_new && hm.sender == kId);
  ev_.hit(e_fig8_edge, h_valid && !home && hm.kind != KIND_PROBE && hm.kind != KIND_KILL_MOVE &&
                           hm.sender == kId && hm.t == hm.lc + 3);
  ev_.hit(e_enter, k.mm_new && hm.sender != kId);
  ev_.hit(e_replace, k.own_pre && c.own_out &&
                         (c.own.kind != KIND_PROBE || k.own_pre != c.own_out) &&
                         (taken || k.adopted || home));
  ev_.hit(e_cycmax, (taken || k.adopted) && s_.loop.cyc_q == fmt_.cyc_max);
  ev_.hit(e_home_max, home && s_.state_q == FSM_FORWARD_PROGRESS && hm.t == fmt_.cyc_max + 2);
  ev_.hit(e_past, home == false && h_valid && hm.kind == KIND_PROBE && hm.sender == kId &&
                      s1.state_q == FSM_DD && hm.t == fmt_.cyc_max + 1);
  ev_.hit(e_one, (taken || k.adopted) && s_.loop.cyc_q == 1);
  ev_.hit(e_beside, k.beside && !taken && s1.state_q == FSM_DD && !s1.is_deadlock_q &&
                        hm.t <= fmt_.cyc_max);
}

// Its own message comes back, now and then.
void FsmBench::echo_own(const Cycle& k) {
  const spin_ctx_t& c = k.c;
  if (!c.own_out) return;
  const uint64_t cyc = k.cyc;
  Msg x;
  x.m = c.own;
  x.port = -1;
  x.sent_at = cyc;
  x.setup = rng_.pct(75);
  bool back = false;
  switch (c.own.kind) {
    case KIND_PROBE:
      back = rng_.pct(60);
      x.due = cyc + 2 + rng_.below(10);
      // the loop's cycles (its hop counted: 1 at least), the bound and one past it now and then
      x.m.t = rng_.pct(8) ? cmax_ : rng_.pct(5) ? cmax_ + 1 : 1 + rng_.below(cmax_);
      if (kVcs > 1) {
        x.m.fk = rng_.below(std::min(fmt_.k, 4u) + 1);
        draw_forks(rng_, fmt_, &x.m);
      }
      break;
    default: {   // move, probe_move, kill_move: sent with delay 2C + 2
      // back after C cycles mostly (home at delay C + 2), one early (a
      // figure 8 at lc + 3) or late (lc + 1), or any time up to 2C + 2
      const unsigned cc = s_.loop.cyc_q, pick = rng_.below(100);
      back = rng_.pct(c.own.kind == KIND_KILL_MOVE ? 70 : 85);
      x.due = cyc + (pick < 70   ? cc
                     : pick < 76 ? cc - 1
                     : pick < 82 ? cc + 1
                                 : 1 + rng_.below(2 * cc + 2));
      if (x.due <= cyc) x.due = cyc + 1;
      break;
    }
  }
  if (back) {
    auto at = std::find_if(queue_.begin(), queue_.end(), [&](const Msg& y) { return y.due > x.due; });
    queue_.insert(at, x);
  }
}

// The router: spin flits leave, others at random, flits arrive.  Returns
// the VCs that sent a flit (bit p * 4 + v).
uint64_t FsmBench::traffic(const Cycle& k) {
  const spin_ctx_t& c = k.c;
  uint64_t popped = 0;
  for (int o = 0; o < kPorts; o++)
    if (c.out_busy >> o & 1u) {
      const int p = c.spin_src_port[o], v = c.spin_src_vc[o];
      if (vc_[p][v].tail()) s_.spinning_q[p][v] = s_.frozen_q[p][v] = s_.armed_q[p][v] = 0;
      vc_[p][v].sent++;
      popped |= 1ull << (p * SPIN_MAX_VCS + v);
    }
  for (int p = 1; p < kPorts; p++) {
    bool sent = c.in_busy >> p & 1u;
    for (int v = 0; v < kVcs; v++) {
      Vc& q = vc_[p][v];
      const uint64_t bit = 1ull << (p * SPIN_MAX_VCS + v);
      if (!(popped & bit) && !sent && q.cnt() && q.routed && !s_.frozen_q[p][v] &&
          !(c.out_busy >> q.op & 1u) && rng_.pct(12)) {
        q.sent++;
        popped |= bit;
        sent = true;
      }
      if (q.len && q.sent == q.len) q = Vc();
      if (q.len == 0 && !draining_ && rng_.pct(20)) {
        q.len = 1 + rng_.below(5);
        q.arrived = 0;
      }
      if (q.len && q.arrived < q.len && rng_.pct(70)) q.arrived++;
    }
  }
  return popped;
}

// Every register after the edge.
void FsmBench::check_registers(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  b_.check("state_q", b_->state_q_o, s_.state_q, inputs);
  b_.check("cnt_q", b_->cnt_q_o, s_.cnt_q, inputs);
  b_.check("dd_port_q", b_->dd_port_q_o, s_.dd_port_q, inputs);
  b_.check("dd_vc_q", b_->dd_vc_q_o, s_.dd_vc_q, inputs);
  b_.check("is_deadlock_q", b_->is_deadlock_q_o, s_.is_deadlock_q, inputs);
  b_.check("source_id_q", b_->source_id_q_o, s_.source_id_q, inputs);
  b_.check("pm_sent_q", b_->pm_sent_q_o, s_.pm_sent_q, inputs);
  for (int p = 0; p < kPorts; p++)
    b_.check(strf("loop_out_q[%d]", p).c_str(), get_bits(b_->loop_out_q_o, kPortW * p, kPortW),
             s_.loop_out_q[p], inputs);
  b_.check("loop.cyc_q", b_->loop_cyc_q_o, s_.loop.cyc_q, inputs);
  b_.check("loop.port0_q", b_->loop_port0_q_o, s_.loop.port0_q, inputs);
  if (kVcs > 1) {
    b_.check("loop.fk0_q", b_->loop_fk0_q_o, s_.loop.fk0_q, inputs);
    b_.check("loop.fork_q[63:0]", get_bits(b_->loop_fork_q_o, 0, P_ForkW < 64 ? P_ForkW : 64),
             s_.loop.fork_lo_q, inputs);
    if (P_ForkW > 64)
      b_.check("loop.fork_q[..:64]", get_bits(b_->loop_fork_q_o, 64, P_ForkW - 64),
               s_.loop.fork_hi_q, inputs);
  }
  b_.check("frozen_q", b_->frozen_q_o, frozen_mask(s_), inputs);
  b_.check("armed_q", b_->armed_q_o, vc_mask(s_.armed_q), inputs);
  b_.check("spinning_q", b_->spinning_q_o, vc_mask(s_.spinning_q), inputs);
  for (int p = 1; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++)
      b_.check(strf("spin_ovc_q[%d][%d]", p, v).c_str(),
               get_bits(b_->spin_ovc_q_o, 2u * (p * SPIN_MAX_VCS + v), 2), s_.spin_ovc_q[p][v],
               inputs);
  b_.check("popped_q", b_->popped_q_o, s_.popped_q, inputs);
  const spin_obs_ctx_t next = {k.cyc + 1, kTdd, kNodes};
  b_.check("ep_q", b_->ep_q_o, spin_obs_ep(&next), inputs);
  b_.check("top_q", b_->top_o, spin_obs_top(&next), inputs);
}

// The cycles in each state, the C model's counters and the corner cases
// reached; exits.
void FsmBench::report() {
  const uint64_t* n = state_cycles_;
  std::printf("spin_fsm: cycles in OFF %" PRIu64 ", DD %" PRIu64 ", MOVE %" PRIu64
              ", PROBE_MOVE %" PRIu64 ", FORWARD_PROGRESS %" PRIu64 ", KILL_MOVE %" PRIu64
              ", FROZEN %" PRIu64 "\n", n[FSM_OFF], n[FSM_DD], n[FSM_MOVE], n[FSM_PROBE_MOVE],
              n[FSM_FORWARD_PROGRESS], n[FSM_KILL_MOVE], n[FSM_FROZEN]);
  std::printf("spin_fsm: C model counters: probes returned %" PRIu64 ", adopted %" PRIu64
              ", spins %" PRIu64 ", resolved %" PRIu64 ", false positives %" PRIu64
              ", frozen timeouts %" PRIu64 "\n", st_.probes_returned, st_.probes_adopted, st_.spins,
              st_.deadlocks_resolved, st_.false_positives, st_.frozen_timeouts);
  SpinBench::report();
}

}  // namespace

int main(int argc, char** argv) {
  FsmBench t(argc, argv);
  t.reset();
  t.run();
  t.report();
}
