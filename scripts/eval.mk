# scripts/eval.mk: evaluation targets of spin-noc (docs/results.md).
#
# A GNU make fragment for the top-level Makefile (`include scripts/eval.mk`,
# after SPINSIM and BUILD are defined; it defines no default goal).  Until it
# is included, run it beside the Makefile from the repository root:
#   make -f Makefile -f scripts/eval.mk sweep
#
# Targets
#   sweep   offered-load sweeps of the C model on mesh8x8 (scripts/sweep.py):
#           build/sweep/points.csv, latency_<traffic>.png, saturation.md,
#           spin_counters.png.  Resumes an interrupted sweep from points.csv.
#   bench   speed of the C model and of the co-simulation (scripts/bench.py):
#           build/bench/bench.csv and bench.md.
#   bench-vflags  the co-simulation (5 ports, 1 VC) built with each Verilator
#           flag set of VFLAGS_VARIANTS, each under build/vflags/<name>/, and
#           run side by side (scripts/bench_vflags.py): build/bench/vflags.md.
# Knobs
#   SWEEP_CYCLES=N        injection cycles per point (20000; warm-up N/10, drain limit N)
#   SWEEP_TRAFFIC="a b"   traffic patterns (all six of the paper's Fig. 7)
#   SWEEP_QUICK=1         3000-cycle runs, rate step 0.04, into build/sweep/quick/
#   SWEEP_JOBS=N          parallel runs (the CPU count)
#   BENCH_RUNS=N          runs per case, median reported (3)
#   BENCH_QUICK=1         a short bench (1 run, short runs) into build/bench/quick/
#   PYTHON=...            the interpreter (Debian's, for python3-matplotlib)

PYTHON  ?= /usr/bin/python3
BUILD   ?= build
SPINSIM ?= $(BUILD)/cmodel/spinsim

SWEEP_CYCLES  ?=
SWEEP_TRAFFIC ?=
SWEEP_QUICK   ?= 0
SWEEP_JOBS    ?=
BENCH_RUNS    ?= 3
BENCH_QUICK   ?= 0

# The co-simulation bench uses the 5-port, 1-VC build, whatever VCS says.
EVAL_COSIM := $(BUILD)/rtl/p5-v1/Vcosim

.PHONY: sweep bench bench-vflags

# Verilator flag sets of bench-vflags: VCHECK and VOPT of the top-level
# Makefile.  Each changes one thing from the checking build (base); speed
# is the speed build (SPEED_VCHECK, SPEED_VOPT).  threads2 is defined but not
# in the default list: each of the router array's models got its own
# threads, and it ran 0.1x to 0.3x of base at 0.1 and 12 cycles/s at 0.6
# (docs/results.md); VFLAGS_VARIANTS="base threads2" measures it again.
VCHECK_BASE := --x-assign unique --x-initial unique --assert --trace-fst
VFLAGS_VARIANTS ?= base O3 xfast noassert notrace speed
VCHECK.base     := $(VCHECK_BASE)
VOPT.base       := -O2
VCHECK.O3       := $(VCHECK_BASE)
VOPT.O3         := -O3
VCHECK.xfast    := --x-assign fast --x-initial fast --assert --trace-fst
VOPT.xfast      := -O2
VCHECK.noassert := --x-assign unique --x-initial unique --trace-fst
VOPT.noassert   := -O2
VCHECK.notrace  := --x-assign unique --x-initial unique --assert
VOPT.notrace    := -O2
VCHECK.threads2 := $(VCHECK_BASE) --threads 2
VOPT.threads2   := -O2
VCHECK.speed    := $(SPEED_VCHECK)
VOPT.speed      := $(SPEED_VOPT)

sweep: deps $(SPINSIM)
	SWEEP_CYCLES='$(SWEEP_CYCLES)' SWEEP_TRAFFIC='$(SWEEP_TRAFFIC)' SWEEP_QUICK='$(filter-out 0,$(SWEEP_QUICK))' \
	  SWEEP_JOBS='$(SWEEP_JOBS)' $(PYTHON) scripts/sweep.py --spinsim $(SPINSIM)

# The co-simulation is built through the top-level Makefile's own rule
# (as `make regress` does), so PORTS/VCS on the command line do not matter.
bench: deps $(SPINSIM)
	@$(MAKE) --no-print-directory $(EVAL_COSIM) PORTS=5 VCS=1
	$(PYTHON) scripts/bench.py --spinsim $(SPINSIM) --cosim $(EVAL_COSIM) --runs $(BENCH_RUNS)$(if $(filter-out 0,$(BENCH_QUICK)), --quick)

bench-vflags: deps
	$(foreach v,$(VFLAGS_VARIANTS),$(MAKE) --no-print-directory BUILD=$(BUILD)/vflags/$(v) \
	  VCHECK='$(VCHECK.$(v))' VOPT='$(VOPT.$(v))' PORTS=5 VCS=1 $(BUILD)/vflags/$(v)/rtl/p5-v1/Vcosim &&) true
	$(PYTHON) scripts/bench_vflags.py --runs $(BENCH_RUNS) \
	  $(foreach v,$(VFLAGS_VARIANTS),--variant '$(v)=$(BUILD)/vflags/$(v)/rtl/p5-v1/Vcosim=$(VOPT.$(v)) $(VCHECK.$(v))')
