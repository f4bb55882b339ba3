# spin-noc: SPIN deadlock-recovery NoC router - RTL, C golden model, co-simulation.
# `make help` lists the targets and knobs.  Outputs go under build/, waveforms under waves/.
SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules

# ---- tools ----
VERILATOR ?= verilator
YOSYS     ?= yosys
CC        ?= cc
CXX       ?= g++
GTKWAVE   ?= gtkwave

# ---- knobs (documented in README.md and docs/usage.md) ----
TOPO      ?= mesh8x8
ROUTING   ?= favors_min
# escape routing needs a second VC and runs without SPIN: its own defaults
VCS       ?= $(if $(filter escape,$(ROUTING)),2,1)
TRAFFIC   ?= uniform_random
RATE      ?= 0.1
LONG_FRAC ?= 0.5
CYCLES    ?= 100000
SEED      ?= 1
WAVES     ?= 0
SPEED     ?= 0
VSEED     ?= 1
SPIN      ?= $(if $(filter escape,$(ROUTING)),0,1)
TDD       ?= 128
# live: injection admission, rerouting and probe adoption (contract section
# 13); paper: all three off, the SPIN paper's router.  Each can be set alone.
SPIN_MODE ?= live
ADMIT     ?= $(if $(filter paper,$(SPIN_MODE)),0,1)
REROUTE   ?= $(if $(filter paper,$(SPIN_MODE)),0,1)
ADOPT     ?= $(if $(filter paper,$(SPIN_MODE)),0,1)
# links that fail at run time: CYCLE@ROUTER:PORT[,...] or file:PATH (empty: none)
FAULTS    ?=
VIEW      ?= router
# make waves: the router shown (empty: the first recovery's source, else 5)
# and the window in cycles (empty: around the first recovery, else cycle 0).
ROUTER    ?=
WAVE_FROM ?=
WAVE_TO   ?=

ifeq ($(CC),cc)
CC := gcc
endif

.DEFAULT_GOAL := help
BUILD  := build
ROOT   := $(abspath .)
# A directory name for the topology: file:foo/bar.topo -> file_foo_bar.topo
TOPO_DIR := $(subst /,_,$(subst :,_,$(TOPO)))
CFG_DIR  := $(BUILD)/$(TOPO_DIR)/v$(VCS)

# Knob checks (not for `make help` or `make clean`).
ifneq ($(filter-out help clean,$(or $(MAKECMDGOALS),help)),)
ifeq ($(filter $(WAVES),0 1),)
$(error WAVES=$(WAVES): expected 0 or 1)
endif
ifeq ($(filter $(SPEED),0 1),)
$(error SPEED=$(SPEED): expected 0 or 1)
endif
ifeq ($(SPEED)$(WAVES),11)
$(error SPEED=1 builds without waveforms: use WAVES=0, or SPEED=0 for a waveform)
endif
ifeq ($(filter $(ROUTING),xy west_first escape favors_min favors_nmin),)
$(error ROUTING=$(ROUTING): expected xy, west_first, escape, favors_min or favors_nmin)
endif
ifeq ($(ROUTING)-$(VCS),escape-1)
$(error ROUTING=escape needs VCS=2, 3 or 4 (VC 0 is the escape VC))
endif
ifeq ($(ROUTING)-$(SPIN),escape-1)
$(error ROUTING=escape is deadlock-free without SPIN: use SPIN=0)
endif
ifeq ($(filter $(SPIN),0 1),)
$(error SPIN=$(SPIN): expected 0 or 1)
endif
ifeq ($(filter $(SPIN_MODE),live paper),)
$(error SPIN_MODE=$(SPIN_MODE): expected live or paper)
endif
ifeq ($(filter $(ADMIT),0 1),)
$(error ADMIT=$(ADMIT): expected 0 or 1)
endif
ifeq ($(filter $(REROUTE),0 1),)
$(error REROUTE=$(REROUTE): expected 0 or 1)
endif
ifeq ($(filter $(ADOPT),0 1),)
$(error ADOPT=$(ADOPT): expected 0 or 1)
endif
ifeq ($(filter $(VCS),1 2 3 4),)
$(error VCS=$(VCS): expected 1, 2, 3 or 4)
endif
ifeq ($(filter $(VIEW),router spin),)
$(error VIEW=$(VIEW): expected router or spin)
endif
ifneq ($(FAULTS),)
ifneq ($(words $(FAULTS))$(findstring ',$(FAULTS))$(findstring ",$(FAULTS)),1)
$(error FAULTS=$(FAULTS): expected CYCLE@ROUTER:PORT[,CYCLE@ROUTER:PORT...] or file:PATH, one word without quotes)
endif
endif
ifeq ($(shell echo '$(VSEED)' | grep -Ex '[1-9][0-9]{0,9}'),)
$(error VSEED=$(VSEED): expected a Verilator seed, 1 to 2147483647)
endif
ifeq ($(shell test '$(VSEED)' -le 2147483647 && echo ok),)
$(error VSEED=$(VSEED): expected a Verilator seed, 1 to 2147483647)
endif
ifneq ($(ROUTER),)
ifeq ($(shell echo '$(ROUTER)' | grep -Ex '[0-9]+'),)
$(error ROUTER=$(ROUTER): expected a router id (0, 1, 2 and so on))
endif
endif
ifneq ($(WAVE_FROM),)
ifeq ($(shell echo '$(WAVE_FROM)' | grep -Ex '[0-9]{1,15}'),)
$(error WAVE_FROM=$(WAVE_FROM): expected a cycle number (0, 1, 2 and so on))
endif
endif
ifneq ($(WAVE_TO),)
ifeq ($(shell echo '$(WAVE_TO)' | grep -Ex '[0-9]{1,15}'),)
$(error WAVE_TO=$(WAVE_TO): expected a cycle number (0, 1, 2 and so on))
endif
ifeq ($(shell test '$(WAVE_TO)' -gt '$(or $(WAVE_FROM),0)' && echo ok),)
$(error WAVE_TO=$(WAVE_TO): expected a cycle after WAVE_FROM=$(or $(WAVE_FROM),0))
endif
endif
endif

# ---- C model ----
C_STD    := -std=c99 -Wall -Wextra -Werror -pedantic
C_OPT    ?= -O2 -g
C_SRCS   := $(filter-out cmodel/spinsim.c cmodel/spingen.c,$(wildcard cmodel/*.c))
C_HDRS   := $(wildcard cmodel/*.h)
C_OBJS   := $(patsubst cmodel/%.c,$(BUILD)/cmodel/%.o,$(C_SRCS))
LIBSPIN  := $(BUILD)/cmodel/libspin.a
SPINSIM  := $(BUILD)/cmodel/spinsim
SPINGEN  := $(BUILD)/cmodel/spingen

$(BUILD)/cmodel/%.o: cmodel/%.c $(C_HDRS)
	@mkdir -p $(@D)
	$(CC) $(C_STD) $(C_OPT) -c $< -o $@

$(LIBSPIN): $(C_OBJS)
	rm -f $@
	ar rcs $@ $^

$(SPINSIM) $(SPINGEN): $(BUILD)/cmodel/%: cmodel/%.c $(LIBSPIN) $(C_HDRS)
	$(CC) $(C_STD) $(C_OPT) $< $(LIBSPIN) -lm -o $@

# ---- RTL ----
RTL_PKG  := rtl/spin_pkg.sv
RTL_SRCS := $(RTL_PKG) $(filter-out $(RTL_PKG),$(sort $(wildcard rtl/*.sv)))
LINT_VLT := rtl/lint.vlt

# ---- co-simulation builds (Verilator) ----
# Default: the router Verilated once per (ports, VCs) and instantiated N times
# by the harness (tb/rtl_array.cpp), so one build serves every topology of
# that radix.  `make sim-top` Verilates the generated network top instead
# (tb/rtl_top.cpp), which checks spingen's wiring; it grows with the network.
# The checking build (make sim, make test):
#   --x-assign unique, --x-initial unique  X assignments and unreset registers
#                                          get per-run values (+verilator+seed+)
#   --assert                               *_A assertions stop the run
#   --trace-fst                            waveforms on request (--waves)
# VCHECK and VOPT (OPT_FAST of Verilator's C++) are what the speed build and
# `make bench-vflags` (scripts/eval.mk) change.
# The speed build's flags, chosen by `make bench-vflags` (docs/results.md).
# Of the flags measured, only leaving out --trace-fst paid (1.11x to 1.19x);
# -O3, --x-assign fast and no --assert stayed within the noise.
SPEED_VCHECK := --x-assign unique --x-initial unique --assert
SPEED_VOPT   := -O2
# SPEED=1 (make sim): the co-simulation built with them, under build/rtl-speed/.
ifeq ($(SPEED),1)
VCHECK ?= $(SPEED_VCHECK)
VOPT   ?= $(SPEED_VOPT)
RTL_DIR := $(BUILD)/rtl-speed
else
RTL_DIR := $(BUILD)/rtl
endif
VCHECK ?= --x-assign unique --x-initial unique --assert --trace-fst
VOPT   ?= -O2
VFLAGS := --cc --exe --build
VFLAGS += -j 2                               # parallel C++ compile (2-core machines)
VFLAGS += -Wno-fatal                         # lint is its own target
# but circular combinational logic (a variable index that keeps a split_var
# whole, a loop through modules) makes every cycle settle again and again:
# the build fails on it rather than run slow
VFLAGS += -Werror-UNOPTFLAT -Werror-SPLITVAR
VFLAGS += $(VCHECK) -MAKEFLAGS "OPT_FAST=$(VOPT)"
TB_CFLAGS = -O2 -I$(ROOT)/cmodel -I$(ROOT)/tb
TB_HDRS  := tb/bus.h tb/link_pipes.h tb/checker.h tb/rtl_net.h tb/spin_obs.h $(C_HDRS)
# The harness: the main loop, the comparison of the two models, one RTL side.
TB_SRCS  := tb/cosim.cpp tb/checker.cpp

PORTS   ?= 5
# Co-simulation routers carry SPIN and escape-VC routing (each switched on
# and off at run time), so their links are 128 bits wide: a special message
# fills the data word.
FLITW   := 128
ARRAY_DIR := $(RTL_DIR)/p$(PORTS)-v$(VCS)
COSIM   := $(ARRAY_DIR)/Vcosim
# Every build starts from an empty directory: an incremental Verilator build
# after an RTL change once linked stale objects into a binary that disagreed
# with the C model (and Verilator's makefile does not relink for a changed
# libspin.a).
$(COSIM): $(RTL_SRCS) $(TB_SRCS) tb/rtl_array.cpp $(TB_HDRS) $(LIBSPIN)
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "verilator: router with $(PORTS) ports, $(VCS) VC(s) -> $@ (log: $(@D)/build.log)"
	@$(VERILATOR) $(VFLAGS) --top-module spin_router -GNumPorts=$(PORTS) -GNumVcs=$(VCS) -GFlitW=$(FLITW) -GSpin=1 -GEscape=1 -GNmin=1 \
	  -CFLAGS "$(TB_CFLAGS) -DSPIN_PORTS=$(PORTS) -DSPIN_VCS=$(VCS) -DSPIN_FLITW=$(FLITW) -DSPIN_ESCAPE=1" \
	  -LDFLAGS "$(ROOT)/$(LIBSPIN) -lm" --Mdir $(@D) -o Vcosim $(RTL_SRCS) \
	  $(addprefix $(ROOT)/,$(TB_SRCS)) $(ROOT)/tb/rtl_array.cpp > $(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

# The network top is generated per topology and VC count; rewritten only when
# its text changes, so Verilator does not rebuild for nothing.
TOPO_FILE := $(patsubst file:%,%,$(filter file:%,$(TOPO)))
$(CFG_DIR)/spin_network.sv: $(SPINGEN) $(TOPO_FILE) FORCE
	@mkdir -p $(@D)
	@$(SPINGEN) --topo $(TOPO) --vcs $(VCS) --flit-width $(FLITW) --escape 1 --out $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

COSIM_TOP := $(CFG_DIR)/top/Vcosim
$(COSIM_TOP): $(RTL_SRCS) $(CFG_DIR)/spin_network.sv $(TB_SRCS) tb/rtl_top.cpp tb/cosim.vlt $(TB_HDRS) $(LIBSPIN)
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "verilator: network top of $(TOPO), $(VCS) VC(s) -> $@ (log: $(@D)/build.log)"
	@$(VERILATOR) $(VFLAGS) --top-module spin_network -CFLAGS "$(TB_CFLAGS) -I$(ROOT)/$(CFG_DIR)" \
	  -LDFLAGS "$(ROOT)/$(LIBSPIN) -lm" --Mdir $(@D) -o Vcosim tb/cosim.vlt $(RTL_SRCS) \
	  $(CFG_DIR)/spin_network.sv $(addprefix $(ROOT)/,$(TB_SRCS)) $(ROOT)/tb/rtl_top.cpp \
	  > $(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

# The same harness on the router as Yosys synthesized it: the generic-gate
# netlist written by synth/synth.mk (NumPorts 5, NumVcs 1, FlitW 128, Spin 1)
# in place of rtl/, so a construct Yosys reads differently from Verilator
# shows up as a mismatch against the C model (make synth-cosim).
SCOSIM_DIR := $(BUILD)/synth-cosim
SCOSIM     := $(SCOSIM_DIR)/Vcosim
$(SCOSIM): $(SCOSIM_DIR)/spin_router.v $(TB_SRCS) tb/rtl_array.cpp $(TB_HDRS) $(LIBSPIN)
	@echo "verilator: synthesized netlist of the router, 5 ports, 1 VC -> $@ (log: $(@D)/build.log)"
	@rm -f $@
	@$(VERILATOR) $(VFLAGS) --top-module spin_router \
	  -CFLAGS "$(TB_CFLAGS) -DSPIN_PORTS=5 -DSPIN_VCS=1 -DSPIN_FLITW=128" \
	  -LDFLAGS "$(ROOT)/$(LIBSPIN) -lm" --Mdir $(@D) -o Vcosim $(ROOT)/$(SCOSIM_DIR)/spin_router.v \
	  $(addprefix $(ROOT)/,$(TB_SRCS)) $(ROOT)/tb/rtl_array.cpp > $(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

SIM_ARGS = --topo $(TOPO) --routing $(ROUTING) --vcs $(VCS) --traffic $(TRAFFIC) \
           --rate $(RATE) --long-frac $(LONG_FRAC) --cycles $(CYCLES) --seed $(SEED) \
           --spin $(SPIN) --tdd $(TDD) --admit $(ADMIT) --reroute $(REROUTE) --adopt $(ADOPT) \
           $(if $(FAULTS),--faults '$(FAULTS)')

# ---- tests ----
C_TESTS := $(patsubst cmodel/tests/%.c,$(BUILD)/cmodel/tests/%,$(wildcard cmodel/tests/test_*.c))
$(BUILD)/cmodel/tests/%: cmodel/tests/%.c $(LIBSPIN) $(C_HDRS)
	@mkdir -p $(@D)
	$(CC) $(C_STD) $(C_OPT) -Icmodel $< $(LIBSPIN) -lm -o $@

include tb/unit/unit.mk
include tb/fuzz/fuzz.mk
include scripts/eval.mk
include synth/synth.mk
# Yosys is installed like every other tool the first time a synthesis needs it.
synth synth-network: deps
include tb/sc/sc.mk

.PHONY: all help deps sim sim-run sim-top pictures cmodel spinsim lint test test-c unit-rtl regress regress-build regress-run regress-top soak synth synth-cosim waves waves-check clean FORCE
FORCE:

all: $(SPINSIM) $(SPINGEN)

help:
	@echo "spin-noc: make <target> [KNOB=value ...]   (docs/usage.md describes each)"
	@echo "use:"
	@echo "  make sim        co-simulate the RTL against the C model, every cycle compared (knobs below)"
	@echo "                  and draws build/<topo>/deadlocks.png and links.png from the run's record"
	@echo "  make waves      open waves/<topo>.fst (make sim WAVES=1) in GTKWave, on the first"
	@echo "                  recovery unless WAVE_FROM=/WAVE_TO= (cycles) or ROUTER= say otherwise"
	@echo "  make spinsim    the standalone C model ($(SPINSIM) --help); also: make cmodel, make all"
	@echo "  make pictures   the same record and pictures from the C model alone (build/<topo>/cmodel/)"
	@echo "  make sim-top    co-simulate the generated network top (small networks)"
	@echo "  make sim-sc     make sim with the routers as SystemC modules (Verilator --sc; tb/sc/sc.mk)"
	@echo "                  (internal: sim-sc-run)"
	@echo "  make sc-example the C model as a SystemC module, in an example system (tb/sc/; SC_ARGS=)"
	@echo "  make synth      Yosys area and logic depth per router configuration (build/synth/summary.md);"
	@echo "                  make synth-help lists synth-network, synth-summary, synth-selftest,"
	@echo "                  synth-lint, synth-jobs, synth-force and the synthesis knobs"
	@echo "  make synth-cosim  co-simulate the synthesized router netlist against the C model"
	@echo "tests:"
	@echo "  make test       the whole regression (what CI runs): the targets below in turn"
	@echo "  make lint       verilator --lint-only -Wall on the RTL, then Yosys reads and checks it"
	@echo "  make test-c     the C model's own tests (cmodel/tests/)"
	@echo "  make test-c-san the C model's tests under ASan and UBSan"
	@echo "  make sweep-check  the sweep script's own checks"
	@echo "  make fuzz-short the fuzz targets $(FUZZ_SHORT) s each; make fuzz: FUZZ_TIME=$(FUZZ_TIME) s each"
	@echo "                  (libFuzzer, ASan, UBSan; make fuzz-build builds them; tb/fuzz/fuzz.mk)"
	@echo "  make unit-rtl   each RTL primitive against its C twin (tb/unit/); unit-rtl-build,"
	@echo "                  unit-rtl-clean"
	@echo "  make waves-check  short waveforms, checked against both GTKWave views"
	@echo "  make regress    the co-simulation cases (pytest, tb/regress/cases.py); ARGS='-k mesh8x8'"
	@echo "                  selects; regress-build builds their binaries, regress-run runs them,"
	@echo "                  regress-top builds the mesh3x3 network tops they use (1- and 3-cycle links)"
	@echo "  make soak       the long co-simulation campaign, not in make test (build/soak/summary.md)"
	@echo "evaluation (scripts/eval.mk, docs/results.md):"
	@echo "  make sweep      latency/accepted sweeps of the C model, live and paper mode, to 3x"
	@echo "                  saturation (build/sweep/); SWEEP_QUICK=1 SWEEP_TRAFFIC= SWEEP_CONFIGS="
	@echo "                  SWEEP_MODES= SWEEP_CYCLES= SWEEP_JOBS="
	@echo "  make sweep-sat  the sweep, then runs at 1x, 2x, 3x saturation: post_saturation.md;"
	@echo "                  SWEEP_SAT_CYCLES=$(SWEEP_SAT_CYCLES) SWEEP_SAT_SEEDS=\"$(SWEEP_SAT_SEEDS)\" SWEEP_SAT_DRAIN= (hours: nice it)"
	@echo "  make bench      C model and co-simulation speed (build/bench/)"
	@echo "  make bench-vflags  co-simulation speed under each Verilator flag (build/bench/vflags.md)"
	@echo "housekeeping:"
	@echo "  make deps       install the missing Debian packages (scripts/install-deps.sh; every"
	@echo "                  target above that needs a tool calls it)"
	@echo "  make clean      remove build/ and generated waveforms"
	@echo "  make help       this list"
	@echo "knobs: TOPO=$(TOPO) ROUTING=$(ROUTING) VCS=$(VCS) TRAFFIC=$(TRAFFIC) RATE=$(RATE)"
	@echo "       LONG_FRAC=$(LONG_FRAC) CYCLES=$(CYCLES) SEED=$(SEED) WAVES=$(WAVES) VSEED=$(VSEED)"
	@echo "       SPIN=$(SPIN) TDD=$(TDD) SPEED=$(SPEED)  (SPEED=1: the speed build, no waveforms)"
	@echo "       SPIN_MODE=$(SPIN_MODE) (live|paper) ADMIT=$(ADMIT) REROUTE=$(REROUTE) ADOPT=$(ADOPT)"
	@echo "       FAULTS=$(FAULTS)  (links failing at run time: CYCLE@ROUTER:PORT,... or file:PATH)"
	@echo "       VIEW=$(VIEW) ROUTER=$(ROUTER) WAVE_FROM=$(WAVE_FROM) WAVE_TO=$(WAVE_TO)  (make waves)"
	@echo "internal (called by the targets above): sim-run"

deps:
	@scripts/install-deps.sh

cmodel spinsim: $(SPINSIM) $(SPINGEN)

# The router build depends on the topology's radix, known once spingen runs.
sim: deps $(SPINGEN)
	@ports=$$($(SPINGEN) --topo '$(TOPO)' --radix) || exit 2; \
	  $(MAKE) --no-print-directory sim-run PORTS=$$ports

# After the run, its record (deadlocks.json, links.json) becomes the two
# pictures (scripts/pictures.py), also when the run failed; with WAVES=1 the
# deadlock record goes beside the waveform, where make waves looks for it.
RUN_DIR := $(BUILD)/$(TOPO_DIR)
sim-run: $(COSIM)
	@mkdir -p $(RUN_DIR) waves
	@rm -f waves/$(TOPO_DIR).deadlocks.json $(RUN_DIR)/deadlocks.png $(RUN_DIR)/links.png
	@echo "$(COSIM) $(SIM_ARGS) --json $(RUN_DIR)/summary.json ..."; \
	$(COSIM) $(SIM_ARGS) --json $(RUN_DIR)/summary.json \
	  --deadlocks $(RUN_DIR)/deadlocks.json --links $(RUN_DIR)/links.json \
	  $(if $(filter 1,$(WAVES)),--waves waves/$(TOPO_DIR).fst,--waves-on-fail waves/$(TOPO_DIR).fst) \
	  +verilator+seed+$(VSEED); rc=$$?; \
	if [ -f $(RUN_DIR)/deadlocks.json ] && [ -f $(RUN_DIR)/links.json ]; then \
	  $(PICTURES_PYTHON) scripts/pictures.py $(RUN_DIR) || exit 1; \
	  $(if $(filter 1,$(WAVES)),cp $(RUN_DIR)/deadlocks.json waves/$(TOPO_DIR).deadlocks.json;) \
	fi; \
	exit $$rc

# The same record and pictures from the C model alone (spinsim), with the
# knobs of make sim: build/<topo>/cmodel/.
pictures: deps $(SPINSIM)
	@mkdir -p $(RUN_DIR)/cmodel
	@rm -f $(RUN_DIR)/cmodel/deadlocks.png $(RUN_DIR)/cmodel/links.png
	$(SPINSIM) $(SIM_ARGS) --json $(RUN_DIR)/cmodel/summary.json \
	  --deadlocks $(RUN_DIR)/cmodel/deadlocks.json --links $(RUN_DIR)/cmodel/links.json; rc=$$?; \
	if [ -f $(RUN_DIR)/cmodel/deadlocks.json ] && [ -f $(RUN_DIR)/cmodel/links.json ]; then \
	  $(PICTURES_PYTHON) scripts/pictures.py $(RUN_DIR)/cmodel || exit 1; \
	fi; \
	exit $$rc

sim-top: deps $(COSIM_TOP)
	@mkdir -p $(BUILD)/$(TOPO_DIR) waves
	$(COSIM_TOP) $(SIM_ARGS) --json $(BUILD)/$(TOPO_DIR)/summary-top.json \
	  $(if $(filter 1,$(WAVES)),--waves waves/$(TOPO_DIR)-top.fst,--waves-on-fail waves/$(TOPO_DIR)-top.fst) \
	  +verilator+seed+$(VSEED)

# C model unit tests: each binary ends with "N passed, N failed".
test-c: $(C_TESTS)
	@for t in $(C_TESTS); do echo "== $$t"; $$t cmodel/tests/data | tail -3 || exit 1; done

# The co-simulation regression: the pytest suite tb/regress/ (one table of
# cases in tb/regress/cases.py), run in parallel by pytest-xdist, with a
# JUnit report.  It first builds every binary the cases use: the router array
# for 5-port routers with 1 to 4 VCs, 3-port (rings), 6-port
# (tb/scenarios/theta.topo) and 7-port (tb/scenarios/mellanox_fig6_fattree.topo)
# ones, and the network top of mesh3x3 with 2 VCs.
# ARGS goes to pytest: make regress ARGS='-k mesh8x8', ARGS='-m spin'.
# Debian's python3 (a python3 earlier on PATH may not see Debian's pytest).
REGRESS_PYTHON ?= /usr/bin/python3
# Debian's python3 and matplotlib for the pictures of make sim.
PICTURES_PYTHON ?= /usr/bin/python3
REGRESS_JOBS   ?= auto
ARGS           ?=
REGRESS_TOP    := $(BUILD)/mesh3x3/v2/top/Vcosim
# the generated top with 3-cycle links (spin_link_pipe on every link)
REGRESS_TOP_L3 := $(BUILD)/mesh3x3@3/v1/top/Vcosim
regress-build: $(SPINSIM) $(SPINGEN) $(SC_EXAMPLE)
	@for v in 1 2 3 4; do $(MAKE) --no-print-directory $(BUILD)/rtl/p5-v$$v/Vcosim PORTS=5 VCS=$$v || exit 1; done
	@$(MAKE) --no-print-directory $(BUILD)/rtl/p3-v1/Vcosim PORTS=3 VCS=1
	@$(MAKE) --no-print-directory $(BUILD)/rtl/p6-v2/Vcosim PORTS=6 VCS=2
	@$(MAKE) --no-print-directory $(BUILD)/rtl/p7-v1/Vcosim PORTS=7 VCS=1
	@$(MAKE) --no-print-directory $(REGRESS_TOP) TOPO=mesh3x3 VCS=2
	@$(MAKE) --no-print-directory $(REGRESS_TOP_L3) TOPO=mesh3x3@3 VCS=1
	@$(MAKE) --no-print-directory $(BUILD)/rtl-sc/p5-v1/Vcosim PORTS=5 VCS=1

regress: deps regress-build
	@$(MAKE) --no-print-directory regress-run

# The cases alone, on binaries already built.
regress-run:
	@mkdir -p $(BUILD)/regress
	BUILD=$(BUILD) PYTHONDONTWRITEBYTECODE=1 $(REGRESS_PYTHON) -m pytest tb/regress -rA --tb=short \
	  -n $(REGRESS_JOBS) --junitxml=$(BUILD)/regress/junit.xml --durations=10 $(ARGS)

# The soak campaign (not part of make test): tb/regress/soak.py, long
# co-simulations over topologies, VC counts, routings, seeds and VSEEDs, more
# than 10^8 router-cycles; its summary goes to $(SOAK_DIR)/summary.md.  It takes
# about an hour on 2 cores: run it as `nice make soak`.  ARGS as for regress.
SOAK_DIR := $(BUILD)/soak
soak: deps regress-build
	@rm -rf $(SOAK_DIR) && mkdir -p $(SOAK_DIR)
	@t0=$$SECONDS; \
	BUILD=$(BUILD) PYTHONDONTWRITEBYTECODE=1 $(REGRESS_PYTHON) -m pytest tb/regress/soak.py \
	  -rfE --tb=short -n $(REGRESS_JOBS) --junitxml=$(SOAK_DIR)/junit.xml $(ARGS); rc=$$?; \
	BUILD=$(BUILD) PYTHONDONTWRITEBYTECODE=1 $(REGRESS_PYTHON) tb/regress/soak_report.py \
	  $(SOAK_DIR) --elapsed $$((SECONDS - t0)) > $(SOAK_DIR)/summary.md; rc2=$$?; \
	sed -n '3,12p' $(SOAK_DIR)/summary.md; echo "soak: $(SOAK_DIR)/summary.md"; \
	[ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]

# The generated network top alone (the "top" and its "powerup" cases):
# spingen's wiring (corner, edge and inner routers of a 3x3 mesh).  One
# build only: a flat Verilator build takes minutes.
regress-top: deps $(SPINGEN)
	@$(MAKE) --no-print-directory $(REGRESS_TOP) TOPO=mesh3x3 VCS=2
	@$(MAKE) --no-print-directory $(REGRESS_TOP_L3) TOPO=mesh3x3@3 VCS=1
	@$(MAKE) --no-print-directory regress-run ARGS="-k top-mesh3x3 $(ARGS)"

# Post-synthesis co-simulation: FAvORS-Min on a 4x4 mesh with SPIN on (it
# spins there), XY, and the two rings of Fig. 5(a) case II (a false positive
# ended by kill_move), each against the C model every cycle, with different
# Verilator seeds for the unreset registers.
SCOSIM_RUNS := "--topo mesh4x4 --routing favors_min --rate 0.3 --cycles 5000 --spin 1 +verilator+seed+1" \
               "--topo mesh4x4 --routing xy --rate 0.3 --cycles 3000 --spin 1 +verilator+seed+2" \
               "--topo file:tb/scenarios/fig8.topo --routing favors_min --tdd 32 --spin 1 \
                --traffic trace:tb/scenarios/fig5a_case2.trace --cycles 1 +verilator+seed+3"
# Then the power-up self-check on the netlist (tb/regress/powerup.py): two
# VSEEDs must start its flip-flops differently, the same VSEED alike.
synth-cosim: deps $(SCOSIM)
	@t0=$$SECONDS; for a in $(SCOSIM_RUNS); do \
	  n=$$((n + 1)); echo "synth-cosim: $(SCOSIM) $$a"; \
	  $(SCOSIM) $$a > $(SCOSIM_DIR)/run$$n.log 2>&1; rc=$$?; \
	  grep -E 'mismatches|spins' $(SCOSIM_DIR)/run$$n.log; \
	  if [ $$rc -ne 0 ] || ! grep -q 'mismatches 0$$' $(SCOSIM_DIR)/run$$n.log; then \
	    tail -20 $(SCOSIM_DIR)/run$$n.log; echo "synth-cosim: FAILED (exit $$rc)"; exit 1; fi; \
	done; \
	echo "synth-cosim: power-up check: $(SCOSIM) --topo mesh4x4 --rate 0 --cycles 2, VSEED 1, 2, 1"; \
	$(REGRESS_PYTHON) tb/regress/powerup.py --out $(SCOSIM_DIR)/powerup -- $(SCOSIM) --vcs 1 \
	  --topo mesh4x4 --rate 0 --cycles 2 || { echo "synth-cosim: FAILED (power-up check)"; exit 1; }; \
	echo "synth-cosim: netlist and C model agree ($$((SECONDS - t0)) s of runs)"

# The generated GTKWave views against short real waveforms (mesh4x4, SPIN
# on, 1 and 2 VCs): every signal they name exists with the width they assume,
# the fields they split out hold legal values, and GTKWave (on a virtual
# display, when xvfb-run is there) shows every trace.
WCHECK_DIR := $(BUILD)/waves-check
waves-check: $(SPINGEN)
	@for v in 1 2; do \
	  $(MAKE) --no-print-directory $(BUILD)/rtl/p5-v$$v/Vcosim PORTS=5 VCS=$$v || exit 1; \
	  mkdir -p $(WCHECK_DIR)/v$$v; \
	  echo "waves-check: mesh4x4, VCS=$$v, 300 cycles, SPIN on"; \
	  $(BUILD)/rtl/p5-v$$v/Vcosim --topo mesh4x4 --routing favors_min --vcs $$v --rate 0.3 \
	    --cycles 300 --spin 1 --waves $(WCHECK_DIR)/v$$v/mesh4x4.fst > $(WCHECK_DIR)/v$$v/sim.log \
	    || { tail -20 $(WCHECK_DIR)/v$$v/sim.log; exit 1; }; \
	  python3 scripts/gtkw.py --check $(WCHECK_DIR)/v$$v/mesh4x4.fst --values --gtkwave \
	    --ports 5 --vcs $$v --flitw $(FLITW) || exit 1; \
	done
	@echo "waves-check: mesh4x4, paper mode at 0.35, 1500 cycles: the view lands on the first recovery"
	@$(BUILD)/rtl/p5-v1/Vcosim --topo mesh4x4 --routing favors_min --vcs 1 --rate 0.35 --mode paper \
	    --cycles 1500 --spin 1 --waves $(WCHECK_DIR)/land.fst --deadlocks $(WCHECK_DIR)/land.json \
	    > $(WCHECK_DIR)/land.log || { tail -20 $(WCHECK_DIR)/land.log; exit 1; }
	@python3 scripts/gtkw.py --check $(WCHECK_DIR)/land.fst --deadlocks $(WCHECK_DIR)/land.json \
	    --expect-recovery --ports 5 --vcs 1 --flitw $(FLITW)

# The steps of make test, in order; each one's time is printed, so that the
# 20-minute budget of CI stays in sight.
TEST_STEPS := lint test-c sweep-check test-c-san fuzz-short unit-rtl waves-check regress
test: deps
	@t0=$$SECONDS; times=""; \
	for step in $(TEST_STEPS); do \
	  t1=$$SECONDS; \
	  $(MAKE) --no-print-directory $$step || { echo "make test: $$step failed"; exit 1; }; \
	  times="$$times $$step $$((SECONDS - t1)) s,"; \
	done; \
	echo "make test: step times:$${times%,}"; \
	echo "make test: all passed in $$((SECONDS - t0)) s"

# The save files are generated for the topology's radix, VCS and ROUTER
# (scripts/gtkw.py), then checked against the FST's names: a warning, not a
# stop, so a view that does not fit still opens.
# The view lands on the first recovery recorded beside the waveform
# (waves/<topo>.deadlocks.json, copied by make sim WAVES=1), unless WAVE_FROM,
# WAVE_TO or ROUTER say otherwise.
WAVES_FST := waves/$(TOPO_DIR).fst
WAVES_DL  := waves/$(TOPO_DIR).deadlocks.json
waves: $(SPINGEN)
	@test -f $(WAVES_FST) || { echo "waves: no $(WAVES_FST): run make sim TOPO=$(TOPO) WAVES=1 first"; exit 2; }
	@ports=$$($(SPINGEN) --topo '$(TOPO)' --radix) || exit 2; \
	  args="--ports $$ports --vcs $(VCS) --flitw $(FLITW)$(if $(ROUTER), --router $(ROUTER))"; \
	  land="$(if $(WAVE_FROM), --from $(WAVE_FROM))$(if $(WAVE_TO), --to $(WAVE_TO))"; \
	  if [ -f $(WAVES_DL) ]; then land="$$land --deadlocks $(WAVES_DL)"; fi; \
	  python3 scripts/gtkw.py --out-dir waves $$args $$land || exit 1; \
	  python3 scripts/gtkw.py --check $(WAVES_FST) $$args $$land > waves/check.log || \
	  { head -5 waves/check.log; echo "waves: the view does not fit $(WAVES_FST) (see waves/check.log): same VCS and a ROUTER below the router count?"; }
	$(GTKWAVE) $(WAVES_FST) waves/$(VIEW).gtkw

# Every VC count, with and without SPIN, the smallest and largest radix, and
# escape routing (the co-simulation builds carry it with 1 VC too).
lint: deps
	@for cfg in "-GNumVcs=1" "-GNumVcs=2" "-GNumVcs=3" "-GNumVcs=4" \
	    "-GNumVcs=1 -GSpin=1 -GFlitW=128" "-GNumVcs=2 -GSpin=1 -GFlitW=128" \
	    "-GNumVcs=3 -GSpin=1 -GFlitW=128" "-GNumVcs=4 -GSpin=1 -GFlitW=128" \
	    "-GNumPorts=3 -GSpin=1 -GFlitW=128" "-GNumPorts=8 -GNumVcs=4 -GSpin=1 -GFlitW=128" \
	    "-GNumVcs=2 -GEscape=1" "-GNumVcs=3 -GEscape=1 -GSpin=1 -GFlitW=128" \
	    "-GNumVcs=1 -GEscape=1 -GSpin=1 -GFlitW=128" \
	    "-GNumVcs=1 -GNmin=1 -GSpin=1 -GFlitW=128" "-GNumVcs=3 -GNmin=1 -GEscape=1 -GSpin=1 -GFlitW=128"; do \
	  echo "$(VERILATOR) --lint-only -Wall spin_router $$cfg"; \
	  $(VERILATOR) --lint-only -Wall $(LINT_VLT) $(RTL_SRCS) --top-module spin_router $$cfg || exit 1; \
	done
	@for st in 1 15; do \
	  echo "$(VERILATOR) --lint-only -Wall spin_link_pipe -GStages=$$st"; \
	  $(VERILATOR) --lint-only -Wall rtl/spin_link_pipe.sv --top-module spin_link_pipe -GStages=$$st || exit 1; \
	done
	@$(MAKE) --no-print-directory synth-lint
	@echo "lint: clean"

clean:
	rm -rf $(BUILD) waves/*.fst waves/*.vcd waves/*.gtkw waves/*.flt waves/check.log waves/*.deadlocks.json
