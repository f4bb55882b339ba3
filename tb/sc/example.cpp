// example.cpp - a small SystemC system around the spin-noc network module
// (spin_noc_sc.h): one traffic source and one sink per node, a clock, and a
// scoreboard of its own that checks every packet a source sent arrives
// exactly once, at its destination.
//
//   build/sc/example [--topo NAME] [--rate R] [--cycles N] [--spin 0|1] [--paper]
//
// Sources inject for --cycles cycles (Bernoulli, R flits/node/cycle, packets
// of 1 or 5 flits to uniform random destinations), then the run goes on
// until every packet has arrived (at most 200,000 more cycles).  Prints a
// summary; exit 0 when everything arrived, 1 otherwise, 2 on bad arguments.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include <systemc.h>

#include "spin_noc_sc.h"

namespace {

struct Sent {
  int src, dst, flits;
  bool arrived;
};

// The system's own record of what it sent (not the model's scoreboard).
struct Ledger {
  std::map<uint64_t, Sent> sent;
  uint64_t next_tag = 1, arrived = 0, latency_sum = 0, errors = 0;
};

SC_MODULE(Source) {
  sc_in<bool> clk;
  SpinNocNetwork* net;
  Ledger* ledger;
  int node;
  double p_packet;
  uint64_t until;
  std::mt19937_64 rng;

  SC_HAS_PROCESS(Source);
  Source(sc_module_name n, SpinNocNetwork* nw, Ledger* l, int id, double rate, uint64_t cycles)
      : sc_module(n), net(nw), ledger(l), node(id), p_packet(rate / 3.0), until(cycles),
        rng(1000 + (uint64_t)id) {
    SC_THREAD(run);
    sensitive << clk.pos();
  }
  void run() {
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_int_distribution<int> other(0, net->nodes() - 2);
    for (;;) {
      wait();
      if (net->cycle() >= until) return;
      if (u(rng) >= p_packet) continue;
      int dst = other(rng);
      if (dst >= node) dst++;
      const int flits = u(rng) < 0.5 ? 1 : 5;
      const uint64_t tag = ledger->next_tag++;
      if (!net->inject(node, dst, flits, tag)) {
        ledger->errors++;
        continue;
      }
      ledger->sent[tag] = Sent{node, dst, flits, false};
    }
  }
};

SC_MODULE(Sink) {
  SpinNocNetwork* net;
  Ledger* ledger;
  int node;

  SC_HAS_PROCESS(Sink);
  Sink(sc_module_name n, SpinNocNetwork* nw, Ledger* l, int id)
      : sc_module(n), net(nw), ledger(l), node(id) {
    SC_THREAD(run);
  }
  void run() {
    for (;;) {
      SpinNocDelivery d = net->rx(node).read();
      auto it = ledger->sent.find(d.tag);
      if (it == ledger->sent.end() || it->second.arrived || it->second.dst != node ||
          it->second.src != d.src || it->second.flits != d.flits) {
        std::printf("example: node %d: unexpected delivery of packet %llu from %d\n", node,
                    (unsigned long long)d.tag, d.src);
        ledger->errors++;
        continue;
      }
      it->second.arrived = true;
      ledger->arrived++;
      ledger->latency_sum += d.delivered - d.created;
    }
  }
};

int usage_error(const char* msg, const char* v) {
  std::fprintf(stderr, "example: %s '%s' (usage: example [--topo NAME] [--rate R] [--cycles N] "
                       "[--spin 0|1] [--paper])\n", msg, v);
  return 2;
}

}  // namespace

int sc_main(int argc, char** argv) {
  SpinNocConfig cfg;
  double rate = 0.1;
  uint64_t cycles = 5000;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    char* end = nullptr;
    if (a == "--paper") { cfg.live = false; continue; }
    if (!v) return usage_error("missing value after", argv[i]);
    i++;
    if (a == "--topo") cfg.topo = v;
    else if (a == "--rate") {
      rate = std::strtod(v, &end);
      if (!*v || *end || !(rate >= 0 && rate <= 1)) return usage_error("--rate: not a rate in 0..1:", v);
    } else if (a == "--cycles") {
      cycles = std::strtoull(v, &end, 10);
      if (!*v || *end || *v == '-' || cycles < 1 || cycles > 100000000) return usage_error("--cycles: not 1..10^8:", v);
    } else if (a == "--spin") {
      if (std::strcmp(v, "0") && std::strcmp(v, "1")) return usage_error("--spin: not 0 or 1:", v);
      cfg.spin = v[0] == '1';
    } else return usage_error("unknown option", a.c_str());
  }

  sc_clock clk("clk", 1, SC_NS);
  std::unique_ptr<SpinNocNetwork> net;
  try {
    net.reset(new SpinNocNetwork("net", cfg));
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "example: %s\n", e.what());
    return 2;
  }
  net->clk(clk);
  Ledger ledger;
  std::vector<std::unique_ptr<Source>> src;
  std::vector<std::unique_ptr<Sink>> snk;
  for (int n = 0; n < net->nodes(); n++) {
    src.emplace_back(new Source(("src" + std::to_string(n)).c_str(), net.get(), &ledger, n, rate, cycles));
    src.back()->clk(clk);
    snk.emplace_back(new Sink(("sink" + std::to_string(n)).c_str(), net.get(), &ledger, n));
  }

  sc_start((double)cycles, SC_NS);
  const uint64_t limit = 200000;
  uint64_t waited = 0;
  while (ledger.arrived < ledger.sent.size() && waited < limit && !ledger.errors) {
    sc_start(100, SC_NS);
    waited += 100;
  }
  const spin_stats_t& k = net->spin_counters();
  const bool ok = ledger.arrived == ledger.sent.size() && !ledger.errors;
  std::printf("spin-noc SystemC example: %s, %d nodes, %s, %.3f flits/node/cycle for %llu cycles\n",
              cfg.topo.c_str(), net->nodes(), cfg.live ? "live mode" : "paper mode", rate,
              (unsigned long long)cycles);
  std::printf("  packets   sent %zu, arrived %llu (%s), errors %llu, at cycle %llu\n",
              ledger.sent.size(), (unsigned long long)ledger.arrived,
              ok ? "all, once each" : "NOT all", (unsigned long long)ledger.errors,
              (unsigned long long)net->cycle());
  std::printf("  latency   avg %.2f cycles\n",
              ledger.arrived ? (double)ledger.latency_sum / (double)ledger.arrived : 0.0);
  std::printf("  SPIN      %s: spins %llu, deadlocks resolved %llu\n", cfg.spin ? "on" : "off",
              (unsigned long long)k.spins, (unsigned long long)k.deadlocks_resolved);
  return ok ? 0 : 1;
}
