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

namespace {

const unsigned kEpoch = 2000;

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_sm_in> b(argc, argv, "spin_sm_in");
  Rng rng(b.seed());
  std::printf("spin_sm_in NumPorts=%d NumVcs=%d IdW=%d CycW=%d SmPipe=%d seed=%u cycles=%" PRIu64
              "\n", kPorts, kVcs, P_IdW, P_CycW, P_SmPipe, b.seed(), b.cycles());
  Events ev;
  const size_t e_contest = ev.add("contention", 5000);
  const size_t e_class = ev.add("won by class", 2000);
  const size_t e_prio = ev.add("won by priority", 1000);
  const size_t e_port = ev.add("won by port (same sender)", 300);
  const size_t e_hold1 = ev.add("several inputs held (SmPipe 1)", P_SmPipe == 1 || P_SmPipe == 3 ? 500 : 0);
  const size_t e_reg = ev.add("registered message handled (SmPipe 2)", P_SmPipe >= 2 ? 5000 : 0);
  const size_t e_hold2 = ev.add("registered move held (SmPipe 2)", P_SmPipe >= 2 ? 1000 : 0);
  const double run = P_SmPipe == 3 ? 5000 : 0;   // each pipe of the build with all three
  const size_t e_run0 = ev.add("handled with SmPipe 0 chosen at run time", run);
  const size_t e_run1 = ev.add("handled with SmPipe 1 chosen at run time", run);
  const size_t e_run2 = ev.add("handled with SmPipe 2 chosen at run time", run);
  const size_t e_link1 = ev.add("hop over a link of 1 cycle", 10000);
  const size_t e_link16 = ev.add("hop over a link of 16 cycles", 10000);
  const size_t e_cycmax = ev.add("probe at CycMax with its hop", 400);
  const size_t e_past = ev.add("probe past CycMax with its hop (CycMax + 1)", 400);
  const size_t e_zero = ev.add("delay used up by the hop (to 0)", 8000);
  const size_t e_one = ev.add("delay one more than the hop (to 1)", 2500);

  spin_router_t s;
  spin_stats_t st;
  sm_fmt_t fmt = make_fmt(0);
  uint8_t xlat[SPIN_MAX_PORTS] = {0};
  const Views views;   // no VC holds a flit: the handled message changes nothing
  int pipe = 0;
  unsigned nodes = 1;
  unsigned senders[3] = {0, 0, 0};
  const unsigned id_span = 1u << P_IdW;

  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    if (cyc % kEpoch == 0) {   // a new run: reset, a network size, a pipe
      pipe = P_SmPipe == 3 ? static_cast<int>(rng.below(3)) : P_SmPipe;
      fmt = make_fmt(pipe);
      nodes = rng.pct(30) ? id_span : 1 + rng.below(id_span < 16 ? id_span : 16);
      for (unsigned& x : senders) x = rng.below(nodes);
      b->xlat_i = 0;
      for (int p = 0; p < kPorts; p++) {
        xlat[p] = draw_xlat(rng);
        b->xlat_i |= static_cast<uint32_t>(xlat[p]) << (4 * p);
      }
      std::memset(&s, 0, sizeof s);
      b->en_i = 1;
      b->pipe_i = static_cast<uint8_t>(pipe);
      b->kind_i = 0;
      b.reset();
    }
    b.set_cycle(cyc);
    // ---- the links of this cycle ----
    const unsigned top = rng.below(nodes);
    flit_t in_w[SPIN_MAX_PORTS];
    const flit_t* in_flit[SPIN_MAX_PORTS];
    const uint8_t in_cred[SPIN_MAX_PORTS] = {0};
    const unsigned busy = rng.below(4);   // how many messages arrive, about
    for (int p = 0; p < kPorts; p++) {
      if (p > 0 && rng.below(kPorts - 1) < busy + 1 && rng.pct(70)) {
        static const unsigned kinds[] = {KIND_PROBE, KIND_MOVE, KIND_PROBE_MOVE, KIND_KILL_MOVE};
        const unsigned kind = kinds[rng.below(4)];
        const unsigned sender = rng.pct(70) ? senders[rng.below(3)] : rng.below(nodes);
        sm_t m = draw_sm(rng, fmt, kind, sender);
        const unsigned h = xlat[p] + 1u + static_cast<unsigned>(pipe);   // its hop (12.1)
        if (kind == KIND_PROBE) {   // at most CycMax; often CycMax or one past it with the hop
          const unsigned near = fmt.cyc_max + rng.below(3) - std::min(h, fmt.cyc_max);
          m.t = rng.pct(40) ? std::min(fmt.cyc_max, near) : edgy(rng, 0, fmt.cyc_max);
        } else if (rng.pct(30)) {   // a delay within a cycle of the hop
          m.t = h - 1 + rng.below(3);
        }
        in_w[p] = sm_pack(&fmt, &m);
      } else if (rng.pct(50)) {   // a flit (port 0: the NIC's), any data
        in_w[p] = flit_t{rng.next(), rng.pct(20) ? rng.next() : 0,
                         CTL_MAKE(KIND_FLIT, rng.below(2), rng.below(2), rng.below(kVcs))};
      } else {
        in_w[p] = flit_t{0, 0, KIND_IDLE};
      }
      in_flit[p] = &in_w[p];
    }
    // this router: often a sender of the messages, so that a probe comes home
    const unsigned id = rng.pct(50) ? senders[rng.below(3)] : rng.below(nodes);
    b->id_i = id;
    b->top_i = top;
    b->kind_i = 0;
    for (int p = 0; p < kPorts; p++) {
      b->kind_i |= static_cast<uint32_t>(CTL_KIND(in_w[p].ctl)) << (3 * p);
      put_word(b->data_i, kFlitW * p, in_w[p]);
    }
    b.eval();

    // ---- C: the selection, then the input stage of spin_unit_pre ----
    spin_ctx_t c;
    ctx_init(&c, &fmt, xlat, pipe);
    std::memset(&st, 0, sizeof st);
    views.to_ctx(&c);
    c.id = static_cast<int>(id);
    c.nodes = static_cast<int>(nodes);
    c.cycle = cycle_of_top(top);
    const int sel = spin_sm_select(&c, in_flit, &st);
    flit_t h = {0, 0, KIND_IDLE};
    unsigned h_port = 0;
    if (pipe == 2) {
      h = s.smi_q;
      h_port = CTL_KIND(h.ctl) ? s.smi_port_q : 0;
    } else if (sel) {
      h = in_w[sel];
      h_port = static_cast<unsigned>(sel);
    }
    {   // the rest of the router is idle: only the input stage's register stays
      const flit_t smi = s.smi_q;
      const uint8_t smi_port = s.smi_port_q;
      std::memset(&s, 0, sizeof s);
      s.smi_q = smi;
      s.smi_port_q = smi_port;
    }
    spin_unit_pre(&s, &c, in_flit, in_cred, &st);

    auto inputs = [&] {
      std::string m = strf("pipe %d nodes %u top %u; links:", pipe, nodes, top);
      for (int p = 0; p < kPorts; p++)
        if (CTL_KIND(in_w[p].ctl)) m += strf(" p%d %s", p, word_str(fmt, in_w[p]).c_str());
      return m;
    };
    const unsigned h_kind = CTL_KIND(h.ctl);
    // the handled message with its hop counted (handle() in spin_unit.c)
    sm_t hm;
    std::memset(&hm, 0, sizeof hm);
    flit_t h_ref = {0, 0, KIND_IDLE};
    if (h_kind) {
      hm = sm_unpack(&fmt, &h);
      spin_hop_in(&fmt, &hm, xlat[h_port]);
      h_ref = sm_pack(&fmt, &hm);
    }
    b.check("valid_o", b->valid_o, h_kind != 0, inputs);
    b.check("port_o", b->port_o, h_port, inputs);
    b.check("kind_o", b->kind_o, h_kind, inputs);
    check_word(b, "data_o", get_word(b->data_o, 0), h_ref, inputs);
    b.check("hold_o", b->hold_o, c.hold, inputs);

    // what this cycle reached
    {
      int n_sm = 0, best_rank = 0, n_best = 0;
      for (int p = 1; p < kPorts; p++) {
        const unsigned k = CTL_KIND(in_w[p].ctl);
        if (k < KIND_PROBE) continue;
        n_sm++;
        best_rank = std::max(best_rank, sm_rank(k));
      }
      int best_prio = -1, n_prio = 0;
      for (int p = 1; p < kPorts; p++) {
        const unsigned k = CTL_KIND(in_w[p].ctl);
        if (k < KIND_PROBE || sm_rank(k) != best_rank) continue;
        n_best++;
        const int pr = spin_prio(c.cycle, 1, static_cast<int>(nodes),
                                 static_cast<int>(sm_unpack(&fmt, &in_w[p]).sender));
        if (pr > best_prio) {
          best_prio = pr;
          n_prio = 1;
        } else if (pr == best_prio) {
          n_prio++;
        }
      }
      ev.hit(e_contest, n_sm > 1);
      ev.hit(e_class, n_sm > 1 && n_best < n_sm);
      ev.hit(e_prio, n_best > 1 && n_prio < n_best);
      ev.hit(e_port, n_prio > 1);
      ev.hit(e_hold1, pipe == 1 && (c.hold & (c.hold - 1u)));
      ev.hit(e_reg, pipe == 2 && h_kind != 0);
      ev.hit(e_hold2, pipe == 2 && c.hold != 0);
      ev.hit(e_run0, P_SmPipe == 3 && pipe == 0 && h_kind != 0);
      ev.hit(e_run1, P_SmPipe == 3 && pipe == 1 && h_kind != 0);
      ev.hit(e_run2, P_SmPipe == 3 && pipe == 2 && h_kind != 0);
      if (h_kind) {
        const unsigned before = sm_unpack(&fmt, &h).t;
        const unsigned hop = xlat[h_port] + 1u + static_cast<unsigned>(pipe);
        ev.hit(e_link1, xlat[h_port] == 0);
        ev.hit(e_link16, xlat[h_port] == 15);
        ev.hit(e_cycmax, h_kind == KIND_PROBE && hm.t == fmt.cyc_max);
        ev.hit(e_past, h_kind == KIND_PROBE && hm.t == fmt.cyc_max + 1);
        ev.hit(e_zero, h_kind != KIND_PROBE && before <= hop);
        ev.hit(e_one, h_kind != KIND_PROBE && before == hop + 1);
      }
    }

    b.tick();
    b.check("smi_port_o", b->smi_port_o, s.smi_port_q, inputs);
    b.check("smi_kind_o", b->smi_kind_o, CTL_KIND(s.smi_q.ctl), inputs);
    check_word(b, "smi_data_o", get_word(b->smi_data_o, 0), s.smi_q, inputs);
  }
  b.finish(ev.report("spin_sm_in", b.cycles()) ? 1 : 0);
}
