// rtl_array.cpp - RtlNet as N Verilated spin_router models joined in C++.
// Each cycle: every router's inputs are taken from the registers of the
// previous edge, its route-table lookups answered, then all routers take the
// clock edge together (so the order they are visited does not matter).
// Every router's registers after an edge are kept twice over (regs_, one
// bank for the last edge, which the inputs are taken from, one for this
// one), so that a router's outputs are saved, and compared with the C
// model's, on the thread that evaluated it while others are still reading
// the last edge's.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>
#include <functional>
#include <vector>
#include "Vspin_router.h"
#include "Vspin_router___024root.h"
#include "lanes.h"
#include "link_pipes.h"
#include "rtl_net.h"

#ifndef SPIN_NICS
#define SPIN_NICS 1     // NIC ports a router (NumNics)
#endif
#ifndef SPIN_ESCAPE
#define SPIN_ESCAPE 0   // the synthesized netlist (make synth-cosim) has no escape routing
#endif

// The special-message widths and t_DD width of this build (its -G
// parameters, passed as -D by the Makefile; contract 12.1).
#ifndef SPIN_IDW
#define SPIN_IDW SM_COSIM_IDW
#define SPIN_CYCW SM_COSIM_CYCW
#define SPIN_TDDW 16
#define SPIN_SMPIPE 3
#endif
#ifndef SPIN_XLATW
#define SPIN_XLATW 4    // spin_router's default (the synthesized netlist)
#endif

void rtl_build_widths(const topo_t* topo, sm_opts_t* sm, unsigned* tddw) {
  (void)topo;
  sm->idw = SPIN_IDW;
  sm->cycw = SPIN_CYCW;
  sm->pipe = SPIN_SMPIPE;
  *tddw = SPIN_TDDW;
}

namespace {

// One evaluation per clock edge instead of two.  Verilator 5 evaluates a
// model's input-driven logic (its "ico" region) on every eval(), so the
// usual clock-low eval with the new inputs followed by the clock-high eval
// computes that logic twice.  The clock-low eval does nothing else here:
// the router has no negative-edge or level-triggered process, and nothing
// reads the model between the two.  So after a rising edge the harness
// lowers clk_i and tells the model it has seen it low (its trigger's
// previous value), and the next cycle's single eval with the new inputs and
// clk_i high settles the inputs' logic first, then takes the edge, as the
// two evals did.  The comparison with the C model, every cycle, is what
// shows the two are alike.  Where the model has no such member (another
// Verilator version), the two evals are kept.
template <class Root, class = void> struct HasClockTrigger : std::false_type {};
template <class Root>
struct HasClockTrigger<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk_i)>>
    : std::true_type {};
template <class Root> void seen_clock_low(Root* root, std::true_type) {
  root->__Vtrigrprev__TOP__clk_i = 0;
}
template <class Root> void seen_clock_low(Root*, std::false_type) {}
using Root = Vspin_router___024root;
constexpr bool kOneEval = HasClockTrigger<Root>::value;

// save() copies each output port whole into its words of a bank (RtlArray's
// FW_, CW_, OW_ words): none may be larger.
constexpr unsigned bytes_of(unsigned bits) { return (bits + 31) / 32 * 4; }
static_assert(sizeof(Vspin_router::flit_o) <= bytes_of(SPIN_PORTS * (SPIN_FLITW + 7)), "flit_o");
static_assert(sizeof(Vspin_router::credit_o) <= bytes_of(SPIN_PORTS * kCredW), "credit_o");
static_assert(sizeof(Vspin_router::occ_o) <= bytes_of(SPIN_PORTS * SPIN_VCS * 3), "occ_o");

class RtlArray : public RtlNet {
  // A lane's own buffers for its routers' inputs and lookups.
  // pending: routers it evaluated before the C model's step was done,
  // whose check waits for it.
  struct Scratch {
    Bits in_flit, in_cred, dst, mask, mid, mid_mask;
    std::vector<int> pending;
    Scratch(int P, int K, int linkw, int maskw)
        : in_flit(P * linkw), in_cred(P * kCredW), dst(P * 16), mask(P * maskw), mid(K * 16),
          mid_mask(K * P) {}
  };

 public:
  RtlArray(VerilatedContext* ctx, const topo_t* t, int vcs, unsigned obs_words)
      : ctx_(ctx), t_(t), N_(t->routers), P_(t->radix), V_(vcs), K_(t->nics), D_(t->nodes),
        LinkW_(SPIN_FLITW + 7), MaskW_(SPIN_ESCAPE ? 2 * P_ : P_), ObsWords_(obs_words),
        FW_((P_ * LinkW_ + 31) / 32), CW_((P_ * kCredW + 31) / 32), OW_((P_ * V_ * 3 + 31) / 32),
        S_(FW_ + CW_ + OW_), pipes_(t, LinkW_, kCredW) {
    for (auto& b : regs_) b.assign((size_t)N_ * S_, 0u);
    set_threads(1);
    for (int r = 0; r < N_; r++) {
      char name[32];
      std::snprintf(name, sizeof name, "router_%d", r);
      r_.emplace_back(new Vspin_router{ctx, name});
    }
  }
  ~RtlArray() override {
    trace_close();
    for (auto& m : r_) m->final();
  }

  void reset(uint32_t seed, const port_mask_t* masks, const port_mask_t* masks_esc, bool favors,
             bool nmin, bool spin, unsigned tdd, const router_mode_t& mode,
             int sm_pipe) override {
    copy_tables(masks, masks_esc, N_, D_);
    for (int r = 0; r < N_; r++) {
      Vspin_router* m = r_[r].get();
      m->lfsr_seed_i = seed ^ (uint32_t)((uint32_t)r * LFSR_ID_MIX);
      m->cfg_favors_i = favors;
      m->cfg_nmin_i = nmin;
      m->cfg_escape_i = masks_esc != nullptr;
      m->cfg_spin_i = spin;
      m->cfg_tdd_i = tdd;
      m->cfg_sm_pipe_i = (uint8_t)sm_pipe;
      m->cfg_admit_i = mode.admit != 0;
      m->cfg_admit_occ_i = (uint8_t)mode.admit_occ;
      m->cfg_reroute_i = mode.reroute;
      m->cfg_adopt_i = mode.adopt && spin;
      m->cfg_early_credit_i = mode.early_credit;
      m->cfg_id_i = r;
      m->cfg_nodes_i = N_;
      from_bits(m->cfg_xlat_i, rtl_xlat_bits(t_, r, SPIN_XLATW));
      m->rst_ni = 0;
      Scratch& s = scratch_[0];
      s.in_flit.clear();
      s.in_cred.clear();
      s.mask.clear();
      from_bits(m->flit_i, s.in_flit);
      from_bits(m->credit_i, s.in_cred);
      from_bits(m->rt_mask_i, s.mask);
      s.mid_mask.clear();
      from_bits(m->rt_mid_mask_i, s.mid_mask);
    }
    pipes_.clear();
    for (int i = 0; i < 3; i++) edge();
    for (auto& m : r_) m->rst_ni = 1;
    for (int r = 0; r < N_; r++) save(r, cur_);
  }

  void step(const flit_t* inj) override { step_checked(inj, nullptr, nullptr); }

  void step_beside(const flit_t* inj, const std::function<void()>& side) override {
    step_checked(inj, side, nullptr);
  }

  bool step_checked(const flit_t* inj, const std::function<void()>& side,
                    const RouterCheck& check) override {
    const int nb = cur_ ^ 1;   // the bank this edge's registers go to
    if (kOneEval && !tracing()) {
      // Each lane feeds, clocks, looks up, saves and checks the routers it
      // takes, a few at a time from a shared count (so a lane that started
      // late or ran side() takes fewer); the last edge's bank is only read
      // until all are done.  Lane 0, the calling thread, runs side() first;
      // a router another lane evaluated before that ended waits in its
      // pending list, checked once it has (or by the calling thread after
      // the cycle).
      next_.store(0, std::memory_order_relaxed);
      side_done_.store(!side, std::memory_order_relaxed);
      auto work = [this, inj, nb, &side, &check](int lane) {
        if (lane == 0 && side) {
          side();
          side_done_.store(true, std::memory_order_release);
        }
        Scratch& s = scratch_[lane];
        s.pending.clear();
        for (;;) {
          const int r0 = next_.fetch_add(kChunk, std::memory_order_relaxed);
          if (r0 >= N_) break;
          const bool ready = check && side_done_.load(std::memory_order_acquire);
          for (int r = r0; r < N_ && r < r0 + kChunk; r++) {
            feed(r, inj + r * K_, s);
            clock_once(r, s);
            save(r, nb);
            if (ready) check_one(lane, r, nb, check);
            else if (check) s.pending.push_back(r);
          }
          if (ready) check_pending(lane, nb, check);
        }
        if (check && side_done_.load(std::memory_order_acquire)) check_pending(lane, nb, check);
      };
      if (choice_->next())
        lanes_->run(work);
      else
        work(0);
      if (check)
        for (int lane = 0; lane < lanes_->size(); lane++) check_pending(0, nb, check, lane);
    } else {
      if (side) side();
      for (int r = 0; r < N_; r++) feed(r, inj + r * K_, scratch_[0]);
      edge();
      for (int r = 0; r < N_; r++) {
        save(r, nb);
        if (check) check_one(0, r, nb, check);
      }
    }
    cur_ = nb;
    return (bool)check;
  }

  // Evaluations spread over up to n threads (the calling one and n - 1
  // more) in the cycles where that is faster (LaneChoice); 1: all on the
  // calling thread.
  void set_threads(int n) override {
    n = n < 1 ? 1 : n > N_ ? N_ : n;
    lanes_.reset(new Lanes(n));
    choice_.reset(new LaneChoice(n > 1));
    scratch_.assign(n, Scratch(P_, K_, LinkW_, MaskW_));
  }
  int threads() const override { return lanes_->size(); }

  void set_admit(const router_cfg_t* cfg) override {
    for (int r = 0; r < N_; r++) {
      r_[r]->cfg_admit_i = cfg[r].admit;
      r_[r]->cfg_admit_occ_i = (uint8_t)cfg[r].admit_occ;
    }
  }

  // The lookups of the coming cycle were made from the old tables right
  // after the last edge: made again from the new ones.
  void set_tables(const port_mask_t* masks, const port_mask_t* masks_esc) override {
    copy_tables(masks, masks_esc, N_, D_);
    for (int r = 0; r < N_; r++) lookup(r, scratch_[0]);
  }

  void read(Bits& flit, Bits& cred, Bits& occ) override {
    for (int r = 0; r < N_; r++) {
      const uint32_t* g = regs(cur_, r);
      bits_copy(flit.w.data(), r * P_ * LinkW_, g, 0, P_ * LinkW_);
      bits_copy(cred.w.data(), r * P_ * kCredW, g + FW_, 0, P_ * kCredW);
      bits_copy(occ.w.data(), r * P_ * V_ * 3, g + FW_ + CW_, 0, P_ * V_ * 3);
    }
  }

  // The port holds whole 32-bit words, the bits above the word 0.
  void read_spin(Bits& obs) override {
    for (int r = 0; r < N_; r++)
      std::memcpy(obs.w.data() + r * ObsWords_, r_[r]->spin_obs_o.data(),
                  ObsWords_ * sizeof(uint32_t));
  }

  void trace_open(const std::string& path) override {
#if VM_TRACE
    tfp_.reset(new VerilatedFstC);
    for (auto& m : r_) m->trace(tfp_.get(), 99);
    tfp_->open(path.c_str());
#else
    (void)path;
#endif
  }
  int ports() const override { return SPIN_PORTS; }
  int vcs() const override { return SPIN_VCS; }
  int flit_width() const override { return SPIN_FLITW; }
  const char* kind() const override { return "router array"; }

 private:
  // Clock low: combinational settle with this cycle's inputs; then the
  // rising edge for every router.  The route-table answers for the next
  // cycle are set right after the edge: rt_dst_o depends on registers only
  // (the front flit of a VC), so it already holds next cycle's lookups, and
  // the table needs no settle of its own (one evaluation fewer per cycle).
  void edge() {
    for (auto& m : r_) {
      m->clk_i = 0;
      m->eval();
    }
    dump();
    for (int r = 0; r < N_; r++) {
      Vspin_router* m = r_[r].get();
      m->clk_i = 1;
      m->eval();
      if (!masks_.empty()) lookup(r, scratch_[0]);
    }
    dump();
    // as clock_once leaves it, so either kind of edge may come next
    for (auto& m : r_) {
      m->clk_i = 0;
      seen_clock_low(m->rootp, HasClockTrigger<Root>{});
    }
  }
  // Router r's inputs of this cycle: its NICs' injection registers (inj[k]
  // on NIC port k) and its peers' link registers of the last edge (bank
  // cur_; through long links' pipes).
  void feed(int r, const flit_t* inj, Scratch& s) {
    Vspin_router* m = r_[r].get();
    s.in_flit.clear();
    s.in_cred.clear();
    for (int k = 0; k < K_; k++) put_flit(s.in_flit, k, SPIN_FLITW, inj[k]);
    for (int p = K_; p < P_; p++) {
      const int q = t_->peer_router[r * P_ + p];
      if (q < 0) continue;
      const unsigned pp = (unsigned)t_->peer_port[r * P_ + p];
      const uint32_t* g = regs(cur_, q);
      pipes_.feed(r, p, g, pp * LinkW_, g + FW_, pp * kCredW, s.in_flit.w.data(),
                  s.in_cred.w.data());
    }
    from_bits(m->flit_i, s.in_flit);
    from_bits(m->credit_i, s.in_cred);
  }
  // Router r's rising edge in one evaluation (seen_clock_low above), then
  // its route lookups for the next cycle.
  void clock_once(int r, Scratch& s) {
    Vspin_router* m = r_[r].get();
    m->clk_i = 1;
    m->eval();
    if (!masks_.empty()) lookup(r, s);
    m->clk_i = 0;
    seen_clock_low(m->rootp, HasClockTrigger<Root>{});
  }
  // Router r's route-table answers for its current rt_dst_o and rt_mid_o
  // (destination nodes: the table has a row of D_ = N_ * K_ entries a router).
  void lookup(int r, Scratch& s) {
    Vspin_router* m = r_[r].get();
    const port_mask_t* row = masks_.data() + (size_t)r * D_;
    to_bits(m->rt_dst_o, s.dst);
    for (int p = 0; p < P_; p++) {
      unsigned d = (unsigned)s.dst.get(p * 16, 16);
      s.mask.set(p * MaskW_, P_, d < (unsigned)D_ ? row[d] : 0);
      if (!masks_esc_.empty())
        s.mask.set(p * MaskW_ + P_, P_, d < (unsigned)D_ ? masks_esc_[(size_t)r * D_ + d] : 0);
    }
    from_bits(m->rt_mask_i, s.mask);
    // FAvORS-NMin: each NIC port's second lookup, of its head's intermediate
    to_bits(m->rt_mid_o, s.mid);
    for (int k = 0; k < K_; k++) {
      unsigned mid = (unsigned)s.mid.get(k * 16, 16);
      s.mid_mask.set(k * P_, P_, mid < (unsigned)D_ ? row[mid] : 0);
    }
    from_bits(m->rt_mid_mask_i, s.mid_mask);
  }
  // Router r's registers of bank b: flit_o, then credit_o, then occ_o,
  // each from a word boundary.
  uint32_t* regs(int b, int r) { return regs_[b].data() + (size_t)r * S_; }
  void save(int r, int b) {
    Vspin_router* m = r_[r].get();
    uint32_t* g = regs(b, r);
    to_words(m->flit_o, g, FW_);
    to_words(m->credit_o, g + FW_, CW_);
    to_words(m->occ_o, g + FW_ + CW_, OW_);
  }
  // check() of router r's registers in bank b (the SPIN word from the model:
  // nothing changes it until the next edge).
  void check_one(int lane, int r, int b, const RouterCheck& check) {
    const uint32_t* g = regs(b, r);
    check(lane, r, RouterRegs{g, g + FW_, g + FW_ + CW_, r_[r]->spin_obs_o.data()});
  }
  // The routers in lane `of`'s pending list (by default its own), checked
  // on lane `lane`.
  void check_pending(int lane, int b, const RouterCheck& check, int of = -1) {
    std::vector<int>& pending = scratch_[of < 0 ? lane : of].pending;
    for (int r : pending) check_one(lane, r, b, check);
    pending.clear();
  }
  VerilatedContext* ctx_;
  const topo_t* t_;
  int N_, P_, V_, K_, D_, LinkW_, MaskW_;   // K_: NIC ports a router; D_: nodes
  unsigned ObsWords_;
  int FW_, CW_, OW_, S_;   // words of a router's flit_o, credit_o, occ_o; of all three
  std::vector<std::unique_ptr<Vspin_router>> r_;
  std::vector<uint32_t> regs_[2];   // two banks of every router's registers (regs())
  int cur_ = 0;                     // the bank of the last edge
  LinkPipes pipes_;
  std::unique_ptr<Lanes> lanes_;
  std::unique_ptr<LaneChoice> choice_;   // all lanes this cycle, or the calling thread
  std::vector<Scratch> scratch_;
  // The next router a lane takes, kChunk at a time.
  static constexpr int kChunk = 4;
  std::atomic<int> next_{0};
  std::atomic<bool> side_done_{false};   // side() has returned this cycle
};

}  // namespace

std::unique_ptr<RtlNet> make_rtl_net(VerilatedContext* ctx, const topo_t* topo, int vcs,
                                     bool escape, const spin_obs_dims_t& dims, std::string* err) {
  if (escape && !SPIN_ESCAPE) {
    *err = "this co-simulation was built without escape-VC routing (Escape = 0)";
    return nullptr;
  }
  if (topo->radix != SPIN_PORTS || vcs != SPIN_VCS || topo->nics != SPIN_NICS) {
    char m[320];
    std::snprintf(m, sizeof m,
                  "this co-simulation was built for %d-port routers with %d NIC port%s and %d "
                  "VC%s; %s needs %d ports, %d NIC port%s and %d VC%s (make sim builds the "
                  "right one)",
                  SPIN_PORTS, SPIN_NICS, SPIN_NICS > 1 ? "s" : "", SPIN_VCS, SPIN_VCS > 1 ? "s" : "",
                  topo->name, topo->radix, topo->nics, topo->nics > 1 ? "s" : "", vcs,
                  vcs > 1 ? "s" : "");
    *err = m;
    return nullptr;
  }
  if (!rtl_xlat_fits(topo, SPIN_XLATW, err)) return nullptr;
  const unsigned words = spin_obs_words(dims);
  if (sizeof(Vspin_router::spin_obs_o) != words * sizeof(uint32_t)) {
    char m[256];
    std::snprintf(m, sizeof m, "spin_router's spin_obs_o holds %u bytes; tb/spin_obs.h's table "
                  "says %u bits (the RTL's layout and the table differ)",
                  (unsigned)sizeof(Vspin_router::spin_obs_o), spin_obs_width(&dims));
    *err = m;
    return nullptr;
  }
  return std::unique_ptr<RtlNet>(new RtlArray(ctx, topo, vcs, words));
}
