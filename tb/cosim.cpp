// cosim.cpp - runs the C model (cmodel/) and the RTL (rtl/, under Verilator)
// in lockstep from one traffic generator and one set of NICs, and compares,
// after every clock edge, every link register (flit and credit, ejection
// included), the occupancy of every input VC and, with SPIN on, every
// router's SPIN registers (tb/checker.h).  Both models' ejections go
// through their own scoreboard sink.  On the first divergence it prints the
// cycle, router, port, VC, field and both values, leaves a waveform on disk
// (re-running itself with tracing when none was being written) and exits 1.
//
// Options: those of spinsim (--help), plus
//   --waves FILE          write an FST waveform of the whole run
//   --trace-from N        start the waveform at cycle N
//   --waves-on-fail FILE  on a failure, re-run with --waves FILE up to it
//   +verilator+seed+N ... Verilator's own runtime options
// Exit status, as spinsim's: 0 passed; 1 the run failed (or its output
// files could not be written at its end); 2 bad input, refused before the
// run (options, input files, output files that cannot be written, a binary
// built for another port or VC count).  Every output file is checked, and
// one left by an earlier run removed, before the run starts.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <memory>
#include <string>
#include <vector>
#include <unistd.h>

#include <verilated.h>
#include "bus.h"
#include "checker.h"
#include "rtl_net.h"

extern "C" {
#include "cli.h"
#include "report.h"
#include "sim.h"
#include "text.h"
}

namespace {

const char kExtraUsage[] =
    "co-simulation only:\n"
    "  --waves FILE          write an FST waveform\n"
    "  --trace-from N        start the waveform at cycle N (0)\n"
    "  --waves-on-fail FILE  on a failure, re-run and write FILE up to the failing cycle\n"
    "  --threads N           evaluate the RTL routers on N threads, 1 to 64 (1); the\n"
    "                        results are the same, only the speed differs\n"
    "  +verilator+seed+N     power-up state of the registers reset does not clear:\n"
    "                        random, from seed N in 1..2147483647 (1)\n";

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Verilator's runtime options that set the power-up state: +verilator+seed+N
// (1..2^31-1; Verilator takes 0 as "pick one at random", which no run may
// depend on) and +verilator+rand+reset+N (0 zeros, 1 ones, 2 random).
// Checked here, so that a bad value gets a message instead of Verilator's
// abort.  Returns false after printing the error.
bool check_plusargs(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a[0] != '+') continue;
    for (const char* pre : {"+verilator+seed+", "+verilator+rand+reset+"}) {
      std::string p = pre;
      if (a.compare(0, p.size(), p) != 0) continue;
      std::string v = a.substr(p.size());
      bool seed = p == "+verilator+seed+";
      char* end = nullptr;
      unsigned long long x = v.empty() || v[0] == '-' ? 0 : std::strtoull(v.c_str(), &end, 10);
      bool ok = !v.empty() && end && !*end && (seed ? x >= 1 && x <= 2147483647ull : x <= 2);
      if (!ok) {
        std::fprintf(stderr, "error: %s: '%s' is not %s\n", pre, v.c_str(),
                     seed ? "a seed in 1..2147483647 (VSEED)" : "0, 1 or 2");
        return false;
      }
    }
  }
  return true;
}

}  // namespace

#ifdef SPIN_SC
// The SystemC build (make sim-sc, tb/sc/rtl_sc.cpp): SystemC owns main() and
// calls sc_main, which calls this; the routers are SystemC modules, and use
// Verilator's default context.
int cosim_main(int argc, char** argv) {
  if (!check_plusargs(argc, argv)) return 2;
  VerilatedContext* ctx = Verilated::defaultContextp();
#else
int main(int argc, char** argv) {
  if (!check_plusargs(argc, argv)) return 2;
  auto ctx = std::make_unique<VerilatedContext>();
#endif
  // Registers that reset does not clear (FIFO storage) power up random,
  // seeded by +verilator+seed+N (VSEED, default 1): the build uses
  // --x-initial unique, which only randomises in reset mode 2.  A plusarg
  // +verilator+rand+reset+N given on the command line overrides it.
  ctx->randReset(2);
  ctx->randSeed(1);
  // A failing assertion ($error, then $stop) ends the run through
  // gotFinish(): the harness reports it, writes the waveform and exits 1.
  // (By default Verilator would abort the process at once: no summary, no
  // waveform, exit status 134.)
  ctx->fatalOnError(false);
  ctx->commandArgs(argc, argv);

  // Split our own options from Verilator's plusargs and spinsim's options.
  std::string waves, waves_on_fail;
  uint64_t trace_from = 0;
  int threads = 1;
  unsigned tdd_width = 16;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](const char* opt) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", opt);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a[0] == '+') continue;
    if (a == "--waves") waves = value("--waves");
    else if (a == "--waves-on-fail") waves_on_fail = value("--waves-on-fail");
    else if (a == "--trace-from") {
      char* end = nullptr;
      const char* s = value("--trace-from");
      errno = 0;
      trace_from = *s >= '0' && *s <= '9' ? std::strtoull(s, &end, 10) : 0;
      if (!end || *end || errno || trace_from > SIM_MAX_CYCLE) {
        std::string esc(std::strlen(s) * 4 + 1, '\0');
        text_escape(&esc[0], esc.size(), s);
        std::fprintf(stderr, "error: --trace-from: '%s' is not a cycle number (0 to 10^15)\n",
                     esc.c_str());
        return 2;
      }
    } else if (a == "--threads") {
      char* end;
      const char* s = value("--threads");
      long n = std::strtol(s, &end, 10);
      if (!*s || *end || n < 1 || n > 64) {
        std::fprintf(stderr, "error: --threads: '%s' is not a thread count from 1 to 64\n", s);
        return 2;
      }
      threads = (int)n;
    } else args.push_back(argv[i]);
  }
  args.push_back(nullptr);

  cli_opts_t o;
  int rc = cli_parse((int)args.size() - 1, args.data(), &o, "cosim", kExtraUsage);
  if (rc == 1) return 0;
  if (rc) return 2;
#if !VM_TRACE
  if (!waves.empty()) {
    std::fprintf(stderr, "error: --waves: this co-simulation was built without waveforms "
                         "(no --trace-fst: the speed build); use the checking build (make sim)\n");
    return 2;
  }
  waves_on_fail.clear();  // nothing to re-run into
#endif
  // The output files, before anything runs: each must be writable, and
  // what an earlier run left there goes.
  if (cli_outputs_check(&o) != 0 || (!waves.empty() && cli_output_check("--waves", waves.c_str()) != 0) ||
      (!waves_on_fail.empty() && cli_output_check("--waves-on-fail", waves_on_fail.c_str()) != 0))
    return 2;

  // The C model runs with the special-message widths the RTL was built with
  // (they change the bits on the links, not the run: contract 12.1).
  {
    sm_opts_t bw;
    unsigned tddw;
    rtl_build_widths(nullptr, &bw, &tddw);
    if (o.sim.sm.idw && (o.sim.sm.idw != bw.idw || o.sim.sm.cycw != bw.cycw)) {
      std::fprintf(stderr, "error: --sm-widths %u,%u: this co-simulation was built with %u,%u\n",
                   o.sim.sm.idw, o.sim.sm.cycw, bw.idw, bw.cycw);
      return 2;
    }
    if (bw.pipe != 3 && o.sim.sm.pipe != bw.pipe) {
      std::fprintf(stderr, "error: --sm-pipe %d: this co-simulation was built with SmPipe %d\n",
                   o.sim.sm.pipe, bw.pipe);
      return 2;
    }
    if (o.sim.spin && o.sim.tdd >= (1u << tddw)) {
      std::fprintf(stderr, "error: --tdd %u: this co-simulation was built for t_DD below %u\n",
                   o.sim.tdd, 1u << tddw);
      return 2;
    }
    o.sim.sm.idw = bw.idw;
    o.sim.sm.cycw = bw.cycw;
    tdd_width = tddw;
  }
  sim_t sim;
  if (sim_init(&sim, &o.sim, 2) != 0) {
    std::fprintf(stderr, "error: %s\n", sim.err);
    sim_free(&sim);
    return 2;
  }
  if (!waves.empty()) ctx->traceEverOn(true);
  std::string why;
  VerilatedContext* const ctxp = &*ctx;
  const spin_obs_dims_t dims = spin_obs_dims(&sim.net.fmt, sim.net.ports, sim.net.vcs, tdd_width);
  std::unique_ptr<RtlNet> rtl = make_rtl_net(ctxp, &sim.topo, o.sim.vcs,
                                               o.sim.algo == ALGO_ESCAPE, dims, &why);
  if (!rtl) {
    std::fprintf(stderr, "error: %s\n", why.c_str());
    sim_free(&sim);
    return 2;
  }
  rtl->set_threads(threads);
  const bool rtl_steps_cmodel = rtl->take_cmodel(&sim.net);
  if (cli_record_start(&o, &sim) != 0) {
    sim_free(&sim);
    return 1;
  }
  sink_t rtl_sink;
  if (sink_init(&rtl_sink, 1, sim.net.nodes, sim.net.vcs) != 0) {
    std::fprintf(stderr, "error: out of memory\n");
    sim_free(&sim);
    return 1;
  }

  const char* failure = nullptr;
  std::string fail_msg;
  int64_t mismatches = 0;
  uint64_t fail_cycle = 0;
  double t0 = now_s();
  {
    Checker chk(&sim, rtl->flit_width(), dims);
    if (!waves.empty() && trace_from == 0) rtl->trace_open(waves);
    rtl->reset((uint32_t)o.sim.seed, sim.net.masks, sim.net.masks_esc,
               o.sim.algo == ALGO_FAVORS_MIN || o.sim.algo == ALGO_FAVORS_NMIN,
               o.sim.algo == ALGO_FAVORS_NMIN, o.sim.spin, o.sim.tdd, o.sim.mode, o.sim.sm.pipe);
    sim_status_t st = SIM_RUNNING;
    while (st == SIM_RUNNING) {
      // A long idle stretch is skipped in both models at once (contract,
      // section 10): the RTL is not clocked for it.  Not while a waveform is
      // written, whose time is the cycle number, nor past where it starts.
      if (!rtl->tracing()) sim_idle_skip(&sim, waves.empty() ? UINT64_MAX : trace_from);
      if (!waves.empty() && !rtl->tracing() && sim.now >= trace_from) rtl->trace_open(waves);
      sim_cycle_pre(&sim);
      if (sim.tables_changed) rtl->set_tables(sim.net.masks, sim.net.masks_esc);
      if (!rtl_steps_cmodel) net_step(&sim.net);
      rtl->step(sim.net.inj);
      if (ctx->gotFinish()) {
        fail_msg = "an RTL assertion failed (message above)";
        fail_cycle = sim.now + 1;
        break;
      }
      if (sim_cycle_post(&sim) != 0) {
        fail_msg = sim.err;
        fail_cycle = sim.now;
        break;
      }
      int n = chk.compare(*rtl, 0);
      if (n) {
        mismatches = n;
        fail_cycle = sim.now;
        std::printf("MISMATCH in the registers of cycle %llu (after clock edge %llu), "
                    "%d field%s differ:\n",
                    (unsigned long long)sim.now, (unsigned long long)(sim.now - 1), n,
                    n > 1 ? "s" : "");
        chk.compare(*rtl, 20);
        if (n > 20) std::printf("  ... and %d more\n", n - 20);
        fail_msg = "C model and RTL diverged";
        break;
      }
      int meas = sim_counting(&sim);
      for (int k = 0; k < sim.net.nodes && fail_msg.empty(); k++) {
        flit_t f = chk.ejected((unsigned)k);
        if (CTL_KIND(f.ctl) != KIND_IDLE &&
            sink_eject(&rtl_sink, &sim.nic, k, &f, sim.now, meas) != 0)
          fail_msg = std::string("RTL: ") + rtl_sink.err;
      }
      if (!fail_msg.empty()) {
        fail_cycle = sim.now;
        break;
      }
      st = sim_status(&sim);
    }
    if (fail_msg.empty() && st == SIM_STUCK) fail_msg = "packets left undelivered at the drain limit";
    if (fail_msg.empty() && rtl_sink.delivered != sim.sink.delivered)
      fail_msg = "the RTL delivered " + std::to_string(rtl_sink.delivered) + " packets, the C model " +
                 std::to_string(sim.sink.delivered);
    if (!fail_msg.empty() && rtl->tracing()) std::printf("waveform: %s\n", waves.c_str());
    rtl->trace_close();
  }
  if (!fail_msg.empty()) failure = fail_msg.c_str();

  report_t rep;
  rep.sim = &sim;
#ifdef SPIN_SC
  rep.mode = "cosim-sc";
#else
  rep.mode = "cosim";
#endif
  rtl.reset();
  rep.wall_seconds = now_s() - t0;
  rep.mismatches = mismatches;
  rep.failure = failure;
  if (!o.quiet || failure) report_print(stdout, &rep);
  // a file that cannot be written now fails the run (exit 1), never bad input
  rc = cli_outputs_write(&o, &rep) != 0 ? 1 : 0;
  sink_free(&rtl_sink);
  sim_free(&sim);
  std::fflush(stdout);

  if (failure && waves.empty() && !waves_on_fail.empty()) {
    // Deterministic: the same run with tracing reaches the same failure.
    uint64_t from = fail_cycle > 2000 ? fail_cycle - 2000 : 0;
    if (!fail_cycle) from = sim.now > 2000 ? sim.now - 2000 : 0;
    std::printf("waveform: re-running from cycle %llu to the failure into %s\n",
                (unsigned long long)from, waves_on_fail.c_str());
    std::fflush(stdout);
    // The re-run repeats this report; keep only its exit status.
    if (!std::freopen("/dev/null", "w", stdout)) std::perror("/dev/null");
    std::vector<std::string> again;
    for (int i = 0; i < argc; i++) {
      if (std::string(argv[i]) == "--waves-on-fail") {
        i++;  // and its value
        continue;
      }
      again.push_back(argv[i]);
    }
    for (const char* a : {"--waves", waves_on_fail.c_str(), "--trace-from"}) again.push_back(a);
    again.push_back(std::to_string(from));
    again.push_back("--quiet");
    std::vector<char*> clean;
    for (auto& a : again) clean.push_back(&a[0]);
    clean.push_back(nullptr);
    execv("/proc/self/exe", clean.data());
    std::perror("execv");
  }
  return failure || rc ? 1 : 0;
}
