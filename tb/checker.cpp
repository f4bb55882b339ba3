// checker.cpp - see checker.h.
#include "checker.h"

#include <cstdio>
#include <cstring>

extern "C" {
#include "spin_obs.h"
}

namespace {

const char* port_name(const topo_t& t, int p) {
  static const char* mesh[] = {"nic", "east", "west", "north", "south"};
  if (t.kind == TOPO_KIND_MESH || t.kind == TOPO_KIND_TORUS) return p < 5 ? mesh[p] : "?";
  return p < t.nics ? "nic" : "net";
}

struct Field {
  const char* name;
  unsigned lsb, width;  // lsb relative to the data width for control fields
  bool ctl;
};
const Field kFlitFields[] = {
    {"flit.kind", 4, 3, true}, {"flit.head", 3, 1, true}, {"flit.tail", 2, 1, true},
    {"flit.vc", 0, 2, true},   {"flit.data", 0, 0, false},
};
const Field kCredFields[] = {{"credit.valid", 2, 1, false},
                             {"credit.vc", 0, 2, false},
                             {"credit.arm", 3, 1, false},
                             {"credit.arm_vc", 4, 2, false}};
const unsigned kOccW = 3;

}  // namespace

Checker::Checker(const sim_t* sim, int flitw, const spin_obs_dims_t& dims)
    : sim_(sim), dims_(dims), N_(sim->net.n), P_(sim->net.ports), V_(sim->net.vcs), FlitW_(flitw),
      LinkW_(flitw + 7), spin_(sim->net.n > 0 && sim->net.cfg[0].spin),
      ObsStride_(32 * spin_obs_words(dims)), rtl_flit_(N_ * P_ * LinkW_),
      rtl_cred_(N_ * P_ * kCredW), rtl_occ_(N_ * P_ * V_ * kOccW), exp_flit_(N_ * P_ * LinkW_),
      exp_cred_(N_ * P_ * kCredW), exp_occ_(N_ * P_ * V_ * kOccW),
      rtl_obs_(spin_ ? N_ * ObsStride_ : 0), exp_obs_(spin_ ? N_ * ObsStride_ : 0),
      ej_((size_t)sim->net.nodes) {
  set_lanes(1);
  // Every field of the SPIN word at every index, in the table's order.
  for (int f = 0; f < SPIN_OBS_NFIELDS; f++) {
    const int P = (int)P_, V = (int)V_;
    const unsigned w = spin_obs_fields[f].width(&dims_);
    if (!w) continue;   // not in this build's word
    switch (spin_obs_fields[f].kind) {
      case SPIN_OBS_ROUTER:
        slots_.push_back({f, -1, -1, spin_obs_lsb(&dims_, f, 0, 0), w});
        break;
      case SPIN_OBS_PORT:
        for (int p = 1; p < P; p++) slots_.push_back({f, p, -1, spin_obs_lsb(&dims_, f, p, 0), w});
        break;
      case SPIN_OBS_VC:
        for (int p = 1; p < P; p++)
          for (int v = 0; v < V; v++) slots_.push_back({f, p, v, spin_obs_lsb(&dims_, f, p, v), w});
        break;
    }
  }
  for (const Slot& k : slots_)
    if (spin_obs_fields[k.f].from == SPIN_OBS_CYCLE) by_cycle_.push_back(k);
  // Nothing packed yet: last_ matches no router's registers (a state_q of
  // 0xFF is none), so the first compare packs every field.
  if (spin_) {
    last_.resize(N_);
    std::memset(last_.data(), 0xFF, N_ * sizeof(spin_router_t));
  }
}

void Checker::set_lanes(int lanes) {
  lanes_.assign(lanes < 1 ? 1 : (size_t)lanes, Lane());
  for (Lane& l : lanes_) {
    l.flit.assign((P_ * LinkW_ + 31) / 32, 0u);
    l.cred.assign((P_ * kCredW + 31) / 32, 0u);
    l.occ.assign((P_ * V_ * kOccW + 31) / 32, 0u);
  }
}

void Checker::begin_cycle() {
  for (Lane& l : lanes_) l.differs = false;
}

bool Checker::routers_differ() const {
  for (const Lane& l : lanes_)
    if (l.differs) return true;
  return false;
}

// Router r's expected registers packed in the lane's words as the router's
// ports hold them, then compared whole; exp_obs_ and last_ have a part per
// router (ObsStride_ is whole words), so lanes pack theirs side by side.
void Checker::check_router(int lane, unsigned r, const RouterRegs& regs) {
  const network_t& net = sim_->net;
  Lane& l = lanes_[(size_t)lane];
  std::fill(l.flit.begin(), l.flit.end(), 0u);
  std::fill(l.cred.begin(), l.cred.end(), 0u);
  for (unsigned p = 0; p < P_; p++) {
    put_flit(l.flit.data(), p, FlitW_, *net_flit_out(&net, (int)r, (int)p));
    bits_set(l.cred.data(), p * kCredW, kCredW, net_cred_out(&net, (int)r, (int)p));
    for (unsigned v = 0; v < V_; v++)
      bits_set(l.occ.data(), (p * V_ + v) * kOccW, kOccW,
               net_occupancy(&net, (int)r, (int)p, (int)v));
  }
  bool same = bits_same(l.flit.data(), regs.flit, P_ * LinkW_) &&
              bits_same(l.cred.data(), regs.cred, P_ * kCredW) &&
              bits_same(l.occ.data(), regs.occ, P_ * V_ * kOccW);
  if (spin_) {
    pack_spin_router(r, cycle_fields(l));
    same = same && bits_same(exp_obs_.w.data() + r * ObsStride_ / 32, regs.obs, ObsStride_);
  }
  const unsigned K = (unsigned)net.nics;
  for (unsigned k = 0; k < K; k++) ej_[r * K + k] = get_flit(regs.flit, k, FlitW_);
  if (!same) l.differs = true;
}

int Checker::compare(RtlNet& rtl, int limit) {
  const network_t& net = sim_->net;
  rtl.read(rtl_flit_, rtl_cred_, rtl_occ_);
  for (unsigned r = 0; r < N_; r++)
    for (unsigned p = 0; p < P_; p++) {
      put_flit(exp_flit_, r * P_ + p, FlitW_, *net_flit_out(&net, (int)r, (int)p));
      exp_cred_.set((r * P_ + p) * kCredW, kCredW, net_cred_out(&net, (int)r, (int)p));
      for (unsigned v = 0; v < V_; v++)
        exp_occ_.set(((r * P_ + p) * V_ + v) * kOccW, kOccW,
                     net_occupancy(&net, (int)r, (int)p, (int)v));
    }
  const unsigned K = (unsigned)net.nics;
  for (unsigned k = 0; k < (unsigned)net.nodes; k++)
    ej_[k] = get_flit(rtl_flit_, k / K * P_ + k % K, FlitW_);
  bool links_same =
      exp_flit_.w == rtl_flit_.w && exp_cred_.w == rtl_cred_.w && exp_occ_.w == rtl_occ_.w;
  bool spin_same = true;
  if (spin_) {
    rtl.read_spin(rtl_obs_);
    pack_spin();
    spin_same = exp_obs_.w == rtl_obs_.w;
  }
  if (links_same && spin_same) return 0;
  int n = links_same ? 0 : compare_links(limit);
  if (!spin_same) n += compare_spin(limit, n);
  return n;
}

// The C model's SPIN registers, packed as the RTL packs spin_obs_o.  The
// fields kept in spin_router_t are packed again only for a router whose
// spin_router_t changed since the last cycle (most routers are idle most
// cycles; exp_obs_ still holds the others); those computed from the cycle
// are packed for every router every cycle.
// The values of the fields computed from the cycle, in by_cycle_'s order:
// worked out once a cycle in each lane.
const uint64_t* Checker::cycle_fields(Lane& l) {
  const network_t& net = sim_->net;
  if (l.cyc_of != net.cycle) {
    spin_obs_ctx_t ctx;
    ctx.cycle = net.cycle;
    ctx.tdd = net.cfg[0].tdd;
    ctx.nodes = (unsigned)net.n;
    l.cyc.resize(by_cycle_.size());
    for (size_t i = 0; i < by_cycle_.size(); i++) {
      const Slot& k = by_cycle_[i];
      l.cyc[i] = spin_obs_fields[k.f].get(nullptr, k.p, k.v, &ctx);
    }
    l.cyc_of = net.cycle;
  }
  return l.cyc.data();
}

// The C model's SPIN registers, packed as the RTL packs spin_obs_o.  The
// fields kept in spin_router_t are packed again only for a router whose
// spin_router_t changed since the last cycle (most routers are idle most
// cycles; exp_obs_ still holds the others); those computed from the cycle
// are packed for every router every cycle.
void Checker::pack_spin() {
  const uint64_t* cyc = cycle_fields(lanes_[0]);
  for (unsigned r = 0; r < N_; r++) pack_spin_router(r, cyc);
}

// cyc: cycle_fields().
void Checker::pack_spin_router(unsigned r, const uint64_t* cyc) {
  const spin_router_t* s = &sim_->net.rt[r].sp;
  const unsigned base = r * ObsStride_;
  for (size_t i = 0; i < by_cycle_.size(); i++)
    exp_obs_.set(base + by_cycle_[i].lsb, by_cycle_[i].width, cyc[i]);
  if (std::memcmp(&last_[r], s, sizeof *s) == 0) return;
  const spin_obs_ctx_t none = {0, 0, 0};   // the register fields read s alone
  for (const Slot& k : slots_) {
    const spin_obs_field_t& f = spin_obs_fields[k.f];
    if (f.from == SPIN_OBS_REG) exp_obs_.set(base + k.lsb, k.width, f.get(s, k.p, k.v, &none));
  }
  std::memcpy(&last_[r], s, sizeof *s);
}

int Checker::compare_links(int limit) {
  int n = 0;
  for (unsigned r = 0; r < N_; r++)
    for (unsigned p = 0; p < P_; p++) {
      unsigned base = (r * P_ + p) * LinkW_;
      for (const Field& f : kFlitFields) {
        if (!f.ctl) {  // data, 64 bits at a time
          for (unsigned lo = 0; lo < FlitW_; lo += 64) {
            unsigned w = FlitW_ - lo < 64 ? FlitW_ - lo : 64;
            char name[32];
            std::snprintf(name, sizeof name, "%s[%u:%u]", f.name, lo + w - 1, lo);
            n += diff(n < limit, r, (int)p, -1, name, exp_flit_.get(base + lo, w),
                      rtl_flit_.get(base + lo, w));
          }
          continue;
        }
        unsigned lsb = base + FlitW_ + f.lsb;
        n += diff(n < limit, r, (int)p, -1, f.name, exp_flit_.get(lsb, f.width),
                  rtl_flit_.get(lsb, f.width));
      }
      base = (r * P_ + p) * kCredW;
      for (const Field& f : kCredFields)
        n += diff(n < limit, r, (int)p, -1, f.name, exp_cred_.get(base + f.lsb, f.width),
                  rtl_cred_.get(base + f.lsb, f.width));
      for (unsigned v = 0; v < V_; v++) {
        base = ((r * P_ + p) * V_ + v) * kOccW;
        n += diff(n < limit, r, (int)p, (int)v, "occupancy", exp_occ_.get(base, kOccW),
                  rtl_occ_.get(base, kOccW));
      }
    }
  return n;
}

// printed: fields already reported by this compare (they count toward limit).
int Checker::compare_spin(int limit, int printed) {
  int n = 0;
  const unsigned nstates = sizeof spin_obs_state_names / sizeof spin_obs_state_names[0];
  for (unsigned r = 0; r < N_; r++)
    for (const Slot& k : slots_) {
      const spin_obs_field_t& f = spin_obs_fields[k.f];
      const unsigned lsb = r * ObsStride_ + k.lsb;
      char name[48];
      std::snprintf(name, sizeof name, "spin.%s", f.name);
      const bool state = std::strcmp(f.name, "state_q") == 0;
      n += diff(printed + n < limit, r, k.p, k.v, name, exp_obs_.get(lsb, k.width),
                rtl_obs_.get(lsb, k.width), state ? spin_obs_state_names : nullptr,
                state ? nstates : 0);
    }
  return n;
}

int Checker::diff(bool print, unsigned r, int p, int v, const char* field, uint64_t c,
                  uint64_t rtl, const char* const* names, unsigned nnames) {
  if (c == rtl) return 0;
  if (print) {
    const topo_t& t = sim_->topo;
    char where[128];
    int k = t.has_coords ? std::snprintf(where, sizeof where, "router %u (x %d, y %d)", r, t.x[r],
                                         t.y[r])
                         : std::snprintf(where, sizeof where, "router %u", r);
    if (p >= 0)
      std::snprintf(where + k, sizeof where - (size_t)k, " port %d (%s)", p, port_name(t, p));
    char vc[16] = "";
    if (v >= 0) std::snprintf(vc, sizeof vc, " VC %d", v);
    char cv[32], rv[32];
    if (names && c < nnames) std::snprintf(cv, sizeof cv, "%s", names[c]);
    else std::snprintf(cv, sizeof cv, "0x%llx", (unsigned long long)c);
    if (names && rtl < nnames) std::snprintf(rv, sizeof rv, "%s", names[rtl]);
    else std::snprintf(rv, sizeof rv, "0x%llx", (unsigned long long)rtl);
    std::printf("  %s%s: %-13s C model %s, RTL %s\n", where, vc, field, cv, rv);
  }
  return 1;
}
