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
# cycles allowed after injection to deliver what is left (empty: the C
# model's default, 100000)
DRAIN_LIMIT ?=
SEED      ?= 1
WAVES     ?= 0
SPEED     ?= 0
# make sim's co-simulation built with GCC profile-guided optimisation (PGO=1)
# or for this machine's CPU (NATIVE=1, -march=native); docs/results.md
PGO       ?= 0
NATIVE    ?= 0
VSEED     ?= 1
# make sim: the threads the router array is evaluated on (the C model's step
# runs beside them): 2 where the machine has two CPUs or more
THREADS   ?= $(if $(filter 0 1,$(shell nproc 2>/dev/null || echo 1)),1,2)
SPIN      ?= $(if $(filter escape,$(ROUTING)),0,1)
TDD       ?= auto
# live: window-gated injection admission (ADMIT=2), rerouting, probe
# adoption, the NICs' window, early credits and the recovery throttle
# (contract section 13); paper:
# all off, the SPIN paper's router.  Each can be set alone.
SPIN_MODE ?= live
ADMIT     ?= $(if $(filter paper,$(SPIN_MODE)),0,2)
REROUTE   ?= $(if $(filter paper,$(SPIN_MODE)),0,1)
ADOPT     ?= $(if $(filter paper,$(SPIN_MODE)),0,1)
# occupancy admission (contract section 6): 0 off (both modes), 1 at most
# one busy network input, 2 none
ADMIT_OCC ?= 0
# the NICs' injection window (contract section 8): packets a node may have
# in flight, 0 (no limit) to 8, self-tuned from 1 up to it when 2 or more
# (4 live, 0 paper); WINDOW_SLACK: with a window of 2 or more, cycles past
# its zero-load latency before a packet is late (8 live, 0 paper)
WINDOW    ?= $(if $(filter paper,$(SPIN_MODE)),0,4)
WINDOW_SLACK ?= $(if $(filter paper,$(SPIN_MODE)),0,8)
# early credits (contract section 5): a downstream VC is free in the cycle
# its credit arrives; 1 live, 0 paper
EARLY_CREDIT ?= $(if $(filter paper,$(SPIN_MODE)),0,1)
# with a window: a packet stays in it until the notice of its delivery is
# back (contract section 8); 0 (both modes) or 1
WINDOW_NOTICE ?= 0
# the recovery throttle (contract section 8): its epoch in cycles, 0 off or
# 16 to 1048576 (4096 live, 0 paper)
THROTTLE  ?= $(if $(filter paper,$(SPIN_MODE)),0,4096)
# minimal routes (favors_min, favors_nmin, escape) by the least zero-load
# cycles (1) or the least hops (0, both modes): contract section 4
MIN_CYCLES ?= 0
# SPIN's special-message registers (contract 12.1): the paper's timing (0)
# in the paper mode, 2 in the live mode, as spinsim --mode.
SM_PIPE   ?= $(if $(filter paper,$(SPIN_MODE)),0,2)
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
# ---- knob checks (scripts/knobs.mk) ----
# Every knob is checked when the Makefile is read, for every goal but
# `clean` (which checks BUILD alone), before any recipe runs: numbers as
# numbers within their range, names against their lists.  A value that
# passes holds no character a shell treats specially.  TOPO, TRAFFIC and
# FAULTS may name a file, whose name may hold any character: they reach the
# recipes only through the environment (SPIN_NOC_TOPO, SPIN_NOC_TRAFFIC,
# SPIN_NOC_FAULTS), quoted ("$$SPIN_NOC_TOPO"), never as command text; ARGS
# (pytest's arguments) likewise (SPIN_NOC_ARGS), split into words by
# scripts/with_args.py, which runs nothing in them.
include scripts/knobs.mk
REGRESS_JOBS ?= auto
ARGS         ?=
export SPIN_NOC_TOPO    := $(TOPO)
export SPIN_NOC_TRAFFIC := $(TRAFFIC)
export SPIN_NOC_FAULTS  := $(FAULTS)
export SPIN_NOC_ARGS    := $(ARGS)

ifeq ($(call knob_only,$(BUILD),$(knob_path_chars)),)
$(call knob_fail,BUILD,a directory of letters, digits and . _ - + @ /)
endif

# A directory name for the topology: file:foo/bar.topo -> file_foo_bar.topo;
# in a file name every character but letters, digits and . _ - + @ becomes _
# (the name goes to tr through a file, never through a command).
ifneq ($(call knob_only,$(TOPO),$(knob_path_chars) :),)
TOPO_DIR := $(subst /,_,$(subst :,_,$(TOPO)))
else
knob_tmp := $(shell mktemp)
$(file >$(knob_tmp),$(TOPO))
TOPO_DIR := $(shell tr -c 'A-Za-z0-9._@+\n-' _ < $(knob_tmp) | tr -d '\n'; rm -f $(knob_tmp))
endif
CFG_DIR  := $(BUILD)/$(TOPO_DIR)/v$(VCS)

# The outputs of a run, by target: each run removes those of the last run of
# its TOPO first (the recipes below), and so does a knob refused here for
# such a target (knob_on_fail, before make stops), so that a refused run
# leaves nothing that looks like its result.  The paths are BUILD's and
# TOPO_DIR's characters only.
RUN_DIR := $(BUILD)/$(TOPO_DIR)
SIM_OUTPUTS := $(addprefix $(RUN_DIR)/,summary.json deadlocks.json links.json deadlocks.png links.png) \
               waves/$(TOPO_DIR).fst waves/$(TOPO_DIR).deadlocks.json
PICTURES_OUTPUTS := $(addprefix $(RUN_DIR)/cmodel/,summary.json deadlocks.json links.json deadlocks.png links.png)
SIM_TOP_OUTPUTS := $(RUN_DIR)/summary-top.json waves/$(TOPO_DIR)-top.fst
RUN_OUTPUTS.sim      := $(SIM_OUTPUTS)
RUN_OUTPUTS.sim-run  := $(SIM_OUTPUTS)
RUN_OUTPUTS.pictures := $(PICTURES_OUTPUTS)
RUN_OUTPUTS.sim-top  := $(SIM_TOP_OUTPUTS)
RUN_OUTPUTS.sim-sc   := $(RUN_DIR)/summary-sc.json
# (not under make -n, which runs nothing)
knob_on_fail = $(if $(and $(filter sim sim-run pictures sim-top sim-sc,$(MAKECMDGOALS)),$(if \
  $(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS)))),,y)),$(shell rm -f \
  $(foreach g,$(filter sim sim-run pictures sim-top sim-sc,$(MAKECMDGOALS)),$(RUN_OUTPUTS.$(g)))))

ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),help)),)
ifneq ($(filter file:%,$(firstword $(TOPO))),)
ifneq ($(call knob_is_empty,$(patsubst file:%,%,$(TOPO))),)
$(call knob_fail,TOPO,file:PATH with a path)
endif
else
ifeq ($(call knob_only,$(TOPO),$(knob_name_chars) . @),)
$(call knob_fail,TOPO,meshWxH, torusWxH, ring-N, dragonfly-a-p-h (each with @L or not) or file:PATH)
endif
endif
$(call knob_check_name,ROUTING,xy west_first escape favors_min favors_nmin,xy, west_first, escape, favors_min or favors_nmin)
$(call knob_check_uint,VCS,1,4,1, 2, 3 or 4)
ifeq ($(ROUTING)-$(VCS),escape-1)
$(knob_on_fail)$(error ROUTING=escape needs VCS=2, 3 or 4 (VC 0 is the escape VC))
endif
ifneq ($(filter trace:%,$(firstword $(TRAFFIC))),)
ifneq ($(call knob_is_empty,$(patsubst trace:%,%,$(TRAFFIC))),)
$(call knob_fail,TRAFFIC,trace:PATH with a path)
endif
else ifneq ($(filter hotspot:%,$(TRAFFIC)),)
$(if $(call knob_uint_in,$(patsubst hotspot:%,%,$(TRAFFIC)),0,65535),,$(call knob_fail,TRAFFIC,hotspot:NODE with a router number))
else
$(call knob_check_name,TRAFFIC,uniform_random transpose bit_complement bit_reverse bit_rotation shuffle tornado neighbor hotspot,uniform_random, transpose, bit_complement, bit_reverse, bit_rotation, shuffle, tornado, neighbor, hotspot[:NODE] or trace:PATH)
endif
$(call knob_check_frac,RATE,offered flits per node per cycle, 0 to 1 (0.25, .5, 1))
$(call knob_check_frac,LONG_FRAC,a fraction of 5-flit packets, 0 to 1)
$(call knob_check_uint,CYCLES,1,1000000000000000,injection cycles, 1 to 10^15)
ifneq ($(DRAIN_LIMIT),)
$(call knob_check_uint,DRAIN_LIMIT,0,1000000000000000,cycles to deliver what is left after injection, 0 to 10^15)
endif
$(call knob_check_uint,SEED,0,18446744073709551615,a seed, 0 to 2^64-1)
$(call knob_check_uint,WAVES,0,1,0 or 1)
$(call knob_check_uint,SPEED,0,1,0 or 1)
$(call knob_check_uint,PGO,0,1,0 or 1)
$(call knob_check_uint,NATIVE,0,1,0 or 1)
ifeq ($(SPEED)$(WAVES),11)
$(knob_on_fail)$(error SPEED=1 builds without waveforms: use WAVES=0, or SPEED=0 for a waveform)
endif
$(call knob_check_uint,VSEED,1,2147483647,a Verilator seed, 1 to 2147483647)
$(call knob_check_uint,THREADS,1,64,a thread count, 1 to 64)
$(call knob_check_uint,SPIN,0,1,0 or 1)
ifeq ($(ROUTING)-$(SPIN),escape-1)
$(knob_on_fail)$(error ROUTING=escape is deadlock-free without SPIN: use SPIN=0)
endif
ifneq ($(filter-out auto cover,$(TDD))$(word 2,$(TDD)),)
$(call knob_check_uint,TDD,2,32768,a deadlock-detection threshold, 2 to 32768 cycles, auto or cover)
endif
$(call knob_check_name,SPIN_MODE,live paper,live or paper)
$(call knob_check_uint,ADMIT,0,2,0$(knob_comma) 1 or 2)
$(call knob_check_uint,REROUTE,0,1,0 or 1)
$(call knob_check_uint,ADOPT,0,1,0 or 1)
$(call knob_check_uint,ADMIT_OCC,0,2,0, 1 or 2)
$(call knob_check_uint,WINDOW,0,8,0 to 8)
$(call knob_check_uint,WINDOW_SLACK,0,100000,0 to 100000)
$(call knob_check_uint,EARLY_CREDIT,0,1,0 or 1)
$(call knob_check_uint,WINDOW_NOTICE,0,1,0 or 1)
$(if $(call knob_uint_in,$(THROTTLE),0,0),,$(call knob_check_uint,THROTTLE,16,1048576,0 or an epoch of 16 to 1048576 cycles))
$(call knob_check_uint,MIN_CYCLES,0,1,0 or 1)
$(call knob_check_uint,SM_PIPE,0,2,0, 1 or 2)
# FAULTS: empty, file:PATH, or CYCLE@ROUTER:PORT items separated by commas
# (spinsim checks the numbers, naming the item)
ifneq ($(call knob_is_empty,$(FAULTS)),)
else ifneq ($(filter file:%,$(firstword $(FAULTS))),)
ifneq ($(call knob_is_empty,$(patsubst file:%,%,$(FAULTS))),)
$(call knob_fail,FAULTS,file:PATH with a path)
endif
else ifeq ($(and $(call knob_only,$(FAULTS),$(knob_digits) @ : $(knob_comma)),$(call knob_faults_items,$(FAULTS))),)
$(call knob_fail,FAULTS,CYCLE@ROUTER:PORT[$(knob_comma)CYCLE@ROUTER:PORT...] or file:PATH)
endif
$(call knob_check_name,VIEW,router spin,router or spin)
ifneq ($(ROUTER),)
$(call knob_check_uint,ROUTER,0,65535,a router id (0, 1, 2 and so on))
endif
ifneq ($(WAVE_FROM),)
$(call knob_check_uint,WAVE_FROM,0,1000000000000000,a cycle number (0, 1, 2 and so on))
endif
ifneq ($(WAVE_TO),)
$(call knob_check_uint,WAVE_TO,0,1000000000000000,a cycle number (0, 1, 2 and so on))
ifneq ($(call knob_le,$(WAVE_TO),$(or $(WAVE_FROM),0)),)
$(knob_on_fail)$(error WAVE_TO=$(WAVE_TO): expected a cycle after WAVE_FROM=$(or $(WAVE_FROM),0))
endif
endif
ifneq ($(PORTS),)
$(call knob_check_uint,PORTS,2,16,a router port count, 2 to 16)
endif
ifneq ($(NICS),)
$(call knob_check_uint,NICS,1,7,a count of NIC ports a router, 1 to 7)
endif
ifneq ($(REGRESS_JOBS),auto)
ifneq ($(REGRESS_JOBS),logical)
$(call knob_check_uint,REGRESS_JOBS,0,4096,auto, logical or a number of pytest workers)
endif
endif
endif

# ---- C model ----
C_STD    := -std=c99 -Wall -Wextra -Werror -pedantic
C_OPT    ?= -O2 -g
C_SRCS   := $(filter-out cmodel/spinsim.c cmodel/spingen.c,$(wildcard cmodel/*.c))
C_HDRS   := $(wildcard cmodel/*.h)
# router.c and network.c include the datapath modules' files (cmodel/datapath.h),
# so those count as headers too
C_HDRS   += $(addprefix cmodel/spin_,$(addsuffix .c,fifo input_port ovc_tracker switch_alloc \
              crossbar link_pipe route_table))
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
RTL_HDRS := $(wildcard rtl/*.svh)
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
endif
# PGO=1: the router array's build (harness and Verilated router, not the C
# model's library) with GCC's profile-guided optimisation: built with
# -fprofile-generate, trained by a short run with make sim's knobs
# (PGO_CYCLES cycles; a run that fails, exit 1, still leaves its profile),
# built again with -fprofile-use; the profile stays in the build directory.
# The build is not made again for other knobs (the profile changes the
# speed, never the results).  NATIVE=1: -march=native, for the CPU of the
# machine that builds it.  Each its own directory:
# build/rtl[-speed][-pgo][-native]/.  Measured: docs/results.md,
# "Simulation speed".
PGO_CYCLES := 5000
ARRAY_CXX  := $(if $(filter 1,$(NATIVE)),-march=native)
PGO_GEN    := -fprofile-generate -fprofile-update=atomic
PGO_USE    := -fprofile-use -fprofile-correction -Wno-missing-profile
RTL_DIR := $(BUILD)/rtl$(if $(filter 1,$(SPEED)),-speed)$(if $(filter 1,$(PGO)),-pgo)$(if $(filter 1,$(NATIVE)),-native)
VCHECK ?= --x-assign unique --x-initial unique --assert --trace-fst
VOPT   ?= -O2
# ccache (Debian's package) keeps the compiled objects of every build by the
# hash of their source: a build whose Verilated code did not change (only the
# harness or the C model did) compiles almost nothing.  OBJCACHE= turns it off.
OBJCACHE ?= $(shell command -v ccache 2>/dev/null)
VFLAGS := --cc --exe --build
VFLAGS += -I$(ROOT)/rtl                      # spin_sm_layout.svh
VFLAGS += -j 2                               # parallel C++ compile (2-core machines)
VFLAGS += -Wno-fatal                         # lint is its own target
# but circular combinational logic (a variable index that keeps a split_var
# whole, a loop through modules) makes every cycle settle again and again:
# the build fails on it rather than run slow
VFLAGS += -Werror-UNOPTFLAT -Werror-SPLITVAR
# and an RTL parameter check ($error or $fatal at elaboration, a USERERROR or
# USERFATAL warning to Verilator) stops the build, not only make lint
VFLAGS += -Werror-USERERROR -Werror-USERFATAL
VFLAGS += $(VCHECK) -MAKEFLAGS "OPT_FAST=$(VOPT) $(if $(OBJCACHE),OBJCACHE=$(OBJCACHE))"
TB_CFLAGS = -O2 -I$(ROOT)/cmodel -I$(ROOT)/tb
TB_HDRS  := tb/bus.h tb/lanes.h tb/link_pipes.h tb/checker.h tb/rtl_net.h tb/spin_obs.h $(C_HDRS)
# The harness: the main loop, the comparison of the two models, one RTL side.
TB_SRCS  := tb/cosim.cpp tb/checker.cpp

# $(call inputs_stamp,FILES,WORDS): the recipe of a stamp file that holds the
# SHA-256 of FILES and of WORDS (the flags), rewritten only when that changes
# (the rule needs FORCE).  A build that depends on the stamp, not on the files'
# times, is made again only when what it reads changed: a checkout, a touch
# or an edit undone leaves it alone.
define inputs_stamp
@mkdir -p $(@D); { cat $(1) | sha256sum; echo '$(2)' | sha256sum; } > $@.tmp; \
  if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
endef

PORTS   ?= 5
# NIC ports a router (concentration: ports 0..NICS-1); the array of 1 is
# build/rtl/p<P>-v<V>, of K > 1 build/rtl/p<P>-v<V>-n<K>
NICS    ?= 1
# Co-simulation routers carry SPIN and escape-VC routing (each switched on
# and off at run time), so their links are 128 bits wide (the route header
# of FAvORS-NMin, and a special message's fork entries with several VCs).
FLITW   := 128
# The router array serves many topologies: its special messages are sized
# for networks of up to 4096 routers (IdW 12, CycW 19: contract
# 12.1), t_DD up to 65535 (TddW 16), and it has all three SmPipe timings,
# chosen at run time (SmPipe 3).  The C model runs with the same widths.
ARRAY_SM := -GIdW=12 -GCycW=19 -GTddW=16 -GSmPipe=3 -GXlatW=10
ARRAY_SM_DEFS := -DSPIN_IDW=12 -DSPIN_CYCW=19 -DSPIN_TDDW=16 -DSPIN_SMPIPE=3 -DSPIN_XLATW=10
ARRAY_DIR := $(RTL_DIR)/p$(PORTS)-v$(VCS)$(if $(filter-out 1,$(NICS)),-n$(NICS))
COSIM   := $(ARRAY_DIR)/Vcosim
# $(RTL_DIR)/p<P>-v<V>/Vcosim: the router with P ports and V VCs, one build
# for every topology of that radix (a pattern rule, so that make -j builds
# several at once); $(RTL_DIR)/p<P>-v<V>-n<K>/Vcosim: with K NIC ports a
# router (concentration, NumNics = K; 1 without the suffix).  Every build starts from an empty directory: an
# incremental Verilator build after an RTL change once linked stale objects
# into a binary that disagreed with the C model (ccache makes the rebuild
# cheap).  It depends on the hash of its sources (p<P>-v<V>.inputs), and
# on libspin.a only for its order: the C sources are in the hash.
cosim_ports = $(word 1,$(subst -v, ,$(1)))
cosim_vcs   = $(word 1,$(subst -n, ,$(word 2,$(subst -v, ,$(1)))))
cosim_nics  = $(or $(word 2,$(subst -n, ,$(1))),1)
$(RTL_DIR)/p%.inputs: FORCE
	$(call inputs_stamp,$(RTL_SRCS) $(RTL_HDRS) $(TB_SRCS) tb/rtl_array.cpp $(TB_HDRS) $(C_SRCS),$(VFLAGS) $(TB_CFLAGS) $* $(FLITW) $(ARRAY_SM) $(ARRAY_CXX) $(if $(filter 1,$(PGO)),$(PGO_GEN) $(PGO_USE) $(PGO_CYCLES)))
.PRECIOUS: $(RTL_DIR)/p%.inputs
# $(call array_verilate,CXXFLAGS): Verilate and compile the router array of
# the target's directory with these C++ flags added (compile and link).
define array_verilate
$(VERILATOR) $(VFLAGS) --top-module spin_router -GNumPorts=$(call cosim_ports,$*) -GNumVcs=$(call cosim_vcs,$*) \
  -GNumNics=$(call cosim_nics,$*) -GFlitW=$(FLITW) -GSpin=1 -GEscape=1 -GNmin=1 -GEarlyCredit=1 $(ARRAY_SM) \
  -CFLAGS "$(TB_CFLAGS) $(1) -DSPIN_PORTS=$(call cosim_ports,$*) -DSPIN_VCS=$(call cosim_vcs,$*) -DSPIN_NICS=$(call cosim_nics,$*) -DSPIN_FLITW=$(FLITW) -DSPIN_ESCAPE=1 $(ARRAY_SM_DEFS)" \
  -LDFLAGS "$(ROOT)/$(LIBSPIN) -lm $(1)" --Mdir $(@D) -o Vcosim $(RTL_SRCS) \
  $(addprefix $(ROOT)/,$(TB_SRCS)) $(ROOT)/tb/rtl_array.cpp >> $(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }
endef
$(RTL_DIR)/p%/Vcosim: $(RTL_DIR)/p%.inputs | $(LIBSPIN)
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "verilator: router with $(call cosim_ports,$*) ports ($(call cosim_nics,$*) NIC), $(call cosim_vcs,$*) VC(s) -> $@ (log: $(@D)/build.log)"
ifeq ($(PGO),1)
	@$(call array_verilate,$(ARRAY_CXX) $(PGO_GEN))
	@echo "pgo: training run of $(PGO_CYCLES) cycles with make sim's knobs (log: $(@D)/train.log)"
	@$(@D)/Vcosim $(SIM_ARGS) --cycles $(PGO_CYCLES) --drain-limit $(PGO_CYCLES) --threads $(THREADS) \
	  +verilator+seed+$(VSEED) > $(@D)/train.log 2>&1; [ $$? -le 1 ] || { tail -20 $(@D)/train.log; exit 1; }
	@rm -f $(@D)/*.o $(@D)/*.a $(@D)/Vcosim
	@echo "pgo: built again with the profile"
	@$(call array_verilate,$(ARRAY_CXX) $(PGO_USE))
else
	@$(call array_verilate,$(ARRAY_CXX))
endif

# The network top is generated per topology and VC count; rewritten only when
# its text changes, so Verilator does not rebuild for nothing.
# (the topology file is a prerequisite when its name can be one: FORCE
# regenerates the top anyway)
TOPO_FILE := $(if $(call knob_only,$(TOPO),$(knob_path_chars) :),$(patsubst file:%,%,$(filter file:%,$(TOPO))))
$(CFG_DIR)/spin_network.sv: $(SPINGEN) $(TOPO_FILE) FORCE
	@mkdir -p $(@D)
	@$(SPINGEN) --topo "$$SPIN_NOC_TOPO" --vcs $(VCS) --flit-width $(FLITW) --escape 1 --out $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

COSIM_TOP := $(CFG_DIR)/top/Vcosim
# A network top is one large model that its cases run briefly: compiled at
# -O1, it built with 27% less CPU than at -O2 (138 s against 189 s of user
# time for mesh3x3@3, ccache off) and ran as fast (0.56 s against 0.62 s for
# the regression's 4,000-cycle SPIN case).  The router array, which every
# other case and make sim run, stays at -O2 (-O1 ran 4% slower there).
TOP_VOPT := -O1
$(COSIM_TOP): $(RTL_SRCS) $(RTL_HDRS) $(CFG_DIR)/spin_network.sv $(TB_SRCS) tb/rtl_top.cpp tb/cosim.vlt $(TB_HDRS) $(LIBSPIN)
	@rm -rf $(@D) && mkdir -p $(@D)
	@printf 'verilator: network top of %s, $(VCS) VC(s) -> $@ (log: $(@D)/build.log)\n' "$$SPIN_NOC_TOPO"
	@$(VERILATOR) $(subst OPT_FAST=$(VOPT),OPT_FAST=$(TOP_VOPT),$(VFLAGS)) --top-module spin_network -I$(ROOT)/rtl -CFLAGS "$(TB_CFLAGS) -I$(ROOT)/$(CFG_DIR)" \
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

# The options of a run, for a recipe: TOPO, TRAFFIC and FAULTS through the
# environment (the knob checks), each one word whatever it holds.
# SIM_KNOB_ARGS: the options of the checked knobs alone (synth/router.mk's
# activity run takes them too).
SIM_KNOB_ARGS = --routing $(ROUTING) --vcs $(VCS) --rate $(RATE) --long-frac $(LONG_FRAC) --seed $(SEED) \
           --spin $(SPIN) --tdd $(TDD) --admit $(ADMIT) --reroute $(REROUTE) --adopt $(ADOPT) --sm-pipe $(SM_PIPE) \
           --admit-occ $(ADMIT_OCC) --window $(WINDOW) --window-slack $(WINDOW_SLACK) \
           --early-credit $(EARLY_CREDIT) --window-notice $(WINDOW_NOTICE) --throttle $(THROTTLE) \
           --min-cycles $(MIN_CYCLES) \
           $(if $(DRAIN_LIMIT),--drain-limit $(DRAIN_LIMIT))
SIM_ARGS = --topo "$$SPIN_NOC_TOPO" --traffic "$$SPIN_NOC_TRAFFIC" --cycles $(CYCLES) $(SIM_KNOB_ARGS) \
           $(if $(FAULTS),--faults "$$SPIN_NOC_FAULTS")
# In a recipe: `set -- COMMAND...; $(RUN_SHOW)` prints the command, each
# word quoted as the shell would need it (bash's printf %q), then runs it;
# its exit status is in rc.
RUN_SHOW = printf '%q ' "$$@"; echo; "$$@"; rc=$$?

# ---- tests ----
C_TESTS := $(patsubst cmodel/tests/%.c,$(BUILD)/cmodel/tests/%,$(wildcard cmodel/tests/test_*.c))
C_TEST_HDRS := $(wildcard cmodel/tests/*.h)
$(BUILD)/cmodel/tests/%: cmodel/tests/%.c $(LIBSPIN) $(C_HDRS) $(C_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(C_STD) $(C_OPT) -Icmodel $< $(LIBSPIN) -lm -o $@

# The knobs of the fragments included below that reach a shell (the tests'
# include time rules use them too), when they are given (their defaults are
# the fragments'); scripts/eval.mk and synth/synth.mk check their own.
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),help)),)
knob_given = $(filter command environment% override,$(origin $(1)))
$(if $(call knob_given,UNIT_SEEDS),$(call knob_check_uints,UNIT_SEEDS,0,4294967295,seeds of make unit-rtl (1 12345), 0 to 2^32-1))
$(if $(call knob_given,UNIT_CYCLES),$(call knob_check_uint,UNIT_CYCLES,1,1000000000000000,cycles of a make unit-rtl run, 1 to 10^15))
$(if $(call knob_given,MUTATE_SEED),$(call knob_check_uint,MUTATE_SEED,0,4294967295,the seed of make mutate's draw, 0 to 2^32-1))
$(if $(call knob_given,MUTATE_COUNT),$(call knob_check_uint,MUTATE_COUNT,1,10000,mutants of make mutate, 1 to 10000))
$(if $(call knob_given,FUZZ_TIME),$(call knob_check_uint,FUZZ_TIME,1,1000000000,seconds a fuzz target runs, 1 or more))
$(if $(call knob_given,FUZZ_SHORT),$(call knob_check_uint,FUZZ_SHORT,1,1000000000,seconds a fuzz target runs, 1 or more))
# SC_ARGS stands in a command as words: no quotes, no file name with blanks
ifeq ($(call knob_is_empty,$(call knob_strip,$(subst $(knob_space),,$(SC_ARGS)),$(knob_word_chars) =)),)
$(call knob_fail,SC_ARGS,options of build/sc/example: letters, digits and . _ - + @ / : $(knob_comma) = separated by blanks)
endif
endif

include tb/unit/unit.mk
include tb/fuzz/fuzz.mk
include scripts/eval.mk
include synth/synth.mk
# Yosys, OpenSTA and the cell library are installed like every other tool the
# first time a synthesis needs them.
synth synth-network: deps

# make synth-router: the router of make sim's network and knobs (TOPO, VCS,
# ROUTING, SPIN, SM_PIPE, TDD, EARLY_CREDIT) in the cell library, sized by
# spingen --router-params (which refuses a radix over the RTL's 16 ports),
# its power from make sim's run (synth/router.mk).
synth-router: deps
	@$(MAKE) --no-print-directory -s $(SPINGEN)
	@params=$$($(SPINGEN) --topo "$$SPIN_NOC_TOPO" --vcs $(VCS) --sm-pipe $(SM_PIPE) --tdd $(TDD) \
	    --router-params) || exit 2; \
	  $(MAKE) --no-print-directory synth-router-run SYNTH_ROUTER_PARAMS="$$params"
include tb/sc/sc.mk
include tb/formal/formal.mk

.PHONY: all help deps sim sim-run sim-top pictures cmodel spinsim lint lengths check check-build check-cosim test test-c unit-rtl regress regress-build regress-run regress-top soak mutate synth synth-router synth-cosim waves waves-check clean FORCE
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
	@echo "  make synth      Yosys area and logic depth per router configuration, and its area, clock"
	@echo "                  and power in the FreePDK45 cell library (OpenSTA) (build/synth/summary.md);"
	@echo "                  make synth-help lists synth-network, synth-summary, synth-selftest,"
	@echo "                  synth-lint, synth-jobs, synth-force and the synthesis knobs"
	@echo "  make synth-router  the router of make sim's network and knobs (TOPO, VCS, ROUTING, SPIN, ...),"
	@echo "                  sized to it: area, clock and power in the cell library (build/synth/router/)"
	@echo "  make synth-cosim  co-simulate the synthesized router netlist against the C model"
	@echo "tests:"
	@echo "  make check      the everyday tier, a few minutes: test-c, lint, one configuration of"
	@echo "                  each unit bench (unit-check), and the co-simulation cases marked for it"
	@echo "                  (check-cosim) on the routers check-build makes"
	@echo "  make test       the whole regression (what CI runs): the targets below in turn"
	@echo "  make lint       verilator --lint-only -Wall on the RTL, then Yosys reads and checks it,"
	@echo "                  then make lengths"
	@echo "  make lengths    no function or always block over 120 lines in cmodel/, tb/, scripts/,"
	@echo "                  synth/ and rtl/ (scripts/check_lengths.py, after its self-test)"
	@echo "  make test-c     the C model's own tests (cmodel/tests/)"
	@echo "  make test-c-san the C model's tests under ASan and UBSan"
	@echo "  make sweep-check  the sweep script's own checks"
	@echo "  make fuzz-short the fuzz targets $(FUZZ_SHORT) s each; make fuzz: FUZZ_TIME=$(FUZZ_TIME) s each"
	@echo "                  (libFuzzer, ASan, UBSan; make fuzz-build builds them; tb/fuzz/fuzz.mk)"
	@echo "  make unit-rtl   each RTL primitive against its C twin (tb/unit/); unit-rtl-build,"
	@echo "                  unit-rtl-clean"
	@echo "  make formal     formal proofs of the datapath, the router and the SPIN FSM (yosys-smtbmc,"
	@echo "                  z3; docs/formal.md); formal-selftest: each proof fails on a deliberate"
	@echo "                  break; formal-list lists both; FORMAL_ONLY=job,... FORMAL_JOBS=$(FORMAL_JOBS)"
	@echo "  make waves-check  short waveforms, checked against both GTKWave views"
	@echo "  make regress    the co-simulation cases (pytest, tb/regress/cases.py); ARGS='-k mesh8x8'"
	@echo "                  selects; regress-build builds their binaries, regress-run runs them,"
	@echo "                  regress-top builds the mesh3x3 network tops they use (1- and 3-cycle links)"
	@echo "  make soak       the long co-simulation campaign, not in make test (build/soak/summary.md)"
	@echo "  make mutate     one-line breaks of the RTL and C model, each must be caught by the unit"
	@echo "                  benches or the co-simulation (build/mutate/report.md; MUTATE_SEED="
	@echo "                  MUTATE_COUNT=; minutes, not in make test)"
	@echo "evaluation (scripts/eval.mk, docs/results.md):"
	@echo "  make sweep      latency/accepted sweeps of the C model, live and paper mode, to 3x"
	@echo "                  saturation (build/sweep/); SWEEP_QUICK=1 SWEEP_TRAFFIC= SWEEP_CONFIGS="
	@echo "                  SWEEP_MODES= SWEEP_CYCLES= SWEEP_JOBS="
	@echo "  make sweep-sat  the sweep, then runs at 1x, 2x, 3x saturation: post_saturation.md;"
	@echo "                  SWEEP_SAT_CYCLES=$(SWEEP_SAT_CYCLES) SWEEP_SAT_SEEDS=\"$(SWEEP_SAT_SEEDS)\" SWEEP_SAT_DRAIN= (hours: nice it)"
	@echo "  make ppa        performance per area and per mW from the live sweep and make synth SYNTH_EARLY=1 (build/ppa/; PPA_MODE=local or early)"
	@echo "  make bench      C model and co-simulation speed (build/bench/)"
	@echo "  make bench-vflags  co-simulation speed under each Verilator flag (build/bench/vflags.md)"
	@echo "housekeeping:"
	@echo "  make deps       install the missing Debian packages (scripts/install-deps.sh; every"
	@echo "                  target above that needs a tool calls it)"
	@echo "  make clean      remove build/ and generated waveforms"
	@echo "  make help       this list"
	@printf 'knobs: TOPO=%s ROUTING=$(ROUTING) VCS=$(VCS) TRAFFIC=%s RATE=$(RATE)\n' "$$SPIN_NOC_TOPO" "$$SPIN_NOC_TRAFFIC"
	@echo "       LONG_FRAC=$(LONG_FRAC) CYCLES=$(CYCLES) SEED=$(SEED) WAVES=$(WAVES) VSEED=$(VSEED) THREADS=$(THREADS)"
	@echo "       DRAIN_LIMIT=$(DRAIN_LIMIT)  (cycles to deliver what is left after injection; empty: 100000)"
	@echo "       SPIN=$(SPIN) TDD=$(TDD) SPEED=$(SPEED)  (SPEED=1: the speed build, no waveforms)"
	@echo "       PGO=$(PGO) NATIVE=$(NATIVE)  (make sim's build: 1: GCC profile-guided; 1: -march=native)"
	@echo "       SPIN_MODE=$(SPIN_MODE) (live|paper) ADMIT=$(ADMIT) (2: gated by the window) REROUTE=$(REROUTE) ADOPT=$(ADOPT) SM_PIPE=$(SM_PIPE)"
	@echo "       ADMIT_OCC=$(ADMIT_OCC)  (occupancy admission: 1 at most one busy network input, 2 none)"
	@echo "       WINDOW=$(WINDOW) WINDOW_SLACK=$(WINDOW_SLACK) WINDOW_NOTICE=$(WINDOW_NOTICE)  (injection window: packets a node may have in flight, 0 no limit; 1: until the delivery notice is back)"
	@echo "       EARLY_CREDIT=$(EARLY_CREDIT)  (1: a downstream VC is free in the cycle its credit arrives)"
	@echo "       THROTTLE=$(THROTTLE)  (recovery throttle: its epoch in cycles, 0 off)"
	@echo "       MIN_CYCLES=$(MIN_CYCLES)  (1: minimal routes by zero-load cycles, 0: by hops)"
	@printf '       FAULTS=%s  (links failing at run time: CYCLE@ROUTER:PORT,... or file:PATH)\n' "$$SPIN_NOC_FAULTS"
	@echo "       VIEW=$(VIEW) ROUTER=$(ROUTER) WAVE_FROM=$(WAVE_FROM) WAVE_TO=$(WAVE_TO)  (make waves)"
	@echo "internal (called by the targets above): sim-run"

deps:
	@scripts/install-deps.sh

cmodel spinsim: $(SPINSIM) $(SPINGEN)

# The router build depends on the topology's radix, known once spingen runs.
# The RTL takes the C model's radix limit, 16 (spin_pkg::MaxPorts and
# TOPO_MAX_PORTS: port masks of 16 bits), so spingen refuses a larger radix
# first; the check below holds the RTL's limit should the C model's grow.
# The outputs of the last run of this TOPO go first, before anything is built
# or checked, so that a run refused or failed leaves nothing that looks like
# its result (the binaries remove theirs again once their options are read).
sim: deps
	@rm -f $(SIM_OUTPUTS)
	@$(MAKE) --no-print-directory -s $(SPINGEN)
	@ports=$$($(SPINGEN) --topo "$$SPIN_NOC_TOPO" --radix) || exit 2; \
	  nics=$$($(SPINGEN) --topo "$$SPIN_NOC_TOPO" --nics) || exit 2; \
	  if [ $$ports -gt 16 ]; then \
	    echo "error: TOPO=$$SPIN_NOC_TOPO: radix $$ports exceeds the RTL's 16 ports (spin_pkg::MaxPorts)" >&2; \
	    exit 2; \
	  fi; \
	  $(MAKE) --no-print-directory sim-run PORTS=$$ports NICS=$$nics

# After the run, its record (deadlocks.json, links.json) becomes the two
# pictures (scripts/pictures.py), also when the run failed (exit 1: the
# record is that run's), never after bad input (exit 2: the run did not
# start); with WAVES=1 the deadlock record goes beside the waveform, where
# make waves looks for it.
sim-run: $(COSIM)
	@mkdir -p $(RUN_DIR) waves
	@rm -f $(SIM_OUTPUTS)
	@set -- $(COSIM) $(SIM_ARGS) --threads $(THREADS) --json $(RUN_DIR)/summary.json \
	  --deadlocks $(RUN_DIR)/deadlocks.json --links $(RUN_DIR)/links.json \
	  $(if $(filter 1,$(WAVES)),--waves waves/$(TOPO_DIR).fst,--waves-on-fail waves/$(TOPO_DIR).fst) \
	  +verilator+seed+$(VSEED); $(RUN_SHOW); \
	if [ $$rc -le 1 ] && [ -f $(RUN_DIR)/deadlocks.json ] && [ -f $(RUN_DIR)/links.json ]; then \
	  $(PICTURES_PYTHON) scripts/pictures.py $(RUN_DIR) || exit 1; \
	  $(if $(filter 1,$(WAVES)),cp $(RUN_DIR)/deadlocks.json waves/$(TOPO_DIR).deadlocks.json;) \
	fi; \
	exit $$rc

# The same record and pictures from the C model alone (spinsim), with the
# knobs of make sim: build/<topo>/cmodel/.
pictures: deps
	@rm -f $(PICTURES_OUTPUTS)
	@$(MAKE) --no-print-directory -s $(SPINSIM)
	@mkdir -p $(RUN_DIR)/cmodel
	@set -- $(SPINSIM) $(SIM_ARGS) --json $(RUN_DIR)/cmodel/summary.json \
	  --deadlocks $(RUN_DIR)/cmodel/deadlocks.json --links $(RUN_DIR)/cmodel/links.json; $(RUN_SHOW); \
	if [ $$rc -le 1 ] && [ -f $(RUN_DIR)/cmodel/deadlocks.json ] && [ -f $(RUN_DIR)/cmodel/links.json ]; then \
	  $(PICTURES_PYTHON) scripts/pictures.py $(RUN_DIR)/cmodel || exit 1; \
	fi; \
	exit $$rc

sim-top: deps
	@rm -f $(SIM_TOP_OUTPUTS)
	@$(MAKE) --no-print-directory -s $(COSIM_TOP)
	@mkdir -p $(BUILD)/$(TOPO_DIR) waves
	@set -- $(COSIM_TOP) $(SIM_ARGS) --json $(BUILD)/$(TOPO_DIR)/summary-top.json \
	  $(if $(filter 1,$(WAVES)),--waves waves/$(TOPO_DIR)-top.fst,--waves-on-fail waves/$(TOPO_DIR)-top.fst) \
	  +verilator+seed+$(VSEED); $(RUN_SHOW); exit $$rc

# C model unit tests: each binary ends with "N passed, N failed".
test-c: $(C_TESTS)
	@for t in $(C_TESTS); do echo "== $$t"; \
	  out=$$($$t cmodel/tests/data 2>&1); rc=$$?; \
	  printf '%s\n' "$$out" | grep '^FAIL' | head -20; printf '%s\n' "$$out" | tail -3; \
	  [ $$rc -eq 0 ] || { echo "test-c: $$t failed (exit status $$rc)"; exit 1; }; done

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
REGRESS_TOP    := $(BUILD)/mesh3x3/v2/top/Vcosim
# the generated top with 3-cycle links (spin_link_pipe on every link)
REGRESS_TOP_L3 := $(BUILD)/mesh3x3@3/v1/top/Vcosim
REGRESS_ARRAYS := p5-v1 p5-v2 p5-v3 p5-v4 p3-v1 p6-v2 p7-v1 p7-v1-n2 p15-v1-n4
regress-build: $(SPINSIM) $(SPINGEN) $(SC_EXAMPLE)
	@$(MAKE) --no-print-directory -j2 $(foreach a,$(REGRESS_ARRAYS),$(BUILD)/rtl/$(a)/Vcosim)
	@$(MAKE) --no-print-directory $(REGRESS_TOP) TOPO=mesh3x3 VCS=2
	@$(MAKE) --no-print-directory $(REGRESS_TOP_L3) TOPO=mesh3x3@3 VCS=1
	@$(MAKE) --no-print-directory $(BUILD)/rtl-sc/p5-v1/Vcosim PORTS=5 VCS=1

regress: deps regress-build
	@$(MAKE) --no-print-directory regress-run

# The cases alone, on binaries already built.
# ARGS reaches pytest through scripts/with_args.py (the knob checks).
REGRESS_PYTEST = BUILD=$(BUILD) PYTHONDONTWRITEBYTECODE=1 $(REGRESS_PYTHON) scripts/with_args.py \
  SPIN_NOC_ARGS ARGS -- $(REGRESS_PYTHON) -m pytest
REGRESS_RUN = $(REGRESS_PYTEST) tb/regress -rA --tb=short \
  -n $(REGRESS_JOBS) --junitxml=$(BUILD)/regress/junit.xml --durations=10
regress-run:
	@mkdir -p $(BUILD)/regress
	$(REGRESS_RUN)

# The soak campaign (not part of make test): tb/regress/soak.py, long
# co-simulations over topologies, VC counts, routings, seeds and VSEEDs, more
# than 10^8 router-cycles; its summary goes to $(SOAK_DIR)/summary.md.  It takes
# about an hour on 2 cores: run it as `nice make soak`.  ARGS as for regress.
SOAK_DIR := $(BUILD)/soak
soak: deps regress-build
	@rm -rf $(SOAK_DIR) && mkdir -p $(SOAK_DIR)
	@t0=$$SECONDS; \
	$(REGRESS_PYTEST) tb/regress/soak.py \
	  -rfE --tb=short -n $(REGRESS_JOBS) --junitxml=$(SOAK_DIR)/junit.xml; rc=$$?; \
	BUILD=$(BUILD) PYTHONDONTWRITEBYTECODE=1 $(REGRESS_PYTHON) tb/regress/soak_report.py \
	  $(SOAK_DIR) --elapsed $$((SECONDS - t0)) > $(SOAK_DIR)/summary.md; rc2=$$?; \
	sed -n '3,12p' $(SOAK_DIR)/summary.md; echo "soak: $(SOAK_DIR)/summary.md"; \
	[ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]

# The mutation campaign (not part of make test): scripts/mutate.py breaks one
# line of the last commit's RTL or C model at a time, in a copy under
# $(BUILD)/mutate/tree, and reports what caught each break.
MUTATE_SEED  ?= 1
MUTATE_COUNT ?= 20
mutate:
	$(REGRESS_PYTHON) scripts/mutate.py --seed $(MUTATE_SEED) --count $(MUTATE_COUNT) \
	  --out $(abspath $(BUILD))/mutate

# The generated network top alone (the "top" and its "powerup" cases):
# spingen's wiring (corner, edge and inner routers of a 3x3 mesh).  One
# build only: a flat Verilator build takes minutes.
regress-top: deps $(SPINGEN)
	@$(MAKE) --no-print-directory $(REGRESS_TOP) TOPO=mesh3x3 VCS=2
	@$(MAKE) --no-print-directory $(REGRESS_TOP_L3) TOPO=mesh3x3@3 VCS=1
	@mkdir -p $(BUILD)/regress
	$(REGRESS_RUN) -k top-mesh3x3

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
# on, 1 and 2 VCs, t_DD 8 at 0.8 so that probes cross router 5): every
# signal they name exists with the width they assume, the special-message
# layout they cut is the RTL's, the fields they split out hold legal values
# (special messages among them), and GTKWave (on a virtual display, when
# xvfb-run is there) shows every trace.
WCHECK_DIR := $(BUILD)/waves-check
waves-check: $(SPINGEN)
	@$(MAKE) --no-print-directory -j2 $(BUILD)/rtl/p5-v1/Vcosim $(BUILD)/rtl/p5-v2/Vcosim
	@for v in 1 2; do \
	  mkdir -p $(WCHECK_DIR)/v$$v; \
	  echo "waves-check: mesh4x4, VCS=$$v, 300 cycles, SPIN on, t_DD 8"; \
	  $(BUILD)/rtl/p5-v$$v/Vcosim --topo mesh4x4 --routing favors_min --vcs $$v --rate 0.8 \
	    --cycles 300 --spin 1 --tdd 8 --waves $(WCHECK_DIR)/v$$v/mesh4x4.fst > $(WCHECK_DIR)/v$$v/sim.log \
	    || { tail -20 $(WCHECK_DIR)/v$$v/sim.log; exit 1; }; \
	  python3 scripts/gtkw.py --check $(WCHECK_DIR)/v$$v/mesh4x4.fst --values --gtkwave \
	    --ports 5 --vcs $$v --flitw $(FLITW) || exit 1; \
	done
	@echo "waves-check: mesh4x4, paper mode at 0.35, 1500 cycles: the view lands on the first recovery"
	@$(BUILD)/rtl/p5-v1/Vcosim --topo mesh4x4 --routing favors_min --vcs 1 --rate 0.35 --mode paper \
	    --cycles 1500 --spin 1 --waves $(WCHECK_DIR)/land.fst --deadlocks $(WCHECK_DIR)/land.json \
	    > $(WCHECK_DIR)/land.log || { tail -20 $(WCHECK_DIR)/land.log; exit 1; }
	@python3 scripts/gtkw.py --check $(WCHECK_DIR)/land.fst --deadlocks $(WCHECK_DIR)/land.json \
	    --expect-recovery --values --ports 5 --vcs 1 --flitw $(FLITW)

# The everyday tier: make check, a few minutes from a clean clone on 2 cores
# (docs/results.md, "Build and regression times"): the C model's tests, lint,
# one configuration of each RTL unit bench, and the co-simulation cases of
# tb/regress/cases.py's CHECK on the router built with 1 and 3 VCs.  It
# catches a one-line break in either model that these runs reach; make test
# runs all of it and the rest.
CHECK_ARRAYS := p5-v1 p5-v3 p7-v1-n2
CHECK_STEPS  := test-c lint check-build unit-check check-cosim
check: deps
	@$(call timed_steps,check,$(CHECK_STEPS))

# Everything make check runs, built at once (two Verilator builds side by
# side, then the unit benches).
check-build: $(SPINSIM) $(SPINGEN)
	@$(MAKE) --no-print-directory -j2 $(foreach a,$(CHECK_ARRAYS),$(BUILD)/rtl/$(a)/Vcosim) \
	  $(foreach n,$(UNIT_CHECK),$(UNIT_BUILD)/$(n)/Vtest)

check-cosim:
	@$(MAKE) --no-print-directory regress-run ARGS="-m check $(ARGS)"

# $(call timed_steps,NAME,STEPS): make each step in turn, stop at the first
# that fails, and print each one's time (the budgets of make check and make
# test stay in sight).
define timed_steps
t0=$$SECONDS; times=""; \
for step in $(2); do \
  t1=$$SECONDS; \
  $(MAKE) --no-print-directory $$step || { echo "make $(1): $$step failed"; exit 1; }; \
  times="$$times $$step $$((SECONDS - t1)) s,"; \
done; \
echo "make $(1): step times:$${times%,}"; \
echo "make $(1): all passed in $$((SECONDS - t0)) s"
endef

# The steps of make test, in order; each one's time is printed, so that the
# 20-minute budget of CI stays in sight.
TEST_STEP_NAMES := lint test-c sweep-check test-c-san fuzz-short unit-rtl formal waves-check regress
TEST_STEPS := $(TEST_STEP_NAMES)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),help)),)
$(call knob_check_list,TEST_STEPS,$(TEST_STEP_NAMES),steps of make test: $(TEST_STEP_NAMES))
endif
test: deps
	@$(call timed_steps,test,$(TEST_STEPS))

# The save files are generated for the topology's radix, VCS and ROUTER
# (scripts/gtkw.py), with the special-message widths of the FST's router,
# then checked against the FST's names: a warning, not a stop, so a view
# that does not fit still opens.
# The view lands on the first recovery recorded beside the waveform
# (waves/<topo>.deadlocks.json, copied by make sim WAVES=1), unless WAVE_FROM,
# WAVE_TO or ROUTER say otherwise.
WAVES_FST := waves/$(TOPO_DIR).fst
WAVES_DL  := waves/$(TOPO_DIR).deadlocks.json
waves: $(SPINGEN)
	@test -f $(WAVES_FST) || { printf 'waves: no %s: run make sim TOPO=%q WAVES=1 first\n' $(WAVES_FST) "$$SPIN_NOC_TOPO"; exit 2; }
	@ports=$$($(SPINGEN) --topo "$$SPIN_NOC_TOPO" --radix) || exit 2; \
	  args="--ports $$ports --vcs $(VCS) --flitw $(FLITW)$(if $(ROUTER), --router $(ROUTER))"; \
	  land="$(if $(WAVE_FROM), --from $(WAVE_FROM))$(if $(WAVE_TO), --to $(WAVE_TO))"; \
	  if [ -f $(WAVES_DL) ]; then land="$$land --deadlocks $(WAVES_DL)"; fi; \
	  python3 scripts/gtkw.py --out-dir waves --fst $(WAVES_FST) $$args $$land || exit 1; \
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
	    "-GNumPorts=7 -GNumNics=2 -GNumVcs=2 -GSpin=1 -GNmin=1 -GEscape=1 -GFlitW=128" \
	    "-GNumPorts=16 -GNumNics=4 -GSpin=1 -GFlitW=128 -GXlatW=10 -GIdW=12 -GCycW=19" \
	    "-GNumPorts=15 -GNumNics=4 -GNumVcs=3 -GSpin=1 -GNmin=1 -GEscape=1 -GFlitW=128" \
	    "-GNumVcs=2 -GEscape=1" "-GNumVcs=3 -GEscape=1 -GSpin=1 -GFlitW=128" \
	    "-GNumVcs=1 -GEscape=1 -GSpin=1 -GFlitW=128" \
	    "-GNumVcs=1 -GNmin=1 -GSpin=1 -GFlitW=128" "-GNumVcs=3 -GNmin=1 -GEscape=1 -GSpin=1 -GFlitW=128" \
	    "-GSpin=1 -GFlitW=128 -GSmPipe=0" "-GSpin=1 -GFlitW=128 -GSmPipe=1" \
	    "-GNumVcs=2 -GSpin=1 -GFlitW=128 -GSmPipe=3" \
	    "-GNumVcs=2 -GEscape=1 -GEarlyCredit=1" "-GSpin=1 -GFlitW=128 -GEarlyCredit=1" \
	    "-GSpin=1 -GFlitW=64 -GIdW=3 -GCycW=6 -GTddW=4 -GSmPipe=0"; do \
	  echo "$(VERILATOR) --lint-only -Wall spin_router $$cfg"; \
	  $(VERILATOR) --lint-only -Wall -Irtl $(LINT_VLT) $(RTL_SRCS) --top-module spin_router $$cfg || exit 1; \
	done
	@for st in 1 15 1023; do \
	  echo "$(VERILATOR) --lint-only -Wall spin_link_pipe -GStages=$$st"; \
	  $(VERILATOR) --lint-only -Wall rtl/spin_link_pipe.sv --top-module spin_link_pipe -GStages=$$st || exit 1; \
	done
	@# parameters out of range: refused at elaboration, naming the parameter
	@mkdir -p $(BUILD)
	@for bad in "-GXlatW=11 -GCycW=19:XlatW must be 1..10" "-GSpin=1 -GFlitW=128 -GXlatW=10:CycW must be at least XlatW + 2" \
	    "-GNumVcs=5:NumVcs must be 1..4" "-GBufDepth=4:BufDepth must hold"; do \
	  echo "$(VERILATOR) --lint-only spin_router $${bad%%:*} (refused)"; \
	  if $(VERILATOR) --lint-only -Irtl $(LINT_VLT) $(RTL_SRCS) --top-module spin_router $${bad%%:*} > $(BUILD)/lint-bad.log 2>&1; then \
	    echo "lint: spin_router $${bad%%:*} was not refused"; exit 1; fi; \
	  grep -q "$${bad#*:}" $(BUILD)/lint-bad.log || { cat $(BUILD)/lint-bad.log; echo "lint: no '$${bad#*:}' in the refusal"; exit 1; }; \
	done
	@if $(VERILATOR) --lint-only rtl/spin_link_pipe.sv --top-module spin_link_pipe -GStages=1024 > $(BUILD)/lint-bad.log 2>&1 || \
	  ! grep -q "Stages must be 1..1023" $(BUILD)/lint-bad.log; then echo "lint: spin_link_pipe Stages=1024 not refused"; exit 1; fi
	@$(MAKE) --no-print-directory synth-lint
	@$(MAKE) --no-print-directory lengths
	@echo "lint: clean"

# Function lengths (scripts/check_lengths.py, universal-ctags): every function
# and method of cmodel/, tb/, scripts/ and synth/, and every always block and
# function of rtl/*.sv, at most 120 lines; first the check's self-test, which
# must find the long definitions of a made-up tree.
lengths: deps
	@python3 scripts/check_lengths.py --self-test
	@python3 scripts/check_lengths.py

clean:
	rm -rf $(BUILD) waves/*.fst waves/*.vcd waves/*.gtkw waves/*.flt waves/check.log waves/*.deadlocks.json
