// spin_input_port_tb.cpp - rtl/spin_input_port.sv (one router input: its
// VCs, route unit and stage 1) against its C twin, cmodel/spin_input_port.c
// (from the C model's library), on the registers of input port kPort of a
// router_t.  Parameters: -DP_NumPorts -DP_NumVcs -DP_BufDepth -DP_FlitW
// -DP_Escape -DP_Nmin -DP_Source (same as -G); the C model's depth is
// BUF_DEPTH and its link words carry 128 bits, so BufDepth = 5 and FlitW =
// 128.
//
// Each cycle, in the router's order: spin_input_port_route() (the SPIN
// registers frozen_q as frozen_q_i), spin_input_port_request() (SPIN's
// frozen_req and hold as frozen_req_i and hold_i, 12.2: in an episode of
// SmPipe 0 the VCs frozen after this cycle's message, else those frozen at
// the start of the cycle and still after it, and now and then the port
// held; not while spin_i), spin_input_port_latch() (frozen_q after the
// cycle's messages as frozen_i),
// spin_input_port_req_flit(), then on gnt_i spin_input_port_grant() with
// gnt_ovc_i, or on spin_i spin_input_port_spin_flit(), then
// spin_input_port_write() of flit_i.  The cycle's wires come from the
// inputs: port_free_i, free_a_i/free0_i, port_age_i, out_blocked_i,
// least_busy_i and nmin_i (cycle_bits_t, cycle_t); reroute_i and id_i (the
// router_cfg_t); draw_i is lfsr_draw() of a random LFSR state the C router
// holds.  The route table (the bench's rows, looked up with
// spin_route_table()) answers rt_dst_o on rt_mask_i and rt_mid_o on
// rt_mid_mask_i in the same cycle, as the router's does.
//
// Stimulus: packets of 1 and 5 flits (heads with a route header of random
// mid, via, offer and detour), each into a VC that is empty, one flit a
// cycle at most, interleaved over the VCs, with special messages and idle
// words between; grants at random to the request; in episodes (between
// resets) of one routing mode: plain, FAvORS-NMin (Nmin = 1) or escape
// (Escape = 1, NumVcs >= 2), rerouting on or off, with SPIN (VCs frozen
// for a while, a routed VC sending its packet as spin flits) except under
// escape.  Compared before every edge: rt_dst_o when a route is computed,
// rt_mid_o (Source) with one under NMin, drew_o, req_o and, with a request,
// req_port_o, req_esc_o, req_ovc_o and req_flit_o; xbar_flit_o; credit_o;
// occ_o and the views (view_cnt_nz_o, view_rv_o, view_op_o, view_tail_o,
// view_whole_o: spin_vc_waits() of cmodel/spin.h on the C registers);
// popped_o.
#include "Vspin_input_port.h"
#include "link_tb.h"

extern "C" {
#include "datapath.h"
#include "lfsr.h"
}

#if !defined(P_NumPorts) || !defined(P_NumVcs) || !defined(P_Escape) || !defined(P_Nmin) || \
    !defined(P_Source)
#error "P_NumPorts, P_NumVcs, P_Escape, P_Nmin and P_Source must be defined"
#endif
static_assert(P_BufDepth == BUF_DEPTH, "the C model's VCs hold BUF_DEPTH flits");
static_assert(P_FlitW == 128, "the C model's flits carry 128 bits");

namespace {

const int kPorts = P_NumPorts, kVcs = P_NumVcs;
const int kPort = P_Source ? 0 : kPorts - 1;   // the C router's port the RTL port is
const unsigned kFlitW = P_FlitW;
const unsigned kNodes = 16;
const unsigned kAllPorts = (1u << kPorts) - 1u;

// What the upstream router is sending into each VC.
struct vc_src {
  unsigned left = 0, len = 0, sent = 0;
  uint64_t id = 0;
  unsigned dst = 0, rh = 0;
};

// One episode's mode.
struct episode_t {
  bool esc = false, nmin = false, reroute = false, spin = false, pipe0 = false;
  unsigned id = 0;
};

unsigned random_mask(Rng& rng) {
  unsigned m = 0;
  while (!m) m = rng.u32() & kAllPorts;
  return rng.pct(30) ? 1u << rng.pick_bit(m) : m;
}

}  // namespace

int main(int argc, char** argv) {
  Bench<Vspin_input_port> b(argc, argv, "spin_input_port");
  Rng rng(b.seed());
  std::printf("spin_input_port NumPorts=%d NumVcs=%d Escape=%d Nmin=%d Source=%d (C port %d) "
              "seed=%u cycles=%" PRIu64 "\n",
              kPorts, kVcs, P_Escape, P_Nmin, P_Source, kPort, b.seed(), b.cycles());

  // The C twin: a router whose port kPort is the RTL's, its routing table.
  static router_t r;
  static router_cfg_t cfg;
  static port_mask_t rows_a[kNodes], rows_e[kNodes];
  std::memset(&cfg, 0, sizeof cfg);
  cfg.ports = kPorts;
  cfg.vcs = kVcs;
  cfg.nodes = static_cast<int>(kNodes);
  cfg.dsts = static_cast<int>(kNodes);   // one NIC port a router: a node is a router
  cfg.nics = 1;
  cfg.nic_mask = 1;
  cfg.mask_det = rows_a;
  cfg.mask_esc = rows_e;

  vc_src src[MAX_VCS];
  episode_t mode;
  uint8_t frozen_q = 0;      // frozen VCs (SPIN's registers), bit v
  int spin_vc = -1;          // the VC SPIN sends as spin flits
  unsigned gnt_pct = 50, busy_pct = 50;
  uint64_t n_routes = 0, n_reroutes = 0, n_grants = 0, n_spins = 0, n_nmin_via = 0, n_go = 0,
           n_esc0 = 0, n_episodes = 0, n_held = 0;
  std::string prev = "reset";

  auto new_episode = [&] {
    mode = episode_t();
    const unsigned kind = rng.below(3);   // 0 plain, 1 NMin, 2 escape
    mode.nmin = kind == 1 && P_Nmin;
    mode.esc = kind == 2 && P_Escape && kVcs >= 2;
    mode.reroute = rng.pct(60);
    mode.spin = !mode.esc && rng.pct(50);
    mode.pipe0 = rng.pct(50);
    mode.id = rng.below(kNodes);
    for (unsigned d = 0; d < kNodes; d++) {
      rows_a[d] = static_cast<port_mask_t>(random_mask(rng));
      rows_e[d] = static_cast<port_mask_t>(random_mask(rng));
    }
    std::memset(&r, 0, sizeof r);
    cfg.id = static_cast<int>(mode.id);
    cfg.node0 = cfg.id;
    cfg.reroute = mode.reroute;
    for (vc_src& s : src) s = vc_src();
    frozen_q = 0;
    spin_vc = -1;
    n_episodes++;
  };

  auto idle_inputs = [&] {
    put_bits(b->flit_i, 0, link_width(kFlitW), 0);
    b->gnt_i = 0;
    b->spin_i = 0;
    b->frozen_i = 0;
    b->frozen_req_i = 0;
    b->hold_i = 0;
    b->frozen_q_i = 0;
    b->esc_i = 0;
    b->nmin_i = 0;
  };

  b->clk_i = 0;
  idle_inputs();
  b.reset(3);
  new_episode();

  for (uint64_t c = 0; c < b.cycles(); c++) {
    if (c % 64 == 0) {
      const unsigned rates[] = {10, 50, 90};
      gnt_pct = rates[rng.below(3)];
      busy_pct = rates[rng.below(3)];
    }
    if (rng.below(3000) == 0) {   // a new episode starts from reset
      idle_inputs();
      b.reset(1 + rng.below(3));
      new_episode();
      prev = "reset";
    }

    // ---- inputs ----
    // the word on the link: the next flit of a packet under way, a new
    // packet into an empty VC, a special message or nothing
    flit_t in = {0, 0, KIND_IDLE};
    if (rng.pct(busy_pct)) {
      unsigned going = 0, free_vcs = 0;
      for (int v = 0; v < kVcs; v++) {
        if (src[v].left) going |= 1u << v;
        else if (!r.cnt_q[kPort][v] && !r.route_valid_q[kPort][v]) free_vcs |= 1u << v;
      }
      const unsigned pick = going && (rng.pct(70) || !free_vcs) ? going : free_vcs;
      if (pick && rng.pct(90)) {
        const unsigned v = rng.pick_bit(pick);
        vc_src& s = src[v];
        if (!s.left) {
          s.len = rng.pct(50) ? 1 : 5;
          s.left = s.len;
          s.sent = 0;
          s.id = rng.next();
          s.dst = rng.below(kNodes);
          s.rh = rng.pct(70) ? rh_make(rng.below(kNodes), rng.below(300)) : 0;
          if (s.rh && rng.pct(30)) s.rh |= RH_VIA;
          if (s.rh && rng.pct(30)) s.rh &= ~RH_OFFER;
        }
        const bool head = s.sent == 0, tail = s.left == 1;
        in.data = head ? head_word(s.dst, rng.below(kNodes), s.len, s.id)
                       : payload_word(s.id, s.sent);
        in.ext = head ? s.rh : 0;
        in.ctl = CTL_MAKE(KIND_FLIT, head, tail, v);
        s.sent++;
        s.left--;
      } else if (rng.pct(50)) {   // a special message: not for the VCs
        in.data = rng.next();
        in.ext = rng.next();
        in.ctl = CTL_MAKE(2 + rng.below(4), rng.below(2), rng.below(2), rng.below(4));
      }
    }
    // the outputs: free downstream VCs, ages, outputs SPIN takes
    unsigned port_free = 0, free_a = 0, free0 = 0, out_blocked = 0;
    uint8_t port_age[MAX_PORTS];
    uint64_t age_bits = 0;
    const unsigned free_pct = rng.pct(20) ? 0 : rng.pct(20) ? 100 : 60;
    for (int o = 0; o < kPorts; o++) {
      const unsigned f = rng.pct(free_pct) ? rng.u32() & ((1u << kVcs) - 1u) : 0;
      if (f) port_free |= 1u << o;
      if (f >> 1) free_a |= 1u << o;
      if (f & 1u) free0 |= 1u << o;
      static const uint8_t ages[] = {0, 1, 2, 7, 254, 255};
      port_age[o] = rng.pct(50) ? ages[rng.below(6)] : static_cast<uint8_t>(rng.below(256));
      age_bits |= static_cast<uint64_t>(port_age[o]) << (8 * o);
      if (rng.pct(8)) out_blocked |= 1u << o;
    }
    const bool least_busy = rng.pct(50), admit = rng.pct(70);
    r.lfsr_q = rng.u32() | 1u;
    const unsigned draw = lfsr_draw(r.lfsr_q, static_cast<unsigned>(kPort));
    // SPIN: VCs freeze and thaw now and then; a frozen routed VC sends its
    // packet as spin flits, staying frozen until its tail has left (as the
    // router's SPIN unit does)
    uint8_t frozen = frozen_q;
    bool spin = false;
    if (mode.spin) {
      if (rng.pct(3)) {
        const int v = static_cast<int>(rng.below(kVcs));
        if (v != spin_vc) frozen = static_cast<uint8_t>(frozen ^ (1u << v));
      }
      if (spin_vc < 0 && rng.pct(5)) {
        const int v = static_cast<int>(rng.below(kVcs));
        if ((frozen_q >> v & 1u) && r.cnt_q[kPort][v] && r.route_valid_q[kPort][v]) spin_vc = v;
      }
      spin = spin_vc >= 0 && r.cnt_q[kPort][spin_vc] && rng.pct(80);
    }
    // what switch allocation skips (12.2): SmPipe 0, the VCs frozen after
    // this cycle's message; SmPipe 1 and 2, those frozen before it (the
    // FSM's steps may thaw, not freeze), and the port a move or probe_move
    // is handled on is held, so always when it froze a VC here, else now
    // and then (a move that freezes nothing)
    const uint8_t frozen_req = mode.pipe0 ? frozen : static_cast<uint8_t>(frozen_q & frozen);
    const bool hold = !mode.pipe0 && ((frozen & ~frozen_q) != 0 || (mode.spin && rng.pct(5)));

    put_link(b->flit_i, 0, kFlitW, in);
    b->nmin_i = mode.nmin;
    b->id_i = mode.id;
    b->esc_i = mode.esc;
    b->free_a_i = free_a;
    b->free0_i = free0;
    b->port_free_i = port_free;
    b->draw_i = draw;
    b->least_busy_i = least_busy;
    b->reroute_i = mode.reroute;
    b->admit_i = admit;
    put_bits(b->port_age_i, 0, 8 * kPorts, age_bits);
    b->gnt_i = 0;
    b->gnt_ovc_i = 0;
    b->frozen_i = frozen;
    b->frozen_req_i = frozen_req;
    b->hold_i = hold;
    b->frozen_q_i = frozen_q;
    b->spin_i = spin;
    b->spin_vc_i = spin ? spin_vc : rng.below(kVcs);
    b->out_blocked_i = out_blocked;
    // the route table answers in the same cycle
    b.eval();
    const unsigned rt_dst = b->rt_dst_o, rt_mid = b->rt_mid_o;
    b->rt_mask_i = spin_route_table(rows_a, kNodes, rt_dst) |
                   (P_Escape ? spin_route_table(rows_e, kNodes, rt_dst) << kPorts : 0u);
    b->rt_mid_mask_i = spin_route_table(rows_a, kNodes, rt_mid);
    b.eval();

    // ---- the C twin, in the router's order ----
    cycle_t cw;
    cycle_bits_t cb;
    std::memset(&cw, 0, sizeof cw);
    std::memset(&cb, 0, sizeof cb);
    cb.P = kPorts;
    cb.nics = 1;
    cb.favors = least_busy;
    cb.nmin = mode.nmin;
    cb.all_vcs = (1u << kVcs) - 1u;
    cb.port_free = port_free;
    cb.free_a = free_a;
    cb.free0 = free0;
    cb.spin_outs = out_blocked;
    cb.ages_known = 1;
    cb.frozen_req = static_cast<uint64_t>(frozen_req) << (kPort * SPIN_MAX_VCS);
    cb.hold = static_cast<unsigned>(hold) << kPort;
    std::memcpy(cw.port_age, port_age, sizeof port_age);
    // the views: the registers at the start of the cycle
    uint8_t cnt0[MAX_VCS], rv0[MAX_VCS], op0[MAX_VCS], tail0[MAX_VCS], whole0[MAX_VCS];
    {
      spin_ctx_t sc;
      flit_t front[MAX_VCS];
      std::memset(&sc, 0, sizeof sc);
      sc.nics = 1;
      sc.cnt = (const uint8_t(*)[SPIN_MAX_VCS])r.cnt_q;
      sc.route_valid = (const uint8_t(*)[SPIN_MAX_VCS])r.route_valid_q;
      sc.out_port = (const uint8_t(*)[SPIN_MAX_VCS])r.out_port_q;
      for (int v = 0; v < kVcs; v++) {
        const spin_fifo_t f = spin_input_port_fifo(&r, kPort, v, kVcs);
        front[v] = spin_fifo_front(&f);
        sc.front[kPort][v] = r.cnt_q[kPort][v] ? &front[v] : nullptr;
        cnt0[v] = r.cnt_q[kPort][v];
        rv0[v] = r.route_valid_q[kPort][v];
        op0[v] = r.out_port_q[kPort][v];
        tail0[v] = static_cast<uint8_t>(CTL_TAIL(front[v].ctl));
        whole0[v] = static_cast<uint8_t>(spin_vc_waits(&sc, kPort, v, r.out_port_q[kPort][v]));
      }
    }
    for (int v = 0; v < kVcs; v++) r.sp.frozen_q[kPort][v] = frozen_q >> v & 1u;
    spin_input_port_route(&r, &cfg, &cw, &cb, kPort, 1, kVcs, mode.esc);
    const bool routing = cb.routing >> kPort & 1u;
    flit_t rc_front = {0, 0, 0};
    if (routing) {
      const spin_fifo_t f = spin_input_port_fifo(&r, kPort, cw.rc_vc[kPort], kVcs);
      rc_front = spin_fifo_front(&f);
      n_routes++;
      n_reroutes += r.route_valid_q[kPort][cw.rc_vc[kPort]];
      n_nmin_via += mode.nmin && cw.rc_via[kPort];
      // the source's choice: toward mid, looked up on the head's own dst
      n_go += mode.nmin && cw.rc_via[kPort] && cw.rc_dst[kPort] == HEAD_DST(rc_front.data);
    }
    for (int v = 0; v < kVcs; v++) r.sp.frozen_q[kPort][v] = frozen >> v & 1u;
    const int op = spin ? -1 : spin_input_port_request(&r, &cw, &cb, kPort, admit, 1, kVcs, mode.esc);
    if (routing) spin_input_port_latch(&r, &cw, &cb, kPort, 1, kVcs, mode.esc);
    flit_t req_flit = {0, 0, 0};
    unsigned req_ovc = 0;
    if (op >= 0) {
      req_flit = spin_input_port_req_flit(&r, &cw, &cb, kPort, kVcs);
      req_ovc = r.out_vc_q[kPort][cw.req_vc[kPort]];
    }
    // the grant (and what it gives the RTL)
    const bool gnt = op >= 0 && rng.pct(gnt_pct);
    const unsigned gnt_ovc = rng.below(kVcs);
    unsigned cred = 0;
    flit_t xbar = req_flit;
    if (gnt) {
      cred = spin_input_port_grant(&r, &cw, &cb, kPort, static_cast<unsigned>(op), gnt_ovc,
                                   kVcs, mode.esc);
      n_grants++;
      n_esc0 += mode.esc && cw.req_esc[kPort];
    }
    if (spin) {
      xbar = spin_input_port_spin_flit(&r, &cb, kPort, spin_vc, kVcs);
      n_spins++;
      if (CTL_TAIL(xbar.ctl)) {   // the spin is over: the VC thaws
        frozen = static_cast<uint8_t>(frozen & ~(1u << spin_vc));
        spin_vc = -1;
      }
    }
    n_held += hold && r.nonempty[kPort];
    spin_input_port_write(&r, kPort, &in, kVcs);
    b->gnt_i = gnt;
    b->gnt_ovc_i = gnt_ovc;
    b.eval();

    // ---- compare ----
    auto now = [&] {
      return strf("flit_i=%s esc=%d nmin=%d reroute=%d id=%u least_busy=%d admit=%d "
                  "port_free=0x%x free_a=0x%x free0=0x%x out_blocked=0x%x draw=0x%x "
                  "frozen_q=0x%x frozen=0x%x frozen_req=0x%x hold=%d spin=%d/%d gnt=%d/%u",
                  flit_str(in).c_str(), mode.esc, mode.nmin, mode.reroute, mode.id, least_busy,
                  admit, port_free, free_a, free0, out_blocked, draw, frozen_q, frozen, frozen_req,
                  hold, spin, spin_vc, gnt, gnt_ovc);
    };
    auto inputs = [&] { return now() + "\n  previous edge: " + prev; };
    if (routing) b.check("rt_dst_o", b->rt_dst_o, cw.rc_dst[kPort], inputs);
    if (routing && P_Source && mode.nmin)
      b.check("rt_mid_o", b->rt_mid_o, RH_MID(rc_front.ext), inputs);
    b.check("drew_o", b->drew_o, cb.any_draw != 0, inputs);
    b.check("req_o", b->req_o, op >= 0, inputs);
    if (op >= 0) {
      b.check("req_port_o", b->req_port_o, static_cast<unsigned>(op), inputs);
      b.check("req_esc_o", b->req_esc_o, cw.req_esc[kPort], inputs);
      b.check("req_ovc_o", b->req_ovc_o, req_ovc, inputs);
      check_flit(b, "req_flit_o", get_link(b->req_flit_o, 0, kFlitW), req_flit, inputs);
    }
    if (spin || op >= 0) check_flit(b, "xbar_flit_o", get_link(b->xbar_flit_o, 0, kFlitW), xbar, inputs);
    b.check("credit_o", b->credit_o, cred, inputs);
    unsigned popped = 0;
    for (int v = 0; v < kVcs; v++) {
      const auto bit = [&](uint64_t w) { return w >> v & 1u; };
      b.check(strf("occ_o[%d]", v).c_str(), get_bits(b->occ_o, 3 * v, 3), cnt0[v], inputs);
      b.check(strf("view_cnt_nz_o[%d]", v).c_str(), bit(b->view_cnt_nz_o), cnt0[v] != 0, inputs);
      b.check(strf("view_rv_o[%d]", v).c_str(), bit(b->view_rv_o), rv0[v], inputs);
      b.check(strf("view_op_o[%d]", v).c_str(), get_bits(b->view_op_o, 3 * v, 3), op0[v], inputs);
      if (cnt0[v]) b.check(strf("view_tail_o[%d]", v).c_str(), bit(b->view_tail_o), tail0[v], inputs);
      b.check(strf("view_whole_o[%d]", v).c_str(), bit(b->view_whole_o), whole0[v], inputs);
      popped |= static_cast<unsigned>(cb.popped >> (kPort * SPIN_MAX_VCS + v) & 1u) << v;
    }
    b.check("popped_o", b->popped_o, popped, inputs);

    prev = now();
    frozen_q = frozen;
    b.tick();
  }
  std::printf("coverage: %" PRIu64 " episodes, %" PRIu64 " routes (%" PRIu64 " reroutes, %" PRIu64
              " toward mid, %" PRIu64 " of them the source's choice), %" PRIu64 " grants (%" PRIu64
              " into the escape VC), %" PRIu64 " spin flits, %" PRIu64 " cycles held with flits\n",
              n_episodes, n_routes, n_reroutes, n_nmin_via, n_go, n_grants, n_esc0, n_spins,
              n_held);
  b.finish(0);
}
