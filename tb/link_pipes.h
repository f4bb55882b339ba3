// link_pipes.h - the registers that links of latency L > 1 add, for the
// harnesses that wire routers in C++ (tb/rtl_array.cpp, tb/sc/rtl_sc.cpp):
// docs/microarchitecture.md, section 1.  The RTL twin is spin_link_pipe in
// the generated network top; the C model's is net_pipe_t (cmodel/network.c).
// A reader's input at cycle t is the peer's register of cycle t - (L - 1).
#ifndef SPIN_TB_LINK_PIPES_H
#define SPIN_TB_LINK_PIPES_H

#include <vector>
#include "bus.h"

extern "C" {
#include "topology.h"
}

class LinkPipes {
 public:
  // Flit words of linkw bits, credit words of credw bits.
  LinkPipes(const topo_t* t, unsigned linkw, unsigned credw)
      : P_(t->radix), linkw_(linkw), credw_(credw), of_((size_t)t->routers * t->radix, -1) {
    for (int i = 0; i < t->routers * t->radix; i++)
      if (i % P_ && t->peer_router[i] >= 0 && t->latency[i] > 1) {
        of_[i] = (int)pipe_.size();
        pipe_.push_back(Pipe{t->latency[i] - 1, 0,
                             std::vector<Bits>(t->latency[i] - 1, Bits(linkw)),
                             std::vector<Bits>(t->latency[i] - 1, Bits(credw))});
      }
  }
  // Every stage idle (reset).
  void clear() {
    for (auto& pp : pipe_) {
      for (auto& b : pp.flit) b.clear();
      for (auto& b : pp.cred) b.clear();
      pp.head = 0;
    }
  }
  // The inputs of router r's port p for this cycle into in_flit/in_cred (at
  // word p), given the registers of this cycle (cur_*, the peer's at word
  // up); a long link's pipeline then takes the peer's words.
  void feed(int r, int p, int up, const Bits& cur_flit, const Bits& cur_cred, Bits& in_flit,
            Bits& in_cred) {
    feed(r, p, cur_flit.w.data(), up * linkw_, cur_cred.w.data(), up * credw_, in_flit.w.data(),
         in_cred.w.data());
  }
  // The same from the peer's registers at bit up_flit of up_flit_w and bit
  // up_cred of up_cred_w (one router's own words, say).  Routers fed on
  // different threads touch different pipelines.
  void feed(int r, int p, const uint32_t* up_flit_w, unsigned up_flit, const uint32_t* up_cred_w,
            unsigned up_cred, uint32_t* in_flit, uint32_t* in_cred) {
    const int k = of_[(size_t)r * P_ + p];
    if (k < 0) {
      bits_copy(in_flit, p * linkw_, up_flit_w, up_flit, linkw_);
      bits_copy(in_cred, p * credw_, up_cred_w, up_cred, credw_);
      return;
    }
    Pipe& pp = pipe_[k];
    bits_copy(in_flit, p * linkw_, pp.flit[pp.head].w.data(), 0, linkw_);
    bits_copy(in_cred, p * credw_, pp.cred[pp.head].w.data(), 0, credw_);
    bits_copy(pp.flit[pp.head].w.data(), 0, up_flit_w, up_flit, linkw_);
    bits_copy(pp.cred[pp.head].w.data(), 0, up_cred_w, up_cred, credw_);
    pp.head = pp.head + 1 == pp.stages ? 0 : pp.head + 1;
  }

 private:
  struct Pipe {
    int stages, head;
    std::vector<Bits> flit, cred;   // the next stages values, oldest at head
  };
  int P_;
  unsigned linkw_, credw_;
  std::vector<int> of_;             // (r, p) -> its pipeline, -1 for a 1-cycle link
  std::vector<Pipe> pipe_;
};

#endif
