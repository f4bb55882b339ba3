# tb/formal/formal.mk - formal proofs of the datapath primitives (docs/formal.md).
#
# A GNU make fragment for the top-level Makefile (`include tb/formal/formal.mk`).
# Targets:
#   formal           prove every job of tb/formal/formal.py (Yosys, then
#                    yosys-smtbmc with z3): k-induction, or bounded model
#                    checking to a stated depth; build/formal/summary.md
#   formal-selftest  break each module on purpose (a patched copy under
#                    build/formal/selftest/) and check that a proof fails
#   formal-list      the jobs and the breaks
# Knobs: FORMAL_JOBS (proofs at once, default 2), FORMAL_ONLY (comma-separated
# job or break names), FORMAL_TIMEOUT (seconds per solver run).

FORMAL_PYTHON  ?= /usr/bin/python3
FORMAL_JOBS    ?= 2
FORMAL_ONLY    ?=
FORMAL_TIMEOUT ?= 600
# The knobs are checked in make before a shell sees them (scripts/knobs.mk).
ifneq ($(filter formal formal-selftest,$(MAKECMDGOALS)),)
$(call knob_check_uint,FORMAL_JOBS,1,256,a number of proofs at once, 1 or more)
$(call knob_check_uint,FORMAL_TIMEOUT,1,1000000,seconds per solver run, 1 or more)
ifneq ($(FORMAL_ONLY),)
ifeq ($(call knob_only,$(FORMAL_ONLY),$(knob_name_chars) $(knob_comma)),)
$(call knob_fail,FORMAL_ONLY,job or break names separated by commas (make formal-list))
endif
endif
endif
FORMAL_ENV     := YOSYS=$(YOSYS) FORMAL_TIMEOUT=$(FORMAL_TIMEOUT) PYTHONDONTWRITEBYTECODE=1

.PHONY: formal formal-selftest formal-list
formal: deps
	@$(FORMAL_ENV) $(FORMAL_PYTHON) tb/formal/formal.py run --jobs '$(FORMAL_JOBS)' \
	  $(if $(FORMAL_ONLY),--only '$(FORMAL_ONLY)')

formal-selftest: deps
	@$(FORMAL_ENV) $(FORMAL_PYTHON) tb/formal/formal.py selftest --jobs '$(FORMAL_JOBS)' \
	  $(if $(FORMAL_ONLY),--only '$(FORMAL_ONLY)')

formal-list:
	@$(FORMAL_PYTHON) tb/formal/formal.py list
