// rtl_top.cpp - RtlNet as the generated network top (spingen), Verilated
// whole.  Used to check the generator's wiring on small networks; the flat
// model grows with the network, so large meshes use rtl_array.cpp.
#include <cstdio>
#include <cstring>
#include "Vspin_network.h"
#include "rtl_net.h"
#include "spin_network_cfg.h"  // generated beside the network top

namespace {

// Bits per route-table entry: {mask_e, mask_a} when built with escape routing.
const int kMaskW = SPIN_NET_ESCAPE ? 2 * SPIN_NET_PORTS : SPIN_NET_PORTS;

class RtlTop : public RtlNet {
 public:
  RtlTop(VerilatedContext* ctx, int n, const spin_obs_dims_t& dims)
      : top_(new Vspin_network{ctx, "network"}), N_(n), LinkW_(SPIN_NET_FLITW + 7),
        ObsW_(spin_obs_width(&dims)), ObsWords_(spin_obs_words(dims)),
        inj_(N_ * LinkW_), table_(N_ * N_ * kMaskW), dbg_obs_(N_ * ObsW_), admit_(N_) {}
  ~RtlTop() override {
    trace_close();
    top_->final();
  }

  void reset(uint32_t seed, const port_mask_t* masks, const port_mask_t* masks_esc, bool favors,
             bool nmin, bool spin, unsigned tdd, const router_mode_t& mode,
             int sm_pipe) override {
    set_tables(masks, masks_esc);
    top_->seed_i = seed;
    top_->favors_i = favors;
    top_->nmin_i = nmin;
    top_->escape_i = masks_esc != nullptr;
    top_->spin_i = spin;
    top_->tdd_i = tdd;
    top_->sm_pipe_i = (uint8_t)sm_pipe;
    for (int r = 0; r < N_; r++) admit_.set((unsigned)r, 1, mode.admit != 0);
    from_bits(top_->admit_i, admit_);
    top_->admit_occ_i = (uint8_t)mode.admit_occ;
    top_->reroute_i = mode.reroute;
    top_->adopt_i = mode.adopt && spin;
    top_->early_credit_i = mode.early_credit;
    inj_.clear();
    from_bits(top_->inj_flit_i, inj_);
    top_->rst_ni = 0;
    for (int i = 0; i < 3; i++) tick();
    top_->rst_ni = 1;
  }

  // The table is an input of the network top, read combinationally.
  void set_tables(const port_mask_t* masks, const port_mask_t* masks_esc) override {
    const int P = SPIN_NET_PORTS;
    table_.clear();
    for (int r = 0; r < N_; r++)
      for (int d = 0; d < N_; d++) {
        table_.set((r * N_ + d) * kMaskW, P, masks[r * N_ + d]);
        if (masks_esc) table_.set((r * N_ + d) * kMaskW + P, P, masks_esc[r * N_ + d]);
      }
    from_bits(top_->route_table_i, table_);
  }

  void set_admit(const router_cfg_t* cfg) override {
    for (int r = 0; r < N_; r++) admit_.set((unsigned)r, 1, cfg[r].admit);
    from_bits(top_->admit_i, admit_);
    top_->admit_occ_i = (uint8_t)cfg[0].admit_occ;   // the same at every router
  }

  void step(const flit_t* inj) override {
    for (int r = 0; r < N_; r++) put_flit(inj_, r, SPIN_NET_FLITW, inj[r]);
    from_bits(top_->inj_flit_i, inj_);
    tick();
  }

  void read(Bits& flit, Bits& cred, Bits& occ) override {
    to_bits(top_->dbg_flit_o, flit);
    to_bits(top_->dbg_credit_o, cred);
    to_bits(top_->dbg_occ_o, occ);
  }

  void read_spin(Bits& obs) override {
    to_bits(top_->dbg_spin_obs_o, dbg_obs_);
    for (int r = 0; r < N_; r++) obs.copy_from(dbg_obs_, r * ObsW_, r * ObsWords_ * 32, ObsW_);
  }

  void trace_open(const std::string& path) override {
#if VM_TRACE
    tfp_.reset(new VerilatedFstC);
    top_->trace(tfp_.get(), 99);
    tfp_->open(path.c_str());
#else
    (void)path;
#endif
  }
  int ports() const override { return SPIN_NET_PORTS; }
  int vcs() const override { return SPIN_NET_VCS; }
  int flit_width() const override { return SPIN_NET_FLITW; }
  const char* kind() const override { return "network top"; }

 private:
  void tick() {
    top_->clk_i = 0;
    top_->eval();
    dump();
    top_->clk_i = 1;
    top_->eval();
    dump();
  }

  std::unique_ptr<Vspin_network> top_;
  int N_, LinkW_;
  unsigned ObsW_, ObsWords_;
  Bits inj_, table_, dbg_obs_, admit_;   // admit_: one bit a router
};

}  // namespace

void rtl_build_widths(const topo_t* topo, sm_opts_t* sm, unsigned* tddw) {
  (void)topo;
  sm->idw = SPIN_NET_IDW;
  sm->cycw = SPIN_NET_CYCW;
  sm->pipe = SPIN_NET_SMPIPE;
  *tddw = SPIN_NET_TDDW;
}

std::unique_ptr<RtlNet> make_rtl_net(VerilatedContext* ctx, const topo_t* topo, int vcs,
                                     bool escape, const spin_obs_dims_t& dims, std::string* err) {
  if (topo->nics != 1) {
    *err = std::string(topo->name) + " has " + std::to_string(topo->nics) +
           " NIC ports a router; this co-simulation joins routers of one NIC port (the "
           "router array, build/rtl/pP-vV-nK/Vcosim, takes several)";
    return nullptr;
  }
  if (escape && !SPIN_NET_ESCAPE) {
    *err = "this network top was generated without escape-VC routing (spingen --escape 0)";
    return nullptr;
  }
  if (std::strcmp(topo->name, SPIN_NET_TOPO) != 0 || vcs != SPIN_NET_VCS ||
      topo->routers != SPIN_NET_NODES || topo->radix != SPIN_NET_PORTS) {
    char m[512];
    std::snprintf(m, sizeof m,
                  "this co-simulation was built for the network top of %s with %d VC%s, "
                  "not %s with %d",
                  SPIN_NET_TOPO, SPIN_NET_VCS, SPIN_NET_VCS > 1 ? "s" : "", topo->name, vcs);
    *err = m;
    return nullptr;
  }
  if (SPIN_NET_SPIN && sizeof(Vspin_network::dbg_spin_obs_o) !=
                           (size_t)(SPIN_NET_NODES * spin_obs_width(&dims) + 31) / 32 * 4) {
    *err = "the network's dbg_spin_obs_o is not as wide as tb/spin_obs.h's table says";
    return nullptr;
  }
  if (!rtl_xlat_fits(topo, SPIN_NET_XLATW, err)) return nullptr;
  return std::unique_ptr<RtlNet>(new RtlTop(ctx, topo->routers, dims));
}
