// spin_fsm_tb.cpp - rtl/spin_fsm.sv (the counter FSM of one router, with its
// loop buffer, the spin and the arm chain) against its C twin, spin_fsm_pre()
// and spin_fsm_post() of cmodel/spin_fsm.c on a spin_router_t, clocked
// together.  No move or probe manager: st_moved_i is st_pre_o, and no loop
// is adopted (those have benches of their own).  The bench plays the rest
// of the router: it pops a spinning VC's front flit and, at its tail, clears
// the VC's spin state (cmodel/router.c's traversal; the RTL FSM does that
// after allocation).  Parameters: -DP_NumPorts, -DP_NumVcs (as -G...).
//
// +cycles+N clock edges.  The VCs of the network inputs hold one packet each
// (1 to 5 flits arriving, leaving at random once routed, a frozen one held,
// a spinning one sending a flit a cycle).  Each special message the FSM sends
// comes back to it, now and then, a few cycles later: a probe on a random
// input with a random loop behind its first entry, a move, probe_move or
// kill_move home (idx = n), mostly on the port it watches; with a kill_move
// home, now and then a late copy of an earlier probe on another port, before
// or after it (step 4's one order-dependent case).  Arm notices come
// at random, and other routers' messages, which the FSM must leave alone.
// Compared every cycle: the special messages it offers (the better one per
// output, as its arbiter would take them), the spin flits (sources, VCs, the
// downstream VC), the arm notices; after every edge, its registers as the
// observation word shows them (tb/spin_obs.h: state, counter, watch, loop
// buffer, rotating priority, and frozen, armed, spinning per VC).
#include <vector>

#include "Vspin_fsm.h"
#include "unit_tb.h"

extern "C" {
#include "../spin_obs.h"
}

#ifndef P_NumPorts
#error "P_NumPorts must be defined"
#endif

namespace {

const int kPorts = P_NumPorts, kVcs = P_NumVcs;
const unsigned kNodes = 4, kId = 2, kTdd = 12;
const unsigned kOfferW = 3 + 128;

// One input VC: one packet of len flits, arrived of them, sent of them.
struct Vc {
  unsigned len = 0, arrived = 0, sent = 0;
  bool routed = false;
  unsigned op = 0;
  unsigned cnt() const { return arrived - sent; }
  bool head() const { return cnt() && sent == 0; }
  bool tail() const { return cnt() && sent == len - 1; }
};

// A message the FSM sent, coming back at `when`.
struct Echo {
  uint64_t when;
  unsigned kind, n, delay, port0;
  sm_path_t path;
};

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_fsm> b(argc, argv, "spin_fsm");
  Rng rng(b.seed());
  std::printf("spin_fsm NumPorts=%d NumVcs=%d seed=%u cycles=%" PRIu64 "\n", kPorts, kVcs,
              b.seed(), b.cycles());
  spin_router_t s;
  std::memset(&s, 0, sizeof s);
  spin_stats_t st;
  std::memset(&st, 0, sizeof st);
  Vc vc[SPIN_MAX_PORTS][SPIN_MAX_VCS];
  std::vector<Echo> echoes;
  uint8_t xlat[SPIN_MAX_PORTS] = {0};

  b->en_i = 1;
  b->id_i = kId;
  b->nodes_i = kNodes;
  b->tdd_i = kTdd;
  b->nmin_i = 1;   // the spin bound 2m - 1: the echoes do not follow a real loop
  b->adopt_i = 0;
  b.reset();

  uint64_t n_probes = 0, n_moves = 0, n_spins = 0, n_kills = 0, n_arms = 0;
  uint64_t n_late = 0;           // late probes sent with a kill_move home
  Echo last_probe{};
  bool have_probe = false;
  for (uint64_t cyc = 0; cyc < b.cycles(); cyc++) {
    // ---- the VCs of this cycle ----
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        Vc& q = vc[p][v];
        if (q.len == 0 && rng.pct(30)) {
          q.len = 1 + rng.below(5);
          q.arrived = 1;
          q.sent = 0;
          q.routed = false;
        } else if (q.len && q.arrived < q.len && rng.pct(70)) {
          q.arrived++;
        }
        if (q.len && !q.routed && q.head() && rng.pct(60)) {
          q.routed = true;
          q.op = rng.pct(5) ? 0u : 1 + rng.below(kPorts - 1);
        }
      }
    // ---- the links of this cycle ----
    flit_t in_w[SPIN_MAX_PORTS];
    uint8_t in_cred[SPIN_MAX_PORTS] = {0};
    const flit_t* in_flit[SPIN_MAX_PORTS];
    b->in_kind_i = 0;
    b->arm_in_i = 0;
    b->arm_in_vc_i = 0;
    for (int p = 0; p < kPorts; p++) {
      in_w[p] = flit_t{0, 0, KIND_IDLE};
      for (unsigned i = 0; i < 4; i++) put_bits(b->in_data_i, p * 128u + 32u * i, 32, 0);
    }
    for (size_t i = 0; i < echoes.size();) {
      const Echo& e = echoes[i];
      if (e.when > cyc) {
        i++;
        continue;
      }
      int p;
      if (e.kind == KIND_PROBE) {
        p = 1 + static_cast<int>(rng.below(kPorts - 1));
      } else {
        p = rng.pct(75) && s.dd_port_q ? s.dd_port_q : 1 + static_cast<int>(rng.below(kPorts - 1));
      }
      {   // mostly, a VC there waits with a whole packet for the message's first port
        const int v = e.kind == KIND_PROBE || p != s.dd_port_q ? 0 : s.dd_vc_q;
        Vc& q = vc[p][v];
        if (rng.pct(70) && !s.frozen_q[p][v] && (q.len == 0 || q.sent == 0)) {
          if (q.len == 0) q.len = 1 + rng.below(5);
          q.arrived = q.len;
          q.sent = 0;
          q.routed = true;
          q.op = e.port0;
        }
      }
      if (CTL_KIND(in_w[p].ctl) == KIND_IDLE) {
        in_w[p] = sm_make(e.kind, kId, e.n, e.kind == KIND_PROBE ? rng.below(6) : e.delay,
                          e.kind == KIND_PROBE ? rng.below(64) : e.n, e.path);
        // now and then, with a kill_move home, a late copy of an earlier
        // probe on a lower port: in KILL_MOVE the kill_move ends the
        // recovery and a probe on a later port may then take its loop, one
        // on an earlier port may not (the only case in which the order of
        // the ports matters in the FSM's step 4)
        if (e.kind == KIND_KILL_MOVE && have_probe && p > 1 && rng.pct(50)) {
          const int q = 1 + static_cast<int>(rng.below(static_cast<unsigned>(p - 1)));
          const int r = q < kPorts - 1 && rng.pct(50) ? q + 1 + static_cast<int>(
                            rng.below(static_cast<unsigned>(kPorts - 1 - q))) : q;
          const int at = r == p ? q : r;   // a port before or after the kill_move's
          Vc& lq = vc[at][0];
          if (CTL_KIND(in_w[at].ctl) == KIND_IDLE && !s.frozen_q[at][0] &&
              (lq.len == 0 || lq.sent == 0)) {
            if (lq.len == 0) lq.len = 1 + rng.below(5);
            lq.arrived = lq.len;
            lq.routed = true;
            lq.op = last_probe.port0;
            in_w[at] = sm_make(KIND_PROBE, kId, last_probe.n, rng.below(6), 0, last_probe.path);
            n_late += 1;
          }
        }
      }
      echoes.erase(echoes.begin() + static_cast<long>(i));
    }
    for (int p = 1; p < kPorts; p++) {
      if (CTL_KIND(in_w[p].ctl) == KIND_IDLE && rng.pct(3)) {   // another router's message
        static const unsigned kinds[] = {KIND_PROBE, KIND_MOVE, KIND_PROBE_MOVE, KIND_KILL_MOVE};
        sm_path_t path = {rng.next(), rng.next() & 0xFFFFFFFFull};
        in_w[p] = sm_make(kinds[rng.below(4)], (kId + 1 + rng.below(kNodes - 1)) % kNodes,
                          rng.below(64), rng.below(128), rng.below(64), path);
      }
      if (rng.pct(4)) {   // an arm notice from downstream
        const unsigned v = rng.below(kVcs);
        in_cred[p] = static_cast<uint8_t>(CRED_ARM_MAKE(v));
        b->arm_in_i |= 1u << p;
        b->arm_in_vc_i |= v << (2 * p);
        n_arms++;
      }
      b->in_kind_i |= static_cast<uint32_t>(CTL_KIND(in_w[p].ctl)) << (3 * p);
      put_bits(b->in_data_i, p * 128u, 64, in_w[p].data);
      put_bits(b->in_data_i, p * 128u + 64u, 64, in_w[p].ext);
    }
    for (int p = 0; p < kPorts; p++) in_flit[p] = &in_w[p];

    uint8_t cnt[SPIN_MAX_PORTS][SPIN_MAX_VCS] = {}, rv[SPIN_MAX_PORTS][SPIN_MAX_VCS] = {},
            op[SPIN_MAX_PORTS][SPIN_MAX_VCS] = {};
    flit_t front[SPIN_MAX_PORTS][SPIN_MAX_VCS] = {};
    spin_ctx_t c;
    std::memset(&c, 0, sizeof c);
    b->whole_i = 0;
    b->tail_i = 0;
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++) {
        const Vc& q = vc[p][v];
        const unsigned k = static_cast<unsigned>(p * SPIN_MAX_VCS + v);
        cnt[p][v] = static_cast<uint8_t>(q.cnt());
        rv[p][v] = q.routed;
        op[p][v] = static_cast<uint8_t>(q.routed ? q.op : 0);
        if (q.cnt()) {
          front[p][v].data = static_cast<uint64_t>(q.len) << 32;
          front[p][v].ctl = CTL_MAKE(KIND_FLIT, q.head(), q.tail(), 0);
          c.front[p][v] = &front[p][v];
        }
        if (q.head() && q.cnt() == q.len && q.routed) b->whole_i |= 1u << k;
        if (q.tail()) b->tail_i |= 1u << k;
      }
    put_vc_views(b, cnt, rv, op, kPorts, kVcs);

    // ---- RTL, before allocation; no move manager: st_moved_i = st_pre_o ----
    b->popped_i = 0;
    b->cnt_next_nz_i = 0;
    b.eval();
    for (int i = 0; i < 4; i++) b->st_moved_i[i] = b->st_pre_o[i];
    b.eval();

    // ---- C, before allocation ----
    c.ports = kPorts;
    c.vcs = kVcs;
    c.id = static_cast<int>(kId);
    c.nodes = kNodes;
    c.tdd = kTdd;
    c.nmin = 1;
    c.xlat = xlat;
    c.cycle = cyc;
    c.cnt = cnt;
    c.route_valid = rv;
    c.out_port = op;
    const spin_state_t state0 = s.state_q;
    spin_fsm_pre(&s, &c, in_flit, in_cred, &st);

    auto inputs = [&] {
      std::string m = strf("state %s cnt %u dd %u.%u; links:",
                           spin_obs_state_names[static_cast<int>(state0)], s.cnt_q,
                           s.dd_port_q, s.dd_vc_q);
      for (int p = 1; p < kPorts; p++)
        if (CTL_KIND(in_w[p].ctl) != KIND_IDLE || in_cred[p])
          m += strf(" p%d kind %u sender %u n %u idx %u delay %u arm 0x%x", p,
                    CTL_KIND(in_w[p].ctl), sm_sender(&in_w[p]), sm_n(&in_w[p]), sm_idx(&in_w[p]),
                    sm_delay(&in_w[p]), in_cred[p]);
      return m;
    };
    // the special messages: per output, the better of offers A and B
    for (int o = 0; o < kPorts; o++) {
      int pick = -1;
      for (int k = 0; k < 2; k++) {
        if (!((b->offer_valid_o >> k) & 1u) || get_bits(b->offer_port_o, 3u * k, 3) != unsigned(o))
          continue;
        const unsigned kind = static_cast<unsigned>(get_bits(b->offer_o, kOfferW * k + 128, 3));
        if (pick < 0 ||
            sm_rank(kind) > sm_rank(static_cast<unsigned>(get_bits(b->offer_o, kOfferW * pick + 128, 3))))
          pick = k;
      }
      b.check("offer valid (per output)", pick >= 0, c.offer[o].rank != 0, inputs);
      if (pick < 0) continue;
      b.check("offer kind", get_bits(b->offer_o, kOfferW * pick + 128, 3), CTL_KIND(c.offer[o].w.ctl),
              inputs);
      b.check("offer word[63:0]", get_bits(b->offer_o, kOfferW * pick, 64), c.offer[o].w.data, inputs);
      b.check("offer word[127:64]", get_bits(b->offer_o, kOfferW * pick + 64, 64), c.offer[o].w.ext,
              inputs);
      // it comes back, now and then
      const unsigned kind = CTL_KIND(c.offer[o].w.ctl);
      const flit_t& w = c.offer[o].w;
      n_probes += kind == KIND_PROBE;
      n_moves += kind == KIND_MOVE || kind == KIND_PROBE_MOVE;
      n_kills += kind == KIND_KILL_MOVE;
      if (rng.pct(kind == KIND_PROBE ? 50 : 65)) {
        Echo e;
        e.when = cyc + 2 + rng.below(10);
        e.kind = kind;
        e.port0 = static_cast<unsigned>(o);
        e.delay = kind == KIND_PROBE ? 0 : (sm_delay(&w) > 4 ? sm_delay(&w) - rng.below(4) : sm_delay(&w));
        if (kind == KIND_PROBE) {   // a loop behind the first entry
          e.n = rng.pct(10) ? 60 + rng.below(4) : 8 + rng.below(24);
          e.path = path_put(sm_path_t{0, 0}, 0, static_cast<unsigned>(o));
          for (unsigned i = 1; i < SM_MAX_PATH && i < e.n; i++)
            e.path = path_put(e.path, i, 1 + rng.below(kPorts - 1));
        } else {
          e.n = sm_n(&w);
          e.path = sm_path(&w);
        }
        if (kind == KIND_PROBE) {
          last_probe = e;
          have_probe = true;
        }
        echoes.push_back(e);
      }
    }
    // spin flits
    b.check("out_busy_o", b->out_busy_o, c.out_busy, inputs);
    b.check("in_busy_o", b->in_busy_o, c.in_busy, inputs);
    for (int o = 0; o < kPorts; o++) {
      if (!((c.out_busy >> o) & 1u)) continue;
      n_spins++;
      b.check("spin_src_o", get_bits(b->spin_src_o, 3u * o, 3), static_cast<unsigned>(c.spin_src_port[o]),
              inputs);
      b.check("spin_ovc_o", get_bits(b->spin_ovc_o, 2u * o, 2), CTL_VC(c.spin_flit[o].ctl), inputs);
      b.check("spin_vc_o", get_bits(b->spin_vc_o, 2u * c.spin_src_port[o], 2),
              static_cast<unsigned>(c.spin_src_vc[o]), inputs);
    }
    // arm notices upstream
    for (int p = 0; p < kPorts; p++) {
      b.check("arm_o", (b->arm_o >> p) & 1u, c.arm_out[p] != 0, inputs);
      if (c.arm_out[p]) b.check("arm_vc_o", get_bits(b->arm_vc_o, 2u * p, 2), CRED_ARM_VC(c.arm_out[p]), inputs);
    }

    // ---- the router's traversal: spinning VCs send, others at random ----
    uint64_t popped = 0;
    uint32_t popped_rtl = 0, next_nz = 0;
    for (int o = 0; o < kPorts; o++)
      if ((c.out_busy >> o) & 1u) {
        const int p = c.spin_src_port[o], v = c.spin_src_vc[o];
        if (vc[p][v].tail()) s.spinning_q[p][v] = s.frozen_q[p][v] = s.armed_q[p][v] = 0;
        vc[p][v].sent++;
        popped |= 1ull << (p * SPIN_MAX_VCS + v);
      }
    for (int p = 1; p < kPorts; p++) {
      bool sent = (c.in_busy >> p) & 1u;
      for (int v = 0; v < kVcs; v++) {
        Vc& q = vc[p][v];
        const uint64_t bit = 1ull << (p * SPIN_MAX_VCS + v);
        if (!(popped & bit) && !sent && q.cnt() && q.routed && !s.frozen_q[p][v] &&
            !(c.out_busy >> q.op & 1u) && rng.pct(10)) {
          q.sent++;
          popped |= bit;
          sent = true;
        }
        if (q.len && q.sent == q.len) q = Vc();
        if (popped & bit) popped_rtl |= static_cast<uint32_t>(bit);
        cnt[p][v] = static_cast<uint8_t>(q.cnt());
        if (q.cnt()) next_nz |= 1u << (p * SPIN_MAX_VCS + v);
      }
    }
    b->popped_i = popped_rtl;
    b->cnt_next_nz_i = next_nz;
    c.in_ports = 0;
    for (int p = 1; p < kPorts; p++)
      for (int v = 0; v < kVcs; v++)
        if (cnt[p][v]) c.in_ports |= 1u << p;
    spin_fsm_post(&s, &c, popped, &st);
    b.tick();

    // ---- the registers after the edge ----
    const spin_obs_ctx_t oc = {cyc + 1, kTdd, kNodes};
    const unsigned vc_base = SPIN_OBS_ROUTER_W + (kPorts - 1) * SPIN_OBS_PORT_W;
    for (int f = 0; f < SPIN_OBS_NFIELDS; f++) {
      const spin_obs_field_t& fd = spin_obs_fields[f];
      if (fd.kind == SPIN_OBS_ROUTER) {
        const unsigned lsb = spin_obs_lsb(f, 0, 0, kPorts, kVcs);
        b.check(fd.name, get_bits(b->obs_o, lsb, fd.width), fd.get(&s, 0, 0, &oc), inputs);
      } else if (fd.kind == SPIN_OBS_VC) {
        for (int p = 1; p < kPorts; p++)
          for (int v = 0; v < kVcs; v++) {
            const unsigned lsb = spin_obs_lsb(f, p, v, kPorts, kVcs) - vc_base;
            b.check(fd.name, get_bits(b->obs_vc_o, lsb, fd.width), fd.get(&s, p, v, &oc), inputs);
          }
      }
    }
  }
  std::printf("probes %" PRIu64 ", moves and probe_moves %" PRIu64 ", kill_moves %" PRIu64
              ", spin flits %" PRIu64 ", arm notices in %" PRIu64 ", spins %" PRIu64
              ", recoveries %" PRIu64 ", late probes with a kill_move home %" PRIu64 "\n",
              n_probes, n_moves, n_kills, n_spins, n_arms, st.spins, st.recoveries, n_late);
  // a run that never spins tests little: the stimulus is broken
  b.finish(n_probes && n_moves && n_kills && n_spins && st.spins && n_late ? 0 : 1);
}
