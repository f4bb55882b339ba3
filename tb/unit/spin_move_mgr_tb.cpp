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

uint32_t frozen_mask(const spin_router_t& s) {
  uint32_t m = 0;
  for (int p = 0; p < kPorts; p++)
    for (int v = 0; v < kVcs; v++)
      if (s.frozen_q[p][v]) m |= 1u << (p * SPIN_MAX_VCS + v);
  return m;
}

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

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_move_mgr> b(argc, argv, "spin_move_mgr");
  Rng rng(b.seed());
  std::printf("spin_move_mgr NumPorts=%d NumVcs=%d IdW=%d CycW=%d seed=%u cycles=%" PRIu64 "\n",
              kPorts, kVcs, P_IdW, P_CycW, b.seed(), b.cycles());
  Events ev;
  const size_t e_enter = ev.add("FROZEN entered from OFF or DD", 2000);
  const size_t e_again = ev.add("frozen again for the same sender (FROZEN)", 300);
  const size_t e_fig8 = ev.add("own move or probe_move frozen (figure 8)", 300);
  const size_t e_release = ev.add("recovery left (kill_move)", 1000);
  const size_t e_release_lost = ev.add("recovery left, kill_move lost (delay lc + 1)", 200);
  const size_t e_kill_on = ev.add("kill_move forwarded, not its recovery", 2000);
  const size_t e_kill_edge = ev.add("another's kill_move forwarded at delay lc + 2", 1000);
  const size_t e_own_kill = ev.add("own kill_move forwarded (KILL_MOVE)", 200);
  const size_t e_record = ev.add("next hop from the record (loop_out)", 1000);
  const size_t e_fork = ev.add("fork entry read", kVcs > 1 ? 1000 : 0);
  const size_t e_fork_none = ev.add("no fork entry left (fk = K)", kVcs > 1 ? 100 : 0);
  const size_t e_nohop = ev.add("dropped: no next hop", 1000);
  const size_t e_lost = ev.add("lost: another's, delay below lc + 2", 5000);
  const size_t e_lost_edge = ev.add("lost: another's move or probe_move at delay lc + 1", 1000);
  const size_t e_taken_edge = ev.add("frozen: another's move or probe_move at delay lc + 2", 400);
  const size_t e_cycmax = ev.add("frozen: a loop of CycMax cycles", 300);
  const size_t e_fig8_edge = ev.add("own move or probe_move frozen at delay lc + 3", 50);
  const size_t e_blk = ev.add("not frozen: a frozen VC uses the input or output", 500);
  const size_t e_whole = ev.add("not frozen: no whole packet", 1000);
  const size_t e_nok = ev.add("not frozen: the state refuses", 1000);

  const sm_fmt_t fmt = make_fmt(0);
  const uint8_t xlat[SPIN_MAX_PORTS] = {0};
  const unsigned id_span = 1u << P_IdW;
  spin_stats_t st;

  for (uint64_t vec = 0; vec < b.cycles(); vec++) {
    b.set_cycle(vec);
    const unsigned nodes = rng.pct(30) ? id_span : 2 + rng.below(id_span < 15 ? id_span - 1 : 15);
    const unsigned id = rng.below(nodes), tdd = 2 + rng.below(30);
    spin_router_t s;
    draw_state(rng, id, nodes, &s);
    // ---- the VCs ----
    Views views;
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        const unsigned len = 1 + rng.below(5);
        views.set(p, v, rng.pct(85) ? 1 + rng.below(len) : 0, len, rng.pct(70), rng.pct(30),
                  rng.pct(90), rng.pct(8) ? 0 : 1 + rng.below(kPorts - 1));
      }
    const int p = 1 + static_cast<int>(rng.below(kPorts - 1));
    if (rng.pct(55)) {   // the VCs at p wait for one output, one with a whole packet
      const unsigned o = 1 + rng.below(kPorts - 1);
      for (int v = 0; v < kVcs; v++)
        if (views.routed(p, v)) views.op[p][v] = static_cast<uint8_t>(o);
      const int v = static_cast<int>(rng.below(kVcs));
      const unsigned len = 1 + rng.below(5);
      views.set(p, v, len, len, true, len == 1, true, o);
    } else if (rng.pct(30)) {   // a whole packet somewhere at p
      const int v = static_cast<int>(rng.below(kVcs));
      const unsigned len = 1 + rng.below(5);
      views.set(p, v, len, len, true, len == 1, true, 1 + rng.below(kPorts - 1));
    }
    // frozen VCs (one per input and per output), some armed, some spinning
    if (rng.pct(60)) {
      unsigned ins = 0, outs = 0;
      for (int k = 0, n = 1 + static_cast<int>(rng.below(2)); k < n; k++) {
        const int q = rng.pct(30) ? p : 1 + static_cast<int>(rng.below(kPorts - 1));
        const int v = static_cast<int>(rng.below(kVcs));
        if (!views.routed(q, v) || (ins >> q & 1u) || (outs >> views.op[q][v] & 1u)) continue;
        ins |= 1u << q;
        outs |= 1u << views.op[q][v];
        s.frozen_q[q][v] = 1;
        s.armed_q[q][v] = rng.pct(50);
        s.spinning_q[q][v] = s.armed_q[q][v] && rng.pct(40);
      }
    }
    // ---- the message ----
    static const unsigned kinds[] = {KIND_MOVE, KIND_MOVE, KIND_PROBE_MOVE, KIND_PROBE_MOVE,
                                     KIND_KILL_MOVE, KIND_KILL_MOVE, KIND_KILL_MOVE};
    const unsigned kind = kinds[rng.below(7)];
    const unsigned pick = rng.below(100);
    const unsigned sender = pick < 25 ? id : pick < 60 ? s.source_id_q : rng.below(nodes);
    sm_t m = draw_sm(rng, fmt, kind, sender);
    // the delay left of 2 lc + 2 (with its hop counted), often where
    // another's is lost (below lc + 2) or taken; its own is not home (above
    // lc + 2: spin_fsm takes it home)
    if (rng.pct(10)) m.lc = fmt.cyc_max;
    {
      const unsigned pick = rng.below(100);
      m.t = pick < 45   ? m.lc + 1 + rng.below(3)
            : pick < 55 ? rng.below(3)
                        : rng.below(2 * m.lc + 3);
      if (sender == id) m.t = m.lc + 3 + rng.below(m.lc);
    }
    const flit_t w = sm_pack(&fmt, &m);
    m = sm_unpack(&fmt, &w);

    // ---- RTL ----
    b->valid_i = 1;
    b->port_i = static_cast<uint8_t>(p);
    b->kind_i = static_cast<uint8_t>(kind);
    put_word(b->data_i, 0, w);
    b->id_i = id;
    b->state_i = static_cast<uint8_t>(s.state_q);
    b->is_deadlock_i = s.is_deadlock_q;
    b->source_id_i = s.source_id_q;
    b->pm_sent_i = s.pm_sent_q;
    b->frozen_i = frozen_mask(s);
    b->loop_out_i = s.loop_out_q[p];
    views.put_ops(b->op_all_i);
    b->routed_i = b->op_i = b->whole_i = 0;
    for (int v = 0; v < kVcs; v++) {
      if (views.routed(p, v)) b->routed_i |= 1u << v;
      if (views.whole(p, v)) b->whole_i |= 1u << v;
      b->op_i |= static_cast<uint32_t>(views.op[p][v]) << (3 * v);
    }
    b.eval();

    // ---- C ----
    spin_ctx_t c;
    ctx_init(&c, &fmt, xlat, 0);
    std::memset(&st, 0, sizeof st);
    views.to_ctx(&c);
    c.id = static_cast<int>(id);
    c.nodes = static_cast<int>(nodes);
    c.tdd = tdd;
    const spin_router_t before = s;
    spin_move_in(&s, &c, p, &m, &st);
    const uint32_t new_frozen = frozen_mask(s) & ~frozen_mask(before);
    const bool c_fwd = c.fwd_mask != 0;
    const bool c_freeze = new_frozen != 0;
    const bool c_enter = kind != KIND_KILL_MOVE && c.cnt_loaded;
    const bool c_release = kind == KIND_KILL_MOVE && c.cnt_loaded;

    auto inputs = [&] {
      std::string d = strf("port %d %s; id %u state %d is_deadlock %d source %u pm_sent %d "
                           "frozen 0x%x loop_out[p] %u; VCs at p:", p, sm_str(m).c_str(), id,
                           static_cast<int>(before.state_q), before.is_deadlock_q,
                           before.source_id_q, before.pm_sent_q, frozen_mask(before),
                           before.loop_out_q[p]);
      for (int v = 0; v < kVcs; v++)
        d += strf(" %d:cnt %u rv %u op %u whole %d", v, views.cnt[p][v], views.rv[p][v],
                  views.op[p][v], views.whole(p, v));
      return d;
    };
    b.check("fwd_o", b->fwd_o, c_fwd, inputs);
    if (c_fwd) {
      b.check("fwd_port_o", b->fwd_port_o, static_cast<unsigned>(__builtin_ctz(c.fwd_mask)), inputs);
      check_word(b, "fwd_data_o", get_word(b->fwd_data_o, 0), sm_pack(&fmt, &c.fwd), inputs);
    }
    b.check("freeze_o", b->freeze_o, c_freeze, inputs);
    if (c_freeze)
      b.check("freeze_vc_o (frozen VC p*4+v)", 1u << (p * SPIN_MAX_VCS + b->freeze_vc_o), new_frozen,
              inputs);
    b.check("enter_o", b->enter_o, c_enter, inputs);
    b.check("release_o", b->release_o, c_release, inputs);

    // ---- the C state against the RTL's decision applied as spin_fsm does ----
    spin_router_t e = before;
    if (b->freeze_o) {
      if (b->enter_o && !before.is_deadlock_q) std::memset(e.loop_out_q, 0, sizeof e.loop_out_q);
      e.frozen_q[p][b->freeze_vc_o] = 1;
      e.armed_q[p][b->freeze_vc_o] = 0;
      e.loop_out_q[p] = b->fwd_port_o;
      if (b->enter_o) {
        e.is_deadlock_q = 1;
        e.source_id_q = static_cast<uint16_t>(m.sender);
        e.state_q = FSM_FROZEN;
        e.pm_sent_q = 0;
        e.cnt_q = m.t - 2u;
        e.loop.cyc_q = m.lc;
      }
    }
    if (b->release_o) {
      for (int q = 0; q < SPIN_MAX_PORTS; q++)
        for (int v = 0; v < SPIN_MAX_VCS; v++)
          if (!e.spinning_q[q][v]) e.frozen_q[q][v] = e.armed_q[q][v] = 0;
      e.is_deadlock_q = 0;
      e.state_q = FSM_DD;
      e.loop.cyc_q = 0;
      e.cnt_q = tdd - 1;
    }
    b.check("state_q after", s.state_q, e.state_q, inputs);
    b.check("is_deadlock_q after", s.is_deadlock_q, e.is_deadlock_q, inputs);
    b.check("source_id_q after", s.source_id_q, e.source_id_q, inputs);
    b.check("pm_sent_q after", s.pm_sent_q, e.pm_sent_q, inputs);
    b.check("cnt_q after", s.cnt_q, e.cnt_q, inputs);
    b.check("loop.cyc_q after", s.loop.cyc_q, e.loop.cyc_q, inputs);
    b.check("frozen_q after", frozen_mask(s), frozen_mask(e), inputs);
    for (int q = 1; q < kPorts; q++) {
      b.check(strf("loop_out_q[%d] after", q).c_str(), s.loop_out_q[q], e.loop_out_q[q], inputs);
      for (int v = 0; v < kVcs; v++)
        b.check(strf("armed_q[%d][%d] after", q, v).c_str(), s.armed_q[q][v], e.armed_q[q][v],
                inputs);
    }

    // ---- what this vector reached (the reasons read with the C's helpers) ----
    {
      const bool own = m.sender == id;
      spin_router_t t = before;
      sm_t hop_m = m;
      const unsigned o = spin_next_hop(&t, &c, p, &hop_m);
      const bool lost = !o || (!own && m.t < m.lc + 2);
      const bool mv = kind != KIND_KILL_MOVE;
      const bool recorded = kind != KIND_MOVE && before.loop_out_q[p] &&
                            before.source_id_q == m.sender;
      ev.hit(e_enter, c_enter && (before.state_q == FSM_OFF || before.state_q == FSM_DD));
      ev.hit(e_again, c_enter && before.state_q == FSM_FROZEN);
      ev.hit(e_fig8, c_freeze && own);
      ev.hit(e_release, c_release);
      ev.hit(e_release_lost, c_release && o && m.t == m.lc + 1);
      ev.hit(e_kill_edge, kind == KIND_KILL_MOVE && c_fwd && !own && m.t == m.lc + 2);
      ev.hit(e_kill_on, kind == KIND_KILL_MOVE && c_fwd && !own && !c_release);
      ev.hit(e_own_kill, kind == KIND_KILL_MOVE && c_fwd && own);
      ev.hit(e_record, c_fwd && recorded);
      ev.hit(e_fork, kVcs > 1 && o && hop_m.fk != m.fk);
      ev.hit(e_fork_none, kVcs > 1 && !o && !recorded && m.fk >= fmt.k &&
             __builtin_popcount(spin_outputs_at(&c, p)) > 1);
      ev.hit(e_nohop, !o);
      ev.hit(e_lost, o && !own && m.t < m.lc + 2);
      ev.hit(e_lost_edge, mv && o && !own && m.t == m.lc + 1 && spin_waiting_vc(&c, p, o) >= 0);
      ev.hit(e_taken_edge, c_freeze && !own && m.t == m.lc + 2);
      ev.hit(e_cycmax, c_freeze && m.lc == fmt.cyc_max);
      ev.hit(e_fig8_edge, c_freeze && own && m.t == m.lc + 3);
      if (mv && !lost && !c_freeze) {
        const bool blk = !spin_may_freeze(&before, &c, p, o);
        const bool whole = spin_waiting_vc(&c, p, o) >= 0;
        const bool ok = before.state_q == FSM_FROZEN ? before.source_id_q == m.sender
                        : own ? (kind == KIND_MOVE ? before.state_q == FSM_MOVE
                                                   : before.state_q == FSM_PROBE_MOVE && before.pm_sent_q)
                              : (before.state_q == FSM_OFF || before.state_q == FSM_DD);
        // (a message not lost has a delay of lc + 2 or more, so at least 2:
        // the rule "a delay of at least 2" of 12.5 never decides here)
        ev.hit(e_blk, ok && whole && blk);
        ev.hit(e_whole, ok && !whole);
        ev.hit(e_nok, !ok);
      }
    }
  }
  b.finish(ev.report("spin_move_mgr", b.cycles()) ? 1 : 0);
}
