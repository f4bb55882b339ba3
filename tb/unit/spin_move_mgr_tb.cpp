// spin_move_mgr_tb.cpp - rtl/spin_move_mgr.sv (the move manager of a
// router, docs/microarchitecture.md 12.1 and 12.5; combinational) against
// its C twin, spin_move_in() and spin_next_hop() of cmodel/spin_move_mgr.c
// on a spin_router_t and a spin_ctx_t.  The RTL decides and spin_fsm applies
// the decision; the C manager changes the state itself.  So the bench
// compares the decisions (forwarded, where, with which word; which VC
// frozen; FROZEN entered; recovery left), read from the C state's change,
// and then the C state after the message against the state before it with
// the RTL's decision applied as spin_fsm applies it (mm_freeze_i,
// mm_enter_i, mm_release_i).  Parameters: -DP_NumPorts, -DP_NumVcs,
// -DP_IdW, -DP_CycW (as -G...).
//
// +cycles+N vectors, each: a move, probe_move or kill_move from the router
// itself (a figure 8: not home, so its delay above lc + 2), the sender of
// its last recovery or another router, on a random input, with a loop of 1
// to CycMax cycles (lc) and a delay of 0 to 2 lc + 2 (its hop counted),
// often lc + 1, lc + 2 or lc + 3, where another router's message is lost or
// taken; any fork entries and count; the router in any state with its
// records of where the last move went, frozen (armed, spinning) VCs here and
// there; the VCs at the input waiting for one output (one of them with a
// whole packet) or for several; the other inputs' VCs at random.  "cycle"
// in a failure message is the vector number.
#include <algorithm>

#include "Vspin_move_mgr.h"
#include "spin_tb.h"

using namespace spin_tb;

namespace {

// The router's state in one of the states the FSM can hold, for router id
// of a network of nodes routers (the records, loop and counter at random).
void draw_state(Rng& r, unsigned id, unsigned nodes, spin_router_t* s) {
  static const spin_state_t states[] = {FSM_OFF, FSM_DD, FSM_DD, FSM_MOVE, FSM_PROBE_MOVE,
                                        FSM_FORWARD_PROGRESS, FSM_KILL_MOVE, FSM_FROZEN,
                                        FSM_FROZEN};
  std::memset(s, 0, sizeof *s);
  s->state_q = states[r.below(9)];
  switch (s->state_q) {
    case FSM_OFF:
    case FSM_DD:
      s->is_deadlock_q = 0;
      s->source_id_q = static_cast<uint16_t>(r.below(nodes));   // the last recovery's
      break;
    case FSM_MOVE: s->is_deadlock_q = 0; s->source_id_q = static_cast<uint16_t>(id); break;
    case FSM_KILL_MOVE: s->is_deadlock_q = r.pct(50); s->source_id_q = static_cast<uint16_t>(id); break;
    case FSM_FROZEN: {
      s->is_deadlock_q = 1;
      unsigned x = r.below(nodes);
      if (x == id) x = (x + 1) % nodes;
      s->source_id_q = static_cast<uint16_t>(x);
      break;
    }
    default: s->is_deadlock_q = 1; s->source_id_q = static_cast<uint16_t>(id); break;
  }
  s->pm_sent_q = r.pct(50);
  s->cnt_q = r.below(64);
  s->loop.cyc_q = r.below(64);
  for (int p = 1; p < kPorts; p++)
    s->loop_out_q[p] = static_cast<uint8_t>(r.pct(40) ? 1 + r.below(kPorts - 1) : 0);
}

// One vector: the network and router, the VCs, the message, the C
// manager's decisions.
struct Vector {
  unsigned nodes = 0, id = 0, tdd = 0;
  spin_router_t s;        // the C state, changed by the C manager
  spin_router_t before;   // the state before the message
  Views views;
  int p = 0;              // the input the message arrives on
  unsigned kind = 0;
  sm_t m;
  flit_t w;
  spin_ctx_t c;
  uint64_t new_frozen = 0;
  bool c_fwd = false, c_freeze = false, c_enter = false, c_release = false;

  Vector() = default;
  Vector(const Vector&) = delete;   // c points into views
};

// The bench: the RTL move manager, its C twin and the corner cases reached.
class MoveMgrBench : public SpinBench<Vspin_move_mgr> {
 public:
  MoveMgrBench(int argc, char** argv) : SpinBench(argc, argv, "spin_move_mgr", "") {
    add_events();
    fmt_ = make_fmt(0);
  }

  void run() {
    for (uint64_t vec = 0; vec < b_.cycles(); vec++) {
      b_.set_cycle(vec);
      Vector x;
      draw_router(x);
      draw_vcs(x);
      draw_frozen(x);
      draw_message(x);
      drive_rtl(x);
      run_c(x);
      check_decisions(x);
      check_state_after(x);
      count_events(x);
    }
  }

 private:
  void add_events();
  void draw_router(Vector& x);
  void draw_vcs(Vector& x);
  void draw_frozen(Vector& x);
  void draw_message(Vector& x);
  void drive_rtl(Vector& x);
  void run_c(Vector& x);
  std::string describe(const Vector& x) const;
  void check_decisions(Vector& x);
  spin_router_t applied(const Vector& x);
  void check_state_after(Vector& x);
  void count_events(Vector& x);

  size_t e_enter, e_again, e_fig8, e_release, e_release_lost, e_kill_on, e_kill_edge, e_own_kill,
      e_record, e_fork, e_fork_none, e_nohop, e_lost, e_lost_edge, e_taken_edge, e_cycmax,
      e_fig8_edge, e_blk, e_whole, e_nok;
  sm_fmt_t fmt_;
  const uint16_t xlat_[SPIN_MAX_PORTS] = {0};
  const unsigned id_span_ = 1u << P_IdW;
  spin_stats_t st_;
};

void MoveMgrBench::add_events() {
  e_enter = ev_.add("FROZEN entered from OFF or DD", 2000);
  e_again = ev_.add("frozen again for the same sender (FROZEN)", 300);
  e_fig8 = ev_.add("own move or probe_move frozen (figure 8)", 300);
  e_release = ev_.add("recovery left (kill_move)", 1000);
  e_release_lost = ev_.add("recovery left, kill_move lost (delay lc + 1)", 200);
  e_kill_on = ev_.add("kill_move forwarded, not its recovery", 2000);
  e_kill_edge = ev_.add("another's kill_move forwarded at delay lc + 2", 1000);
  e_own_kill = ev_.add("own kill_move forwarded (KILL_MOVE)", 200);
  e_record = ev_.add("next hop from the record (loop_out)", 1000);
  e_fork = ev_.add("fork entry read", kVcs > 1 ? 1000 : 0);
  e_fork_none = ev_.add("no fork entry left (fk = K)", kVcs > 1 ? 100 : 0);
  e_nohop = ev_.add("dropped: no next hop", 1000);
  e_lost = ev_.add("lost: another's, delay below lc + 2", 5000);
  e_lost_edge = ev_.add("lost: another's move or probe_move at delay lc + 1", 1000);
  e_taken_edge = ev_.add("frozen: another's move or probe_move at delay lc + 2", 400);
  e_cycmax = ev_.add("frozen: a loop of CycMax cycles", 300);
  e_fig8_edge = ev_.add("own move or probe_move frozen at delay lc + 3", 50);
  e_blk = ev_.add("not frozen: a frozen VC uses the input or output", 500);
  e_whole = ev_.add("not frozen: no whole packet", 1000);
  e_nok = ev_.add("not frozen: the state refuses", 1000);
}

// The network's size, the router's id, t_DD and state.
void MoveMgrBench::draw_router(Vector& x) {
  x.nodes = rng_.pct(30) ? id_span_ : 2 + rng_.below(id_span_ < 15 ? id_span_ - 1 : 15);
  x.id = rng_.below(x.nodes);
  x.tdd = 2 + rng_.below(30);
  draw_state(rng_, x.id, x.nodes, &x.s);
}

// The VCs: at random; at the message's input p waiting for one output (one
// with a whole packet), or a whole packet somewhere at p.
void MoveMgrBench::draw_vcs(Vector& x) {
  Views& views = x.views;
  for (int p = 1; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++) {
      const unsigned len = 1 + rng_.below(5);
      views.set(p, v, rng_.pct(85) ? 1 + rng_.below(len) : 0, len, rng_.pct(70), rng_.pct(30),
                rng_.pct(90), rng_.pct(8) ? 0 : 1 + rng_.below(kPorts - 1));
    }
  const int p = x.p = 1 + static_cast<int>(rng_.below(kPorts - 1));
  if (rng_.pct(55)) {   // the VCs at p wait for one output, one with a whole packet
    const unsigned o = 1 + rng_.below(kPorts - 1);
    for (int v = 0; v < kVcs; v++)
      if (views.routed(p, v)) views.op[p][v] = static_cast<uint8_t>(o);
    const int v = static_cast<int>(rng_.below(kVcs));
    const unsigned len = 1 + rng_.below(5);
    views.set(p, v, len, len, true, len == 1, true, o);
  } else if (rng_.pct(30)) {   // a whole packet somewhere at p
    const int v = static_cast<int>(rng_.below(kVcs));
    const unsigned len = 1 + rng_.below(5);
    views.set(p, v, len, len, true, len == 1, true, 1 + rng_.below(kPorts - 1));
  }
}

// Frozen VCs (one per input and per output), some armed, some spinning.
void MoveMgrBench::draw_frozen(Vector& x) {
  if (!rng_.pct(60)) return;
  unsigned ins = 0, outs = 0;
  for (int k = 0, n = 1 + static_cast<int>(rng_.below(2)); k < n; k++) {
    const int q = rng_.pct(30) ? x.p : 1 + static_cast<int>(rng_.below(kPorts - 1));
    const int v = static_cast<int>(rng_.below(kVcs));
    if (!x.views.routed(q, v) || (ins >> q & 1u) || (outs >> x.views.op[q][v] & 1u)) continue;
    ins |= 1u << q;
    outs |= 1u << x.views.op[q][v];
    x.s.frozen_q[q][v] = 1;
    x.s.armed_q[q][v] = rng_.pct(50);
    x.s.spinning_q[q][v] = x.s.armed_q[q][v] && rng_.pct(40);
  }
}

// The message: its kind and sender, as the link carries it.
void MoveMgrBench::draw_message(Vector& x) {
  static const unsigned kinds[] = {KIND_MOVE, KIND_MOVE, KIND_PROBE_MOVE, KIND_PROBE_MOVE,
                                   KIND_KILL_MOVE, KIND_KILL_MOVE, KIND_KILL_MOVE};
  x.kind = kinds[rng_.below(7)];
  const unsigned pick = rng_.below(100);
  const unsigned sender = pick < 25 ? x.id : pick < 60 ? x.s.source_id_q : rng_.below(x.nodes);
  sm_t& m = x.m;
  m = draw_sm(rng_, fmt_, x.kind, sender);
  // the delay left of 2 lc + 2 (with its hop counted), often where
  // another's is lost (below lc + 2) or taken; its own is not home (above
  // lc + 2: spin_fsm takes it home)
  if (rng_.pct(10)) m.lc = fmt_.cyc_max;
  const unsigned pick_t = rng_.below(100);
  m.t = pick_t < 45   ? m.lc + 1 + rng_.below(3)
        : pick_t < 55 ? rng_.below(3)
                      : rng_.below(2 * m.lc + 3);
  if (sender == x.id) m.t = m.lc + 3 + rng_.below(m.lc);
  x.w = sm_pack(&fmt_, &m);
  m = sm_unpack(&fmt_, &x.w);
}

void MoveMgrBench::drive_rtl(Vector& x) {
  const int p = x.p;
  b_->valid_i = 1;
  b_->port_i = static_cast<uint8_t>(p);
  b_->kind_i = static_cast<uint8_t>(x.kind);
  put_word(b_->data_i, 0, x.w);
  b_->id_i = x.id;
  b_->state_i = static_cast<uint8_t>(x.s.state_q);
  b_->is_deadlock_i = x.s.is_deadlock_q;
  b_->source_id_i = x.s.source_id_q;
  b_->pm_sent_i = x.s.pm_sent_q;
  b_->frozen_i = frozen_mask(x.s);
  b_->loop_out_i = x.s.loop_out_q[p];
  x.views.put_ops(b_->op_all_i);
  b_->routed_i = b_->op_i = b_->whole_i = 0;
  for (int v = 0; v < kVcs; v++) {
    if (x.views.routed(p, v)) b_->routed_i |= 1u << v;
    if (x.views.whole(p, v)) b_->whole_i |= 1u << v;
    b_->op_i |= static_cast<uint32_t>(x.views.op[p][v]) << (kPortW * v);
  }
  b_.eval();
}

// spin_move_in(), and its decisions read from the C state's change.
void MoveMgrBench::run_c(Vector& x) {
  spin_ctx_t& c = x.c;
  ctx_init(&c, &fmt_, xlat_, 0);
  std::memset(&st_, 0, sizeof st_);
  x.views.to_ctx(&c);
  c.id = static_cast<int>(x.id);
  c.nodes = static_cast<int>(x.nodes);
  c.tdd = x.tdd;
  x.before = x.s;
  spin_move_in(&x.s, &c, x.p, &x.m, &st_);
  x.new_frozen = frozen_mask(x.s) & ~frozen_mask(x.before);
  x.c_fwd = c.fwd_mask != 0;
  x.c_freeze = x.new_frozen != 0;
  x.c_enter = x.kind != KIND_KILL_MOVE && c.cnt_loaded;
  x.c_release = x.kind == KIND_KILL_MOVE && c.cnt_loaded;
}

// The vector's inputs, for a mismatch.
std::string MoveMgrBench::describe(const Vector& x) const {
  const spin_router_t& before = x.before;
  const int p = x.p;
  std::string d = strf("port %d %s; id %u state %d is_deadlock %d source %u pm_sent %d "
                       "frozen 0x%" PRIx64 " loop_out[p] %u; VCs at p:", p, sm_str(x.m).c_str(), x.id,
                       static_cast<int>(before.state_q), before.is_deadlock_q,
                       before.source_id_q, before.pm_sent_q, frozen_mask(before),
                       before.loop_out_q[p]);
  for (int v = 0; v < kVcs; v++)
    d += strf(" %d:cnt %u rv %u op %u whole %d", v, x.views.cnt[p][v], x.views.rv[p][v],
              x.views.op[p][v], x.views.whole(p, v));
  return d;
}

// The decisions: forwarded (where, which word), frozen (which VC), FROZEN
// entered, recovery left.
void MoveMgrBench::check_decisions(Vector& x) {
  auto inputs = [&] { return describe(x); };
  b_.check("fwd_o", b_->fwd_o, x.c_fwd, inputs);
  if (x.c_fwd) {
    b_.check("fwd_port_o", b_->fwd_port_o, static_cast<unsigned>(__builtin_ctz(x.c.fwd_mask)),
             inputs);
    check_word(b_, "fwd_data_o", get_word(b_->fwd_data_o, 0), sm_pack(&fmt_, &x.c.fwd), inputs);
  }
  b_.check("freeze_o", b_->freeze_o, x.c_freeze, inputs);
  if (x.c_freeze)
    b_.check("freeze_vc_o (frozen VC p*4+v)", 1ull << (x.p * SPIN_MAX_VCS + b_->freeze_vc_o),
             x.new_frozen, inputs);
  b_.check("enter_o", b_->enter_o, x.c_enter, inputs);
  b_.check("release_o", b_->release_o, x.c_release, inputs);
}

// The state before the message with the RTL's decision applied as spin_fsm
// applies it (mm_freeze_i, mm_enter_i, mm_release_i).
spin_router_t MoveMgrBench::applied(const Vector& x) {
  const spin_router_t& before = x.before;
  const int p = x.p;
  spin_router_t e = before;
  if (b_->freeze_o) {
    if (b_->enter_o && !before.is_deadlock_q) std::memset(e.loop_out_q, 0, sizeof e.loop_out_q);
    e.frozen_q[p][b_->freeze_vc_o] = 1;
    e.armed_q[p][b_->freeze_vc_o] = 0;
    e.loop_out_q[p] = b_->fwd_port_o;
    if (b_->enter_o) {
      e.is_deadlock_q = 1;
      e.source_id_q = static_cast<uint16_t>(x.m.sender);
      e.state_q = FSM_FROZEN;
      e.pm_sent_q = 0;
      e.cnt_q = x.m.t - 2u;
      e.loop.cyc_q = x.m.lc;
    }
  }
  if (b_->release_o) {
    for (int q = 0; q < SPIN_MAX_PORTS; q++)
      for (int v = 0; v < SPIN_MAX_VCS; v++)
        if (!e.spinning_q[q][v]) e.frozen_q[q][v] = e.armed_q[q][v] = 0;
    e.is_deadlock_q = 0;
    e.state_q = FSM_DD;
    e.loop.cyc_q = 0;
    e.cnt_q = x.tdd - 1;
  }
  return e;
}

// The C state after the message against the RTL's decision applied.
void MoveMgrBench::check_state_after(Vector& x) {
  auto inputs = [&] { return describe(x); };
  const spin_router_t e = applied(x);
  const spin_router_t& s = x.s;
  b_.check("state_q after", s.state_q, e.state_q, inputs);
  b_.check("is_deadlock_q after", s.is_deadlock_q, e.is_deadlock_q, inputs);
  b_.check("source_id_q after", s.source_id_q, e.source_id_q, inputs);
  b_.check("pm_sent_q after", s.pm_sent_q, e.pm_sent_q, inputs);
  b_.check("cnt_q after", s.cnt_q, e.cnt_q, inputs);
  b_.check("loop.cyc_q after", s.loop.cyc_q, e.loop.cyc_q, inputs);
  b_.check("frozen_q after", frozen_mask(s), frozen_mask(e), inputs);
  for (int q = 1; q < kPorts; q++) {
    b_.check(strf("loop_out_q[%d] after", q).c_str(), s.loop_out_q[q], e.loop_out_q[q], inputs);
    for (int v = 0; v < kVcs; v++)
      b_.check(strf("armed_q[%d][%d] after", q, v).c_str(), s.armed_q[q][v], e.armed_q[q][v],
               inputs);
  }
}

// What this vector reached (the reasons read with the C's helpers).
void MoveMgrBench::count_events(Vector& x) {
  const spin_router_t& before = x.before;
  const sm_t& m = x.m;
  const int p = x.p;
  const unsigned kind = x.kind;
  const bool c_fwd = x.c_fwd, c_freeze = x.c_freeze, c_enter = x.c_enter, c_release = x.c_release;
  spin_ctx_t* c = &x.c;
  const bool own = m.sender == x.id;
  spin_router_t t = before;
  sm_t hop_m = m;
  const unsigned o = spin_next_hop(&t, c, p, &hop_m);
  const bool lost = !o || (!own && m.t < m.lc + 2);
  const bool mv = kind != KIND_KILL_MOVE;
  const bool recorded = kind != KIND_MOVE && before.loop_out_q[p] && before.source_id_q == m.sender;
  ev_.hit(e_enter, c_enter && (before.state_q == FSM_OFF || before.state_q == FSM_DD));
  ev_.hit(e_again, c_enter && before.state_q == FSM_FROZEN);
  ev_.hit(e_fig8, c_freeze && own);
  ev_.hit(e_release, c_release);
  ev_.hit(e_release_lost, c_release && o && m.t == m.lc + 1);
  ev_.hit(e_kill_edge, kind == KIND_KILL_MOVE && c_fwd && !own && m.t == m.lc + 2);
  ev_.hit(e_kill_on, kind == KIND_KILL_MOVE && c_fwd && !own && !c_release);
  ev_.hit(e_own_kill, kind == KIND_KILL_MOVE && c_fwd && own);
  ev_.hit(e_record, c_fwd && recorded);
  ev_.hit(e_fork, kVcs > 1 && o && hop_m.fk != m.fk);
  ev_.hit(e_fork_none, kVcs > 1 && !o && !recorded && m.fk >= fmt_.k &&
                           __builtin_popcount(spin_outputs_at(c, p)) > 1);
  ev_.hit(e_nohop, !o);
  ev_.hit(e_lost, o && !own && m.t < m.lc + 2);
  ev_.hit(e_lost_edge, mv && o && !own && m.t == m.lc + 1 && spin_waiting_vc(c, p, o) >= 0);
  ev_.hit(e_taken_edge, c_freeze && !own && m.t == m.lc + 2);
  ev_.hit(e_cycmax, c_freeze && m.lc == fmt_.cyc_max);
  ev_.hit(e_fig8_edge, c_freeze && own && m.t == m.lc + 3);
  if (mv && !lost && !c_freeze) {
    const bool blk = !spin_may_freeze(&before, c, p, o);
    const bool whole = spin_waiting_vc(c, p, o) >= 0;
    const bool ok = before.state_q == FSM_FROZEN ? before.source_id_q == m.sender
                    : own ? (kind == KIND_MOVE ? before.state_q == FSM_MOVE
                                               : before.state_q == FSM_PROBE_MOVE && before.pm_sent_q)
                          : (before.state_q == FSM_OFF || before.state_q == FSM_DD);
    // (a message not lost has a delay of lc + 2 or more, so at least 2:
    // the rule "a delay of at least 2" of 12.5 never decides here)
    ev_.hit(e_blk, ok && whole && blk);
    ev_.hit(e_whole, ok && !whole);
    ev_.hit(e_nok, !ok);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MoveMgrBench t(argc, argv);
  t.run();
  t.report();
}
