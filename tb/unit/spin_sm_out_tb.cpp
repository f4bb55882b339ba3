// spin_sm_out_tb.cpp - rtl/spin_sm_out.sv (the special-message output
// stage, docs/microarchitecture.md 12.1 and 12.2) against its C twin,
// spin_sm_out() of cmodel/spin_sm_out.c with the offers as
// spin_offer_fwd() and spin_offer_own() leave them in spin_ctx_t, and
// spin_onto_link() for every word that goes onto a link (a message leaves
// as it was handled, but for a forked probe's fork entry: the receiver
// counts the hop, spin_sm_in_tb.cpp).  Parameters: -DP_NumPorts,
// -DP_NumVcs, -DP_IdW, -DP_CycW, -DP_SmPipe (as -G...); SmPipe 3 is the
// build with all three, the bench choosing 0, 1 or 2 (pipe_i) at every
// reset.
//
// +cycles+N clock edges, in runs of 2,000 between resets (each with its own
// network size N, the FSM's router id and, with SmPipe 3, pipe).  Every
// cycle: the handled message's forwarding (a probe to one output or forked
// to several, a move, probe_move or kill_move to one; any sender, the
// router's own now and then; a probe's cycles up to CycMax and fork count
// near K often), the FSM's own message to one output, spin flits on some
// outputs, the top router drawn.  Compared every cycle: which outputs carry
// a message, its kind and its data word as it goes onto the link; after
// every edge the registers (per output the offer that won, both words, the
// forked probe's outputs).
#include "Vspin_sm_out.h"
#include "spin_tb.h"

using namespace spin_tb;

#ifndef P_SmPipe
#error "P_SmPipe must be defined"
#endif

namespace {

const unsigned kEpoch = 2000;
const unsigned kAllOut = ((1u << kPorts) - 1u) & ~1u;   // the network outputs

// The offers of one cycle.
struct Offers {
  unsigned fwd_mask = 0, fwd_fork = 0, own_out = 0;
  sm_t fwd{}, own{};
};

// One cycle: the top router, the spin flits' outputs, the offers and their
// words, the C stage's result.
struct Cycle {
  unsigned top = 0, out_busy = 0;
  Offers now;
  flit_t fwd_w, own_w;
  spin_ctx_t c;
};

// The bench: the RTL output stage, its C twin and the corner cases reached.
class SmOutBench : public SpinBench<Vspin_sm_out> {
 public:
  SmOutBench(int argc, char** argv) :
      SpinBench(argc, argv, "spin_sm_out", strf(" SmPipe=%d", P_SmPipe)) {
    add_events();
    fmt_ = make_fmt(0);
  }

  void run() {
    for (uint64_t cyc = 0; cyc < b_.cycles(); cyc++) {
      if (cyc % kEpoch == 0) new_run();
      b_.set_cycle(cyc);
      Cycle k;
      draw_offers(k);
      drive_rtl(k);
      run_c(k);
      check_words(k);
      count_events(k);
      prev_ = k.now;
      b_.tick();
      check_registers(k);
    }
  }

 private:
  void add_events();
  void new_run();
  void draw_offers(Cycle& k);
  void drive_rtl(Cycle& k);
  void run_c(Cycle& k);
  std::string describe(const Cycle& k) const;
  void check_words(Cycle& k);
  void count_events(const Cycle& k);
  void check_registers(Cycle& k);

  size_t e_class_fwd, e_class_own, e_prio_fwd, e_prio_own, e_tie, e_fork, e_fork_full, e_busy,
      e_reg, e_run0, e_run1, e_run2, e_cycmax;
  spin_router_t s_;
  spin_stats_t st_;
  sm_fmt_t fmt_;
  int pipe_ = 0;
  unsigned nodes_ = 1, id_ = 0;
  const unsigned id_span_ = 1u << P_IdW;
  Offers prev_;   // the offers of the cycle before (their words go out now with SmPipe 1, 2)
};

void SmOutBench::add_events() {
  e_class_fwd = ev_.add("contested, handled wins by class", 1000);
  e_class_own = ev_.add("contested, FSM's wins by class", 1000);
  e_prio_fwd = ev_.add("contested, handled wins by priority", 300);
  e_prio_own = ev_.add("contested, FSM's wins by priority", 300);
  e_tie = ev_.add("contested, same sender (handled wins)", 100);
  e_fork = ev_.add("forked probe's entry recorded", kVcs > 1 ? 2000 : 0);
  e_fork_full = ev_.add("forked probe past K entries", kVcs > 1 ? 100 : 0);
  e_busy = ev_.add("message dropped for a spin flit", 2000);
  e_reg = ev_.add("registered word sent (SmPipe 1, 2)", P_SmPipe >= 1 ? 10000 : 0);
  const double run = P_SmPipe == 3 ? 10000 : 0;   // each pipe of the build with all three
  e_run0 = ev_.add("word sent with SmPipe 0 chosen at run time", run);
  e_run1 = ev_.add("word sent with SmPipe 1 chosen at run time", run);
  e_run2 = ev_.add("word sent with SmPipe 2 chosen at run time", run);
  e_cycmax = ev_.add("probe sent with CycMax cycles", 1500);
}

// A new run: reset, a pipe, a network size, the FSM's router id.
void SmOutBench::new_run() {
  pipe_ = P_SmPipe == 3 ? static_cast<int>(rng_.below(3)) : P_SmPipe;
  fmt_ = make_fmt(pipe_);
  nodes_ = rng_.pct(30) ? id_span_ : 1 + rng_.below(id_span_ < 16 ? id_span_ : 16);
  id_ = rng_.below(nodes_);
  std::memset(&s_, 0, sizeof s_);
  prev_ = Offers();
  b_->en_i = 1;
  b_->pipe_i = static_cast<uint8_t>(pipe_);
  b_->fwd_mask_i = 0;
  b_->own_out_i = 0;
  b_->out_busy_i = 0;
  b_.reset();
}

// This cycle's offers and spin flits: the handled message forwarded (a
// probe to one output or forked to several), the FSM's own message.
void SmOutBench::draw_offers(Cycle& k) {
  Offers& now = k.now;
  k.top = rng_.below(nodes_);
  for (int o = 1; o < kPorts; o++)
    if (rng_.pct(12)) k.out_busy |= 1u << o;
  static const unsigned kinds[] = {KIND_PROBE, KIND_PROBE, KIND_MOVE, KIND_PROBE_MOVE,
                                   KIND_KILL_MOVE};
  if (rng_.pct(70)) {   // the handled message, forwarded
    const unsigned kind = kinds[rng_.below(5)];
    const unsigned sender = rng_.pct(20) ? id_ : rng_.below(nodes_);
    now.fwd = draw_sm(rng_, fmt_, kind, sender);
    if (kind == KIND_PROBE) {   // it was handled within CycMax, often close to it
      now.fwd.t = rng_.pct(40) ? fmt_.cyc_max - rng_.below(4) : edgy(rng_, 1, fmt_.cyc_max);
      if (kVcs > 1 && kPorts > 3 && rng_.pct(45)) {   // forked to several outputs
        while (__builtin_popcount(now.fwd_mask) < 2) now.fwd_mask = rng_.u32() & kAllOut;
        now.fwd_fork = now.fwd_mask;
      } else if (kVcs > 1 && kPorts == 3 && rng_.pct(35)) {
        now.fwd_mask = now.fwd_fork = kAllOut;
      } else {
        now.fwd_mask = 1u << (1 + rng_.below(kPorts - 1));
      }
    } else {
      now.fwd_mask = 1u << (1 + rng_.below(kPorts - 1));
    }
  }
  if (rng_.pct(55)) {   // the FSM's own message
    const unsigned kind = kinds[rng_.below(5)];
    now.own = draw_sm(rng_, fmt_, kind, id_);
    if (kind == KIND_PROBE) now.own.t = rng_.pct(80) ? 0 : edgy(rng_, 0, fmt_.cyc_max);
    now.own_out = 1 + rng_.below(kPorts - 1);
    // with more than 8 ports a random output rarely meets the forwarded
    // message's: take one of its outputs a third of the time, so that the
    // two contend about as often as on a smaller router
    if (kPorts > 8 && now.fwd_mask && rng_.pct(33)) {
      unsigned m = now.fwd_mask;
      for (unsigned i = rng_.below(static_cast<unsigned>(__builtin_popcount(m))); i > 0; i--)
        m &= m - 1u;
      now.own_out = static_cast<unsigned>(__builtin_ctz(m));
    }
  }
  k.fwd_w = sm_pack(&fmt_, &now.fwd);
  k.own_w = sm_pack(&fmt_, &now.own);
  now.fwd = sm_unpack(&fmt_, &k.fwd_w);   // as the word carries it
  now.own = sm_unpack(&fmt_, &k.own_w);
}

void SmOutBench::drive_rtl(Cycle& k) {
  const Offers& now = k.now;
  b_->top_i = k.top;
  b_->out_busy_i = k.out_busy;
  b_->fwd_mask_i = now.fwd_mask;
  b_->fwd_kind_i = now.fwd_mask ? now.fwd.kind : 0;
  put_word(b_->fwd_data_i, 0, now.fwd_mask ? k.fwd_w : flit_t{0, 0, 0});
  b_->fwd_fork_i = now.fwd_fork;
  b_->own_out_i = now.own_out;
  b_->own_kind_i = now.own_out ? now.own.kind : 0;
  put_word(b_->own_data_i, 0, now.own_out ? k.own_w : flit_t{0, 0, 0});
  b_.eval();
}

// The offers as spin_offer_fwd() and spin_offer_own() leave them, then
// spin_sm_out().
void SmOutBench::run_c(Cycle& k) {
  spin_ctx_t& c = k.c;
  ctx_init(&c, &fmt_, nullptr, pipe_);   // no link latencies: the receiver counts the hop
  std::memset(&st_, 0, sizeof st_);
  c.id = static_cast<int>(id_);
  c.nodes = static_cast<int>(nodes_);
  c.cycle = cycle_of_top(k.top);
  c.out_busy = k.out_busy;
  if (k.now.fwd_mask) spin_offer_fwd(&c, 1, k.now.fwd_mask, &k.now.fwd, k.now.fwd_fork);
  if (k.now.own_out) spin_offer_own(&c, k.now.own_out, &k.now.own, &st_);
  spin_sm_out(&s_, &c, &st_);
}

// The cycle's inputs, for a mismatch.
std::string SmOutBench::describe(const Cycle& k) const {
  const Offers& now = k.now;
  std::string m = strf("pipe %d nodes %u id %u top %u out_busy 0x%x", pipe_, nodes_, id_, k.top,
                       k.out_busy);
  if (now.fwd_mask)
    m += strf("; handled to 0x%x fork 0x%x %s", now.fwd_mask, now.fwd_fork,
              sm_str(now.fwd).c_str());
  if (now.own_out) m += strf("; FSM's to %u %s", now.own_out, sm_str(now.own).c_str());
  return m;
}

// Which outputs carry a message, its kind and its data word as it goes
// onto the link.
void SmOutBench::check_words(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  const spin_ctx_t& c = k.c;
  b_.check("sm_valid_o", b_->sm_valid_o, c.sm_out, inputs);
  for (int o = 0; o < kPorts; o++) {
    const bool on = c.sm_out >> o & 1u;
    const unsigned kind = on ? CTL_KIND(c.sm_word[o].ctl) : 0u;
    const flit_t ref = on ? c.sm_word[o] : flit_t{0, 0, 0};
    b_.check(strf("sm_kind_o[%d]", o).c_str(), get_bits(b_->sm_kind_o, 3u * o, 3), kind, inputs);
    check_word(b_, strf("sm_data_o[%d]", o).c_str(), get_word(b_->sm_data_o, kFlitW * o), ref,
               inputs);
  }
}

// What this cycle reached: the contest of the two offers, the words that
// went out.
void SmOutBench::count_events(const Cycle& k) {
  const Offers& now = k.now;
  const spin_ctx_t& c = k.c;
  const int rf = sm_rank(now.fwd.kind), rw = sm_rank(now.own.kind);
  const int pf = spin_prio(c.cycle, 1, static_cast<int>(nodes_), static_cast<int>(now.fwd.sender));
  const int pw = spin_prio(c.cycle, 1, static_cast<int>(nodes_), static_cast<int>(now.own.sender));
  const bool both = now.own_out && (now.fwd_mask >> now.own_out & 1u);
  ev_.hit(e_class_fwd, both && rf > rw);
  ev_.hit(e_class_own, both && rf < rw);
  ev_.hit(e_prio_fwd, both && rf == rw && pf > pw);
  ev_.hit(e_prio_own, both && rf == rw && pf < pw);
  ev_.hit(e_tie, both && rf == rw && now.fwd.sender == now.own.sender);
  // the words that went out: this cycle's (SmPipe 0) or the last's
  const Offers& out = pipe_ ? prev_ : now;
  for (int o = 1; o < kPorts; o++) {
    const bool offered = (out.fwd_mask >> o & 1u) || out.own_out == static_cast<unsigned>(o);
    if (!(c.sm_out >> o & 1u)) {
      ev_.hit(e_busy, offered && (k.out_busy >> o & 1u));
      continue;
    }
    const sm_t m = sm_unpack(&fmt_, &c.sm_word[o]);
    ev_.hit(e_reg, pipe_ != 0);
    ev_.hit(e_run0, P_SmPipe == 3 && pipe_ == 0);
    ev_.hit(e_run1, P_SmPipe == 3 && pipe_ == 1);
    ev_.hit(e_run2, P_SmPipe == 3 && pipe_ == 2);
    ev_.hit(e_cycmax, m.kind == KIND_PROBE && m.t == fmt_.cyc_max);
    const bool forked = m.kind == KIND_PROBE && (out.fwd_fork >> o & 1u) &&
                        m.sender == out.fwd.sender && m.fk == ((out.fwd.fk + 1u) & 63u);
    ev_.hit(e_fork, forked && out.fwd.fk < fmt_.k);
    ev_.hit(e_fork_full, forked && out.fwd.fk >= fmt_.k);
  }
}

// The registers after the edge: per output the offer that won, both words,
// the forked probe's outputs.
void SmOutBench::check_registers(Cycle& k) {
  auto inputs = [&] { return describe(k); };
  for (int o = 0; o < kPorts; o++)
    b_.check(strf("smo_src_o[%d]", o).c_str(), get_bits(b_->smo_src_o, 2u * o, 2), s_.smo_src_q[o],
             inputs);
  b_.check("smo_fwd_o kind", get_bits(b_->smo_fwd_o, kFlitW, 3), CTL_KIND(s_.smo_fwd_q.ctl), inputs);
  check_word(b_, "smo_fwd_o", get_word(b_->smo_fwd_o, 0), s_.smo_fwd_q, inputs);
  b_.check("smo_own_o kind", get_bits(b_->smo_own_o, kFlitW, 3), CTL_KIND(s_.smo_own_q.ctl), inputs);
  check_word(b_, "smo_own_o", get_word(b_->smo_own_o, 0), s_.smo_own_q, inputs);
  b_.check("smo_fork_o", b_->smo_fork_o, s_.smo_fork_q, inputs);
}

}  // namespace

int main(int argc, char** argv) {
  SmOutBench t(argc, argv);
  t.run();
  t.report();
}
