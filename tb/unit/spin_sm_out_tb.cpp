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

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_sm_out> b(argc, argv, "spin_sm_out");
  Rng rng(b.seed());
  std::printf("spin_sm_out NumPorts=%d NumVcs=%d IdW=%d CycW=%d SmPipe=%d seed=%u cycles=%" PRIu64
              "\n", kPorts, kVcs, P_IdW, P_CycW, P_SmPipe, b.seed(), b.cycles());
  Events ev;
  const size_t e_class_fwd = ev.add("contested, handled wins by class", 1000);
  const size_t e_class_own = ev.add("contested, FSM's wins by class", 1000);
  const size_t e_prio_fwd = ev.add("contested, handled wins by priority", 300);
  const size_t e_prio_own = ev.add("contested, FSM's wins by priority", 300);
  const size_t e_tie = ev.add("contested, same sender (handled wins)", 100);
  const size_t e_fork = ev.add("forked probe's entry recorded", kVcs > 1 ? 2000 : 0);
  const size_t e_fork_full = ev.add("forked probe past K entries", kVcs > 1 ? 100 : 0);
  const size_t e_busy = ev.add("message dropped for a spin flit", 2000);
  const size_t e_reg = ev.add("registered word sent (SmPipe 1, 2)", P_SmPipe >= 1 ? 10000 : 0);
  const double run = P_SmPipe == 3 ? 10000 : 0;   // each pipe of the build with all three
  const size_t e_run0 = ev.add("word sent with SmPipe 0 chosen at run time", run);
  const size_t e_run1 = ev.add("word sent with SmPipe 1 chosen at run time", run);
  const size_t e_run2 = ev.add("word sent with SmPipe 2 chosen at run time", run);
  const size_t e_cycmax = ev.add("probe sent with CycMax cycles", 1500);

  spin_router_t s;
  spin_stats_t st;
  sm_fmt_t fmt = make_fmt(0);
  int pipe = 0;
  unsigned nodes = 1, id = 0;
  const unsigned id_span = 1u << P_IdW;
  Offers prev;   // the offers of the cycle before (their words go out now with SmPipe 1, 2)

  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    if (cyc % kEpoch == 0) {
      pipe = P_SmPipe == 3 ? static_cast<int>(rng.below(3)) : P_SmPipe;
      fmt = make_fmt(pipe);
      nodes = rng.pct(30) ? id_span : 1 + rng.below(id_span < 16 ? id_span : 16);
      id = rng.below(nodes);
      std::memset(&s, 0, sizeof s);
      prev = Offers();
      b->en_i = 1;
      b->pipe_i = static_cast<uint8_t>(pipe);
      b->fwd_mask_i = 0;
      b->own_out_i = 0;
      b->out_busy_i = 0;
      b.reset();
    }
    b.set_cycle(cyc);
    // ---- this cycle's offers and spin flits ----
    const unsigned top = rng.below(nodes);
    unsigned out_busy = 0;
    for (int o = 1; o < kPorts; o++)
      if (rng.pct(12)) out_busy |= 1u << o;
    Offers now;
    static const unsigned kinds[] = {KIND_PROBE, KIND_PROBE, KIND_MOVE, KIND_PROBE_MOVE,
                                     KIND_KILL_MOVE};
    if (rng.pct(70)) {   // the handled message, forwarded
      const unsigned kind = kinds[rng.below(5)];
      const unsigned sender = rng.pct(20) ? id : rng.below(nodes);
      now.fwd = draw_sm(rng, fmt, kind, sender);
      if (kind == KIND_PROBE) {   // it was handled within CycMax, often close to it
        now.fwd.t = rng.pct(40) ? fmt.cyc_max - rng.below(4) : edgy(rng, 1, fmt.cyc_max);
        if (kVcs > 1 && kPorts > 3 && rng.pct(45)) {   // forked to several outputs
          while (__builtin_popcount(now.fwd_mask) < 2) now.fwd_mask = rng.u32() & kAllOut;
          now.fwd_fork = now.fwd_mask;
        } else if (kVcs > 1 && kPorts == 3 && rng.pct(35)) {
          now.fwd_mask = now.fwd_fork = kAllOut;
        } else {
          now.fwd_mask = 1u << (1 + rng.below(kPorts - 1));
        }
      } else {
        now.fwd_mask = 1u << (1 + rng.below(kPorts - 1));
      }
    }
    if (rng.pct(55)) {   // the FSM's own message
      const unsigned kind = kinds[rng.below(5)];
      now.own = draw_sm(rng, fmt, kind, id);
      if (kind == KIND_PROBE) now.own.t = rng.pct(80) ? 0 : edgy(rng, 0, fmt.cyc_max);
      now.own_out = 1 + rng.below(kPorts - 1);
    }
    const flit_t fwd_w = sm_pack(&fmt, &now.fwd), own_w = sm_pack(&fmt, &now.own);
    now.fwd = sm_unpack(&fmt, &fwd_w);   // as the word carries it
    now.own = sm_unpack(&fmt, &own_w);

    b->top_i = top;
    b->out_busy_i = out_busy;
    b->fwd_mask_i = now.fwd_mask;
    b->fwd_kind_i = now.fwd_mask ? now.fwd.kind : 0;
    put_word(b->fwd_data_i, 0, now.fwd_mask ? fwd_w : flit_t{0, 0, 0});
    b->fwd_fork_i = now.fwd_fork;
    b->own_out_i = now.own_out;
    b->own_kind_i = now.own_out ? now.own.kind : 0;
    put_word(b->own_data_i, 0, now.own_out ? own_w : flit_t{0, 0, 0});
    b.eval();

    // ---- C ----
    spin_ctx_t c;
    ctx_init(&c, &fmt, nullptr, pipe);   // no link latencies: the receiver counts the hop
    std::memset(&st, 0, sizeof st);
    c.id = static_cast<int>(id);
    c.nodes = static_cast<int>(nodes);
    c.cycle = cycle_of_top(top);
    c.out_busy = out_busy;
    if (now.fwd_mask) spin_offer_fwd(&c, 1, now.fwd_mask, &now.fwd, now.fwd_fork);
    if (now.own_out) spin_offer_own(&c, now.own_out, &now.own, &st);
    spin_sm_out(&s, &c, &st);

    auto inputs = [&] {
      std::string m = strf("pipe %d nodes %u id %u top %u out_busy 0x%x", pipe, nodes, id, top,
                           out_busy);
      if (now.fwd_mask)
        m += strf("; handled to 0x%x fork 0x%x %s", now.fwd_mask, now.fwd_fork,
                  sm_str(now.fwd).c_str());
      if (now.own_out) m += strf("; FSM's to %u %s", now.own_out, sm_str(now.own).c_str());
      return m;
    };
    b.check("sm_valid_o", b->sm_valid_o, c.sm_out, inputs);
    for (int o = 0; o < kPorts; o++) {
      const bool on = c.sm_out >> o & 1u;
      const unsigned kind = on ? CTL_KIND(c.sm_word[o].ctl) : 0u;
      const flit_t ref = on ? c.sm_word[o] : flit_t{0, 0, 0};
      b.check(strf("sm_kind_o[%d]", o).c_str(), get_bits(b->sm_kind_o, 3u * o, 3), kind, inputs);
      check_word(b, strf("sm_data_o[%d]", o).c_str(), get_word(b->sm_data_o, kFlitW * o), ref,
                 inputs);
    }

    // ---- what this cycle reached ----
    {
      const int rf = sm_rank(now.fwd.kind), rw = sm_rank(now.own.kind);
      const int pf = spin_prio(c.cycle, 1, static_cast<int>(nodes), static_cast<int>(now.fwd.sender));
      const int pw = spin_prio(c.cycle, 1, static_cast<int>(nodes), static_cast<int>(now.own.sender));
      const bool both = now.own_out && (now.fwd_mask >> now.own_out & 1u);
      ev.hit(e_class_fwd, both && rf > rw);
      ev.hit(e_class_own, both && rf < rw);
      ev.hit(e_prio_fwd, both && rf == rw && pf > pw);
      ev.hit(e_prio_own, both && rf == rw && pf < pw);
      ev.hit(e_tie, both && rf == rw && now.fwd.sender == now.own.sender);
      // the words that went out: this cycle's (SmPipe 0) or the last's
      const Offers& out = pipe ? prev : now;
      for (int o = 1; o < kPorts; o++) {
        const bool offered = (out.fwd_mask >> o & 1u) || out.own_out == static_cast<unsigned>(o);
        if (!(c.sm_out >> o & 1u)) {
          ev.hit(e_busy, offered && (out_busy >> o & 1u));
          continue;
        }
        const sm_t m = sm_unpack(&fmt, &c.sm_word[o]);
        ev.hit(e_reg, pipe != 0);
        ev.hit(e_run0, P_SmPipe == 3 && pipe == 0);
        ev.hit(e_run1, P_SmPipe == 3 && pipe == 1);
        ev.hit(e_run2, P_SmPipe == 3 && pipe == 2);
        ev.hit(e_cycmax, m.kind == KIND_PROBE && m.t == fmt.cyc_max);
        const bool forked = m.kind == KIND_PROBE && (out.fwd_fork >> o & 1u) &&
                            m.sender == out.fwd.sender && m.fk == ((out.fwd.fk + 1u) & 63u);
        ev.hit(e_fork, forked && out.fwd.fk < fmt.k);
        ev.hit(e_fork_full, forked && out.fwd.fk >= fmt.k);
      }
    }
    prev = now;

    b.tick();
    for (int o = 0; o < kPorts; o++)
      b.check(strf("smo_src_o[%d]", o).c_str(), get_bits(b->smo_src_o, 2u * o, 2), s.smo_src_q[o],
              inputs);
    b.check("smo_fwd_o kind", get_bits(b->smo_fwd_o, kFlitW, 3), CTL_KIND(s.smo_fwd_q.ctl), inputs);
    check_word(b, "smo_fwd_o", get_word(b->smo_fwd_o, 0), s.smo_fwd_q, inputs);
    b.check("smo_own_o kind", get_bits(b->smo_own_o, kFlitW, 3), CTL_KIND(s.smo_own_q.ctl), inputs);
    check_word(b, "smo_own_o", get_word(b->smo_own_o, 0), s.smo_own_q, inputs);
    b.check("smo_fork_o", b->smo_fork_o, s.smo_fork_q, inputs);
  }
  b.finish(ev.report("spin_sm_out", b.cycles()) ? 1 : 0);
}
