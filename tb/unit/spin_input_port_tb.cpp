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
const unsigned kPortW = clog2u(static_cast<unsigned>(kPorts));   // a port number's bits
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

// One cycle's inputs, what the C twin made of them and what the RTL gets.
struct Cycle {
  // the link, the outputs, the draw
  flit_t in = {0, 0, KIND_IDLE};
  unsigned port_free = 0, free_a = 0, free0 = 0, out_blocked = 0;
  uint8_t port_age[MAX_PORTS];
  uint64_t age_bits = 0;
  bool least_busy = false, admit = false;
  unsigned draw = 0;
  // SPIN
  uint8_t frozen = 0, frozen_req = 0;
  bool spin = false, hold = false;
  // the C twin
  cycle_t cw;
  cycle_bits_t cb;
  uint8_t cnt0[MAX_VCS], rv0[MAX_VCS], op0[MAX_VCS], tail0[MAX_VCS], whole0[MAX_VCS];
  bool routing = false;
  flit_t rc_front = {0, 0, 0};
  int op = -1;
  flit_t req_flit = {0, 0, 0}, xbar = {0, 0, 0};
  unsigned req_ovc = 0;
  bool gnt = false;
  unsigned gnt_ovc = 0, cred = 0;
};

// The bench: the RTL input port, the C router whose port kPort is the RTL's
// with its routing table, the upstream senders and SPIN around them.
class InputPortBench {
 public:
  InputPortBench(int argc, char** argv) : b_(argc, argv, "spin_input_port"), rng_(b_.seed()) {
    std::printf("spin_input_port NumPorts=%d NumVcs=%d Escape=%d Nmin=%d Source=%d (C port %d) "
                "seed=%u cycles=%" PRIu64 "\n",
                kPorts, kVcs, P_Escape, P_Nmin, P_Source, kPort, b_.seed(), b_.cycles());
    std::memset(&r_, 0, sizeof r_);
    std::memset(rows_a_, 0, sizeof rows_a_);
    std::memset(rows_e_, 0, sizeof rows_e_);
    std::memset(&cfg_, 0, sizeof cfg_);
    cfg_.ports = kPorts;
    cfg_.vcs = kVcs;
    cfg_.nodes = static_cast<int>(kNodes);
    cfg_.dsts = static_cast<int>(kNodes);   // one NIC port a router: a node is a router
    cfg_.nics = 1;
    cfg_.nic_mask = 1;
    cfg_.mask_det = rows_a_;
    cfg_.mask_esc = rows_e_;
  }

  void reset() {
    b_->clk_i = 0;
    idle_inputs();
    b_.reset(3);
    new_episode();
  }
  void run() {
    for (uint64_t c = 0; c < b_.cycles(); c++) cycle(c);
  }
  [[noreturn]] void report();

 private:
  void cycle(uint64_t c);
  void new_episode();
  void idle_inputs();
  void draw_link_word(Cycle& k);
  void draw_outputs(Cycle& k);
  void draw_spin(Cycle& k);
  void drive_rtl(Cycle& k);
  void c_views(Cycle& k);
  void c_route_and_request(Cycle& k);
  void c_grant_spin_write(Cycle& k);
  std::string now(const Cycle& k) const;
  void compare(Cycle& k);

  Bench<Vspin_input_port> b_;
  Rng rng_;
  router_t r_;
  router_cfg_t cfg_;
  port_mask_t rows_a_[kNodes], rows_e_[kNodes];
  vc_src src_[MAX_VCS];
  episode_t mode_;
  uint8_t frozen_q_ = 0;      // frozen VCs (SPIN's registers), bit v
  int spin_vc_ = -1;          // the VC SPIN sends as spin flits
  unsigned gnt_pct_ = 50, busy_pct_ = 50;
  uint64_t n_routes_ = 0, n_reroutes_ = 0, n_grants_ = 0, n_spins_ = 0, n_nmin_via_ = 0,
           n_go_ = 0, n_esc0_ = 0, n_episodes_ = 0, n_held_ = 0;
  std::string prev_ = "reset";   // the inputs of the edge before
};

// One cycle: new rates now and then, a new episode from reset now and then;
// the inputs drawn, the RTL driven, the C twin in the router's order, the
// outputs compared, the edge.
void InputPortBench::cycle(uint64_t c) {
  if (c % 64 == 0) {
    const unsigned rates[] = {10, 50, 90};
    gnt_pct_ = rates[rng_.below(3)];
    busy_pct_ = rates[rng_.below(3)];
  }
  if (rng_.below(3000) == 0) {   // a new episode starts from reset
    idle_inputs();
    b_.reset(1 + rng_.below(3));
    new_episode();
    prev_ = "reset";
  }
  Cycle k;
  draw_link_word(k);
  draw_outputs(k);
  draw_spin(k);
  drive_rtl(k);
  c_views(k);
  c_route_and_request(k);
  c_grant_spin_write(k);
  b_->gnt_i = k.gnt;
  b_->gnt_ovc_i = k.gnt_ovc;
  b_.eval();
  compare(k);
  prev_ = now(k);
  frozen_q_ = k.frozen;
  b_.tick();
}

// One episode's routing mode, route table and router id, from an empty
// router.
void InputPortBench::new_episode() {
  mode_ = episode_t();
  const unsigned kind = rng_.below(3);   // 0 plain, 1 NMin, 2 escape
  mode_.nmin = kind == 1 && P_Nmin;
  mode_.esc = kind == 2 && P_Escape && kVcs >= 2;
  mode_.reroute = rng_.pct(60);
  mode_.spin = !mode_.esc && rng_.pct(50);
  mode_.pipe0 = rng_.pct(50);
  mode_.id = rng_.below(kNodes);
  for (unsigned d = 0; d < kNodes; d++) {
    rows_a_[d] = static_cast<port_mask_t>(random_mask(rng_));
    rows_e_[d] = static_cast<port_mask_t>(random_mask(rng_));
  }
  std::memset(&r_, 0, sizeof r_);
  cfg_.id = static_cast<int>(mode_.id);
  cfg_.node0 = cfg_.id;
  cfg_.reroute = mode_.reroute;
  for (vc_src& s : src_) s = vc_src();
  frozen_q_ = 0;
  spin_vc_ = -1;
  n_episodes_++;
}

void InputPortBench::idle_inputs() {
  put_bits(b_->flit_i, 0, link_width(kFlitW), 0);
  b_->gnt_i = 0;
  b_->spin_i = 0;
  b_->frozen_i = 0;
  b_->frozen_req_i = 0;
  b_->hold_i = 0;
  b_->frozen_q_i = 0;
  b_->esc_i = 0;
  b_->nmin_i = 0;
}

// The word on the link: the next flit of a packet under way, a new packet
// into an empty VC, a special message or nothing.
void InputPortBench::draw_link_word(Cycle& k) {
  flit_t& in = k.in;
  if (!rng_.pct(busy_pct_)) return;
  unsigned going = 0, free_vcs = 0;
  for (int v = 0; v < kVcs; v++) {
    if (src_[v].left) going |= 1u << v;
    else if (!r_.cnt_q[kPort][v] && !r_.route_valid_q[kPort][v]) free_vcs |= 1u << v;
  }
  const unsigned pick = going && (rng_.pct(70) || !free_vcs) ? going : free_vcs;
  if (pick && rng_.pct(90)) {
    const unsigned v = rng_.pick_bit(pick);
    vc_src& s = src_[v];
    if (!s.left) {
      s.len = rng_.pct(50) ? 1 : 5;
      s.left = s.len;
      s.sent = 0;
      s.id = rng_.next();
      s.dst = rng_.below(kNodes);
      s.rh = rng_.pct(70) ? rh_make(rng_.below(kNodes), rng_.below(300)) : 0;
      if (s.rh && rng_.pct(30)) s.rh |= RH_VIA;
      if (s.rh && rng_.pct(30)) s.rh &= ~RH_OFFER;
    }
    const bool head = s.sent == 0, tail = s.left == 1;
    in.data = head ? head_word(s.dst, rng_.below(kNodes), s.len, s.id) : payload_word(s.id, s.sent);
    in.ext = head ? s.rh : 0;
    in.ctl = CTL_MAKE(KIND_FLIT, head, tail, v);
    s.sent++;
    s.left--;
  } else if (rng_.pct(50)) {   // a special message: not for the VCs
    in.data = rng_.next();
    in.ext = rng_.next();
    in.ctl = CTL_MAKE(2 + rng_.below(4), rng_.below(2), rng_.below(2), rng_.below(4));
  }
}

// The outputs: free downstream VCs, ages, outputs SPIN takes; the cycle's
// choices and the LFSR draw.
void InputPortBench::draw_outputs(Cycle& k) {
  const unsigned free_pct = rng_.pct(20) ? 0 : rng_.pct(20) ? 100 : 60;
  for (int o = 0; o < kPorts; o++) {
    const unsigned f = rng_.pct(free_pct) ? rng_.u32() & ((1u << kVcs) - 1u) : 0;
    if (f) k.port_free |= 1u << o;
    if (f >> 1) k.free_a |= 1u << o;
    if (f & 1u) k.free0 |= 1u << o;
    static const uint8_t ages[] = {0, 1, 2, 7, 254, 255};
    k.port_age[o] = rng_.pct(50) ? ages[rng_.below(6)] : static_cast<uint8_t>(rng_.below(256));
    k.age_bits |= static_cast<uint64_t>(k.port_age[o]) << (8 * o);
    if (rng_.pct(8)) k.out_blocked |= 1u << o;
  }
  k.least_busy = rng_.pct(50);
  k.admit = rng_.pct(70);
  r_.lfsr_q = rng_.u32() | 1u;
  k.draw = lfsr_draw(r_.lfsr_q, static_cast<unsigned>(kPort));
}

// SPIN: VCs freeze and thaw now and then; a frozen routed VC sends its
// packet as spin flits, staying frozen until its tail has left (as the
// router's SPIN unit does).  Then what switch allocation skips (12.2):
// SmPipe 0, the VCs frozen after this cycle's message; SmPipe 1 and 2,
// those frozen before it (the FSM's steps may thaw, not freeze), and the
// port a move or probe_move is handled on is held, so always when it froze
// a VC here, else now and then (a move that freezes nothing).
void InputPortBench::draw_spin(Cycle& k) {
  k.frozen = frozen_q_;
  if (mode_.spin) {
    if (rng_.pct(3)) {
      const int v = static_cast<int>(rng_.below(kVcs));
      if (v != spin_vc_) k.frozen = static_cast<uint8_t>(k.frozen ^ (1u << v));
    }
    if (spin_vc_ < 0 && rng_.pct(5)) {
      const int v = static_cast<int>(rng_.below(kVcs));
      if ((frozen_q_ >> v & 1u) && r_.cnt_q[kPort][v] && r_.route_valid_q[kPort][v]) spin_vc_ = v;
    }
    k.spin = spin_vc_ >= 0 && r_.cnt_q[kPort][spin_vc_] && rng_.pct(80);
  }
  k.frozen_req = mode_.pipe0 ? k.frozen : static_cast<uint8_t>(frozen_q_ & k.frozen);
  k.hold = !mode_.pipe0 && ((k.frozen & ~frozen_q_) != 0 || (mode_.spin && rng_.pct(5)));
}

// The RTL's inputs; the route table answers in the same cycle.
void InputPortBench::drive_rtl(Cycle& k) {
  put_link(b_->flit_i, 0, kFlitW, k.in);
  b_->nmin_i = mode_.nmin;
  b_->id_i = mode_.id;
  b_->esc_i = mode_.esc;
  b_->free_a_i = k.free_a;
  b_->free0_i = k.free0;
  b_->port_free_i = k.port_free;
  b_->draw_i = k.draw;
  b_->least_busy_i = k.least_busy;
  b_->reroute_i = mode_.reroute;
  b_->admit_i = k.admit;
  put_bits(b_->port_age_i, 0, 8 * kPorts, k.age_bits);
  b_->gnt_i = 0;
  b_->gnt_ovc_i = 0;
  b_->frozen_i = k.frozen;
  b_->frozen_req_i = k.frozen_req;
  b_->hold_i = k.hold;
  b_->frozen_q_i = frozen_q_;
  b_->spin_i = k.spin;
  b_->spin_vc_i = k.spin ? spin_vc_ : rng_.below(kVcs);
  b_->out_blocked_i = k.out_blocked;
  b_.eval();
  const unsigned rt_dst = b_->rt_dst_o, rt_mid = b_->rt_mid_o;
  b_->rt_mask_i = spin_route_table(rows_a_, kNodes, rt_dst) |
                  (P_Escape ? spin_route_table(rows_e_, kNodes, rt_dst) << kPorts : 0u);
  b_->rt_mid_mask_i = spin_route_table(rows_a_, kNodes, rt_mid);
  b_.eval();
}

// The C twin's wires of the cycle, and the views: the registers at the
// start of the cycle.
void InputPortBench::c_views(Cycle& k) {
  cycle_t& cw = k.cw;
  cycle_bits_t& cb = k.cb;
  std::memset(&cw, 0, sizeof cw);
  std::memset(&cb, 0, sizeof cb);
  cb.P = kPorts;
  cb.nics = 1;
  cb.favors = k.least_busy;
  cb.nmin = mode_.nmin;
  cb.all_vcs = (1u << kVcs) - 1u;
  cb.port_free = k.port_free;
  cb.free_a = k.free_a;
  cb.free0 = k.free0;
  cb.spin_outs = k.out_blocked;
  cb.ages_known = 1;
  cb.frozen_req = static_cast<uint64_t>(k.frozen_req) << (kPort * SPIN_MAX_VCS);
  cb.hold = static_cast<unsigned>(k.hold) << kPort;
  std::memcpy(cw.port_age, k.port_age, sizeof k.port_age);
  spin_ctx_t sc;
  flit_t front[MAX_VCS];
  std::memset(&sc, 0, sizeof sc);
  sc.nics = 1;
  sc.cnt = (const uint8_t(*)[SPIN_MAX_VCS])r_.cnt_q;
  sc.route_valid = (const uint8_t(*)[SPIN_MAX_VCS])r_.route_valid_q;
  sc.out_port = (const uint8_t(*)[SPIN_MAX_VCS])r_.out_port_q;
  for (int v = 0; v < kVcs; v++) {
    const spin_fifo_t f = spin_input_port_fifo(&r_, kPort, v, kVcs);
    front[v] = spin_fifo_front(&f);
    sc.front[kPort][v] = r_.cnt_q[kPort][v] ? &front[v] : nullptr;
    k.cnt0[v] = r_.cnt_q[kPort][v];
    k.rv0[v] = r_.route_valid_q[kPort][v];
    k.op0[v] = r_.out_port_q[kPort][v];
    k.tail0[v] = static_cast<uint8_t>(CTL_TAIL(front[v].ctl));
    k.whole0[v] = static_cast<uint8_t>(spin_vc_waits(&sc, kPort, v, r_.out_port_q[kPort][v]));
  }
}

// spin_input_port_route() (frozen_q as the SPIN registers),
// spin_input_port_request() (frozen after the cycle's messages),
// spin_input_port_latch(), spin_input_port_req_flit().
void InputPortBench::c_route_and_request(Cycle& k) {
  cycle_t& cw = k.cw;
  cycle_bits_t& cb = k.cb;
  for (int v = 0; v < kVcs; v++) r_.sp.frozen_q[kPort][v] = frozen_q_ >> v & 1u;
  spin_input_port_route(&r_, &cfg_, &cw, &cb, kPort, 1, kVcs, mode_.esc);
  k.routing = cb.routing >> kPort & 1u;
  if (k.routing) {
    const spin_fifo_t f = spin_input_port_fifo(&r_, kPort, cw.rc_vc[kPort], kVcs);
    k.rc_front = spin_fifo_front(&f);
    n_routes_++;
    n_reroutes_ += r_.route_valid_q[kPort][cw.rc_vc[kPort]];
    n_nmin_via_ += mode_.nmin && cw.rc_via[kPort];
    // the source's choice: toward mid, looked up on the head's own dst
    n_go_ += mode_.nmin && cw.rc_via[kPort] && cw.rc_dst[kPort] == HEAD_DST(k.rc_front.data);
  }
  for (int v = 0; v < kVcs; v++) r_.sp.frozen_q[kPort][v] = k.frozen >> v & 1u;
  k.op = k.spin ? -1 : spin_input_port_request(&r_, &cw, &cb, kPort, k.admit, 1, kVcs, mode_.esc);
  if (k.routing) spin_input_port_latch(&r_, &cw, &cb, kPort, 1, kVcs, mode_.esc);
  if (k.op >= 0) {
    k.req_flit = spin_input_port_req_flit(&r_, &cw, &cb, kPort, kVcs);
    k.req_ovc = r_.out_vc_q[kPort][cw.req_vc[kPort]];
  }
}

// The grant at random (spin_input_port_grant()) or the spin flit
// (spin_input_port_spin_flit()), then spin_input_port_write() of the link
// word.
void InputPortBench::c_grant_spin_write(Cycle& k) {
  k.gnt = k.op >= 0 && rng_.pct(gnt_pct_);
  k.gnt_ovc = rng_.below(kVcs);
  k.xbar = k.req_flit;
  if (k.gnt) {
    k.cred = spin_input_port_grant(&r_, &k.cw, &k.cb, kPort, static_cast<unsigned>(k.op),
                                   k.gnt_ovc, kVcs, mode_.esc);
    n_grants_++;
    n_esc0_ += mode_.esc && k.cw.req_esc[kPort];
  }
  if (k.spin) {
    k.xbar = spin_input_port_spin_flit(&r_, &k.cb, kPort, spin_vc_, kVcs);
    n_spins_++;
    if (CTL_TAIL(k.xbar.ctl)) {   // the spin is over: the VC thaws
      k.frozen = static_cast<uint8_t>(k.frozen & ~(1u << spin_vc_));
      spin_vc_ = -1;
    }
  }
  n_held_ += k.hold && r_.nonempty[kPort];
  spin_input_port_write(&r_, kPort, &k.in, kVcs);
}

// The cycle's inputs, for a mismatch.
std::string InputPortBench::now(const Cycle& k) const {
  return strf("flit_i=%s esc=%d nmin=%d reroute=%d id=%u least_busy=%d admit=%d "
              "port_free=0x%x free_a=0x%x free0=0x%x out_blocked=0x%x draw=0x%x "
              "frozen_q=0x%x frozen=0x%x frozen_req=0x%x hold=%d spin=%d/%d gnt=%d/%u",
              flit_str(k.in).c_str(), mode_.esc, mode_.nmin, mode_.reroute, mode_.id,
              k.least_busy, k.admit, k.port_free, k.free_a, k.free0, k.out_blocked, k.draw,
              frozen_q_, k.frozen, k.frozen_req, k.hold, k.spin, spin_vc_, k.gnt, k.gnt_ovc);
}

// Every output before the edge.
void InputPortBench::compare(Cycle& k) {
  auto inputs = [&] { return now(k) + "\n  previous edge: " + prev_; };
  const cycle_t& cw = k.cw;
  const int op = k.op;
  if (k.routing) b_.check("rt_dst_o", b_->rt_dst_o, cw.rc_dst[kPort], inputs);
  if (k.routing && P_Source && mode_.nmin)
    b_.check("rt_mid_o", b_->rt_mid_o, RH_MID(k.rc_front.ext), inputs);
  b_.check("drew_o", b_->drew_o, k.cb.any_draw != 0, inputs);
  b_.check("req_o", b_->req_o, op >= 0, inputs);
  if (op >= 0) {
    b_.check("req_port_o", b_->req_port_o, static_cast<unsigned>(op), inputs);
    b_.check("req_esc_o", b_->req_esc_o, cw.req_esc[kPort], inputs);
    b_.check("req_ovc_o", b_->req_ovc_o, k.req_ovc, inputs);
    check_flit(b_, "req_flit_o", get_link(b_->req_flit_o, 0, kFlitW), k.req_flit, inputs);
  }
  if (k.spin || op >= 0)
    check_flit(b_, "xbar_flit_o", get_link(b_->xbar_flit_o, 0, kFlitW), k.xbar, inputs);
  b_.check("credit_o", b_->credit_o, k.cred, inputs);
  unsigned popped = 0;
  for (int v = 0; v < kVcs; v++) {
    const auto bit = [&](uint64_t w) { return w >> v & 1u; };
    b_.check(strf("occ_o[%d]", v).c_str(), get_bits(b_->occ_o, 3 * v, 3), k.cnt0[v], inputs);
    b_.check(strf("view_cnt_nz_o[%d]", v).c_str(), bit(b_->view_cnt_nz_o), k.cnt0[v] != 0, inputs);
    b_.check(strf("view_rv_o[%d]", v).c_str(), bit(b_->view_rv_o), k.rv0[v], inputs);
    b_.check(strf("view_op_o[%d]", v).c_str(), get_bits(b_->view_op_o, kPortW * v, kPortW), k.op0[v], inputs);
    if (k.cnt0[v])
      b_.check(strf("view_tail_o[%d]", v).c_str(), bit(b_->view_tail_o), k.tail0[v], inputs);
    b_.check(strf("view_whole_o[%d]", v).c_str(), bit(b_->view_whole_o), k.whole0[v], inputs);
    popped |= static_cast<unsigned>(k.cb.popped >> (kPort * SPIN_MAX_VCS + v) & 1u) << v;
  }
  b_.check("popped_o", b_->popped_o, popped, inputs);
}

void InputPortBench::report() {
  std::printf("coverage: %" PRIu64 " episodes, %" PRIu64 " routes (%" PRIu64 " reroutes, %" PRIu64
              " toward mid, %" PRIu64 " of them the source's choice), %" PRIu64 " grants (%" PRIu64
              " into the escape VC), %" PRIu64 " spin flits, %" PRIu64 " cycles held with flits\n",
              n_episodes_, n_routes_, n_reroutes_, n_nmin_via_, n_go_, n_grants_, n_esc0_, n_spins_,
              n_held_);
  b_.finish(0);
}

}  // namespace

int main(int argc, char** argv) {
  // (on the heap: the C router is large)
  auto t = std::make_unique<InputPortBench>(argc, argv);
  t->reset();
  t->run();
  t->report();
}
