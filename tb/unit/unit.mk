# tb/unit/unit.mk - unit tests of the RTL primitives against their C twins.
#
# A GNU make fragment for the top-level Makefile (`include tb/unit/unit.mk`);
# also usable alone from the repository root:
#   make -f tb/unit/unit.mk unit-rtl VERILATOR=verilator
#
# Targets:
#   unit-rtl        build every (primitive, parameter set) and run each binary
#                   once per seed of UNIT_SEEDS; fails if any run fails
#   unit-rtl-build  only build
#   unit-rtl-clean  remove $(UNIT_BUILD)
#   unit-check      the everyday tier: one configuration of each bench
#                   (UNIT_CHECK), one seed, UNIT_CHECK_CYCLES cycles
#
# Every configuration is built into $(UNIT_BUILD)/<name>/Vtest, which depends
# on rtl/spin_pkg.sv, the primitive, its bench, the bench harness, the C twin
# header and this file (it holds the flags and parameters), so it is rebuilt
# only when one of those changes.  The parameter list of a configuration is
# passed both to Verilator (-G<Param>=<v>) and to the bench (-DP_<Param>=<v>),
# so binary and RTL always agree.
#
# All paths are relative to the repository root, the directory make runs in.

VERILATOR ?= verilator
UNIT_BUILD ?= build/unit
# One run per seed: the seed drives the bench stimulus and Verilator's X values.
UNIT_SEEDS ?= 1 12345
# Cycles (vectors for spin_route_select) per run; each bench runs >= 100000.
UNIT_CYCLES ?= 200000

UNIT_MK := $(lastword $(MAKEFILE_LIST))

# Verilator flags common to every build, one per line.
UNIT_VFLAGS :=
UNIT_VFLAGS += --cc                # generate C++ for the model
UNIT_VFLAGS += --exe               # link the bench's main() into an executable
UNIT_VFLAGS += --build             # run make on the generated sources
UNIT_VFLAGS += -j 2                # two compile jobs for --build
UNIT_VFLAGS += --assert            # keep the primitives' assertions (illegal stimulus fails)
UNIT_VFLAGS += --x-assign unique   # explicit X assignments become runtime-seeded values
UNIT_VFLAGS += --x-initial unique  # uninitialised state gets runtime-seeded values
UNIT_VFLAGS += -Wno-fatal          # lint warnings do not stop the build
UNIT_VFLAGS += -y rtl              # submodules (spin_fsm's loop buffer) found in rtl/

# Runtime options of every run, one per line (the seed is added per run).
UNIT_RFLAGS :=
UNIT_RFLAGS += +verilator+rand+reset+2   # randomise initial state (FIFO storage, registers)
UNIT_RFLAGS += +cycles+$(UNIT_CYCLES)     # length of the run

UNIT_NAMES :=
UNIT_RUNS :=
# The benches' shared headers.
UNIT_TB_HDRS := tb/unit/unit_tb.h tb/unit/spin_mut_tb.h tb/unit/link_tb.h

# unit_config(name, primitive, bench, C twin header, Param=value list[, C twin library])
define unit_config
UNIT_NAMES += $(1)
UNIT_RUNS += $(foreach s,$(UNIT_SEEDS),unit-run-$(1)-$(s))
# Flags of this build, one per line.
UNIT_ARGS_$(1) :=
UNIT_ARGS_$(1) += --top-module $(2)                      # the primitive is the top
UNIT_ARGS_$(1) += $(foreach p,$(5),-G$(p))               # its parameter set
UNIT_ARGS_$(1) += rtl/spin_pkg.sv                        # link format constants
UNIT_ARGS_$(1) += rtl/$(2).sv                            # the primitive
UNIT_ARGS_$(1) += $(abspath tb/unit/$(3).cpp)            # the bench (absolute: compiled from --Mdir)
UNIT_ARGS_$(1) += -CFLAGS "-O1 -I$(abspath cmodel) $(foreach p,$(5),-DP_$(p))"  # optimise; find the C twin; parameters for the bench
UNIT_ARGS_$(1) += --Mdir $(UNIT_BUILD)/$(1)              # generated sources and objects
UNIT_ARGS_$(1) += -o Vtest                               # name of the binary in --Mdir
UNIT_ARGS_$(1) += $(if $(6),-LDFLAGS "$(abspath $(6))")  # the C twin's code, when not a header

$(UNIT_BUILD)/$(1)/Vtest: rtl/spin_pkg.sv rtl/$(2).sv tb/unit/$(3).cpp $(UNIT_TB_HDRS) $(4) $(6) $(UNIT_MK)
	@rm -rf $(UNIT_BUILD)/$(1) && mkdir -p $(UNIT_BUILD)/$(1)   # no stale objects
	$$(VERILATOR) $$(strip $$(UNIT_VFLAGS) $$(UNIT_ARGS_$(1)))

.PHONY: $(foreach s,$(UNIT_SEEDS),unit-run-$(1)-$(s))
$(foreach s,$(UNIT_SEEDS),unit-run-$(1)-$(s)): unit-run-$(1)-%: $(UNIT_BUILD)/$(1)/Vtest
	@echo "== unit $(1) seed $$*"
	$(UNIT_BUILD)/$(1)/Vtest +verilator+seed+$$* $$(strip $$(UNIT_RFLAGS))
endef

# Round-robin arbiter: N = 1, 2, 3, 5, 8.
$(foreach n,1 2 3 5 8,$(eval $(call unit_config,rr_arbiter_n$(n),spin_rr_arbiter,spin_rr_arbiter_tb,cmodel/arbiter.h,N=$(n))))
# The datapath modules' C twins are in the C model's library (cmodel/datapath.h).
UNIT_LIBSPIN ?= build/cmodel/libspin.a

# FIFO: Width 16, Depth 5 (the router's BUF_DEPTH) and 7; its C twin is
# cmodel/spin_fifo.c.
$(foreach d,5 7,$(eval $(call unit_config,fifo_w16_d$(d),spin_fifo,spin_fifo_tb,cmodel/datapath.h,Width=16 Depth=$(d),$(UNIT_LIBSPIN))))
# Input port, 5 ports, FlitW 128, BufDepth 5 (the C model's): as the
# co-simulation builds it (Escape 1, Nmin 1) with 1 VC at the NIC's port
# (Source 1), 2 VCs at a network port and 4 at the NIC's; as synthesis
# builds it (Escape 0, Nmin 0) with 3 VCs; its C twin is
# cmodel/spin_input_port.c.
$(foreach c,1-1-1-1 2-1-1-0 4-1-1-1 3-0-0-0,$(eval $(call unit_config,input_port_v$(word 1,$(subst -, ,$(c)))_e$(word 2,$(subst -, ,$(c)))_n$(word 3,$(subst -, ,$(c)))_s$(word 4,$(subst -, ,$(c))),spin_input_port,spin_input_port_tb,cmodel/datapath.h,NumPorts=5 NumVcs=$(word 1,$(subst -, ,$(c))) BufDepth=5 FlitW=128 Escape=$(word 2,$(subst -, ,$(c))) Nmin=$(word 3,$(subst -, ,$(c))) Source=$(word 4,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# Switch allocator's output stage: 3, 5 and 8 ports; its C twin is
# cmodel/spin_switch_alloc.c.
$(foreach p,3 5 8,$(eval $(call unit_config,switch_alloc_p$(p),spin_switch_alloc,spin_switch_alloc_tb,cmodel/datapath.h,NumPorts=$(p),$(UNIT_LIBSPIN))))
# Crossbar: 5 ports of 128-bit flits (the co-simulation's), 8 of 64, 3 of
# 16; its C twin is cmodel/spin_crossbar.c.
$(foreach c,5-128 8-64 3-16,$(eval $(call unit_config,crossbar_p$(word 1,$(subst -, ,$(c)))_w$(word 2,$(subst -, ,$(c))),spin_crossbar,spin_crossbar_tb,cmodel/datapath.h,NumPorts=$(word 1,$(subst -, ,$(c))) FlitW=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# Link pipeline: link words of 128-bit flits over 1, 3 and 15 stages (links
# of 2, 4 and 16 cycles), credit words over 2; its C twin is
# cmodel/spin_link_pipe.c.
$(foreach c,135-1 135-3 135-15 6-2,$(eval $(call unit_config,link_pipe_w$(word 1,$(subst -, ,$(c)))_s$(word 2,$(subst -, ,$(c))),spin_link_pipe,spin_link_pipe_tb,cmodel/datapath.h,Width=$(word 1,$(subst -, ,$(c))) Stages=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# Route table: 64 nodes of 5 ports, 9 nodes of escape routing's double
# entries, 16 nodes of 8 ports; its C twin is cmodel/spin_route_table.c.
$(foreach c,64-5-5 9-5-10 16-8-8,$(eval $(call unit_config,route_table_n$(word 1,$(subst -, ,$(c)))_e$(word 3,$(subst -, ,$(c))),spin_route_table,spin_route_table_tb,cmodel/datapath.h,NumNodes=$(word 1,$(subst -, ,$(c))) NumPorts=$(word 2,$(subst -, ,$(c))) EntryW=$(word 3,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# LFSR (no parameters).
$(eval $(call unit_config,lfsr,spin_lfsr,spin_lfsr_tb,cmodel/lfsr.h,))
# Route selection: 5 and 8 ports.
$(foreach p,5 8,$(eval $(call unit_config,route_select_p$(p),spin_route_select,spin_route_select_tb,cmodel/route_select.h,NumPorts=$(p))))
# Output VC tracker: NumVcs 1..4, network port (Eject 0) and ejection port
# (Eject 1); its C twin is cmodel/spin_ovc_tracker.c.
$(foreach v,1 2 3 4,$(foreach e,0 1,$(eval $(call unit_config,ovc_tracker_v$(v)_e$(e),spin_ovc_tracker,spin_ovc_tracker_tb,cmodel/datapath.h,NumVcs=$(v) Eject=$(e),$(UNIT_LIBSPIN)))))

# SPIN: the special-message arbitration of one output, 5 ports (outputs 1
# and 4) and 8 ports (output 7); its C twins spin_offer() and spin_onto_link()
# (cmodel/spin_sm_arb.c, from the C model's library).
$(foreach c,5-1 5-4 8-7,$(eval $(call unit_config,sm_arb_p$(word 1,$(subst -, ,$(c)))_o$(word 2,$(subst -, ,$(c))),spin_sm_arb,spin_sm_arb_tb,cmodel/spin.h,NumPorts=$(word 1,$(subst -, ,$(c))) Out=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))

# SPIN: the loop buffer; its C twin is cmodel/spin_loop_buf.c (the library).
$(eval $(call unit_config,loop_buf,spin_loop_buf,spin_loop_buf_tb,cmodel/spin.h,,$(UNIT_LIBSPIN)))

# SPIN: the probe manager of one port (1 VC at port 1, 2 VCs at port 3, 4 VCs
# at port 4); its C twin is spin_probe_in() of cmodel/spin_probe_mgr.c.
$(foreach c,1-1 2-3 4-4,$(eval $(call unit_config,probe_mgr_v$(word 1,$(subst -, ,$(c)))_p$(word 2,$(subst -, ,$(c))),spin_probe_mgr,spin_probe_mgr_tb,cmodel/spin.h,NumPorts=5 NumVcs=$(word 1,$(subst -, ,$(c))) Port=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))

# SPIN: the move manager of one port and class (Rank 2: move and kill_move,
# Rank 3: probe_move): 1 VC at port 1, 2 VCs at port 3, 4 VCs at port 4; its
# C twins are spin_move_in() and spin_move_through() of
# cmodel/spin_move_mgr.c.
$(foreach c,1-1-2 2-3-3 4-4-2,$(eval $(call unit_config,move_mgr_v$(word 1,$(subst -, ,$(c)))_p$(word 2,$(subst -, ,$(c)))_r$(word 3,$(subst -, ,$(c))),spin_move_mgr,spin_move_mgr_tb,cmodel/spin.h,NumPorts=5 NumVcs=$(word 1,$(subst -, ,$(c))) Port=$(word 2,$(subst -, ,$(c))) Rank=$(word 3,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))

# SPIN: the two bits of the state each chained move manager tests (1, 2 and
# 4 VCs at 5 ports, 1 VC at 8 ports); its C twin is spin_move_flags() of
# cmodel/spin_move_flags.c.
$(foreach c,5-1 5-2 5-4 8-1,$(eval $(call unit_config,move_flags_p$(word 1,$(subst -, ,$(c)))_v$(word 2,$(subst -, ,$(c))),spin_move_flags,spin_move_flags_tb,cmodel/spin.h,NumPorts=$(word 1,$(subst -, ,$(c))) NumVcs=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))

# SPIN: the counter FSM with its loop buffer (1 VC, and 2 VCs at 5 ports);
# its C twins are spin_fsm_pre() and spin_fsm_post() of cmodel/spin_fsm.c.
# The bench reads the observation word's field table, tb/spin_obs.h.
$(foreach v,1 2,$(eval $(call unit_config,fsm_v$(v),spin_fsm,spin_fsm_tb,cmodel/spin.h tb/spin_obs.h rtl/spin_loop_buf.sv,NumPorts=5 NumVcs=$(v),$(UNIT_LIBSPIN))))

# The everyday tier (make check): one configuration of each bench, one seed,
# shorter runs.
UNIT_CHECK ?= rr_arbiter_n5 fifo_w16_d5 lfsr route_select_p5 ovc_tracker_v2_e0 sm_arb_p5_o1 \
              loop_buf probe_mgr_v2_p3 move_mgr_v1_p1_r2 move_flags_p5_v2 fsm_v1
UNIT_CHECK_CYCLES ?= 50000
ifneq ($(filter-out $(UNIT_NAMES),$(UNIT_CHECK)),)
$(error UNIT_CHECK: no unit configuration named $(filter-out $(UNIT_NAMES),$(UNIT_CHECK)))
endif

.PHONY: unit-rtl unit-rtl-build unit-rtl-clean unit-check
unit-check: $(foreach n,$(UNIT_CHECK),$(UNIT_BUILD)/$(n)/Vtest)
	@set -o pipefail; for n in $(UNIT_CHECK); do \
	  echo "== unit $$n seed 1, $(UNIT_CHECK_CYCLES) cycles"; \
	  $(UNIT_BUILD)/$$n/Vtest +verilator+seed+1 +verilator+rand+reset+2 +cycles+$(UNIT_CHECK_CYCLES) \
	    | tail -1 || exit 1; \
	done
	@echo "unit-check: $(words $(UNIT_CHECK)) configurations passed"

unit-rtl: $(UNIT_RUNS)
	@echo "unit-rtl: $(words $(UNIT_RUNS)) runs of $(words $(UNIT_NAMES)) configurations passed"
unit-rtl-build: $(foreach n,$(UNIT_NAMES),$(UNIT_BUILD)/$(n)/Vtest)
unit-rtl-clean:
	rm -rf $(UNIT_BUILD)
