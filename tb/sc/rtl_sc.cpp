// rtl_sc.cpp - RtlNet in SystemC (make sim-sc): the router Verilated with
// --sc, one SystemC module per router, every port bound to an sc_signal and
// every clock input to one sc_clock.  The harness (tb/cosim.cpp, built with
// SPIN_SC) compares every cycle exactly as make sim does.  The C model's
// network is a module on the same clock (CModelNet): the harness prepares
// its injection, and the rising edge steps the routers and the C model
// together.
//
// Time: the clock's rising edges are at 5, 15, 25 ... ns.  A step writes the
// routers' inputs at a multiple of 10 ns (the link registers of the previous
// edge, wired by the topology), then runs the simulation for 10 ns: the
// inputs take effect, the edge comes, and the outputs are read.  The
// route-table answers (rt_mask_i, looked up from rt_dst_o, which depends on
// registers only) are written after the edge for the next one, as
// rtl_array.cpp does.
#include <cstdio>
#include <memory>
#include <type_traits>
#include <vector>
#include <systemc.h>
#include "Vspin_router.h"
#include "link_pipes.h"
#include "rtl_net.h"

#ifndef SPIN_ESCAPE
#define SPIN_ESCAPE 1
#endif

int cosim_main(int argc, char** argv);   // tb/cosim.cpp

namespace {

// The signal that fits a Verilated port (a reference to sc_in<T> or sc_out<T>).
template <class Port>
using SigOf = sc_signal<typename std::remove_reference<Port>::type::data_type>;

template <int W>
void put(sc_signal<sc_bv<W>>& s, const Bits& b) {
  sc_bv<W> v;
  for (int i = 0; i < (W + 31) / 32; i++) v.set_word(i, b.w[i]);
  s.write(v);
}
template <int W>
void put(sc_signal<sc_bv<W>>& s, uint64_t x) {
  sc_bv<W> v;
  for (int i = 0; i < (W + 31) / 32; i++) v.set_word(i, i < 2 ? (uint32_t)(x >> (32 * i)) : 0u);
  s.write(v);
}
template <int W>
void get(const sc_signal<sc_bv<W>>& s, Bits& b) {
  const sc_bv<W>& v = s.read();
  for (int i = 0; i < (W + 31) / 32; i++) b.w[i] = v.get_word(i);
}

// The C model's network as a module on the same clock: each rising edge
// steps it once (net_step), beside the routers' own edge.  Off during the
// RTL's reset cycles, which the C model does not have.
SC_MODULE(CModelNet) {
  sc_in<bool> clk;
  network_t* net = nullptr;
  bool on = false;
  SC_CTOR(CModelNet) {
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
  }
  void edge() {
    if (on && net) net_step(net);
  }
};

// One router and the signals of its ports.
struct Node {
  std::unique_ptr<Vspin_router> m;
  sc_signal<bool> rst_n, favors, nmin, escape, spin, admit, reroute, adopt, early_credit;
  SigOf<decltype(Vspin_router::cfg_admit_occ_i)> admit_occ;
  SigOf<decltype(Vspin_router::cfg_sm_pipe_i)> sm_pipe;
  SigOf<decltype(Vspin_router::lfsr_seed_i)> seed;
  SigOf<decltype(Vspin_router::cfg_tdd_i)> tdd;
  SigOf<decltype(Vspin_router::cfg_id_i)> id;
  SigOf<decltype(Vspin_router::cfg_nodes_i)> nodes;
  SigOf<decltype(Vspin_router::cfg_xlat_i)> xlat;
  SigOf<decltype(Vspin_router::rt_dst_o)> rt_dst;
  SigOf<decltype(Vspin_router::rt_mask_i)> rt_mask;
  SigOf<decltype(Vspin_router::rt_mid_o)> rt_mid;
  SigOf<decltype(Vspin_router::rt_mid_mask_i)> rt_mid_mask;
  SigOf<decltype(Vspin_router::flit_i)> flit_in;
  SigOf<decltype(Vspin_router::credit_i)> cred_in;
  SigOf<decltype(Vspin_router::flit_o)> flit_out;
  SigOf<decltype(Vspin_router::credit_o)> cred_out;
  SigOf<decltype(Vspin_router::occ_o)> occ;
  SigOf<decltype(Vspin_router::spin_obs_o)> obs;

  Node(const char* name, sc_clock& clk) : m(new Vspin_router(name)) {
    m->clk_i(clk);
    m->rst_ni(rst_n);
    m->lfsr_seed_i(seed);
    m->cfg_favors_i(favors);
    m->cfg_nmin_i(nmin);
    m->cfg_escape_i(escape);
    m->cfg_spin_i(spin);
    m->cfg_admit_i(admit);
    m->cfg_admit_occ_i(admit_occ);
    m->cfg_reroute_i(reroute);
    m->cfg_adopt_i(adopt);
    m->cfg_early_credit_i(early_credit);
    m->cfg_tdd_i(tdd);
    m->cfg_sm_pipe_i(sm_pipe);
    m->cfg_id_i(id);
    m->cfg_nodes_i(nodes);
    m->cfg_xlat_i(xlat);
    m->rt_dst_o(rt_dst);
    m->rt_mask_i(rt_mask);
    m->rt_mid_o(rt_mid);
    m->rt_mid_mask_i(rt_mid_mask);
    m->flit_i(flit_in);
    m->credit_i(cred_in);
    m->flit_o(flit_out);
    m->credit_o(cred_out);
    m->occ_o(occ);
    m->spin_obs_o(obs);
  }
};

class RtlSc : public RtlNet {
 public:
  RtlSc(const topo_t* t, int vcs, const spin_obs_dims_t& dims)
      : t_(t), N_(t->routers), P_(t->radix), V_(vcs), LinkW_(SPIN_FLITW + 7),
        MaskW_(SPIN_ESCAPE ? 2 * P_ : P_), ObsW_((int)spin_obs_width(&dims)),
        clk_("clk", 10, SC_NS, 0.5, 5, SC_NS, true),
        cur_flit_(N_ * P_ * LinkW_), cur_cred_(N_ * P_ * kCredW), cur_occ_(N_ * P_ * V_ * 3),
        in_flit_(P_ * LinkW_), in_cred_(P_ * kCredW), dst_(P_ * 16), mid_(16), mask_(P_ * MaskW_),
        out_flit_(P_ * LinkW_), out_cred_(P_ * kCredW), out_occ_(P_ * V_ * 3), obs_(ObsW_),
        pipes_(t, LinkW_, kCredW) {
    for (int r = 0; r < N_; r++) {
      char name[32];
      std::snprintf(name, sizeof name, "router_%d", r);
      n_.emplace_back(new Node(name, clk_));
    }
    cmodel_.clk(clk_);
  }

  bool take_cmodel(network_t* net) override {
    cmodel_.net = net;
    return true;
  }

  void reset(uint32_t seed, const port_mask_t* masks, const port_mask_t* masks_esc, bool favors,
             bool nmin, bool spin, unsigned tdd, const router_mode_t& mode,
             int sm_pipe) override {
    copy_tables(masks, masks_esc, N_, N_);
    in_flit_.clear();
    in_cred_.clear();
    mask_.clear();
    for (int r = 0; r < N_; r++) {
      Node& n = *n_[r];
      put(n.seed, (uint64_t)(seed ^ (uint32_t)((uint32_t)r * LFSR_ID_MIX)));
      n.favors.write(favors);
      n.nmin.write(nmin);
      n.escape.write(masks_esc != nullptr);
      n.spin.write(spin);
      put(n.tdd, (uint64_t)tdd);
      put(n.sm_pipe, (uint64_t)sm_pipe);
      n.admit.write(mode.admit != 0);
      put(n.admit_occ, (uint64_t)mode.admit_occ);
      n.reroute.write(mode.reroute);
      n.adopt.write(mode.adopt && spin);
      n.early_credit.write(mode.early_credit);
      put(n.id, (uint64_t)r);
      put(n.nodes, (uint64_t)N_);
      put(n.xlat, rtl_xlat_bits(t_, r, SPIN_XLATW));
      n.rst_n.write(false);
      put(n.flit_in, in_flit_);
      put(n.cred_in, in_cred_);
      put(n.rt_mask, mask_);
      put(n.rt_mid_mask, (uint64_t)0);
    }
    cmodel_.on = false;
    pipes_.clear();
    for (int i = 0; i < 3; i++) edge();
    for (auto& n : n_) n->rst_n.write(true);
    cmodel_.on = true;
    snapshot();
  }

  void step(const flit_t* inj) override {
    for (int r = 0; r < N_; r++) {
      in_flit_.clear();
      in_cred_.clear();
      put_flit(in_flit_, 0, SPIN_FLITW, inj[r]);
      for (int p = 1; p < P_; p++) {
        int q = t_->peer_router[r * P_ + p];
        if (q < 0) continue;
        int up = q * P_ + t_->peer_port[r * P_ + p];
        pipes_.feed(r, p, up, cur_flit_, cur_cred_, in_flit_, in_cred_);
      }
      put(n_[r]->flit_in, in_flit_);
      put(n_[r]->cred_in, in_cred_);
    }
    edge();
    snapshot();
  }

  // Written before the next edge, as the links are.
  void set_admit(const router_cfg_t* cfg) override {
    for (int r = 0; r < N_; r++) {
      n_[r]->admit.write(cfg[r].admit != 0);
      put(n_[r]->admit_occ, (uint64_t)cfg[r].admit_occ);
    }
  }

  // The lookups written after the last edge came from the old tables.
  void set_tables(const port_mask_t* masks, const port_mask_t* masks_esc) override {
    copy_tables(masks, masks_esc, N_, N_);
    lookup();
  }

  void read(Bits& flit, Bits& cred, Bits& occ) override {
    flit.w = cur_flit_.w;
    cred.w = cur_cred_.w;
    occ.w = cur_occ_.w;
  }

  void read_spin(Bits& obs) override {
    const unsigned words = (unsigned)(ObsW_ + 31) / 32;
    for (int r = 0; r < N_; r++) {
      get(n_[r]->obs, obs_);
      for (unsigned i = 0; i < words; i++) obs.w[r * words + i] = obs_.w[i];
    }
  }

  void trace_open(const std::string&) override {}   // built without waveforms
  int ports() const override { return SPIN_PORTS; }
  int vcs() const override { return SPIN_VCS; }
  int flit_width() const override { return SPIN_FLITW; }
  const char* kind() const override { return "SystemC router array"; }

 private:
  // One clock period: the inputs written take effect, the rising edge at
  // the middle of it, then the route-table answers for the next edge.
  void edge() {
    sc_start(10, SC_NS);
    if (!masks_.empty()) lookup();
  }
  // Every router's route-table answers for its current rt_dst and rt_mid.
  void lookup() {
    for (int r = 0; r < N_; r++) {
      get(n_[r]->rt_dst, dst_);
      for (int p = 0; p < P_; p++) {
        unsigned d = (unsigned)dst_.get(p * 16, 16);
        mask_.set(p * MaskW_, P_, d < (unsigned)N_ ? masks_[r * N_ + d] : 0);
        if (!masks_esc_.empty())
          mask_.set(p * MaskW_ + P_, P_, d < (unsigned)N_ ? masks_esc_[r * N_ + d] : 0);
      }
      put(n_[r]->rt_mask, mask_);
      get(n_[r]->rt_mid, mid_);   // FAvORS-NMin: port 0's second lookup
      const unsigned mid = (unsigned)mid_.get(0, 16);
      put(n_[r]->rt_mid_mask, (uint64_t)(mid < (unsigned)N_ ? masks_[r * N_ + mid] : 0));
    }
  }
  void snapshot() {
    for (int r = 0; r < N_; r++) {
      get(n_[r]->flit_out, out_flit_);
      get(n_[r]->cred_out, out_cred_);
      get(n_[r]->occ, out_occ_);
      cur_flit_.copy_from(out_flit_, 0, r * P_ * LinkW_, P_ * LinkW_);
      cur_cred_.copy_from(out_cred_, 0, r * P_ * kCredW, P_ * kCredW);
      cur_occ_.copy_from(out_occ_, 0, r * P_ * V_ * 3, P_ * V_ * 3);
    }
  }

  const topo_t* t_;
  int N_, P_, V_, LinkW_, MaskW_, ObsW_;
  sc_clock clk_;
  std::vector<std::unique_ptr<Node>> n_;
  CModelNet cmodel_{"cmodel"};
  Bits cur_flit_, cur_cred_, cur_occ_, in_flit_, in_cred_, dst_, mid_, mask_, out_flit_, out_cred_,
      out_occ_, obs_;
  LinkPipes pipes_;
};

}  // namespace

void rtl_build_widths(const topo_t* topo, sm_opts_t* sm, unsigned* tddw) {
  (void)topo;
  sm->idw = SPIN_IDW;
  sm->cycw = SPIN_CYCW;
  sm->pipe = SPIN_SMPIPE;
  *tddw = SPIN_TDDW;
}

std::unique_ptr<RtlNet> make_rtl_net(VerilatedContext*, const topo_t* topo, int vcs, bool escape,
                                     const spin_obs_dims_t& dims, std::string* err) {
  if (topo->nics != 1) {
    *err = std::string(topo->name) + " has " + std::to_string(topo->nics) +
           " NIC ports a router; this co-simulation joins routers of one NIC port (the "
           "router array, build/rtl/pP-vV-nK/Vcosim, takes several)";
    return nullptr;
  }
  if (escape && !SPIN_ESCAPE) {
    *err = "this co-simulation was built without escape-VC routing (Escape = 0)";
    return nullptr;
  }
  if (topo->radix != SPIN_PORTS || vcs != SPIN_VCS) {
    char m[256];
    std::snprintf(m, sizeof m,
                  "this co-simulation was built for %d-port routers with %d VC%s; %s needs "
                  "%d ports and %d VC%s (make sim-sc builds the right one)",
                  SPIN_PORTS, SPIN_VCS, SPIN_VCS > 1 ? "s" : "", topo->name, topo->radix, vcs,
                  vcs > 1 ? "s" : "");
    *err = m;
    return nullptr;
  }
  if (!rtl_xlat_fits(topo, SPIN_XLATW, err)) return nullptr;
  return std::unique_ptr<RtlNet>(new RtlSc(topo, vcs, dims));
}

int sc_main(int argc, char** argv) { return cosim_main(argc, argv); }
