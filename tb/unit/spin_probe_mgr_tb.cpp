// spin_probe_mgr_tb.cpp - rtl/spin_probe_mgr.sv (the probe manager of a
// router with the marks of its inputs, docs/microarchitecture.md 12.4)
// against its C twin, spin_probe_in() of cmodel/spin_probe_mgr.c on a
// spin_router_t (the marks carried from cycle to cycle) and a spin_ctx_t,
// clocked together.  The FSM's state the RTL sees as free_i and dd_i is the
// C router's state_q and is_deadlock_q; a loop the C router adopts is read
// back from what spin_take_loop() latched (the watched VC, the loop
// buffer).  Parameters: -DP_NumPorts, -DP_NumVcs, -DP_IdW, -DP_CycW (as
// -G...).
//
// +cycles+N clock edges, in runs of 4,000 between resets (each with its own
// network size and router id).  Every cycle, mostly, one probe on a random
// input, its hop counted (at least 1 cycle): often one of the sender of the
// input's mark, with more cycles than the mark (it came round; one more
// often, so that the adopted loop has 1 cycle), as many, or fewer (a later
// probe of that sender by a shorter way); else from a few senders or the
// router itself, with cycles at CycMax or one past it and its fork count at
// K now and then; the VCs at that input empty, unrouted, ejecting or waiting
// for outputs (the mark's outputs often); the router free, watching or in a
// recovery; adoption on or off; the top router drawn.  Compared every cycle:
// whether and where the probe is forwarded (outputs, forked outputs);
// whether the loop is adopted and its VC, cycles, first output and first
// fork entry; after every edge, every input's mark.
#include <algorithm>

#include "Vspin_probe_mgr.h"
#include "spin_tb.h"

using namespace spin_tb;

namespace {

const unsigned kEpoch = 4000;
const unsigned kMarkW = P_IdW + P_CycW + kPorts + (kVcs > 1 ? 6 : 0);

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_probe_mgr> b(argc, argv, "spin_probe_mgr");
  Rng rng(b.seed());
  std::printf("spin_probe_mgr NumPorts=%d NumVcs=%d IdW=%d CycW=%d seed=%u cycles=%" PRIu64 "\n",
              kPorts, kVcs, P_IdW, P_CycW, b.seed(), b.cycles());
  Events ev;
  const size_t e_fwd = ev.add("forwarded", 2000);
  const size_t e_fork = ev.add("forked", kVcs > 1 ? 1000 : 0);
  const size_t e_own = ev.add("own probe forwarded (figure 8)", 300);
  const size_t e_adopt = ev.add("adopted", 300);   // 1,000 before marks had ages: a
  // probe comes round only in the cycle its mark is as old as its cycles
  const size_t e_adopt_fork = ev.add("adopted after a fork", kVcs > 1 ? 100 : 0);
  const size_t e_adopt_one = ev.add("adopted, a loop of 1 cycle (one more than the mark)", 40);
  const size_t e_round = ev.add("came round, not adopted", 500);
  const size_t e_same = ev.add("mark's sender, as many cycles: forwarded", 500);
  const size_t e_fewer = ev.add("mark's sender, fewer cycles: forwarded", 500);
  const size_t e_later = ev.add("mark's sender, more cycles, not the mark's age: forwarded", 300);
  const size_t e_kept = ev.add("forwarded, the mark kept by a sender of higher priority", 300);
  // (a mark expires after CycMax cycles: within a run of 4,000 cycles with
  // the narrow widths only)
  const size_t e_expired = ev.add("the mark expired: taken by a sender of lower priority",
                                  P_CycW <= 10 ? 100 : 0);
  const size_t e_outranked = ev.add("outranked", 1000);
  const size_t e_busy = ev.add("busy", 1000);
  const size_t e_cycmax = ev.add("forwarded with CycMax cycles", 300);
  const size_t e_past = ev.add("length: CycMax + 1 cycles", 1000);
  const size_t e_forks = ev.add("length: fork entries full", kVcs > 1 ? 100 : 0);
  const size_t e_blocked = ev.add("not blocked", 1000);
  const size_t e_eject = ev.add("not blocked: all eject", 100);

  spin_router_t s;
  spin_stats_t st;
  const sm_fmt_t fmt = make_fmt(0);
  const uint8_t xlat[SPIN_MAX_PORTS] = {0};
  unsigned nodes = 1, id = 0;
  unsigned senders[3] = {0, 0, 0};
  const unsigned id_span = 1u << P_IdW;

  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    if (cyc % kEpoch == 0) {
      nodes = rng.pct(30) ? id_span : 2 + rng.below(id_span < 15 ? id_span - 1 : 15);
      id = rng.below(nodes);
      for (unsigned& x : senders) x = rng.below(nodes);
      std::memset(&s, 0, sizeof s);
      b->en_i = 1;
      b->valid_i = 0;
      b.reset();
    }
    b.set_cycle(cyc);
    // ---- the router's state ----
    // the cycle (t_DD 1: top = cycle / 4 mod nodes), one a clock edge: the
    // marks' ages count it
    const uint64_t now = cyc;
    const unsigned top = static_cast<unsigned>(spin_top(now, 1, static_cast<int>(nodes)));
    const bool adopt_en = rng.pct(80);
    static const spin_state_t states[] = {FSM_OFF, FSM_DD, FSM_DD, FSM_DD, FSM_DD, FSM_DD,
                                          FSM_MOVE, FSM_FROZEN, FSM_KILL_MOVE, FSM_PROBE_MOVE,
                                          FSM_FORWARD_PROGRESS};
    const spin_state_t state = states[rng.below(11)];
    const bool is_dl = state == FSM_FROZEN || state == FSM_PROBE_MOVE ||
                       state == FSM_FORWARD_PROGRESS || (state == FSM_KILL_MOVE && rng.pct(50));
    const bool free = (state == FSM_OFF || state == FSM_DD) && !is_dl;
    const bool dd = state == FSM_DD && !is_dl;
    // ---- the probe ----
    const bool valid = rng.pct(85);
    // the port: often the last cycle's again, so that a probe comes back
    // to a mark of one cycle's age (a loop of 1 cycle)
    static int last_p = 1;
    const int p = rng.pct(35) ? last_p : 1 + static_cast<int>(rng.below(kPorts - 1));
    last_p = p;
    const bool marked = s.mark_cyc_q[p] != 0;
    const bool round = marked && rng.pct(45);
    const unsigned sender = round ? s.mark_sender_q[p]
                                  : rng.pct(10) ? id : rng.pct(70) ? senders[rng.below(3)] : rng.below(nodes);
    sm_t m = draw_sm(rng, fmt, KIND_PROBE, sender);
    // handled with its hop counted: 1 cycle at least, CycMax + 19 at most
    // (a probe within CycMax over a link of 16 cycles, SmPipe 2)
    m.t = rng.pct(25) ? fmt.cyc_max + rng.below(2) : edgy(rng, 1, fmt.cyc_max + 19);
    const unsigned age = spin_mark_age(&s, fmt.cyc_max, now, p);
    if (round) {   // the mark's sender: its probe back (cycles = mark + age) mostly, more, as many, fewer
      const unsigned mc = s.mark_cyc_q[p], pick = rng.below(100);
      m.t = pick < 55   ? mc + age
            : pick < 70 ? mc + 1 + rng.below(8)
            : pick < 85 ? mc
            : mc > 1    ? 1 + rng.below(mc - 1)
                        : mc;
      if (kVcs > 1 && rng.pct(70)) m.fk = std::min(63u, s.mark_fk_q[p] + rng.below(3));
    }
    const flit_t w = sm_pack(&fmt, &m);
    m = sm_unpack(&fmt, &w);
    // ---- the VCs at p ----
    Views views;
    for (int v = 0; v < kVcs; v++) {
      const unsigned len = 1 + rng.below(5);
      unsigned out = rng.pct(8) ? 0 : 1 + rng.below(kPorts - 1);
      if (marked && rng.pct(50)) out = rng.pick_bit(s.mark_out_q[p]);
      views.set(p, v, rng.pct(92) ? 1 + rng.below(len) : 0, len, rng.pct(70), rng.pct(30),
                rng.pct(94), out);
    }
    if (rng.pct(3))   // every VC waiting to eject
      for (int v = 0; v < kVcs; v++) views.set(p, v, 1, 1, true, true, true, 0);

    b->adopt_en_i = adopt_en;
    b->id_i = id;
    b->top_i = top;
    b->free_i = free;
    b->dd_i = dd;
    b->valid_i = valid;
    b->port_i = static_cast<uint8_t>(p);
    put_word(b->data_i, 0, w);
    b->routed_i = 0;
    b->op_i = 0;
    for (int v = 0; v < kVcs; v++) {
      if (views.routed(p, v)) b->routed_i |= 1u << v;
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
    c.cycle = now;
    c.adopt = adopt_en;
    {   // the state this cycle, the marks as they were
      spin_router_t t;
      std::memset(&t, 0, sizeof t);
      std::memcpy(t.mark_sender_q, s.mark_sender_q, sizeof t.mark_sender_q);
      std::memcpy(t.mark_cyc_q, s.mark_cyc_q, sizeof t.mark_cyc_q);
      std::memcpy(t.mark_out_q, s.mark_out_q, sizeof t.mark_out_q);
      std::memcpy(t.mark_fk_q, s.mark_fk_q, sizeof t.mark_fk_q);
      std::memcpy(t.mark_at_q, s.mark_at_q, sizeof t.mark_at_q);
      s = t;
    }
    s.state_q = state;
    s.is_deadlock_q = is_dl;
    const spin_router_t before = s;
    if (valid) spin_probe_in(&s, &c, p, &m, &st);
    const bool adopted = st.probes_adopted != 0;

    auto inputs = [&] {
      std::string d = strf("valid %d port %d %s; id %u nodes %u top %u state %d is_deadlock %d "
                           "adopt %d; now %llu; mark sender %u cyc %u out 0x%x fk %u age %u; VCs:", valid, p,
                           sm_str(m).c_str(), id, nodes, top, static_cast<int>(state), is_dl,
                           adopt_en, static_cast<unsigned long long>(now),
                           before.mark_sender_q[p], before.mark_cyc_q[p],
                           before.mark_out_q[p], before.mark_fk_q[p], age);
      for (int v = 0; v < kVcs; v++)
        d += strf(" %d:cnt %u rv %u op %u", v, views.cnt[p][v], views.rv[p][v], views.op[p][v]);
      return d;
    };
    b.check("fwd_o", b->fwd_o, c.fwd_mask != 0, inputs);
    b.check("fwd_mask_o", b->fwd_mask_o, c.fwd_mask, inputs);
    b.check("fwd_fork_o", b->fwd_fork_o, c.fwd_fork, inputs);
    b.check("adopt_o", b->adopt_o, adopted, inputs);
    if (adopted) {
      b.check("adopt_vc_o", b->adopt_vc_o, s.dd_vc_q, inputs);
      b.check("adopt_cyc_o", b->adopt_cyc_o, s.loop.cyc_q, inputs);
      b.check("adopt_port0_o", b->adopt_port0_o, s.loop.port0_q, inputs);
      b.check("adopt_fk0_o", b->adopt_fk0_o, s.loop.fk0_q, inputs);
    }

    // ---- what this cycle reached ----
    ev.hit(e_fwd, c.fwd_mask != 0);
    ev.hit(e_fork, c.fwd_fork != 0);
    ev.hit(e_own, c.fwd_mask && m.sender == id);
    ev.hit(e_adopt, adopted);
    ev.hit(e_adopt_fork, adopted && (before.mark_out_q[p] & (before.mark_out_q[p] - 1u)));
    ev.hit(e_adopt_one, adopted && s.loop.cyc_q == 1);
    ev.hit(e_round, st.drop_came_round != 0);
    {
      const bool mark_sender = valid && before.mark_cyc_q[p] && m.sender == before.mark_sender_q[p];
      ev.hit(e_same, c.fwd_mask && mark_sender && m.t == before.mark_cyc_q[p]);
      ev.hit(e_fewer, c.fwd_mask && mark_sender && m.t < before.mark_cyc_q[p]);
      const bool standing = age <= fmt.cyc_max;
      ev.hit(e_later, c.fwd_mask && mark_sender && m.t > before.mark_cyc_q[p] && standing &&
                          m.t - before.mark_cyc_q[p] != age);
      const int n = static_cast<int>(nodes);
      ev.hit(e_expired, c.fwd_mask && before.mark_cyc_q[p] && !mark_sender && !standing &&
                            spin_prio(now, 1, n, static_cast<int>(m.sender)) <
                                spin_prio(now, 1, n, static_cast<int>(before.mark_sender_q[p])) &&
                            s.mark_sender_q[p] == m.sender);
      ev.hit(e_kept, c.fwd_mask && before.mark_cyc_q[p] && !mark_sender &&
                         s.mark_sender_q[p] == before.mark_sender_q[p] &&
                         s.mark_at_q[p] == before.mark_at_q[p] && s.mark_cyc_q[p] == before.mark_cyc_q[p]);
    }
    ev.hit(e_outranked, st.drop_outranked != 0);
    ev.hit(e_busy, st.drop_busy != 0);
    ev.hit(e_cycmax, c.fwd_mask && m.t == fmt.cyc_max);
    ev.hit(e_past, st.drop_length && m.t == fmt.cyc_max + 1);
    ev.hit(e_forks, st.drop_length && m.t <= fmt.cyc_max);
    ev.hit(e_blocked, st.drop_not_blocked != 0);
    {
      bool all_eject = true;
      for (int v = 0; v < kVcs; v++) all_eject &= views.routed(p, v) && views.op[p][v] == 0;
      ev.hit(e_eject, st.drop_not_blocked && all_eject);
    }

    b.tick();
    for (int q = 1; q < kPorts; q++) {
      const unsigned lsb = (q - 1) * kMarkW;
      unsigned f = lsb;
      b.check(strf("mark_sender_q[%d]", q).c_str(), get_bits(b->marks_o, f, P_IdW),
              s.mark_sender_q[q], inputs);
      f += P_IdW;
      b.check(strf("mark_cyc_q[%d]", q).c_str(), get_bits(b->marks_o, f, P_CycW), s.mark_cyc_q[q],
              inputs);
      f += P_CycW;
      b.check(strf("mark_out_q[%d]", q).c_str(), get_bits(b->marks_o, f, kPorts), s.mark_out_q[q],
              inputs);
      f += kPorts;
      if (kVcs > 1)
        b.check(strf("mark_fk_q[%d]", q).c_str(), get_bits(b->marks_o, f, 6), s.mark_fk_q[q],
                inputs);
    }
  }
  b.finish(ev.report("spin_probe_mgr", b.cycles()) ? 1 : 0);
}
