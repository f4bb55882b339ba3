// rtl_array.cpp - RtlNet as N Verilated spin_router models joined in C++.
// Each cycle: every router's inputs are taken from the registers of the
// previous edge, its route-table lookups answered, then all routers take the
// clock edge together (so the order they are visited does not matter).
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

class RtlArray : public RtlNet {
  // A lane's own buffers for its routers' inputs and lookups.
  struct Scratch {
    Bits in_flit, in_cred, dst, mask, mid, mid_mask;
    Scratch(int P, int K, int linkw, int maskw)
        : in_flit(P * linkw), in_cred(P * kCredW), dst(P * 16), mask(P * maskw), mid(K * 16),
          mid_mask(K * P) {}
  };

 public:
  RtlArray(VerilatedContext* ctx, const topo_t* t, int vcs, unsigned obs_words)
      : ctx_(ctx), t_(t), N_(t->routers), P_(t->radix), V_(vcs), K_(t->nics), D_(t->nodes),
        LinkW_(SPIN_FLITW + 7), MaskW_(SPIN_ESCAPE ? 2 * P_ : P_), ObsWords_(obs_words),
        cur_flit_(N_ * P_ * LinkW_), cur_cred_(N_ * P_ * kCredW), cur_occ_(N_ * P_ * V_ * 3),
        out_flit_(P_ * LinkW_), out_cred_(P_ * kCredW), out_occ_(P_ * V_ * 3),
        pipes_(t, LinkW_, kCredW) {
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
      m->cfg_admit_i = mode.admit;
      m->cfg_admit_occ_i = (uint8_t)mode.admit_occ;
      m->cfg_reroute_i = mode.reroute;
      m->cfg_adopt_i = mode.adopt && spin;
      m->cfg_id_i = r;
      m->cfg_nodes_i = N_;
      m->cfg_xlat_i = topo_xlat_word(t_, r);
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
    snapshot();
  }

  void step(const flit_t* inj) override { step_beside(inj, nullptr); }

  void step_beside(const flit_t* inj, const std::function<void()>& side) override {
    if (kOneEval && !tracing()) {
      // Each lane feeds, clocks and looks up the routers it takes, a few at
      // a time from a shared count (so a lane that started late or ran
      // side() takes fewer); the links' registers of the last edge (cur_*)
      // are only read until all are done.  Lane 0, the calling thread, runs
      // side() first.
      next_.store(0, std::memory_order_relaxed);
      auto work = [this, inj, &side](int lane) {
        if (lane == 0 && side) side();
        Scratch& s = scratch_[lane];
        for (;;) {
          const int r0 = next_.fetch_add(kChunk, std::memory_order_relaxed);
          if (r0 >= N_) break;
          for (int r = r0; r < N_ && r < r0 + kChunk; r++) {
            feed(r, inj + r * K_, s);
            clock_once(r, s);
          }
        }
      };
      if (choice_->next())
        lanes_->run(work);
      else
        work(0);
    } else {
      if (side) side();
      for (int r = 0; r < N_; r++) feed(r, inj + r * K_, scratch_[0]);
      edge();
    }
    snapshot();
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

  // The lookups of the coming cycle were made from the old tables right
  // after the last edge: made again from the new ones.
  void set_tables(const port_mask_t* masks, const port_mask_t* masks_esc) override {
    copy_tables(masks, masks_esc, N_, D_);
    for (int r = 0; r < N_; r++) lookup(r, scratch_[0]);
  }

  void read(Bits& flit, Bits& cred, Bits& occ) override {
    flit.w = cur_flit_.w;
    cred.w = cur_cred_.w;
    occ.w = cur_occ_.w;
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
  // on NIC port k) and its peers' link registers of the last edge (through
  // long links' pipes).
  void feed(int r, const flit_t* inj, Scratch& s) {
    Vspin_router* m = r_[r].get();
    s.in_flit.clear();
    s.in_cred.clear();
    for (int k = 0; k < K_; k++) put_flit(s.in_flit, k, SPIN_FLITW, inj[k]);
    for (int p = K_; p < P_; p++) {
      int q = t_->peer_router[r * P_ + p];
      if (q < 0) continue;
      int up = q * P_ + t_->peer_port[r * P_ + p];
      pipes_.feed(r, p, up, cur_flit_, cur_cred_, s.in_flit, s.in_cred);
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
  void snapshot() {
    for (int r = 0; r < N_; r++) {
      Vspin_router* m = r_[r].get();
      to_bits(m->flit_o, out_flit_);
      to_bits(m->credit_o, out_cred_);
      to_bits(m->occ_o, out_occ_);
      cur_flit_.copy_from(out_flit_, 0, r * P_ * LinkW_, P_ * LinkW_);
      cur_cred_.copy_from(out_cred_, 0, r * P_ * kCredW, P_ * kCredW);
      cur_occ_.copy_from(out_occ_, 0, r * P_ * V_ * 3, P_ * V_ * 3);
    }
  }
  VerilatedContext* ctx_;
  const topo_t* t_;
  int N_, P_, V_, K_, D_, LinkW_, MaskW_;   // K_: NIC ports a router; D_: nodes
  unsigned ObsWords_;
  std::vector<std::unique_ptr<Vspin_router>> r_;
  Bits cur_flit_, cur_cred_, cur_occ_, out_flit_, out_cred_, out_occ_;
  LinkPipes pipes_;
  std::unique_ptr<Lanes> lanes_;
  std::unique_ptr<LaneChoice> choice_;   // all lanes this cycle, or the calling thread
  std::vector<Scratch> scratch_;
  // The next router a lane takes, kChunk at a time.
  static constexpr int kChunk = 4;
  std::atomic<int> next_{0};
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
