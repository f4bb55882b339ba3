# tb/fuzz/fuzz.mk - fuzzing the input parsers, and the C model's tests under
# sanitizers (included by the Makefile).
#
# libFuzzer targets, one per input the tools read (tb/fuzz/fuzz_*.c):
#   topology  the topology file parser (topo_parse_buf), then routing masks
#   trace     the trace parser (traffic_trace_buf), then every packet
#   cli       the command line (cli_parse), then named topologies and patterns
# built by Debian's clang-14 with AddressSanitizer and
# UndefinedBehaviorSanitizer (libclang-rt-14-dev holds libFuzzer) into
# build/fuzz/.  Each starts from a corpus under build/fuzz/corpus/<target>/,
# seeded from the repository's own topology and trace files
# (tb/fuzz/cli_seeds.txt for the command line), and first runs every input
# of tb/fuzz/regress/<target>/: inputs that once broke a parser, kept so
# that the fix stays.  A finding stops make, with the input saved under
# build/fuzz/findings/<target>/.
#
#   make fuzz FUZZ_TIME=N   each target N seconds (300)
#   make fuzz-short         each target FUZZ_SHORT seconds (15): part of make test
#   make test-c-san         the C model's tests built with
#                           -fsanitize=address,undefined into build/cmodel-san/
#                           and run: part of make test

CLANG      ?= clang-14
FUZZ_TIME  ?= 300
FUZZ_SHORT ?= 15
FUZZ_DIR   := $(BUILD)/fuzz
FUZZ_TARGETS := topology trace cli
# -fno-sanitize-recover: undefined behaviour stops the run like a crash
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c99 -Wall -Wextra -Werror -pedantic -g -O1 $(FUZZ_SAN) -Icmodel
# the C model objects, instrumented for coverage (no libFuzzer main)
FUZZ_OBJS  := $(patsubst cmodel/%.c,$(FUZZ_DIR)/obj/%.o,$(C_SRCS))
FUZZ_BINS  := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))
# libFuzzer options: a finding's input goes to findings/; stderr and stdout
# of the parsers (their error messages) are closed; 10 s is a hang.
FUZZ_OPTS   = -close_fd_mask=3 -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1

$(FUZZ_DIR)/obj/%.o: cmodel/%.c $(C_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tb/fuzz/fuzz_%.c $(FUZZ_OBJS) $(C_HDRS)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJS) -lm -o $@

# The seed corpus: the repository's files of each kind, copied afresh (the
# corpus directory keeps what the fuzzer adds).
$(FUZZ_DIR)/seeds/topology: FORCE
	@rm -rf $@ && mkdir -p $@ && cp cmodel/tests/data/*.topo tb/scenarios/*.topo tb/topologies/*.topo $@/
$(FUZZ_DIR)/seeds/trace: FORCE
	@rm -rf $@ && mkdir -p $@ && cp cmodel/tests/data/*.trace tb/scenarios/*.trace tb/traces/*.trace $@/
$(FUZZ_DIR)/seeds/cli: tb/fuzz/cli_seeds.txt
	@rm -rf $@ && mkdir -p $@ && grep -v '^#' $< | \
	  while read -r line; do n=$$((n + 1)); printf '%s' "$$line" | tr ' ' '\0' > $@/seed$$n; done

# fuzz-run-<target> SECONDS: the kept inputs once each, then fuzzing.
define fuzz_run
	@mkdir -p $(FUZZ_DIR)/corpus/$(1) $(FUZZ_DIR)/findings/$(1)
	@if ls tb/fuzz/regress/$(1)/* > /dev/null 2>&1; then \
	  echo "fuzz $(1): the kept inputs of tb/fuzz/regress/$(1)/"; \
	  $(FUZZ_DIR)/fuzz_$(1) $(FUZZ_OPTS) tb/fuzz/regress/$(1)/* > $(FUZZ_DIR)/$(1)-regress.log 2>&1 || \
	  { tail -30 $(FUZZ_DIR)/$(1)-regress.log; echo "fuzz $(1): a kept input fails again"; exit 1; }; fi
	@echo "fuzz $(1): $(2) s (log $(FUZZ_DIR)/$(1).log)"
	@$(FUZZ_DIR)/fuzz_$(1) $(FUZZ_OPTS) -max_total_time=$(2) \
	  -artifact_prefix=$(FUZZ_DIR)/findings/$(1)/ $(FUZZ_DIR)/corpus/$(1) $(FUZZ_DIR)/seeds/$(1) \
	  > $(FUZZ_DIR)/$(1).log 2>&1 || \
	  { tail -40 $(FUZZ_DIR)/$(1).log; echo "fuzz $(1): FINDING, input in $(FUZZ_DIR)/findings/$(1)/"; exit 1; }
	@grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' $(FUZZ_DIR)/$(1).log | \
	  sed 's/^/  /'; echo "  corpus $$(ls $(FUZZ_DIR)/corpus/$(1) | wc -l) inputs"
endef

.PHONY: fuzz fuzz-short fuzz-build test-c-san
fuzz-build: deps $(FUZZ_BINS) $(patsubst %,$(FUZZ_DIR)/seeds/%,$(FUZZ_TARGETS))

fuzz: fuzz-build
	$(call fuzz_run,topology,$(FUZZ_TIME))
	$(call fuzz_run,trace,$(FUZZ_TIME))
	$(call fuzz_run,cli,$(FUZZ_TIME))

fuzz-short: fuzz-build
	$(call fuzz_run,topology,$(FUZZ_SHORT))
	$(call fuzz_run,trace,$(FUZZ_SHORT))
	$(call fuzz_run,cli,$(FUZZ_SHORT))

# ---- the C model's tests under AddressSanitizer and UBSan ----
SAN_DIR    := $(BUILD)/cmodel-san
SAN_CFLAGS := $(C_STD) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
SAN_OBJS   := $(patsubst cmodel/%.c,$(SAN_DIR)/%.o,$(C_SRCS))
SAN_TESTS  := $(patsubst cmodel/tests/%.c,$(SAN_DIR)/tests/%,$(wildcard cmodel/tests/test_*.c))

$(SAN_DIR)/%.o: cmodel/%.c $(C_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -c $< -o $@

$(SAN_DIR)/tests/%: cmodel/tests/%.c $(SAN_OBJS) $(C_HDRS) $(C_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -Icmodel $< $(SAN_OBJS) -lm -o $@

# Leaks count too (ASan's leak check is on by default on Linux).
test-c-san: $(SAN_TESTS)
	@for t in $(SAN_TESTS); do echo "== $$t (ASan, UBSan)"; \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  $$t cmodel/tests/data > $$t.log 2>&1; rc=$$?; tail -3 $$t.log; \
	  if [ $$rc -ne 0 ]; then grep -m5 -E 'ERROR|runtime error' $$t.log; exit 1; fi; done
