// spin_noc_sc.cpp - the C model as a SystemC module (spin_noc_sc.h).
#include "spin_noc_sc.h"

#include <stdexcept>

namespace {
// The rx FIFOs hold this many deliveries a node; a full one is an error
// (the system stopped reading).
const int kRxDepth = 1 << 14;
}  // namespace

SpinNocNetwork::SpinNocNetwork(sc_core::sc_module_name name, const SpinNocConfig& cfg)
    : sc_module(name), clk("clk") {
  sim_opts_t o;
  sim_defaults(&o);
  o.topo = cfg.topo.c_str();
  o.traffic = "uniform_random";   // at rate 0: every packet comes from inject()
  o.rate = 0;
  o.algo = cfg.routing;
  o.vcs = cfg.vcs;
  o.spin = cfg.spin;
  o.tdd = cfg.tdd;
  o.seed = cfg.seed;
  sim_set_mode(&o, cfg.live);
  o.cycles = 1000000000000000ull;   // the window never closes
  o.warmup = 0;
  if (sim_init(&sim_, &o, 1) != 0) {
    std::string why = sim_.err;
    sim_free(&sim_);
    throw std::invalid_argument("SpinNocNetwork: " + why);
  }
  for (int n = 0; n < sim_.net.n; n++)
    rx_.push_back(new sc_core::sc_fifo<SpinNocDelivery>(
        (std::string(basename()) + "_rx" + std::to_string(n)).c_str(), kRxDepth));
  SC_METHOD(step);
  sensitive << clk.pos();
  dont_initialize();
}

SpinNocNetwork::~SpinNocNetwork() {
  for (auto* f : rx_) delete f;
  sim_free(&sim_);
}

bool SpinNocNetwork::inject(int src, int dst, int flits, uint64_t tag) {
  const int n = sim_.net.n;
  if (src < 0 || src >= n || dst < 0 || dst >= n || src == dst || flits < 1 || flits > 5) return false;
  tag_of_[sim_.nic.sb.next_id] = tag;
  nic_create(&sim_.nic, src, dst, flits, sim_.now, 1);
  return true;
}

void SpinNocNetwork::step() {
  network_t* net = &sim_.net;
  sim_cycle_pre(&sim_);
  net_step(net);
  if (sim_cycle_post(&sim_) != 0) {
    SC_REPORT_ERROR(name(), sim_.err);
    return;
  }
  // Tails ejected at this edge: the packets delivered.
  const flit_t* ej = net->flit_reg[net->cycle & 1];
  for (int i = 0; i < net->n_ejecting; i++) {
    const int r = net->ejecting[i];
    const flit_t& f = ej[(size_t)r * (size_t)net->ports];
    if (CTL_KIND(f.ctl) != KIND_FLIT || !CTL_TAIL(f.ctl)) continue;
    const uint64_t id = sim_.sink.vc[r * sim_.sink.vcs + (int)CTL_VC(f.ctl)].id;
    const pkt_t& p = sim_.nic.sb.ring[id & sim_.nic.sb.mask];
    SpinNocDelivery d;
    d.src = p.src;
    d.dst = p.dst;
    d.flits = p.len;
    d.created = p.t_create;
    d.delivered = sim_.now;
    auto it = tag_of_.find(id);
    if (it != tag_of_.end()) {
      d.tag = it->second;
      tag_of_.erase(it);
    }
    if (!rx_[r]->nb_write(d)) {
      SC_REPORT_ERROR(name(), ("rx(" + std::to_string(r) + ") is full: read the deliveries").c_str());
      return;
    }
  }
}
