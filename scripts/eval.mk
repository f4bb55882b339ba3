# scripts/eval.mk: evaluation targets of spin-noc (docs/results.md).
#
# A GNU make fragment for the top-level Makefile (`include scripts/eval.mk`,
# after SPINSIM and BUILD are defined; it defines no default goal).  Until it
# is included, run it beside the Makefile from the repository root:
#   make -f Makefile -f scripts/eval.mk sweep
#
# Targets
#   sweep   offered-load sweeps of the C model on mesh8x8 (scripts/sweep.py),
#           each configuration in the live (default) and the paper router
#           mode, each series on to 3x its saturation rate:
#           build/sweep/points.csv, latency_<traffic>.png,
#           accepted_<traffic>.png, saturation.md, spin_counters.png.
#           Resumes an interrupted sweep from points.csv.
#   sweep-sat  the sweep above, then, for each configuration, mode and
#           pattern, runs at 1x, 2x and 3x its saturation rate (capped at 1.0)
#           of SWEEP_SAT_CYCLES cycles, seeds SWEEP_SAT_SEEDS:
#           build/sweep/post_saturation.md (accepted, ratio to the peak,
#           per-node minimum and Jain's index at 2x, drained).  Resumable too.
#           The full table (9 configurations x 2 modes x 7 patterns x 9 runs
#           of 10^6 cycles) takes many hours: run it as `nice make sweep-sat`.
#   sweep-check  the sweep's own checks (scripts/test_sweep.py: saturation
#           rule, post-saturation table, knob checks; a second; in make test).
#   bench   speed of the C model and of the co-simulation (scripts/bench.py):
#           build/bench/bench.csv and bench.md.
#   bench-vflags  the co-simulation (5 ports, 1 VC) built with each Verilator
#           flag set of VFLAGS_VARIANTS, each under build/vflags/<name>/, and
#           run side by side (scripts/bench_vflags.py): build/bench/vflags.md.
# Knobs (bad values of the SWEEP_ ones stop make with an error naming them)
#   SWEEP_CYCLES=N        injection cycles per sweep point (20000; warm-up N/10, drain limit N)
#   SWEEP_TRAFFIC="a b"   traffic patterns (the seven of docs/results.md)
#   SWEEP_CONFIGS="a b"   configurations (all nine: SWEEP_CONFIG_NAMES below)
#   SWEEP_MODES="a b"     router modes, live and/or paper (both)
#   SWEEP_QUICK=1         3000-cycle runs, coarse rate steps, into build/sweep/quick/
#   SWEEP_JOBS=N          parallel runs (the CPU count)
#   SWEEP_SAT_CYCLES=N    injection cycles of a post-saturation run (1000000)
#   SWEEP_SAT_SEEDS="1 2 3"  seeds of the post-saturation runs
#   SWEEP_SAT_DRAIN=N     drain limit of a post-saturation run (3 x SWEEP_SAT_CYCLES)
#   SWEEP_ENGINE=E        who runs the points: local (the script's own pool),
#                         parallel (GNU parallel, in rounds; SWEEP_HOSTS=FILE
#                         spreads them over ssh hosts: --sshloginfile), or
#                         slurm (each round is written as build/sweep/jobs.txt
#                         for `sbatch --array=1-N scripts/sweep_slurm.sh
#                         build/sweep/jobs.txt`; run the sweep again when the
#                         array is done: exit status 3 while rounds remain).
#                         Every engine resumes from points.csv; remote hosts
#                         must see this directory at the same path (a shared
#                         file system); a job checks its host runs the same
#                         spinsim (sha256) and its result is refused if not.
#   BENCH_RUNS=N          runs per case, median reported (3)
#   BENCH_QUICK=1         a short bench (1 run, short runs) into build/bench/quick/
#   PYTHON=...            the interpreter (Debian's, for python3-matplotlib)

PYTHON  ?= /usr/bin/python3
BUILD   ?= build
SPINSIM ?= $(BUILD)/cmodel/spinsim

SWEEP_CYCLES     ?=
SWEEP_TRAFFIC    ?=
SWEEP_CONFIGS    ?=
SWEEP_MODES      ?=
SWEEP_QUICK      ?= 0
SWEEP_JOBS       ?=
SWEEP_SAT_CYCLES ?= 1000000
SWEEP_SAT_SEEDS  ?= 1 2 3
SWEEP_SAT_DRAIN  ?=
SWEEP_ENGINE     ?= local
SWEEP_HOSTS      ?=
BENCH_RUNS    ?= 3
BENCH_QUICK   ?= 0

# The names scripts/sweep.py knows (scripts/test_sweep.py checks they agree).
SWEEP_TRAFFIC_NAMES := uniform_random transpose bit_reverse bit_rotation shuffle tornado neighbor bit_complement
SWEEP_CONFIG_NAMES  := xy_1vc wf_1vc fmin_1vc_spin nmin_1vc_spin wf_3vc esc_2vc esc_3vc fmin_2vc_spin fmin_3vc_spin
SWEEP_MODE_NAMES    := live paper

# Knob checks, for the sweep targets only.  sweep_int: the value if it is a
# whole number from 1 to 10^15, else nothing.
sweep_int = $(shell echo '$(1)' | grep -Ex '[1-9][0-9]{0,14}')
sweep_words = $(subst $(comma), ,$(1))
comma := ,
ifneq ($(filter sweep sweep-sat,$(MAKECMDGOALS)),)
ifeq ($(filter $(SWEEP_QUICK),0 1),)
$(error SWEEP_QUICK=$(SWEEP_QUICK): expected 0 or 1)
endif
ifeq ($(filter $(SWEEP_ENGINE),local parallel slurm),)
$(error SWEEP_ENGINE=$(SWEEP_ENGINE): expected local, parallel or slurm)
endif
ifneq ($(SWEEP_HOSTS),)
ifneq ($(SWEEP_ENGINE),parallel)
$(error SWEEP_HOSTS=$(SWEEP_HOSTS): only with SWEEP_ENGINE=parallel)
endif
ifeq ($(wildcard $(SWEEP_HOSTS)),)
$(error SWEEP_HOSTS=$(SWEEP_HOSTS): no such file (GNU parallel's --sshloginfile))
endif
endif
ifneq ($(strip $(SWEEP_CYCLES)),)
ifeq ($(call sweep_int,$(SWEEP_CYCLES)),)
$(error SWEEP_CYCLES=$(SWEEP_CYCLES): expected a number of cycles, 10 or more)
endif
ifeq ($(shell test '$(SWEEP_CYCLES)' -ge 10 && echo ok),)
$(error SWEEP_CYCLES=$(SWEEP_CYCLES): expected a number of cycles, 10 or more)
endif
endif
ifneq ($(strip $(SWEEP_JOBS)),)
ifeq ($(call sweep_int,$(SWEEP_JOBS)),)
$(error SWEEP_JOBS=$(SWEEP_JOBS): expected a number of parallel runs, 1 or more)
endif
endif
ifneq ($(filter-out $(SWEEP_TRAFFIC_NAMES),$(call sweep_words,$(SWEEP_TRAFFIC))),)
$(error SWEEP_TRAFFIC=$(SWEEP_TRAFFIC): unknown $(filter-out $(SWEEP_TRAFFIC_NAMES),$(call sweep_words,$(SWEEP_TRAFFIC))) (known: $(SWEEP_TRAFFIC_NAMES)))
endif
ifneq ($(filter-out $(SWEEP_CONFIG_NAMES),$(call sweep_words,$(SWEEP_CONFIGS))),)
$(error SWEEP_CONFIGS=$(SWEEP_CONFIGS): unknown $(filter-out $(SWEEP_CONFIG_NAMES),$(call sweep_words,$(SWEEP_CONFIGS))) (known: $(SWEEP_CONFIG_NAMES)))
endif
ifneq ($(filter-out $(SWEEP_MODE_NAMES),$(call sweep_words,$(SWEEP_MODES))),)
$(error SWEEP_MODES=$(SWEEP_MODES): unknown $(filter-out $(SWEEP_MODE_NAMES),$(call sweep_words,$(SWEEP_MODES))) (expected live and/or paper))
endif
ifeq ($(call sweep_int,$(SWEEP_SAT_CYCLES)),)
$(error SWEEP_SAT_CYCLES=$(SWEEP_SAT_CYCLES): expected a number of cycles, 10 or more)
endif
ifeq ($(shell test '$(SWEEP_SAT_CYCLES)' -ge 10 && echo ok),)
$(error SWEEP_SAT_CYCLES=$(SWEEP_SAT_CYCLES): expected a number of cycles, 10 or more)
endif
ifeq ($(strip $(call sweep_words,$(SWEEP_SAT_SEEDS))),)
$(error SWEEP_SAT_SEEDS=$(SWEEP_SAT_SEEDS): expected one or more seeds, e.g. "1 2 3")
endif
$(foreach s,$(call sweep_words,$(SWEEP_SAT_SEEDS)),$(if $(call sweep_int,$(s)),,$(error SWEEP_SAT_SEEDS=$(SWEEP_SAT_SEEDS): $(s) is not a seed (1 or more))))
ifneq ($(strip $(SWEEP_SAT_DRAIN)),)
ifeq ($(call sweep_int,$(SWEEP_SAT_DRAIN)),)
$(error SWEEP_SAT_DRAIN=$(SWEEP_SAT_DRAIN): expected a drain limit in cycles, 1 or more)
endif
endif
endif

# The environment of scripts/sweep.py (it checks the values again).
SWEEP_ENV = SWEEP_CYCLES='$(SWEEP_CYCLES)' SWEEP_TRAFFIC='$(SWEEP_TRAFFIC)' SWEEP_CONFIGS='$(SWEEP_CONFIGS)' \
  SWEEP_MODES='$(SWEEP_MODES)' SWEEP_QUICK='$(SWEEP_QUICK)' SWEEP_JOBS='$(SWEEP_JOBS)' \
  SWEEP_SAT_CYCLES='$(SWEEP_SAT_CYCLES)' SWEEP_SAT_SEEDS='$(SWEEP_SAT_SEEDS)' SWEEP_SAT_DRAIN='$(SWEEP_SAT_DRAIN)' \
  SWEEP_ENGINE='$(SWEEP_ENGINE)' SWEEP_HOSTS='$(SWEEP_HOSTS)'

.PHONY: sweep sweep-sat sweep-check bench bench-vflags

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
	$(SWEEP_ENV) $(PYTHON) scripts/sweep.py --spinsim $(SPINSIM)

sweep-sat: deps $(SPINSIM)
	$(SWEEP_ENV) $(PYTHON) scripts/sweep.py --spinsim $(SPINSIM) --post-saturation

sweep-check:
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) scripts/test_sweep.py

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
