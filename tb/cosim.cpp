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
    "  --threads N           evaluate the RTL routers on up to N threads, 1 to 64 (1),\n"
    "                        where the run measures that faster; the results are the\n"
    "                        same, only the speed differs\n"
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


// The options: the co-simulation's own (kExtraUsage) and spinsim's (cli).
struct Options {
  std::string waves, waves_on_fail;
  uint64_t trace_from = 0;
  int threads = 1;
  cli_opts_t cli;
};

// --trace-from's value, or false after printing the error.
bool parse_trace_from(const char* s, uint64_t* cycle) {
  char* end = nullptr;
  errno = 0;
  *cycle = *s >= '0' && *s <= '9' ? std::strtoull(s, &end, 10) : 0;
  if (!end || *end || errno || *cycle > SIM_MAX_CYCLE) {
    std::string esc(std::strlen(s) * 4 + 1, '\0');
    text_escape(&esc[0], esc.size(), s);
    std::fprintf(stderr, "error: --trace-from: '%s' is not a cycle number (0 to 10^15)\n",
                 esc.c_str());
    return false;
  }
  return true;
}

// --threads' value, or false after printing the error.
bool parse_threads(const char* s, int* threads) {
  char* end;
  long n = std::strtol(s, &end, 10);
  if (!*s || *end || n < 1 || n > 64) {
    std::fprintf(stderr, "error: --threads: '%s' is not a thread count from 1 to 64\n", s);
    return false;
  }
  *threads = (int)n;
  return true;
}

// Splits our own options from Verilator's plusargs and spinsim's options,
// parses both and checks the output files (each must be writable; what an
// earlier run left there goes).  Returns -1 to run, else the exit status
// (0 after --help, 2 on bad input).
int parse_options(int argc, char** argv, Options* opt) {
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", name);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a[0] == '+') continue;
    if (a == "--waves") opt->waves = value("--waves");
    else if (a == "--waves-on-fail") opt->waves_on_fail = value("--waves-on-fail");
    else if (a == "--trace-from") {
      if (!parse_trace_from(value("--trace-from"), &opt->trace_from)) return 2;
    } else if (a == "--threads") {
      if (!parse_threads(value("--threads"), &opt->threads)) return 2;
    } else args.push_back(argv[i]);
  }
  args.push_back(nullptr);

  int rc = cli_parse((int)args.size() - 1, args.data(), &opt->cli, "cosim", kExtraUsage);
  if (rc == 1) return 0;
  if (rc) return 2;
#if !VM_TRACE
  if (!opt->waves.empty()) {
    std::fprintf(stderr, "error: --waves: this co-simulation was built without waveforms "
                         "(no --trace-fst: the speed build); use the checking build (make sim)\n");
    return 2;
  }
  opt->waves_on_fail.clear();  // nothing to re-run into
#endif
  if (cli_outputs_check(&opt->cli) != 0 ||
      (!opt->waves.empty() && cli_output_check("--waves", opt->waves.c_str()) != 0) ||
      (!opt->waves_on_fail.empty() &&
       cli_output_check("--waves-on-fail", opt->waves_on_fail.c_str()) != 0))
    return 2;
  return -1;
}

// The C model runs with the special-message widths the RTL was built with
// (they change the bits on the links, not the run: contract 12.1); options
// that ask for others are refused.  Returns false after printing the error.
bool take_build_widths(sim_opts_t* so, unsigned* tdd_width) {
  sm_opts_t bw;
  unsigned tddw;
  rtl_build_widths(nullptr, &bw, &tddw);
  if (so->sm.idw && (so->sm.idw != bw.idw || so->sm.cycw != bw.cycw)) {
    std::fprintf(stderr, "error: --sm-widths %u,%u: this co-simulation was built with %u,%u\n",
                 so->sm.idw, so->sm.cycw, bw.idw, bw.cycw);
    return false;
  }
  if (bw.pipe != 3 && so->sm.pipe != bw.pipe) {
    std::fprintf(stderr, "error: --sm-pipe %d: this co-simulation was built with SmPipe %d\n",
                 so->sm.pipe, bw.pipe);
    return false;
  }
  if (so->spin && so->tdd >= (1u << tddw)) {
    std::fprintf(stderr, "error: --tdd %u: this co-simulation was built for t_DD below %u\n",
                 so->tdd, 1u << tddw);
    return false;
  }
  so->sm.idw = bw.idw;
  so->sm.cycw = bw.cycw;
  *tdd_width = tddw;
  return true;
}

// One run: the C model, the RTL network and the RTL's scoreboard sink, and
// how the run ended.
class Cosim {
 public:
  Cosim(VerilatedContext* ctx, const Options& opt) : ctx_(ctx), opt_(opt), o_(opt.cli.sim) {}

  // Builds both models.  Returns -1 to run, else the exit status (2 bad
  // input, 1 no memory or no record).
  int build(unsigned tdd_width) {
    if (sim_init(&sim_, &o_, 2) != 0) {
      std::fprintf(stderr, "error: %s\n", sim_.err);
      sim_free(&sim_);
      return 2;
    }
    if (o_.spin && sim_.o.tdd >= (1u << tdd_width)) {   // --tdd auto on a long-link network
      std::fprintf(stderr, "error: t_DD %u (--tdd %s): this co-simulation was built for t_DD "
                   "below %u\n", sim_.o.tdd, sim_.o.tdd_rule ? sim_.o.tdd_rule : "given", 1u << tdd_width);
      sim_free(&sim_);
      return 2;
    }
    if (!opt_.waves.empty()) ctx_->traceEverOn(true);
    std::string why;
    dims_ = spin_obs_dims(&sim_.net.fmt, sim_.net.ports, sim_.net.vcs, tdd_width);
    rtl_ = make_rtl_net(ctx_, &sim_.topo, o_.vcs, o_.algo == ALGO_ESCAPE, dims_, &why);
    if (!rtl_) {
      std::fprintf(stderr, "error: %s\n", why.c_str());
      sim_free(&sim_);
      return 2;
    }
    rtl_->set_threads(opt_.threads);
    rtl_steps_cmodel_ = rtl_->take_cmodel(&sim_.net);
    if (cli_record_start(&opt_.cli, &sim_) != 0) {
      sim_free(&sim_);
      return 1;
    }
    if (sink_init(&rtl_sink_, 1, sim_.net.nodes, sim_.net.vcs) != 0) {
      std::fprintf(stderr, "error: out of memory\n");
      sim_free(&sim_);
      return 1;
    }
    return -1;
  }

  // Both models in lockstep from reset to the end of the run or the first
  // failure.
  void run() {
    t0_ = now_s();
    Checker chk(&sim_, rtl_->flit_width(), dims_);
    chk.set_lanes(rtl_->threads());
    check_ = [&chk](int lane, int r, const RouterRegs& regs) {
      chk.check_router(lane, (unsigned)r, regs);
    };
    const std::string& waves = opt_.waves;
    if (!waves.empty() && opt_.trace_from == 0) rtl_->trace_open(waves);
    rtl_->reset((uint32_t)o_.seed, sim_.net.masks, sim_.net.masks_esc,
                o_.algo == ALGO_FAVORS_MIN || o_.algo == ALGO_FAVORS_NMIN,
                o_.algo == ALGO_FAVORS_NMIN, o_.spin, sim_.o.tdd, o_.mode, o_.sm.pipe);
    sim_status_t st = SIM_RUNNING;
    while (st == SIM_RUNNING) {
      // A long idle stretch is skipped in both models at once (contract,
      // section 10): the RTL is not clocked for it.  Not while a waveform is
      // written, whose time is the cycle number, nor past where it starts.
      if (!rtl_->tracing()) sim_idle_skip(&sim_, waves.empty() ? UINT64_MAX : opt_.trace_from);
      if (!waves.empty() && !rtl_->tracing() && sim_.now >= opt_.trace_from)
        rtl_->trace_open(waves);
      if (!step(chk)) break;
      st = sim_status(&sim_);
    }
    if (fail_msg_.empty() && st == SIM_STUCK) fail_msg_ = "packets left undelivered at the drain limit";
    if (fail_msg_.empty() && rtl_sink_.delivered != sim_.sink.delivered)
      fail_msg_ = "the RTL delivered " + std::to_string(rtl_sink_.delivered) + " packets, the C model " +
                  std::to_string(sim_.sink.delivered);
    if (!fail_msg_.empty() && rtl_->tracing()) std::printf("waveform: %s\n", waves.c_str());
    rtl_->trace_close();
  }

  // Prints the summary and writes the output files; frees both models.
  // Returns the exit status (1 when the run failed or a file could not be
  // written).
  int report() {
    const char* failure = fail_msg_.empty() ? nullptr : fail_msg_.c_str();
    report_t rep;
    rep.sim = &sim_;
#ifdef SPIN_SC
    rep.mode = "cosim-sc";
#else
    rep.mode = "cosim";
#endif
    rtl_.reset();
    rep.wall_seconds = now_s() - t0_;
    rep.mismatches = mismatches_;
    rep.failure = failure;
    if (!opt_.cli.quiet || failure) report_print(stdout, &rep);
    // a file that cannot be written now fails the run (exit 1), never bad input
    const int rc = cli_outputs_write(&opt_.cli, &rep) != 0 ? 1 : 0;
    sink_free(&rtl_sink_);
    sim_free(&sim_);
    std::fflush(stdout);
    return failure || rc ? 1 : 0;
  }

  bool failed() const { return !fail_msg_.empty(); }
  // Where a re-run with a waveform starts: 2,000 cycles before the failure.
  uint64_t rerun_from() const {
    if (!fail_cycle_) return sim_.now > 2000 ? sim_.now - 2000 : 0;
    return fail_cycle_ > 2000 ? fail_cycle_ - 2000 : 0;
  }

 private:
  // One cycle of both models, then the comparison and the RTL's ejections.
  // Returns false when the run failed in it.
  bool step(Checker& chk) {
    sim_cycle_pre(&sim_);
    if (sim_.tables_changed) rtl_->set_tables(sim_.net.masks, sim_.net.masks_esc);
    if (sim_.admit_set) rtl_->set_admit(sim_.net.cfg);
    // Where the RTL side can, each router is compared with the C model on
    // the thread that evaluated it, right after its edge (step_checked);
    // only when one differed does compare() go over the whole network again
    // to name the fields.  sim_cycle_post changes none of the registers
    // compared.
    bool checked = false;
    if (rtl_steps_cmodel_) {
      rtl_->step(sim_.net.inj);
    } else {
      chk.begin_cycle();
      checked = rtl_->step_checked(sim_.net.inj, [this] { net_step(&sim_.net); }, check_);
    }
    if (ctx_->gotFinish()) return fail("an RTL assertion failed (message above)", sim_.now + 1);
    if (sim_cycle_post(&sim_) != 0) return fail(sim_.err, sim_.now);
    if ((!checked || chk.routers_differ()) && !compare(chk))
      return fail("C model and RTL diverged", sim_.now);
    const int meas = sim_counting(&sim_);
    for (int k = 0; k < sim_.net.nodes && fail_msg_.empty(); k++) {
      flit_t f = chk.ejected((unsigned)k);
      if (CTL_KIND(f.ctl) != KIND_IDLE &&
          sink_eject(&rtl_sink_, &sim_.nic, k, &f, sim_.now, meas) != 0)
        fail_msg_ = std::string("RTL: ") + rtl_sink_.err;
    }
    if (!fail_msg_.empty()) {
      fail_cycle_ = sim_.now;
      return false;
    }
    return true;
  }

  // Compares every register; on a difference prints up to 20 of them and
  // returns false.
  bool compare(Checker& chk) {
    const int n = chk.compare(*rtl_, 0);
    if (!n) return true;
    mismatches_ = n;
    std::printf("MISMATCH in the registers of cycle %llu (after clock edge %llu), "
                "%d field%s differ:\n",
                (unsigned long long)sim_.now, (unsigned long long)(sim_.now - 1), n,
                n > 1 ? "s" : "");
    chk.compare(*rtl_, 20);
    if (n > 20) std::printf("  ... and %d more\n", n - 20);
    return false;
  }

  bool fail(const std::string& msg, uint64_t cycle) {
    fail_msg_ = msg;
    fail_cycle_ = cycle;
    return false;
  }

  VerilatedContext* const ctx_;
  const Options& opt_;
  const sim_opts_t& o_;   // the options, with the build's widths
  sim_t sim_;
  std::unique_ptr<RtlNet> rtl_;
  sink_t rtl_sink_;
  spin_obs_dims_t dims_;
  bool rtl_steps_cmodel_ = false;
  RouterCheck check_;   // one router's comparison (Checker::check_router)
  std::string fail_msg_;
  int64_t mismatches_ = 0;
  uint64_t fail_cycle_ = 0;
  double t0_ = 0;
};

// After a failure, the same run again (deterministic: it reaches the same
// failure) with a waveform from cycle `from` into `file`; only its exit
// status counts (the re-run repeats this report).  Returns only when the
// re-run cannot start.
void rerun_with_waves(int argc, char** argv, const std::string& file, uint64_t from) {
  std::printf("waveform: re-running from cycle %llu to the failure into %s\n",
              (unsigned long long)from, file.c_str());
  std::fflush(stdout);
  if (!std::freopen("/dev/null", "w", stdout)) std::perror("/dev/null");
  std::vector<std::string> again;
  for (int i = 0; i < argc; i++) {
    if (std::string(argv[i]) == "--waves-on-fail") {
      i++;  // and its value
      continue;
    }
    again.push_back(argv[i]);
  }
  for (const char* a : {"--waves", file.c_str(), "--trace-from"}) again.push_back(a);
  again.push_back(std::to_string(from));
  again.push_back("--quiet");
  std::vector<char*> clean;
  for (auto& a : again) clean.push_back(&a[0]);
  clean.push_back(nullptr);
  execv("/proc/self/exe", clean.data());
  std::perror("execv");
}

// Verilator's context for the run.  Registers that reset does not clear
// (FIFO storage) power up random, seeded by +verilator+seed+N (VSEED,
// default 1): the build uses --x-initial unique, which only randomises in
// reset mode 2.  A plusarg +verilator+rand+reset+N given on the command line
// overrides it.  A failing assertion ($error, then $stop) ends the run
// through gotFinish(): the harness reports it, writes the waveform and exits
// 1.  (By default Verilator would abort the process at once: no summary, no
// waveform, exit status 134.)
void setup_context(VerilatedContext* ctx, int argc, char** argv) {
  ctx->randReset(2);
  ctx->randSeed(1);
  ctx->fatalOnError(false);
  ctx->commandArgs(argc, argv);
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
  auto owned_ctx = std::make_unique<VerilatedContext>();
  VerilatedContext* ctx = owned_ctx.get();
#endif
  setup_context(ctx, argc, argv);
  Options opt;
  int rc = parse_options(argc, argv, &opt);
  if (rc >= 0) return rc;
  unsigned tdd_width = 16;
  if (!take_build_widths(&opt.cli.sim, &tdd_width)) return 2;

  Cosim run(ctx, opt);
  if ((rc = run.build(tdd_width)) >= 0) return rc;
  run.run();
  rc = run.report();
  if (run.failed() && opt.waves.empty() && !opt.waves_on_fail.empty())
    rerun_with_waves(argc, argv, opt.waves_on_fail, run.rerun_from());
  return rc;
}
