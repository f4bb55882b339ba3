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
#           rule, post-saturation table, knob checks) and the performance-per-
#           area table's (scripts/test_ppa.py: its arithmetic and its errors,
#           on made-up inputs); a second or two; in make test.
#   ppa     performance per area and per power (scripts/ppa.py): for each
#           pattern and configuration, the saturation throughput of the live
#           sweep (build/sweep/points.csv, SWEEP_CYCLES-cycle points), that at
#           the configuration's clock (flits/node/ns), per mm^2 and per mW,
#           normalised to west-first 1 VC; area, clock and power from
#           build/synth/summary.csv, the rows NAME_ec (built with early
#           credits, as the live mode runs).  Runs neither the sweep nor
#           synthesis: `make sweep SWEEP_MODES=live` and `make synth
#           SYNTH_EARLY=1` first (a missing input or row stops it, exit 2).
#           build/ppa/ppa.md, ppa.csv, ppa.png.  PPA_MODE=local: the sweep's
#           local points and the rows NAME (make synth), into build/ppa-local/;
#           PPA_MODE=early (window4_early): those points and the rows NAME_ec,
#           into build/ppa-early/ (build/ppa-window4_early/).
#   bench   speed of the C model and of the co-simulation (scripts/bench.py):
#           build/bench/bench.csv and bench.md.
#   bench-vflags  the co-simulation (5 ports, 1 VC) built with each Verilator
#           flag set of VFLAGS_VARIANTS, each under build/vflags/<name>/, and
#           run side by side (scripts/bench_vflags.py): build/bench/vflags.md.
# Knobs (bad values of the SWEEP_ ones stop make with an error naming them)
#   SWEEP_CYCLES=N        injection cycles per sweep point (20000; warm-up N/10, drain limit N);
#                         make ppa reads the points of this length
#   SWEEP_TRAFFIC="a b"   traffic patterns (the seven of docs/results.md)
#   SWEEP_TOPO=NAME       the topology (mesh8x8); a dragonfly-a-p-h[@G] sweeps fmin_1vc_spin,
#                         nmin_1vc_spin, dfmin_2vc and ugal_3vc on uniform_random and group_shift
#   SWEEP_CONFIGS="a b"   configurations (the nine of a mesh: SWEEP_CONFIG_NAMES below)
#   SWEEP_FAULTS=SPEC     links failing at run time (spinsim --faults CYCLE@ROUTER:PORT,...;
#                         none); outputs under build/sweep/<topo>+faults-<hash>/
#   SWEEP_MODES="a b"     router modes: live (the default: window-gated admission, the window of
#                         1 to 4, slack 8, early credits, the recovery throttle), unthrottled
#                         (live with --throttle 0), local (live's router-local rules alone:
#                         --admit 1 --window 0 --window-slack 0 --early-credit 0 --throttle 0),
#                         paper, window
#                         (local + --window 1), early (local + --early-credit 1), window_early
#                         (both), window4_early (local + --window 4 --window-slack 8
#                         --early-credit 1: live with admission always on); live and paper by
#                         default
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
SWEEP_TOPO       ?=
SWEEP_FAULTS     ?=
SWEEP_MODES      ?=
SWEEP_QUICK      ?= 0
SWEEP_JOBS       ?=
SWEEP_SAT_CYCLES ?= 1000000
SWEEP_SAT_SEEDS  ?= 1 2 3
SWEEP_SAT_DRAIN  ?=
SWEEP_ENGINE     ?= local
SWEEP_HOSTS      ?=
# make ppa: the routers of the live sweep (live) or with early credits (early)
PPA_MODE         ?= live
BENCH_RUNS    ?= 3
BENCH_QUICK   ?= 0

# The names scripts/sweep.py knows (scripts/test_sweep.py checks they agree).
SWEEP_TRAFFIC_NAMES := uniform_random transpose bit_reverse bit_rotation shuffle tornado neighbor bit_complement group_shift
SWEEP_CONFIG_NAMES  := xy_1vc wf_1vc fmin_1vc_spin nmin_1vc_spin wf_2vc wf_3vc esc_2vc esc_3vc fmin_2vc_spin fmin_3vc_spin dfmin_2vc ugal_3vc
SWEEP_MODE_NAMES    := live unthrottled local paper window early window_early window4_early

# Knob checks (scripts/knobs.mk: in make alone, before any recipe), for the
# targets that use them and for make help, which prints some.
include $(dir $(lastword $(MAKEFILE_LIST)))knobs.mk
EVAL_GOALS := $(filter sweep sweep-sat ppa bench bench-vflags help,$(or $(MAKECMDGOALS),help))
ifneq ($(filter sweep sweep-sat ppa help,$(EVAL_GOALS)),)
$(call knob_check_uint,SWEEP_QUICK,0,1,0 or 1)
ifneq ($(call knob_is_empty,$(SWEEP_FAULTS)),)
else ifeq ($(and $(call knob_only,$(SWEEP_FAULTS),$(knob_digits) @ : $(knob_comma)),$(call knob_faults_items,$(SWEEP_FAULTS))),)
$(call knob_fail,SWEEP_FAULTS,CYCLE@ROUTER:PORT[$(knob_comma)CYCLE@ROUTER:PORT...])
endif
$(call knob_check_name,SWEEP_ENGINE,local parallel slurm,local, parallel or slurm)
ifneq ($(SWEEP_HOSTS),)
ifneq ($(SWEEP_ENGINE),parallel)
$(error SWEEP_HOSTS=$(call knob_show,$(SWEEP_HOSTS)): only with SWEEP_ENGINE=parallel)
endif
ifeq ($(call knob_only,$(SWEEP_HOSTS),$(knob_path_chars)),)
$(call knob_fail,SWEEP_HOSTS,a file name of letters, digits and . _ - + @ / (GNU parallel's --sshloginfile))
endif
ifeq ($(wildcard $(SWEEP_HOSTS)),)
$(error SWEEP_HOSTS=$(SWEEP_HOSTS): no such file (GNU parallel's --sshloginfile))
endif
endif
ifneq ($(SWEEP_CYCLES),)
$(call knob_check_uint,SWEEP_CYCLES,10,1000000000000000,a number of cycles, 10 or more)
endif
ifneq ($(SWEEP_JOBS),)
$(call knob_check_uint,SWEEP_JOBS,1,4096,a number of parallel runs, 1 or more)
endif
$(call knob_check_list,SWEEP_TRAFFIC,$(SWEEP_TRAFFIC_NAMES),patterns separated by blanks or commas: $(SWEEP_TRAFFIC_NAMES))
$(call knob_check_list,SWEEP_CONFIGS,$(SWEEP_CONFIG_NAMES),configurations separated by blanks or commas: $(SWEEP_CONFIG_NAMES))
$(call knob_check_list,SWEEP_MODES,$(SWEEP_MODE_NAMES),live, unthrottled, local, paper, window, early, window_early and/or window4_early)
$(call knob_check_name,PPA_MODE,live local early window4_early,live, local, early or window4_early)
$(call knob_check_uint,SWEEP_SAT_CYCLES,10,1000000000000000,a number of cycles, 10 or more)
$(call knob_check_uints,SWEEP_SAT_SEEDS,1,18446744073709551615,one or more seeds separated by blanks or commas, e.g. "1 2 3")
ifneq ($(SWEEP_SAT_DRAIN),)
$(call knob_check_uint,SWEEP_SAT_DRAIN,1,1000000000000000,a drain limit in cycles, 1 or more)
endif
endif
ifneq ($(filter bench bench-vflags,$(EVAL_GOALS)),)
$(call knob_check_uint,BENCH_RUNS,1,1000,runs per case, 1 to 1000)
$(call knob_check_uint,BENCH_QUICK,0,1,0 or 1)
endif

# The environment of scripts/sweep.py (it checks the values again): exported
# as they are, never pasted into a command.
ifneq ($(filter sweep sweep-sat,$(EVAL_GOALS)),)
export SWEEP_TOPO SWEEP_FAULTS SWEEP_CYCLES SWEEP_TRAFFIC SWEEP_CONFIGS SWEEP_MODES SWEEP_QUICK SWEEP_JOBS \
  SWEEP_SAT_CYCLES SWEEP_SAT_SEEDS SWEEP_SAT_DRAIN SWEEP_ENGINE SWEEP_HOSTS
endif

# The co-simulation bench-mode runs: the router array, 5 ports, 1 VC.
EVAL_COSIM := $(BUILD)/rtl/p5-v1/Vcosim

.PHONY: sweep sweep-sat sweep-check ppa bench bench-vflags

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
VFLAGS_VARIANT_NAMES := base O3 xfast noassert notrace threads2 speed
ifneq ($(filter bench-vflags,$(EVAL_GOALS)),)
$(call knob_check_list,VFLAGS_VARIANTS,$(VFLAGS_VARIANT_NAMES),flag sets: $(VFLAGS_VARIANT_NAMES))
endif

sweep: deps $(SPINSIM)
	$(PYTHON) scripts/sweep.py --spinsim $(SPINSIM)

sweep-sat: deps $(SPINSIM)
	$(PYTHON) scripts/sweep.py --spinsim $(SPINSIM) --post-saturation

sweep-check:
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) scripts/test_sweep.py
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) scripts/test_ppa.py

# The sweep's points and the synthesis summary are read as they are: make
# ppa runs neither (each takes many minutes; docs/results.md gives both
# commands).
ppa: deps
	$(PYTHON) scripts/ppa.py --points $(BUILD)/sweep/points.csv --synth $(BUILD)/synth/summary.csv \
	  --mode $(PPA_MODE) --out $(BUILD)/ppa$(if $(filter-out live,$(PPA_MODE)),-$(PPA_MODE))$(if $(SWEEP_CYCLES), --cycles $(SWEEP_CYCLES))

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
