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


// One cycle: the router's state, the probe, the VCs at its input, the C
// manager's decisions.
struct Cycle {
  uint64_t now = 0;   // the cycle (t_DD 1: top = cycle / 4 mod nodes)
  unsigned top = 0;
  bool adopt_en = false;
  spin_state_t state = FSM_OFF;
  bool is_dl = false, free = false, dd = false;
  bool valid = false;
  int p = 1;
  bool marked = false, round = false;
  sm_t m;
  flit_t w;
  unsigned age = 0;   // the age of the mark at p
  Views views;
  spin_ctx_t c;
  spin_router_t before;   // the C state before the probe
  bool adopted = false;

  Cycle() = default;
  Cycle(const Cycle&) = delete;   // c points into views
};

// The bench: the RTL probe manager, its C twin's router (the marks carried
// from cycle to cycle) and the corner cases reached.
class ProbeMgrBench : public SpinBench<Vspin_probe_mgr> {
 public:
  ProbeMgrBench(int argc, char** argv) : SpinBench(argc, argv, "spin_probe_mgr", "") {
    add_events();
    fmt_ = make_fmt(0);
  }

  void run() {
    for (uint64_t cyc = 0; cyc < b_.cycles(); cyc++) {
      if (cyc % kEpoch == 0) new_run();
      b_.set_cycle(cyc);
      Cycle k;
      k.now = cyc;
      draw_state(k);
      draw_probe(k);
      draw_vcs(k);
      drive_rtl(k);
      run_c(k);
      check_decisions(k);
      count_events(k);
      b_.tick();
      check_marks(k);
    }
  }

 private:
  void add_events();
  void new_run();
  void draw_state(Cycle& k);
  void draw_probe(Cycle& k);
  void draw_vcs(Cycle& k);
  void drive_rtl(Cycle& k);
  void run_c(Cycle& k);
  std::string describe(const Cycle& k) const;
  void check_decisions(Cycle& k);
  void count_events(Cycle& k);
  void check_marks(Cycle& k);

  size_t e_fwd, e_fork, e_own, e_adopt, e_adopt_fork, e_adopt_one, e_round, e_same, e_fewer,
      e_later, e_kept, e_expired, e_outranked, e_busy, e_cycmax, e_past, e_forks, e_blocked,
      e_eject;
  spin_router_t s_;
  spin_stats_t st_;
  sm_fmt_t fmt_;
  const uint16_t xlat_[SPIN_MAX_PORTS] = {0};
  unsigned nodes_ = 1, id_ = 0;
  unsigned senders_[3] = {0, 0, 0};
  const unsigned id_span_ = 1u << P_IdW;
  int last_p_ = 1;   // the input of the last cycle's probe
};

void ProbeMgrBench::add_events() {
  e_fwd = ev_.add("forwarded", 2000);
  e_fork = ev_.add("forked", kVcs > 1 ? 1000 : 0);
  e_own = ev_.add("own probe forwarded (figure 8)", 300);
  e_adopt = ev_.add("adopted", 300);   // 1,000 before marks had ages: a
  // probe comes round only in the cycle its mark is as old as its cycles
  e_adopt_fork = ev_.add("adopted after a fork", kVcs > 1 ? 100 : 0);
  e_adopt_one = ev_.add("adopted, a loop of 1 cycle (one more than the mark)", 40);
  e_round = ev_.add("came round, not adopted", 500);
  e_same = ev_.add("mark's sender, as many cycles: forwarded", 500);
  e_fewer = ev_.add("mark's sender, fewer cycles: forwarded", 500);
  e_later = ev_.add("mark's sender, more cycles, not the mark's age: forwarded", 300);
  e_kept = ev_.add("forwarded, the mark kept by a sender of higher priority", 300);
  // (a mark expires after CycMax cycles: within a run of 4,000 cycles with
  // the narrow widths only)
  e_expired = ev_.add("the mark expired: taken by a sender of lower priority",
                      P_CycW <= 10 ? 100 : 0);
  e_outranked = ev_.add("outranked", 1000);
  e_busy = ev_.add("busy", 1000);
  e_cycmax = ev_.add("forwarded with CycMax cycles", 300);
  e_past = ev_.add("length: CycMax + 1 cycles", 1000);
  e_forks = ev_.add("length: fork entries full", kVcs > 1 ? 100 : 0);
  e_blocked = ev_.add("not blocked", 1000);
  e_eject = ev_.add("not blocked: all eject", 100);
}

// A run between resets: its network size, router id and senders.
void ProbeMgrBench::new_run() {
  nodes_ = rng_.pct(30) ? id_span_ : 2 + rng_.below(id_span_ < 15 ? id_span_ - 1 : 15);
  id_ = rng_.below(nodes_);
  for (unsigned& x : senders_) x = rng_.below(nodes_);
  std::memset(&s_, 0, sizeof s_);
  b_->en_i = 1;
  b_->valid_i = 0;
  b_.reset();
}

// The router's state: the top router of the cycle (one a clock edge: the
// marks' ages count it), adoption on or off, the FSM's state.
void ProbeMgrBench::draw_state(Cycle& k) {
  k.top = static_cast<unsigned>(spin_top(k.now, 1, static_cast<int>(nodes_)));
  k.adopt_en = rng_.pct(80);
  static const spin_state_t states[] = {FSM_OFF, FSM_DD, FSM_DD, FSM_DD, FSM_DD, FSM_DD,
                                        FSM_MOVE, FSM_FROZEN, FSM_KILL_MOVE, FSM_PROBE_MOVE,
                                        FSM_FORWARD_PROGRESS};
  k.state = states[rng_.below(11)];
  k.is_dl = k.state == FSM_FROZEN || k.state == FSM_PROBE_MOVE ||
            k.state == FSM_FORWARD_PROGRESS || (k.state == FSM_KILL_MOVE && rng_.pct(50));
  k.free = (k.state == FSM_OFF || k.state == FSM_DD) && !k.is_dl;
  k.dd = k.state == FSM_DD && !k.is_dl;
}

// The probe, as the link carries it.
void ProbeMgrBench::draw_probe(Cycle& k) {
  k.valid = rng_.pct(85);
  // the port: often the last cycle's again, so that a probe comes back
  // to a mark of one cycle's age (a loop of 1 cycle)
  const int p = k.p = rng_.pct(35) ? last_p_ : 1 + static_cast<int>(rng_.below(kPorts - 1));
  last_p_ = p;
  k.marked = s_.mark_cyc_q[p] != 0;
  k.round = k.marked && rng_.pct(45);
  const unsigned sender = k.round ? s_.mark_sender_q[p]
                          : rng_.pct(10) ? id_
                          : rng_.pct(70) ? senders_[rng_.below(3)]
                                         : rng_.below(nodes_);
  sm_t& m = k.m;
  m = draw_sm(rng_, fmt_, KIND_PROBE, sender);
  // handled with its hop counted: 1 cycle at least, CycMax + 19 at most
  // (a probe within CycMax over a link of 16 cycles, SmPipe 2)
  m.t = rng_.pct(25) ? fmt_.cyc_max + rng_.below(2) : edgy(rng_, 1, fmt_.cyc_max + 19);
  k.age = spin_mark_age(&s_, fmt_.cyc_max, k.now, p);
  if (k.round) {   // the mark's sender: its probe back (cycles = mark + age) mostly, more, as many, fewer
    const unsigned mc = s_.mark_cyc_q[p], pick = rng_.below(100);
    m.t = pick < 55   ? mc + k.age
          : pick < 70 ? mc + 1 + rng_.below(8)
          : pick < 85 ? mc
          : mc > 1    ? 1 + rng_.below(mc - 1)
                      : mc;
    if (kVcs > 1 && rng_.pct(70)) m.fk = std::min(63u, s_.mark_fk_q[p] + rng_.below(3));
  }
  k.w = sm_pack(&fmt_, &m);
  m = sm_unpack(&fmt_, &k.w);
}

// The VCs at the probe's input: empty, unrouted, ejecting or waiting for
// outputs (the mark's often); now and then every one waiting to eject.
void ProbeMgrBench::draw_vcs(Cycle& k) {
  const int p = k.p;
  for (int v = 0; v < kVcs; v++) {
    const unsigned len = 1 + rng_.below(5);
    unsigned out = rng_.pct(8) ? 0 : 1 + rng_.below(kPorts - 1);
    if (k.marked && rng_.pct(50)) out = rng_.pick_bit(s_.mark_out_q[p]);
    k.views.set(p, v, rng_.pct(92) ? 1 + rng_.below(len) : 0, len, rng_.pct(70), rng_.pct(30),
                rng_.pct(94), out);
  }
  if (rng_.pct(3))   // every VC waiting to eject
    for (int v = 0; v < kVcs; v++) k.views.set(p, v, 1, 1, true, true, true, 0);
}

void ProbeMgrBench::drive_rtl(Cycle& k) {
  const int p = k.p;
  b_->adopt_en_i = k.adopt_en;
  b_->id_i = id_;
  b_->top_i = k.top;
  b_->free_i = k.free;
  b_->dd_i = k.dd;
  b_->valid_i = k.valid;
  b_->port_i = static_cast<uint8_t>(p);
  put_word(b_->data_i, 0, k.w);
  b_->routed_i = 0;
  b_->op_i = 0;
  for (int v = 0; v < kVcs; v++) {
    if (k.views.routed(p, v)) b_->routed_i |= 1u << v;
    b_->op_i |= static_cast<uint32_t>(k.views.op[p][v]) << (kPortW * v);
  }
  b_.eval();
}

// spin_probe_in() on the state this cycle, the marks as they were.
void ProbeMgrBench::run_c(Cycle& k) {
  spin_ctx_t& c = k.c;
  ctx_init(&c, &fmt_, xlat_, 0);
  std::memset(&st_, 0, sizeof st_);
  k.views.to_ctx(&c);
  c.id = static_cast<int>(id_);
  c.nodes = static_cast<int>(nodes_);
  c.cycle = k.now;
  c.adopt = k.adopt_en;
  spin_router_t t;
  std::memset(&t, 0, sizeof t);
  std::memcpy(t.mark_sender_q, s_.mark_sender_q, sizeof t.mark_sender_q);
  std::memcpy(t.mark_cyc_q, s_.mark_cyc_q, sizeof t.mark_cyc_q);
  std::memcpy(t.mark_out_q, s_.mark_out_q, sizeof t.mark_out_q);
  std::memcpy(t.mark_fk_q, s_.mark_fk_q, sizeof t.mark_fk_q);
  std::memcpy(t.mark_at_q, s_.mark_at_q, sizeof t.mark_at_q);
  s_ = t;
  s_.state_q = k.state;
  s_.is_deadlock_q = k.is_dl;
  k.before = s_;
  if (k.valid) spin_probe_in(&s_, &c, k.p, &k.m, &st_);
  k.adopted = st_.probes_adopted != 0;
}

// The cycle's inputs, for a mismatch.
std::string ProbeMgrBench::describe(const Cycle& k) const {
  const int p = k.p;
  std::string d = strf("valid %d port %d %s; id %u nodes %u top %u state %d is_deadlock %d "
                       "adopt %d; now %llu; mark sender %u cyc %u out 0x%x fk %u age %u; VCs:",
                       k.valid, p, sm_str(k.m).c_str(), id_, nodes_, k.top,
                       static_cast<int>(k.state), k.is_dl, k.adopt_en,
                       static_cast<unsigned long long>(k.now), k.before.mark_sender_q[p],
                       k.before.mark_cyc_q[p], k.before.mark_out_q[p], k.before.mark_fk_q[p],
                       k.age);
  for (int v = 0; v < kVcs; v++)
    d += strf(" %d:cnt %u rv %u op %u", v, k.views.cnt[p][v], k.views.rv[p][v], k.views.op[p][v]);
  return d;
}

// Whether and where the probe is forwarded; whether the loop is adopted,
// its VC, cycles, first output and first fork entry.
void ProbeMgrBench::check_decisions(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  const spin_ctx_t& c = k.c;
  b_.check("fwd_o", b_->fwd_o, c.fwd_mask != 0, inputs);
  b_.check("fwd_mask_o", b_->fwd_mask_o, c.fwd_mask, inputs);
  b_.check("fwd_fork_o", b_->fwd_fork_o, c.fwd_fork, inputs);
  b_.check("adopt_o", b_->adopt_o, k.adopted, inputs);
  if (k.adopted) {
    b_.check("adopt_vc_o", b_->adopt_vc_o, s_.dd_vc_q, inputs);
    b_.check("adopt_cyc_o", b_->adopt_cyc_o, s_.loop.cyc_q, inputs);
    b_.check("adopt_port0_o", b_->adopt_port0_o, s_.loop.port0_q, inputs);
    b_.check("adopt_fk0_o", b_->adopt_fk0_o, s_.loop.fk0_q, inputs);
  }
}

// What this cycle reached.
void ProbeMgrBench::count_events(Cycle& k) {
  const spin_ctx_t& c = k.c;
  const spin_router_t& before = k.before;
  const sm_t& m = k.m;
  const int p = k.p;
  const bool adopted = k.adopted;
  ev_.hit(e_fwd, c.fwd_mask != 0);
  ev_.hit(e_fork, c.fwd_fork != 0);
  ev_.hit(e_own, c.fwd_mask && m.sender == id_);
  ev_.hit(e_adopt, adopted);
  ev_.hit(e_adopt_fork, adopted && (before.mark_out_q[p] & (before.mark_out_q[p] - 1u)));
  ev_.hit(e_adopt_one, adopted && s_.loop.cyc_q == 1);
  ev_.hit(e_round, st_.drop_came_round != 0);
  const bool mark_sender = k.valid && before.mark_cyc_q[p] && m.sender == before.mark_sender_q[p];
  ev_.hit(e_same, c.fwd_mask && mark_sender && m.t == before.mark_cyc_q[p]);
  ev_.hit(e_fewer, c.fwd_mask && mark_sender && m.t < before.mark_cyc_q[p]);
  const bool standing = k.age <= fmt_.cyc_max;
  ev_.hit(e_later, c.fwd_mask && mark_sender && m.t > before.mark_cyc_q[p] && standing &&
                       m.t - before.mark_cyc_q[p] != k.age);
  const int n = static_cast<int>(nodes_);
  ev_.hit(e_expired, c.fwd_mask && before.mark_cyc_q[p] && !mark_sender && !standing &&
                         spin_prio(k.now, 1, n, static_cast<int>(m.sender)) <
                             spin_prio(k.now, 1, n, static_cast<int>(before.mark_sender_q[p])) &&
                         s_.mark_sender_q[p] == m.sender);
  ev_.hit(e_kept, c.fwd_mask && before.mark_cyc_q[p] && !mark_sender &&
                      s_.mark_sender_q[p] == before.mark_sender_q[p] &&
                      s_.mark_at_q[p] == before.mark_at_q[p] &&
                      s_.mark_cyc_q[p] == before.mark_cyc_q[p]);
  ev_.hit(e_outranked, st_.drop_outranked != 0);
  ev_.hit(e_busy, st_.drop_busy != 0);
  ev_.hit(e_cycmax, c.fwd_mask && m.t == fmt_.cyc_max);
  ev_.hit(e_past, st_.drop_length && m.t == fmt_.cyc_max + 1);
  ev_.hit(e_forks, st_.drop_length && m.t <= fmt_.cyc_max);
  ev_.hit(e_blocked, st_.drop_not_blocked != 0);
  bool all_eject = true;
  for (int v = 0; v < kVcs; v++) all_eject &= k.views.routed(p, v) && k.views.op[p][v] == 0;
  ev_.hit(e_eject, st_.drop_not_blocked && all_eject);
}

// Every input's mark after the edge.
void ProbeMgrBench::check_marks(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  for (int q = 1; q < kPorts; q++) {
    const unsigned lsb = (q - 1) * kMarkW;
    unsigned f = lsb;
    b_.check(strf("mark_sender_q[%d]", q).c_str(), get_bits(b_->marks_o, f, P_IdW),
             s_.mark_sender_q[q], inputs);
    f += P_IdW;
    b_.check(strf("mark_cyc_q[%d]", q).c_str(), get_bits(b_->marks_o, f, P_CycW), s_.mark_cyc_q[q],
             inputs);
    f += P_CycW;
    b_.check(strf("mark_out_q[%d]", q).c_str(), get_bits(b_->marks_o, f, kPorts), s_.mark_out_q[q],
             inputs);
    f += kPorts;
    if (kVcs > 1)
      b_.check(strf("mark_fk_q[%d]", q).c_str(), get_bits(b_->marks_o, f, 6), s_.mark_fk_q[q],
               inputs);
  }
}

}  // namespace

int main(int argc, char** argv) {
  ProbeMgrBench t(argc, argv);
  t.run();
  t.report();
}
