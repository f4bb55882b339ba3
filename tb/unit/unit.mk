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
# on rtl/spin_pkg.sv, the primitive, its bench, the bench harness (unit_tb.h,
# and spin_tb.h of the SPIN benches), the C twin's headers or library and
# this file (it holds the flags and parameters), so it is rebuilt only when
# one of those changes.  The parameter list of a configuration is passed both
# to Verilator (-G<Param>=<v>) and to the bench (-DP_<Param>=<v>), so binary
# and RTL always agree; a configuration may add parameters for the bench
# alone (the SPIN loop buffer's message layout).
#
# All paths are relative to the repository root, the directory make runs in.

VERILATOR ?= verilator
UNIT_BUILD ?= build/unit
# One run per seed: the seed drives the bench stimulus and Verilator's X values.
UNIT_SEEDS ?= 1 12345
# Cycles (vectors for spin_route_select and spin_move_mgr) per run; each bench
# runs >= 100000.
UNIT_CYCLES ?= 200000

UNIT_MK := $(lastword $(MAKEFILE_LIST))

# Verilator flags common to every build, one per line.
UNIT_VFLAGS :=
UNIT_VFLAGS += --cc                # generate C++ for the model
UNIT_VFLAGS += --exe               # link the bench's main() into an executable
UNIT_VFLAGS += --assert            # keep the primitives' assertions (illegal stimulus fails)
UNIT_VFLAGS += --x-assign unique   # explicit X assignments become runtime-seeded values
UNIT_VFLAGS += --x-initial unique  # uninitialised state gets runtime-seeded values
UNIT_VFLAGS += -Wno-fatal          # lint warnings do not stop the build
UNIT_VFLAGS += -Werror-USERERROR -Werror-USERFATAL   # but a parameter check ($error, $fatal) does
UNIT_VFLAGS += -y rtl              # submodules (spin_fsm's loop buffer) and includes found in rtl/

# Verilator's runtime (verilated.cpp, verilated_threads.cpp) is the same in
# every configuration (no tracing, no SystemC; the benches' -D parameters do
# not reach it) and is about half of a configuration's compile time.  It is
# compiled once, in $(UNIT_RT), and each configuration's generated sources
# are compiled by Verilator's makefile after those objects are copied in,
# newer than its makefile, so that it links them instead of compiling them.
UNIT_RT := $(UNIT_BUILD)/.runtime
UNIT_RT_OBJS := verilated.o verilated_threads.o
# make on the generated sources (the jobs of the make that runs it), through
# ccache when the Makefile found it.
UNIT_VMAKE = $(MAKE) --no-print-directory $(if $(OBJCACHE),OBJCACHE=$(OBJCACHE))

# Runtime options of every run, one per line (the seed is added per run).
UNIT_RFLAGS :=
UNIT_RFLAGS += +verilator+rand+reset+2   # randomise initial state (FIFO storage, registers)
UNIT_RFLAGS += +cycles+$(UNIT_CYCLES)     # length of the run

UNIT_NAMES :=
UNIT_RUNS :=
# The benches' shared headers.
UNIT_TB_HDRS := tb/unit/unit_tb.h tb/unit/spin_tb.h tb/unit/link_tb.h

# unit_config(name, primitive, bench, C twin header, Param=value list[, C twin library[,
#             Param=value list for the bench only]])
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
UNIT_ARGS_$(1) += -CFLAGS "-O1 -I$(abspath cmodel) $(foreach p,$(5) $(7),-DP_$(p))"  # optimise; find the C twin; parameters for the bench
UNIT_ARGS_$(1) += --Mdir $(UNIT_BUILD)/$(1)              # generated sources and objects
UNIT_ARGS_$(1) += -o Vtest                               # name of the binary in --Mdir
UNIT_ARGS_$(1) += $(if $(6),-LDFLAGS "$(abspath $(6))")  # the C twin's code, when not a header

$(UNIT_BUILD)/$(1)/Vtest: rtl/spin_pkg.sv rtl/$(2).sv tb/unit/$(3).cpp $(UNIT_TB_HDRS) $(4) $(6) $(UNIT_MK) \
                          $(UNIT_RT)/verilated.o
	@rm -rf $(UNIT_BUILD)/$(1) && mkdir -p $(UNIT_BUILD)/$(1)   # no stale objects
	$$(VERILATOR) $$(strip $$(UNIT_VFLAGS) $$(UNIT_ARGS_$(1)))
	cp $(foreach o,$(UNIT_RT_OBJS),$(UNIT_RT)/$(o)) $(UNIT_BUILD)/$(1)/
	$$(UNIT_VMAKE) -C $(UNIT_BUILD)/$(1) -f V$(2).mk

.PHONY: $(foreach s,$(UNIT_SEEDS),unit-run-$(1)-$(s))
$(foreach s,$(UNIT_SEEDS),unit-run-$(1)-$(s)): unit-run-$(1)-%: $(UNIT_BUILD)/$(1)/Vtest
	@echo "== unit $(1) seed $$*"
	$(UNIT_BUILD)/$(1)/Vtest +verilator+seed+$$* $$(strip $$(UNIT_RFLAGS))
endef

# The runtime objects, from a build of the smallest primitive (the LFSR,
# whose bench needs nothing else) with the flags of every other; built again
# when Verilator's runtime source changes (another Verilator installed).
UNIT_RT_SRC := $(wildcard $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include/verilated.cpp)
$(UNIT_RT)/verilated.o: $(UNIT_MK) $(UNIT_RT_SRC)
	@rm -rf $(UNIT_RT) && mkdir -p $(UNIT_RT)
	$(VERILATOR) $(strip $(UNIT_VFLAGS) --top-module spin_lfsr rtl/spin_pkg.sv rtl/spin_lfsr.sv \
	  $(abspath tb/unit/spin_lfsr_tb.cpp) -CFLAGS "-O1 -I$(abspath cmodel)" --Mdir $(UNIT_RT) -o Vtest)
	$(UNIT_VMAKE) -C $(UNIT_RT) -f Vspin_lfsr.mk $(UNIT_RT_OBJS)

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
# Switch allocator's output stage: 3, 5, 8 and 16 ports; its C twin is
# cmodel/spin_switch_alloc.c.
$(foreach p,3 5 8 16,$(eval $(call unit_config,switch_alloc_p$(p),spin_switch_alloc,spin_switch_alloc_tb,cmodel/datapath.h,NumPorts=$(p),$(UNIT_LIBSPIN))))
# Crossbar: 5 ports of 128-bit flits (the co-simulation's), 8 of 64, 3 of
# 16, 16 of 128; its C twin is cmodel/spin_crossbar.c.
$(foreach c,5-128 8-64 3-16 16-128,$(eval $(call unit_config,crossbar_p$(word 1,$(subst -, ,$(c)))_w$(word 2,$(subst -, ,$(c))),spin_crossbar,spin_crossbar_tb,cmodel/datapath.h,NumPorts=$(word 1,$(subst -, ,$(c))) FlitW=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# Link pipeline: link words of 128-bit flits over 1, 15 and 63 stages (links
# of 2, 16 and 64 cycles), credit words over 2; its C twin is
# cmodel/spin_link_pipe.c.
$(foreach c,135-1 135-15 135-63 6-2,$(eval $(call unit_config,link_pipe_w$(word 1,$(subst -, ,$(c)))_s$(word 2,$(subst -, ,$(c))),spin_link_pipe,spin_link_pipe_tb,cmodel/datapath.h,Width=$(word 1,$(subst -, ,$(c))) Stages=$(word 2,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# Route table: 64 nodes of 5 ports, 9 nodes of escape routing's double
# entries, 16 nodes of 8 ports; its C twin is cmodel/spin_route_table.c.
$(foreach c,64-5-5 9-5-10 16-8-8,$(eval $(call unit_config,route_table_n$(word 1,$(subst -, ,$(c)))_e$(word 3,$(subst -, ,$(c))),spin_route_table,spin_route_table_tb,cmodel/datapath.h,NumNodes=$(word 1,$(subst -, ,$(c))) NumPorts=$(word 2,$(subst -, ,$(c))) EntryW=$(word 3,$(subst -, ,$(c))),$(UNIT_LIBSPIN))))
# LFSR (no parameters).
$(eval $(call unit_config,lfsr,spin_lfsr,spin_lfsr_tb,cmodel/lfsr.h,))
# Route selection: 5, 8 and 16 ports.
$(foreach p,5 8 16,$(eval $(call unit_config,route_select_p$(p),spin_route_select,spin_route_select_tb,cmodel/route_select.h,NumPorts=$(p))))
# Output VC tracker: NumVcs 1..4, network port (Eject 0) and ejection port
# (Eject 1); its C twin is cmodel/spin_ovc_tracker.c.
$(foreach v,1 2 3 4,$(foreach e,0 1,$(eval $(call unit_config,ovc_tracker_v$(v)_e$(e),spin_ovc_tracker,spin_ovc_tracker_tb,cmodel/datapath.h,NumVcs=$(v) Eject=$(e),$(UNIT_LIBSPIN)))))

# ---- SPIN (docs/microarchitecture.md, section 12) ----
# Each SPIN module against its C twin of the C model's library, through the
# adapters of tb/unit/spin_tb.h.  A configuration's name says its ports (p),
# VCs (v), message widths (w3: IdW 3, CycW 6, the smallest CycW, so that
# the limit CycMax = 30 comes often; w12: IdW 12, CycW 19, the
# co-simulation's) and, where the module has it, SmPipe (s0, s1, s2; s3: all
# three, the bench choosing one at each reset).
UNIT_LIBSPIN ?= build/cmodel/libspin.a
UNIT_SPIN_W3  := IdW=3 CycW=6
UNIT_SPIN_W12 := IdW=12 CycW=19
UNIT_SPIN_HDRS := cmodel/spin.h cmodel/sm_fmt.h rtl/spin_sm_layout.svh
# $(call unit_spin,prefix,module,bench,configs,more dependencies,more
# parameters): one unit_config per config p<P>-v<V>-w<3|12>[-s<S>], named
# prefix_p<P>_v<V>_w<W>[_s<S>]
unit_spin_f = $(word $(2),$(subst -, ,$(1)))
unit_spin_params = NumPorts=$(patsubst p%,%,$(call unit_spin_f,$(1),1)) \
  NumVcs=$(patsubst v%,%,$(call unit_spin_f,$(1),2)) \
  $(UNIT_SPIN_$(subst w,W,$(call unit_spin_f,$(1),3))) \
  $(if $(call unit_spin_f,$(1),4),SmPipe=$(patsubst s%,%,$(call unit_spin_f,$(1),4)))
unit_spin = $(foreach c,$(4),$(eval $(call unit_config,$(1)_$(subst -,_,$(c)),$(2),$(3),\
  $(UNIT_SPIN_HDRS) $(5),$(call unit_spin_params,$(c)) $(6),$(UNIT_LIBSPIN))))

# The input stage: spin_sm_select(), spin_unit_pre's input stage and
# spin_hop_in() (the receiver counts the hop); links of 1 to 16 cycles
# (XlatW 4, the default) with w3, of 1 to 1,024 with w12 (XlatW 10, the
# co-simulation's).
$(call unit_spin,sm_in,spin_sm_in,spin_sm_in_tb,p5-v3-w3-s1 p5-v1-w3-s0 p3-v1-w3-s3)
$(call unit_spin,sm_in,spin_sm_in,spin_sm_in_tb,p5-v1-w12-s2 p8-v3-w12-s3 p16-v1-w12-s2,,XlatW=10)
# The output stage: spin_sm_out() (spin_onto_link(), the offers).
$(call unit_spin,sm_out,spin_sm_out,spin_sm_out_tb,p5-v1-w3-s0 p5-v3-w3-s2 p5-v3-w12-s1 p8-v2-w3-s3 p3-v2-w12-s3 p16-v2-w12-s3)
# The probe manager: spin_probe_in().
$(call unit_spin,probe_mgr,spin_probe_mgr,spin_probe_mgr_tb,p5-v1-w3 p5-v3-w3 p5-v3-w12 p8-v2-w3 p3-v4-w12 p16-v2-w12)
# The move manager: spin_move_in() and spin_next_hop().
$(call unit_spin,move_mgr,spin_move_mgr,spin_move_mgr_tb,p5-v1-w3 p5-v3-w3 p5-v3-w12 p8-v2-w3 p3-v4-w12 p16-v3-w3)
# The loop buffer: loop_latch() and loop_clear().  ForkW is the fork entries'
# bits of the layout (SmK * SmChW; 1 with 1 VC), which the bench checks.
# The module has no IdW: that (of the layout) goes to the bench only.
$(eval $(call unit_config,loop_buf_v1_w3,spin_loop_buf,spin_loop_buf_tb,$(UNIT_SPIN_HDRS),\
  NumPorts=5 NumVcs=1 CycW=6 ForkW=1,$(UNIT_LIBSPIN),IdW=3))
$(eval $(call unit_config,loop_buf_v3_w3,spin_loop_buf,spin_loop_buf_tb,$(UNIT_SPIN_HDRS),\
  NumPorts=5 NumVcs=3 CycW=6 ForkW=106,$(UNIT_LIBSPIN),IdW=3))
$(eval $(call unit_config,loop_buf_v3_w12,spin_loop_buf,spin_loop_buf_tb,$(UNIT_SPIN_HDRS),\
  NumPorts=5 NumVcs=3 CycW=19 ForkW=72,$(UNIT_LIBSPIN),IdW=12))
$(eval $(call unit_config,loop_buf_p16_v2_w12,spin_loop_buf,spin_loop_buf_tb,$(UNIT_SPIN_HDRS),\
  NumPorts=16 NumVcs=2 CycW=19 ForkW=63,$(UNIT_LIBSPIN),IdW=12))

# The counter FSM with its loop buffer: spin_fsm_pre(), spin_fsm_home(),
# spin_take_loop() and spin_fsm_post(), the probe and move managers' C twins
# deciding for it.  ForkW as for the loop buffer; t_DD 6 (TddW 4).  One
# configuration has MaxVcs (4) VCs, where an index one past a port's VCs is
# the next port's VC 0 and not an unused one.  The
# epoch and top router are checked against tb/spin_obs.h's spin_obs_ep and
# spin_obs_top, what the co-simulation checks them against.
UNIT_FSM_DEPS := rtl/spin_loop_buf.sv tb/spin_obs.h
$(call unit_spin,fsm,spin_fsm,spin_fsm_tb,p5-v1-w3,$(UNIT_FSM_DEPS),TddW=4 ForkW=1)
$(call unit_spin,fsm,spin_fsm,spin_fsm_tb,p5-v3-w3,$(UNIT_FSM_DEPS),TddW=4 ForkW=106)
$(call unit_spin,fsm,spin_fsm,spin_fsm_tb,p5-v2-w12,$(UNIT_FSM_DEPS),TddW=4 ForkW=63)
$(call unit_spin,fsm,spin_fsm,spin_fsm_tb,p8-v4-w12,$(UNIT_FSM_DEPS),TddW=4 ForkW=72)
$(call unit_spin,fsm,spin_fsm,spin_fsm_tb,p16-v2-w12,$(UNIT_FSM_DEPS),TddW=4 ForkW=63)

# The everyday tier (make check): one configuration of each bench, one seed,
# shorter runs.
UNIT_CHECK ?= rr_arbiter_n5 fifo_w16_d5 lfsr route_select_p5 ovc_tracker_v2_e0 input_port_v3_e0_n0_s0 switch_alloc_p5 \
              sm_in_p5_v3_w3_s1 sm_out_p5_v3_w3_s2 probe_mgr_p5_v3_w3 move_mgr_p5_v1_w3 loop_buf_v3_w12 \
              fsm_p5_v3_w3
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

# The builds two at a time (Verilator's own step is one thread), then the
# runs one after another (their output stays in order).
UNIT_MAKE = $(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST))
unit-rtl:
	@$(UNIT_MAKE) -j2 unit-rtl-build
	@$(UNIT_MAKE) $(UNIT_RUNS)
	@echo "unit-rtl: $(words $(UNIT_RUNS)) runs of $(words $(UNIT_NAMES)) configurations passed"
unit-rtl-build: $(foreach n,$(UNIT_NAMES),$(UNIT_BUILD)/$(n)/Vtest)
unit-rtl-clean:
	rm -rf $(UNIT_BUILD)
