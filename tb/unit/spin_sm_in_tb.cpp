// spin_sm_in_tb.cpp - rtl/spin_sm_in.sv (the special-message input stage,
// docs/microarchitecture.md 12.1 and 12.2) against its C twin:
// spin_sm_select() of cmodel/spin_sm_in.c, which selects this cycle's
// message, the input stage of spin_unit_pre() (cmodel/spin_unit.c), which
// registers it with SmPipe 2 (smi_q) and says which inputs are held, and
// spin_hop_in() (cmodel/spin_sm_out.c, called by spin_unit.c's handle()),
// which counts the hop the handled message came over.  spin_unit_pre runs
// on a router with nothing else to do (FSM off, no VC holding a flit), so
// that the message it handles changes nothing but the input stage's
// register.  Parameters: -DP_NumPorts, -DP_NumVcs, -DP_IdW, -DP_CycW,
// -DP_SmPipe (as -G...); SmPipe 3 is the build with all three, the bench
// choosing 0, 1 or 2 (pipe_i) at every reset.
//
// +cycles+N clock edges, in runs of 2,000 between resets (each with its own
// network size N, links of 1 to 16 cycles per input, 1 and 16 often, and,
// with SmPipe 3, pipe).  Every cycle each network input carries a special
// message (any kind, from a few senders, so that class, priority and port
// each decide now and then), a flit or nothing; the top router is drawn.  A
// probe arrives with at most CycMax cycles (a router forwards no more), and
// often with as many as make CycMax, or one more, once its hop is counted; a
// move's, probe_move's or kill_move's delay is any, and often within a cycle
// of its hop.  Compared every cycle: the message handled (valid, port, kind,
// data with the hop counted) and the held inputs; after every edge the
// register (port, kind, data as it arrived).
#include <algorithm>

#include "Vspin_sm_in.h"
#include "spin_tb.h"

using namespace spin_tb;

#ifndef P_SmPipe
#error "P_SmPipe must be defined"
#endif

#ifndef P_XlatW
#define P_XlatW 4   // spin_sm_in's default: links of 1 to 16 cycles
#endif

namespace {

const unsigned kEpoch = 2000;
const unsigned kXlatW = P_XlatW;   // bits of a link's latency - 1


// One cycle: the words on the links, this router, what the C input stage
// handled.
struct Cycle {
  unsigned top = 0, id = 0;
  flit_t in_w[SPIN_MAX_PORTS];
  const flit_t* in_flit[SPIN_MAX_PORTS];
  spin_ctx_t c;
  flit_t h = {0, 0, KIND_IDLE};   // the message handled, as it arrived
  unsigned h_port = 0, h_kind = 0;
  sm_t hm;                        // with its hop counted
  flit_t h_ref = {0, 0, KIND_IDLE};

  Cycle() { std::memset(&hm, 0, sizeof hm); }
  Cycle(const Cycle&) = delete;   // in_flit points into in_w
};

// The bench: the RTL input stage, its C twin on an otherwise idle router
// and the corner cases reached.
class SmInBench : public SpinBench<Vspin_sm_in> {
 public:
  SmInBench(int argc, char** argv) :
      SpinBench(argc, argv, "spin_sm_in", strf(" SmPipe=%d", P_SmPipe)) {
    add_events();
    fmt_ = make_fmt(0);
  }

  void run() {
    for (uint64_t cyc = 0; cyc < b_.cycles(); cyc++) {
      if (cyc % kEpoch == 0) new_run();
      b_.set_cycle(cyc);
      Cycle k;
      draw_links(k);
      drive_rtl(k);
      run_c(k);
      check_handled(k);
      count_events(k);
      b_.tick();
      check_register(k);
    }
  }

 private:
  void add_events();
  void new_run();
  void draw_links(Cycle& k);
  void drive_rtl(Cycle& k);
  void run_c(Cycle& k);
  std::string describe(const Cycle& k) const;
  void check_handled(Cycle& k);
  void count_events(const Cycle& k);
  void check_register(Cycle& k);

  size_t e_contest, e_class, e_prio, e_port, e_hold1, e_reg, e_hold2, e_run0, e_run1, e_run2,
      e_link1, e_link16, e_cycmax, e_past, e_zero, e_one;
  spin_router_t s_;
  spin_stats_t st_;
  sm_fmt_t fmt_;
  uint16_t xlat_[SPIN_MAX_PORTS] = {0};
  const Views views_;   // no VC holds a flit: the handled message changes nothing
  int pipe_ = 0;
  unsigned nodes_ = 1;
  unsigned senders_[3] = {0, 0, 0};
  const unsigned id_span_ = 1u << P_IdW;
};

void SmInBench::add_events() {
  e_contest = ev_.add("contention", 5000);
  e_class = ev_.add("won by class", 2000);
  e_prio = ev_.add("won by priority", 1000);
  e_port = ev_.add("won by port (same sender)", 300);
  e_hold1 = ev_.add("several inputs held (SmPipe 1)", P_SmPipe == 1 || P_SmPipe == 3 ? 500 : 0);
  e_reg = ev_.add("registered message handled (SmPipe 2)", P_SmPipe >= 2 ? 5000 : 0);
  e_hold2 = ev_.add("registered move held (SmPipe 2)", P_SmPipe >= 2 ? 1000 : 0);
  const double run = P_SmPipe == 3 ? 5000 : 0;   // each pipe of the build with all three
  e_run0 = ev_.add("handled with SmPipe 0 chosen at run time", run);
  e_run1 = ev_.add("handled with SmPipe 1 chosen at run time", run);
  e_run2 = ev_.add("handled with SmPipe 2 chosen at run time", run);
  e_link1 = ev_.add("hop over a link of 1 cycle", 10000);
  e_link16 = ev_.add("hop over the longest link (2^XlatW cycles)", 10000);
  e_cycmax = ev_.add("probe at CycMax with its hop", 400);
  e_past = ev_.add("probe past CycMax with its hop (CycMax + 1)", 400);
  e_zero = ev_.add("delay used up by the hop (to 0)", 8000);
  e_one = ev_.add("delay one more than the hop (to 1)", 2500);
}

// A new run: reset, a network size, senders, links, a pipe.
void SmInBench::new_run() {
  pipe_ = P_SmPipe == 3 ? static_cast<int>(rng_.below(3)) : P_SmPipe;
  fmt_ = make_fmt(pipe_);
  nodes_ = rng_.pct(30) ? id_span_ : 1 + rng_.below(id_span_ < 16 ? id_span_ : 16);
  for (unsigned& x : senders_) x = rng_.below(nodes_);
  for (int p = 0; p < kPorts; p++) {
    xlat_[p] = draw_xlat(rng_, kXlatW);
    put_bits(b_->xlat_i, kXlatW * static_cast<unsigned>(p), kXlatW, xlat_[p]);
  }
  std::memset(&s_, 0, sizeof s_);
  b_->en_i = 1;
  b_->pipe_i = static_cast<uint8_t>(pipe_);
  b_->kind_i = 0;
  b_.reset();
}

// The links of this cycle: on each a special message, a flit or nothing;
// the top router; this router, often a sender of the messages, so that a
// probe comes home.
void SmInBench::draw_links(Cycle& k) {
  k.top = rng_.below(nodes_);
  const unsigned busy = rng_.below(4);   // how many messages arrive, about
  for (int p = 0; p < kPorts; p++) {
    if (p > 0 && rng_.below(kPorts - 1) < busy + 1 && rng_.pct(70)) {
      static const unsigned kinds[] = {KIND_PROBE, KIND_MOVE, KIND_PROBE_MOVE, KIND_KILL_MOVE};
      const unsigned kind = kinds[rng_.below(4)];
      const unsigned sender = rng_.pct(70) ? senders_[rng_.below(3)] : rng_.below(nodes_);
      sm_t m = draw_sm(rng_, fmt_, kind, sender);
      const unsigned h = xlat_[p] + 1u + static_cast<unsigned>(pipe_);   // its hop (12.1)
      if (kind == KIND_PROBE) {   // at most CycMax; often CycMax or one past it with the hop
        const unsigned near = fmt_.cyc_max + rng_.below(3) - std::min(h, fmt_.cyc_max);
        m.t = rng_.pct(40) ? std::min(fmt_.cyc_max, near) : edgy(rng_, 0, fmt_.cyc_max);
      } else if (rng_.pct(30)) {   // a delay within a cycle of the hop
        m.t = h - 1 + rng_.below(3);
      }
      k.in_w[p] = sm_pack(&fmt_, &m);
    } else if (rng_.pct(50)) {   // a flit (port 0: the NIC's), any data
      k.in_w[p] = flit_t{rng_.next(), rng_.pct(20) ? rng_.next() : 0,
                         CTL_MAKE(KIND_FLIT, rng_.below(2), rng_.below(2), rng_.below(kVcs))};
    } else {
      k.in_w[p] = flit_t{0, 0, KIND_IDLE};
    }
    k.in_flit[p] = &k.in_w[p];
  }
  k.id = rng_.pct(50) ? senders_[rng_.below(3)] : rng_.below(nodes_);
}

void SmInBench::drive_rtl(Cycle& k) {
  b_->id_i = k.id;
  b_->top_i = k.top;
  b_->kind_i = 0;
  for (int p = 0; p < kPorts; p++) {
    b_->kind_i |= static_cast<uint64_t>(CTL_KIND(k.in_w[p].ctl)) << (3 * p);
    put_word(b_->data_i, kFlitW * p, k.in_w[p]);
  }
  b_.eval();
}

// C: the selection, then the input stage of spin_unit_pre; the handled
// message with its hop counted (handle() in spin_unit.c).
void SmInBench::run_c(Cycle& k) {
  spin_ctx_t& c = k.c;
  const uint8_t in_cred[SPIN_MAX_PORTS] = {0};
  ctx_init(&c, &fmt_, xlat_, pipe_);
  std::memset(&st_, 0, sizeof st_);
  views_.to_ctx(&c);
  c.id = static_cast<int>(k.id);
  c.nodes = static_cast<int>(nodes_);
  c.cycle = cycle_of_top(k.top);
  const int sel = spin_sm_select(&c, k.in_flit, &st_);
  if (pipe_ == 2) {
    k.h = s_.smi_q;
    k.h_port = CTL_KIND(k.h.ctl) ? s_.smi_port_q : 0;
  } else if (sel) {
    k.h = k.in_w[sel];
    k.h_port = static_cast<unsigned>(sel);
  }
  {   // the rest of the router is idle: only the input stage's register stays
    const flit_t smi = s_.smi_q;
    const uint8_t smi_port = s_.smi_port_q;
    std::memset(&s_, 0, sizeof s_);
    s_.smi_q = smi;
    s_.smi_port_q = smi_port;
  }
  spin_unit_pre(&s_, &c, k.in_flit, in_cred, &st_);
  k.h_kind = CTL_KIND(k.h.ctl);
  if (k.h_kind) {
    k.hm = sm_unpack(&fmt_, &k.h);
    spin_hop_in(&fmt_, &k.hm, xlat_[k.h_port]);
    k.h_ref = sm_pack(&fmt_, &k.hm);
  }
}

// The cycle's inputs, for a mismatch.
std::string SmInBench::describe(const Cycle& k) const {
  std::string m = strf("pipe %d nodes %u top %u; links:", pipe_, nodes_, k.top);
  for (int p = 0; p < kPorts; p++)
    if (CTL_KIND(k.in_w[p].ctl)) m += strf(" p%d %s", p, word_str(fmt_, k.in_w[p]).c_str());
  return m;
}

// The message handled (valid, port, kind, data with the hop counted) and
// the held inputs.
void SmInBench::check_handled(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  b_.check("valid_o", b_->valid_o, k.h_kind != 0, inputs);
  b_.check("port_o", b_->port_o, k.h_port, inputs);
  b_.check("kind_o", b_->kind_o, k.h_kind, inputs);
  check_word(b_, "data_o", get_word(b_->data_o, 0), k.h_ref, inputs);
  b_.check("hold_o", b_->hold_o, k.c.hold, inputs);
}

// What this cycle reached: the contest among the inputs' messages, the
// pipe, the hop.
void SmInBench::count_events(const Cycle& k) {
  const spin_ctx_t& c = k.c;
  int n_sm = 0, best_rank = 0, n_best = 0;
  for (int p = 1; p < kPorts; p++) {
    const unsigned kd = CTL_KIND(k.in_w[p].ctl);
    if (kd < KIND_PROBE) continue;
    n_sm++;
    best_rank = std::max(best_rank, sm_rank(kd));
  }
  int best_prio = -1, n_prio = 0;
  for (int p = 1; p < kPorts; p++) {
    const unsigned kd = CTL_KIND(k.in_w[p].ctl);
    if (kd < KIND_PROBE || sm_rank(kd) != best_rank) continue;
    n_best++;
    const int pr = spin_prio(c.cycle, 1, static_cast<int>(nodes_),
                             static_cast<int>(sm_unpack(&fmt_, &k.in_w[p]).sender));
    if (pr > best_prio) {
      best_prio = pr;
      n_prio = 1;
    } else if (pr == best_prio) {
      n_prio++;
    }
  }
  const unsigned h_kind = k.h_kind;
  ev_.hit(e_contest, n_sm > 1);
  ev_.hit(e_class, n_sm > 1 && n_best < n_sm);
  ev_.hit(e_prio, n_best > 1 && n_prio < n_best);
  ev_.hit(e_port, n_prio > 1);
  ev_.hit(e_hold1, pipe_ == 1 && (c.hold & (c.hold - 1u)));
  ev_.hit(e_reg, pipe_ == 2 && h_kind != 0);
  ev_.hit(e_hold2, pipe_ == 2 && c.hold != 0);
  ev_.hit(e_run0, P_SmPipe == 3 && pipe_ == 0 && h_kind != 0);
  ev_.hit(e_run1, P_SmPipe == 3 && pipe_ == 1 && h_kind != 0);
  ev_.hit(e_run2, P_SmPipe == 3 && pipe_ == 2 && h_kind != 0);
  if (h_kind) {
    const unsigned before = sm_unpack(&fmt_, &k.h).t;
    const unsigned hop = xlat_[k.h_port] + 1u + static_cast<unsigned>(pipe_);
    ev_.hit(e_link1, xlat_[k.h_port] == 0);
    ev_.hit(e_link16, xlat_[k.h_port] == (1u << kXlatW) - 1u);
    ev_.hit(e_cycmax, h_kind == KIND_PROBE && k.hm.t == fmt_.cyc_max);
    ev_.hit(e_past, h_kind == KIND_PROBE && k.hm.t == fmt_.cyc_max + 1);
    ev_.hit(e_zero, h_kind != KIND_PROBE && before <= hop);
    ev_.hit(e_one, h_kind != KIND_PROBE && before == hop + 1);
  }
}

// The register after the edge (port, kind, data as it arrived).
void SmInBench::check_register(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  b_.check("smi_port_o", b_->smi_port_o, s_.smi_port_q, inputs);
  b_.check("smi_kind_o", b_->smi_kind_o, CTL_KIND(s_.smi_q.ctl), inputs);
  check_word(b_, "smi_data_o", get_word(b_->smi_data_o, 0), s_.smi_q, inputs);
}

}  // namespace

int main(int argc, char** argv) {
  SmInBench t(argc, argv);
  t.run();
  t.report();
}
