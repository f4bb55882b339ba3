# synth/router.mk: the router of make sim's network in the cell library
# (make synth-router; docs/synthesis.md, "The router of your network").
# Included by synth/synth.mk after synth/configs.mk.
#
# The top-level Makefile's synth-router asks spingen --router-params for
# what a router of the network TOPO needs (its ports and NIC ports, the
# special messages' widths, the bits of t_DD and of its links' latencies,
# with VCS, SM_PIPE and TDD) and runs synth-router-run with them in
# SYNTH_ROUTER_PARAMS (Name=Value words).  They become the row `router`,
# with the parts make sim's knobs build in: SPIN (Spin, SmPipe),
# EARLY_CREDIT (EarlyCredit), ROUTING favors_nmin (Nmin) or escape
# (Escape).  Its power comes from the activity of make sim's own run of that
# network (its knobs, SIM_KNOB_ARGS of the top-level Makefile, but CYCLES
# and DRAIN_LIMIT: SYNTH_ACT_WARMUP then SYNTH_ACT_CYCLES cycles, ended by
# synth/cell.py), on the co-simulation
# binary of its radix.  TOPO, TRAFFIC and
# FAULTS stand in that run's command unquoted, so synth/synth.mk lets
# through only names and paths of letters, digits and . _ - + @ / : ,

ifeq ($(call knob_is_empty,$(SYNTH_ROUTER_PARAMS)),)
ifeq ($(call knob_only,$(subst $(knob_space),,$(SYNTH_ROUTER_PARAMS)),$(knob_name_chars) =),)
$(call knob_fail,SYNTH_ROUTER_PARAMS,Name=Value words of spingen --router-params (make synth-router sets it))
endif
endif
ifneq ($(strip $(SYNTH_ROUTER_PARAMS)),)
synth_router_kv = $(patsubst $(1)=%,%,$(filter $(1)=%,$(SYNTH_ROUTER_PARAMS)))
# The activity run starts in build/synth/router/: a file a knob names, from
# the repository root.
synth_router_abs = $(if $(filter $(1):%,$(2)),$(1):$(abspath $(patsubst $(1):%,%,$(2))),$(2))
SYNTH_ROUTER_EXTRA := $(addprefix -G,$(SYNTH_ROUTER_PARAMS)) -GSpin=$(SPIN) -GSmPipe=$(SM_PIPE) \
  -GEarlyCredit=$(EARLY_CREDIT) $(if $(filter favors_nmin,$(ROUTING)),-GNmin=1) \
  $(if $(filter escape,$(ROUTING)),-GEscape=1)
$(call synth_config, router, $(VCS), $(SYNTH_ROUTER_EXTRA), --routing $(ROUTING))
SYNTH_ACT.router := --topo $(call synth_router_abs,file,$(TOPO)) \
  --traffic $(call synth_router_abs,trace,$(TRAFFIC)) $(SIM_KNOB_ARGS) \
  $(if $(FAULTS),--faults $(call synth_router_abs,file,$(FAULTS)))
SYNTH_BIN.router := $(or $(RTL_DIR),$(BUILD)/rtl)/p$(call synth_router_kv,NumPorts)-v$(VCS)$(if \
  $(filter-out 1,$(call synth_router_kv,NumNics)),-n$(call synth_router_kv,NumNics))/Vcosim
endif

.PHONY: synth-router-run
synth-router-run:
	@[ -n '$(SYNTH_ROUTER_PARAMS)' ] || { echo "synth-router-run: run make synth-router"; exit 2; }
	@$(synth_check_knobs)
	@t0=$$(date +%s); \
	  $(MAKE) -f $(SYNTH_MAIN_MK) --no-print-directory $(SYNTH_DIR)/router/power.done && \
	  $(MAKE) -f $(SYNTH_MAIN_MK) --no-print-directory synth-summary SYNTH_SHOW=router && \
	  echo "synth-router: done in $$(( $$(date +%s) - t0 )) s (wall clock); see $(SYNTH_DIR)/router/ and $(SYNTH_DIR)/summary.md"
