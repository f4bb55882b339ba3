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
