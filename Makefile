# skewsim -- one configure-free Makefile.
#
#   make            build only; stops with a message if a library is missing
#   make demo       install missing packages (as root), build, run the default study
#   make check      install missing packages (as root), build, run all tests
#   make validate   simulated against the measured H200 (validation/h200) and H100s (validation/h100)
#   make validate-quick  the subset of it that CI runs (.ci/run)
#   make SANITIZE=address,undefined check
#   make fuzz       libFuzzer targets, FUZZ_SECONDS (60) each
#   make valgrind   a small run under valgrind memcheck
#   make bench      simulation speed on fixed workloads (docs/performance.md)
#   make check-slurm  a sweep through a real one-node Slurm (installs it, as root)
#
PKG_CONFIG ?= pkg-config
CC ?= cc
PKGS := yaml-0.1 gsl zlib jansson

BUILD := build$(if $(SANITIZE),-san)
WARN := -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion \
        -Wmissing-prototypes -Wstrict-prototypes -Wpointer-arith -Wformat=2 \
        -Wundef -Wvla
CSTD := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT ?= -O2 -g
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)

PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

CFLAGS_ALL = $(CSTD) $(OPT) $(WARN) $(SANFLAGS) -Iinclude $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
LDFLAGS_ALL = $(SANFLAGS) $(LDFLAGS)

LIB_SRC := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/skewsim
LIB := $(BUILD)/libskewsim.a
TESTBIN := $(BUILD)/check_skewsim
STUDY := $(BUILD)/study
STUDY_JOBS ?= 2

.PHONY: all deps libs test-deps demo check test validate validate-quick docs clean help fuzz valgrind bench check-slurm FORCE studies

# A plain `make` never installs anything: it only builds, and stops first
# with one clear line when a library is missing (the `libs` check below).
all: $(BIN)

# The one dependency step: finds the packages with pkg-config, installs the
# Debian packages when missing and running as root, else says what to run.
# Only the targets that name it (demo, check and the other explicit ones
# below) run it.
deps:
	@sh scripts/deps.sh

# Every object waits for this check (order-only), so a missing library is
# one line, not a screen of compiler errors.  When a goal that installs
# (demo, check, ...) is asked for, the check waits for `deps` first, also
# under -j.
INSTALL_GOALS := demo check test validate validate-quick valgrind bench fuzz
ifneq ($(filter $(INSTALL_GOALS),$(MAKECMDGOALS)),)
libs: deps
endif
libs:
	@command -v $(PKG_CONFIG) >/dev/null 2>&1 && $(PKG_CONFIG) --exists $(PKGS) || { \
	    echo "skewsim: missing libraries (pkg-config $(PKGS)): run 'make deps' as root," \
	         "or sh scripts/deps.sh to see the apt-get command" >&2; exit 1; }

$(BUILD)/%.o: %.c | libs
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c | libs
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) -c $< -o $@

# The source commit baked into the binary (src/core/version.c): rewritten on
# every make, replaced only when it changes, so version.o (and nothing else)
# rebuilds after a commit or an edit.  Outside a git checkout: "unknown".
COMMIT_H := $(BUILD)/gen/commit.h
$(COMMIT_H): FORCE
	@mkdir -p $(dir $@)
	@c=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	 printf '#define SKEWSIM_COMMIT "%s"\n' "$$c" > $@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/src/core/version.o: $(COMMIT_H)
$(BUILD)/src/core/version.o: CFLAGS_ALL += -I$(BUILD)/gen
FORCE:

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(LIB) $(PKG_LIBS) -lm

$(TESTBIN): $(TEST_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(TEST_OBJ) $(LIB) $(CHECK_LIBS) $(PKG_LIBS) -lm

# The default study: the calibrated H200 running the FMA kernel at one and
# two waves, on the GigaThread dispatcher and on plain round-robin.
demo: deps $(BIN)
	@sh scripts/demo.sh $(BIN)

# Programs the tests run (rsvg-convert, chromium), installed like the libraries.
test-deps:
	@sh scripts/test-deps.sh

# TEST_JOBS: how many processes run the test suites (tests/check_main.c;
# one suite each at a time, reports printed in one order whatever the number)
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check test: deps test-deps $(BIN) $(TESTBIN) $(STUDY)
	SKEWSIM_BIN=$(BIN) SKEWSIM_TEST_JOBS=$(TEST_JOBS) $(TESTBIN)
	@sh tests/runner-selftest.sh $(TESTBIN)
	@sh scripts/study.sh -q $(BIN) $(STUDY) $$($(STUDY) list)
	@# docs/config.md is generated (make docs): it must match the schema
	@$(BIN) config --help-config > $(BUILD)/config-keys.txt
	@sed -n '/^```$$/,/^```$$/p' docs/config.md | sed '1d;$$d' | cmp -s - $(BUILD)/config-keys.txt || \
	   { echo 'docs/config.md is out of date with the schema: run make docs' >&2; exit 1; }

# The studies of docs/experiments/ (docs/experiments/README.md): make
# study-NAME reruns one (maps, sweep into build/studies/NAME, report), make
# studies all of them and the index.  make check runs a cut-down version of
# each (spec-quick.yaml) into a scratch copy, so none of them rots.  The
# studies are the tool's own registry (`build/study list`), so a new one
# needs no line here.
# The study tool: every tools/study/*.c (study.c, the common part, and one
# study_NAME.c per study: tools/study/README.md).
STUDY_SRC := $(sort $(wildcard tools/study/*.c))
STUDY_OBJ := $(STUDY_SRC:%.c=$(BUILD)/%.o)
$(STUDY): $(STUDY_OBJ) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(STUDY_OBJ) $(LIB) $(PKG_LIBS) -lm

study-%: $(BIN) $(STUDY)
	@STUDY_JOBS=$(STUDY_JOBS) sh scripts/study.sh $(BIN) $(STUDY) $*

studies: $(BIN) $(STUDY)
	@STUDY_JOBS=$(STUDY_JOBS) sh scripts/study.sh $(BIN) $(STUDY) $$($(STUDY) list)

# make check-slurm: a one-node Slurm on localhost brought up in a temporary
# directory (slurmctld and slurmd installed with apt-get when missing, as
# root), a sweep submitted as an array job through the project's own
# submission path, and its collected results compared byte for byte with the
# same sweep run locally; tests/slurm/check-slurm.sh says more.
check-slurm: deps $(BIN)
	sh tests/slurm/check-slurm.sh $(BIN)

# make validate: its six parts (-d validation/h200, --measured
# .../capture, the H100s: -d validation/h100 and --measured
# validation/h100/cluster, validation/h100/power and validation/h100/sdata
# against configs/h100.yaml)
# always run; one summary line each (criteria failed / total, exit, time),
# and it fails at the end if any failed.  validate-quick: the subset
# .ci/run runs (scripts/validate.sh says which).
validate: deps $(BIN)
	@sh scripts/validate.sh $(BIN)

validate-quick: deps $(BIN)
	@sh scripts/validate.sh -q $(BIN)

# docs/config.md is generated from the schema table, the one place keys live.
docs: $(BIN)
	@{ echo '# Configuration keys'; echo; \
	   echo 'Generated by `make docs` from the schema table (`skewsim config --help-config`).'; \
	   echo 'YAML nests the dotted keys: `sm.warp_schedulers: 4` is `sm:` / `  warp_schedulers: 4`.'; \
	   echo 'Every number in configs/h200.yaml carries its source there; see docs/calibration.md.'; \
	   echo 'A config may start with `include: FILE` (relative to the including file): FILE is loaded'; \
	   echo 'first and the rest of the file overrides it (configs/teach/tiny4.yaml includes tiny-base.yaml).'; \
	   echo; echo '```'; $(BIN) config --help-config; echo '```'; } > docs/config.md

# make fuzz: the libFuzzer targets of tests/fuzz/ (clang-14, ASan + UBSan),
# each run FUZZ_SECONDS on its seed corpus; tests/fuzz/run.sh says more.
FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_TARGETS := config trace sass sweep accelsim
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(CSTD) -O1 -g $(WARN) $(FUZZ_SAN) -Iinclude $(PKG_CFLAGS) -MMD -MP
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
.SECONDARY: $(FUZZ_LIB_OBJ)

fuzz: deps
	@sh tests/fuzz/deps.sh $(FUZZ_CC)
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

$(FUZZ_BUILD)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(PKG_LIBS) -lm

# make valgrind: small runs under memcheck, a successful one and three that
# fail (corrupt gzip, a bad CTA record, the sim.max_time_ns bound) with
# their own exit status, then an Accel-Sim run with its SASS listing, an
# import, a bad Accel-Sim trace, a two-process sweep and a bad sweep spec;
# any memory error or leak exits 99 and fails.
VALGRIND ?= valgrind
# Its report goes to fd 3, the make's stderr; skewsim's expected error line is dropped.
VG = $(VALGRIND) --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all -q --log-fd=3
valgrind: deps $(BIN)
	@command -v $(VALGRIND) >/dev/null || { echo "skewsim: valgrind is missing: apt-get install valgrind" >&2; exit 1; }
	@rm -rf $(BUILD)/valgrind-out
	$(VG) $(BIN) run -c configs/h200.yaml -t tests/data/run/mixed.trace -o $(BUILD)/valgrind-out 3>&2 >/dev/null
	$(VG) $(BIN) run -c configs/h200.yaml -t tests/data/bad/gz_bad_crc.trace.gz -o $(BUILD)/valgrind-out 3>&2 2>/dev/null; test $$? = 2
	$(VG) $(BIN) run -c configs/h200.yaml -t tests/data/bad/cta_unknown_program.trace -o $(BUILD)/valgrind-out 3>&2 2>/dev/null; test $$? = 2
	$(VG) $(BIN) run -c configs/h200.yaml -t tests/data/bad/huge_loop.trace -o $(BUILD)/valgrind-out \
	    --set sim.max_time_ns=1000000 3>&2 2>/dev/null; test $$? = 4
	@rm -rf $(BUILD)/valgrind-out
	$(VG) $(BIN) run -c configs/h200.yaml -t tests/data/accelsim-sass/kernel-1.traceg \
	    --sass tests/data/accelsim-sass/chain.sass -o $(BUILD)/valgrind-out 3>&2 >/dev/null
	$(VG) $(BIN) import accelsim tests/data/accelsim -o $(BUILD)/valgrind-out/x.trace.gz 3>&2 >/dev/null
	$(VG) $(BIN) run -c configs/h200.yaml -t tests/data/bad/as_cta_twice.traceg -o $(BUILD)/valgrind-out/y \
	    3>&2 2>/dev/null; test $$? = 2
	$(VG) $(BIN) sweep tests/data/sweep/tiny.yaml -o $(BUILD)/valgrind-out/sweep -j 2 3>&2 >/dev/null
	$(VG) $(BIN) sweep tests/data/bad/sweep_axis_bad_value.yaml -o $(BUILD)/valgrind-out/bad \
	    3>&2 2>/dev/null; test $$? = 2
	@rm -rf $(BUILD)/valgrind-out
	@echo "valgrind: clean"

# make bench: simulated warp-instructions, SM-cycles and events per second,
# peak memory and slowdown on fixed workloads (bench/bench.c says what and
# how); the table goes to $(BUILD)/bench.txt and one row to the history in
# docs/performance.md.  About three minutes on two cores.
BENCH := $(BUILD)/bench
$(BENCH): bench/bench.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LDFLAGS_ALL) $(LIB) $(PKG_LIBS) -lm

# BASE (a git revision, default HEAD~1; BASE= for none) is built in its
# own worktree under $(BUILD)/bench-base and run side by side with this
# tree's binary, so a change is judged against the previous commit in one run.
BASE ?= HEAD~1
BASE_DIR := $(BUILD)/bench-base
bench: deps $(BIN) $(BENCH)
	@if [ -n "$(BASE)" ]; then \
	    rm -rf $(BASE_DIR) && git worktree prune && \
	    git worktree add -q --detach $(BASE_DIR) $(BASE) && \
	    $(MAKE) --no-print-directory -C $(BASE_DIR) BUILD=build build/skewsim >/dev/null; fi
	$(BENCH) -b $(BIN) $(if $(BASE),-B $(BASE_DIR)/build/skewsim -C $(BASE_DIR)/configs/h200.yaml) -c configs/h200.yaml -d $(BUILD)/bench-work \
	    -o $(BUILD)/bench.txt -H docs/performance.md

clean:
	rm -rf build build-san build-fuzz

help:
	@sed -n '1,13p' Makefile

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(STUDY_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_BIN:=.d)
