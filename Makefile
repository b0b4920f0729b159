# skewsim -- one configure-free Makefile.
#
#   make demo       install missing packages (as root), build, run the default study
#   make check      install missing packages (as root), build, run all tests
#   make validate   simulated against the measured H200 (validation/h200)
#   make SANITIZE=address,undefined check
#
PKG_CONFIG ?= pkg-config
CC ?= cc
PKGS := yaml-0.1 gsl zlib

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

LIB_SRC := $(sort $(wildcard src/core/*.c src/config/*.c src/trace/*.c src/gpu/*.c src/out/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/skewsim
LIB := $(BUILD)/libskewsim.a
TESTBIN := $(BUILD)/check_skewsim

.PHONY: all deps demo check test validate clean help

all: deps $(BIN)

# The one dependency step: finds the packages with pkg-config, installs the
# Debian packages when missing and running as root, else says what to run.
deps:
	@sh scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) -c $< -o $@

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

check test: deps $(BIN) $(TESTBIN)
	SKEWSIM_BIN=$(BIN) $(TESTBIN)

validate: deps $(BIN)
	$(BIN) validate -c configs/h200.yaml -d validation/h200

clean:
	rm -rf build build-san

help:
	@sed -n '1,8p' Makefile

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
