// unit_tb.h - shared harness of the unit test benches in tb/unit/.
//
// Each bench drives one RTL primitive (Verilated) and its C twin with the
// same seeded random stimulus and compares every output every cycle.  The
// bench's parameters come from -DP_<Param>=<v> (tb/unit/unit.mk passes the
// same list as -G<Param>=<v> to Verilator), so binary and RTL always agree.
//
// Runtime options (plusargs):
//   +verilator+seed+N        seed of the stimulus (and of Verilator's X values)
//   +verilator+rand+reset+2  randomise initial state (with --x-initial unique)
//   +cycles+N                cycles (vectors) to run, default 200000
//   (a bench may read more of its own through plusarg())
//
// Output: on the first difference, a FAIL line with the cycle, the inputs and
// both values; always exactly one final line "N passed, M failed" (N = checks
// that matched, M = 0 or 1) and exit status 0 only when M == 0.
#ifndef SPIN_UNIT_TB_H
#define SPIN_UNIT_TB_H

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include <verilated.h>

// Small deterministic generator (splitmix64), independent of libc rand().
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed ^ 0x5350494E4E4F4355ull) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return static_cast<uint32_t>(next() >> 32); }
  // Uniform in [0, n), n > 0.
  unsigned below(unsigned n) { return static_cast<unsigned>((next() >> 32) % n); }
  // True with probability pct / 100.
  bool pct(unsigned pct) { return below(100) < pct; }
  // A uniformly chosen set bit of m (m != 0).
  unsigned pick_bit(unsigned m) {
    unsigned n = 0, b;
    for (unsigned t = m; t; t &= t - 1u) n++;
    unsigned k = below(n);
    for (b = 0;; b++)
      if ((m >> b) & 1u) {
        if (k == 0) return b;
        k--;
      }
  }

 private:
  uint64_t s_;
};

// One Verilated primitive plus the bookkeeping of the checks.
template <class Top>
class Bench {
 public:
  Bench(int argc, char** argv, const char* name) : ctx_(new VerilatedContext), name_(name) {
    ctx_->commandArgs(argc, argv);   // before the model: +verilator+rand+reset
    ctx_->fatalOnError(false);       // an RTL assertion is reported as a failure below
    top_.reset(new Top{ctx_.get(), "TOP"});
    seed_ = static_cast<unsigned>(ctx_->randSeed());
    if (seed_ == 0) seed_ = 1;       // no +verilator+seed+: fixed, reproducible
    const char* c = ctx_->commandArgsPlusMatch("cycles+");
    if (c && *c) cycles_ = std::strtoull(c + std::strlen("+cycles+"), nullptr, 0);
  }

  Top* operator->() { return top_.get(); }
  // The value of plusarg +<name>+<value>, or def when it is not given.
  uint64_t plusarg(const char* name, uint64_t def) const {
    const std::string key = std::string(name) + "+";
    const char* a = ctx_->commandArgsPlusMatch(key.c_str());
    if (!a || !*a) return def;
    return std::strtoull(a + 1 + key.size(), nullptr, 0);
  }
  unsigned seed() const { return seed_; }
  uint64_t cycles() const { return cycles_; }
  uint64_t cycle() const { return cycle_; }
  // Combinational benches count vectors instead of clock edges.
  void set_cycle(uint64_t c) { cycle_ = c; }

  void eval() {
    top_->eval();
    if (ctx_->gotError()) {
      std::printf("FAIL %s: cycle %" PRIu64 " (seed %u): RTL assertion fired (message above)\n",
                  name_, cycle_, seed_);
      finish(1);
    }
  }

  // One rising clock edge: outputs must have been checked before the call.
  void tick() {
    top_->clk_i = 1;
    eval();
    ctx_->timeInc(1);
    top_->clk_i = 0;
    eval();
    ctx_->timeInc(1);
    cycle_++;
  }

  // Holds rst_ni low for n edges (inputs as the caller left them), then
  // releases it and settles the combinational outputs.
  void reset(unsigned n = 2) {
    top_->rst_ni = 0;
    for (unsigned i = 0; i < n; i++) tick();
    top_->rst_ni = 1;
    eval();
  }

  // Compares one output.  describe() returns the inputs of this cycle; it
  // is only called on a mismatch.
  template <class F>
  void check(const char* what, uint64_t rtl, uint64_t ref, F&& describe) {
    if (rtl == ref) {
      passed_++;
      return;
    }
    std::printf("FAIL %s: cycle %" PRIu64 " (seed %u): %s\n", name_, cycle_, seed_,
                describe().c_str());
    std::printf("  %s: rtl=0x%" PRIx64 " c=0x%" PRIx64 "\n", what, rtl, ref);
    finish(1);
  }

  [[noreturn]] void finish(int failed) {
    top_->final();
    std::printf("%" PRIu64 " passed, %d failed\n", passed_, failed);
    std::fflush(stdout);
    std::exit(failed ? 1 : 0);
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  const char* name_;
  unsigned seed_ = 1;
  uint64_t cycles_ = 200000;
  uint64_t cycle_ = 0;
  uint64_t passed_ = 0;
};

// Bits [lsb, lsb + width) of a wide Verilated port (a VlWide: 32-bit words),
// width <= 64.
// Bits [lsb, lsb + width) of a port of any width: a VlWide (32-bit words) or
// a scalar (CData .. QData), as Verilator gives it.
template <class W>
void put_bits(W& w, unsigned lsb, unsigned width, uint64_t v) {
  if constexpr (std::is_integral<W>::value) {
    for (unsigned i = 0; i < width; i++) {
      const W bit = static_cast<W>(static_cast<uint64_t>(1) << (lsb + i));
      w = (v >> i) & 1u ? static_cast<W>(w | bit) : static_cast<W>(w & ~bit);
    }
  } else {
    for (unsigned i = 0; i < width; i++) {
      const unsigned b = lsb + i;
      if ((v >> i) & 1u) w[b / 32] |= 1u << (b % 32);
      else w[b / 32] &= ~(1u << (b % 32));
    }
  }
}
template <class W>
uint64_t get_bits(const W& w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; i++) {
    const unsigned b = lsb + i;
    if constexpr (std::is_integral<W>::value)
      v |= (static_cast<uint64_t>(w) >> b & 1u) << i;
    else
      v |= static_cast<uint64_t>((w[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}

// The bits of a number below n (n >= 2): the RTL's $clog2(n), the width of
// a port number of a router of n ports.
constexpr unsigned clog2u(unsigned n) { return n <= 1 ? 0 : 1 + clog2u((n + 1) / 2); }
static_assert(clog2u(2) == 1 && clog2u(5) == 3 && clog2u(8) == 3 && clog2u(9) == 4 &&
              clog2u(16) == 4 && clog2u(17) == 5, "clog2u");

// printf into a std::string, for describe() callbacks.
static inline std::string strf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static inline std::string strf(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

#endif
