# tb/sc/sc.mk - the C model as a SystemC module (tb/sc/spin_noc_sc.h) and the
# example system around it (tb/sc/example.cpp), against Debian's
# libsystemc-dev (included by the Makefile, after LIBSPIN and BUILD).
#
#   make sc-example    build build/sc/example and run it on mesh4x4 (SPIN on,
#                      the paper's router at 0.3: deadlocks, resolved);
#                      SC_ARGS='--topo mesh8x8 --rate 0.2' runs another
# The regression (tb/regress/test_systemc.py) runs it with SPIN on and off.

SC_DIR     := $(BUILD)/sc
SC_EXAMPLE := $(SC_DIR)/example
SC_SRCS    := tb/sc/example.cpp tb/sc/spin_noc_sc.cpp
SC_CXXFLAGS ?= -std=c++17 -O2 -Wall -Wextra -Werror
SC_ARGS    ?= --topo mesh4x4 --rate 0.3 --cycles 5000 --paper

.PHONY: sc-example
$(SC_EXAMPLE): $(SC_SRCS) tb/sc/spin_noc_sc.h $(LIBSPIN) $(C_HDRS)
	@mkdir -p $(SC_DIR)
	$(CXX) $(SC_CXXFLAGS) -Icmodel -Itb/sc $(SC_SRCS) $(LIBSPIN) -lsystemc -lm -o $@

# SystemC's banner is switched off (SYSTEMC_DISABLE_COPYRIGHT_MESSAGE).
sc-example: deps $(SC_EXAMPLE)
	SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 $(SC_EXAMPLE) $(SC_ARGS)

# ---- make sim-sc: the co-simulation with the routers as SystemC modules ----
# The router Verilated with --sc (every port of 2 bits or more an sc_bv:
# --pins-bv 2), N instances wired by sc_signals and clocked by one sc_clock
# (tb/sc/rtl_sc.cpp), driven and compared by the same harness as make sim
# (tb/cosim.cpp built with SPIN_SC).  Built without waveforms.
SC_COSIM_DIR := $(BUILD)/rtl-sc/p$(PORTS)-v$(VCS)
SC_COSIM     := $(SC_COSIM_DIR)/Vcosim
SC_VFLAGS    := --sc --exe --build -j 2 -Wno-fatal -Werror-USERERROR -Werror-USERFATAL --pins-bv 2 \
                --x-assign unique --x-initial unique --assert -MAKEFLAGS "OPT_FAST=-O2"
SC_ENV       := SYSTEMC_INCLUDE=/usr/include SYSTEMC_LIBDIR=/usr/lib/$(shell gcc -print-multiarch)

$(SC_COSIM): $(RTL_SRCS) $(RTL_HDRS) $(TB_SRCS) tb/sc/rtl_sc.cpp $(TB_HDRS) $(LIBSPIN)
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "verilator --sc: router with $(PORTS) ports, $(VCS) VC(s) -> $@ (log: $(@D)/build.log)"
	@$(SC_ENV) $(VERILATOR) $(SC_VFLAGS) --top-module spin_router -GNumPorts=$(PORTS) -GNumVcs=$(VCS) \
	  -GFlitW=$(FLITW) -GSpin=1 -GEscape=1 -GNmin=1 -GEarlyCredit=1 $(ARRAY_SM) -I$(ROOT)/rtl \
	  -CFLAGS "$(TB_CFLAGS) -DSPIN_SC -DSPIN_PORTS=$(PORTS) -DSPIN_VCS=$(VCS) -DSPIN_FLITW=$(FLITW) -DSPIN_ESCAPE=1 $(ARRAY_SM_DEFS)" \
	  -LDFLAGS "$(ROOT)/$(LIBSPIN) -lm" --Mdir $(@D) -o Vcosim $(RTL_SRCS) \
	  $(addprefix $(ROOT)/,$(TB_SRCS)) $(ROOT)/tb/sc/rtl_sc.cpp > $(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }

.PHONY: sim-sc sim-sc-run
sim-sc: deps $(SPINGEN)
	@if [ "$(WAVES)" = 1 ]; then echo "sim-sc: WAVES=1: the SystemC co-simulation is built without waveforms; use make sim WAVES=1"; exit 2; fi
	@ports=$$($(SPINGEN) --topo "$$SPIN_NOC_TOPO" --radix) || exit 2; \
	  $(MAKE) --no-print-directory sim-sc-run PORTS=$$ports

sim-sc-run: $(SC_COSIM)
	@mkdir -p $(RUN_DIR)
	SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 $(SC_COSIM) $(SIM_ARGS) --json $(RUN_DIR)/summary-sc.json \
	  +verilator+seed+$(VSEED)
