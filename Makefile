# gpuplan — plain Makefile.  `make` builds the libraries and the CLI;
# `make run` tours the three planning questions; `make check` runs every test.
# User CFLAGS/LDFLAGS are honoured; warnings are errors.

VERSION      := 0.1.0
SOVERSION    := 0
PREFIX       ?= /usr/local
DESTDIR      ?=
BUILD        ?= build
V            ?= 0
ifeq ($(V),0)
Q  := @
say = @printf '  %-6s %s\n' $(1) $(2)
else
Q  :=
say = @:
endif

CC           ?= cc
PKG_CONFIG   ?= pkg-config
PKGS         := yaml-0.1 gsl jansson
LIB_PKGS     := yaml-0.1 gsl
TEST_PKGS    := check

STD          := -std=c11 -D_POSIX_C_SOURCE=200809L
WARN         := -Wall -Wextra -pedantic -Werror -Wshadow -Wconversion \
                -Wcast-qual -Wwrite-strings -Wstrict-prototypes \
                -Wmissing-prototypes -Wformat=2 -Wundef
OPT          ?= -O2
DEBUG        ?= -g
SAN          ?=
DEPCFLAGS     = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
DEPLIBS       = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
TESTCFLAGS    = $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TESTLIBS      = $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
FINAL_CFLAGS  = $(STD) $(WARN) $(OPT) $(DEBUG) $(SAN) -fPIC -MMD -MP \
                -Iinclude -Ilib -I$(BUILD)/gen $(DEPCFLAGS) $(CFLAGS)
FINAL_LDFLAGS = $(SAN) $(LDFLAGS)
LIBS_ALL      = $(DEPLIBS) -lm
# What libgpuplan itself needs (gpuplan.pc's Libs.private): jansson is the CLI's.
LIBS_LIB      = $(shell $(PKG_CONFIG) --libs $(LIB_PKGS) 2>/dev/null) -lm

LIB_SRC   := $(sort $(wildcard lib/*.c))
LIB_OBJ   := $(patsubst lib/%.c,$(BUILD)/lib/%.o,$(LIB_SRC)) $(BUILD)/gen/db_builtin_data.o
CLI_SRC   := $(sort $(wildcard cli/*.c))
CLI_OBJ   := $(patsubst cli/%.c,$(BUILD)/cli/%.o,$(CLI_SRC))
CLI_CMDS  := $(patsubst cli/cmd_%.c,%,$(sort $(wildcard cli/cmd_*.c)))
TEST_SRC  := $(sort $(wildcard tests/check_*.c))
TEST_OBJ  := $(patsubst tests/%.c,$(BUILD)/tests/%.o,$(TEST_SRC) tests/runner.c tests/testutil.c)
SUITES    := $(patsubst tests/check_%.c,%,$(TEST_SRC))
EX_SRC    := $(sort $(wildcard examples/*.c))
EX_BIN    := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EX_SRC))
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))
BENCHES   := $(patsubst tests/bench/bench_%.c,%,$(sort $(wildcard tests/bench/bench_*.c)))
HWDB_YAML := $(sort $(wildcard hwdb/*.yaml hwdb/*/*.yaml))

STATIC    := $(BUILD)/libgpuplan.a
SHARED    := $(BUILD)/libgpuplan.so
CLI       := $(BUILD)/gpuplan
RUNNER    := $(BUILD)/tests/runner

.PHONY: all run check check-api check-threads test sanitize valgrind bench fuzz coverage calib deps man \
        install uninstall clean help examples FORCE

all: $(STATIC) $(SHARED) $(CLI)

help:
	@echo "targets: all run check check-api check-threads sanitize valgrind bench fuzz coverage calib man install uninstall clean deps"

# ---- dependencies -----------------------------------------------------------
# Installs missing Debian packages (apt-get; sudo when not root) or prints the
# exact command.  Skipped once the stamp exists and pkg-config finds them all.
DEB_PKGS := build-essential pkg-config libyaml-dev libgsl-dev libjansson-dev check libsubunit-dev gnuplot-nox
# Every object waits (order-only) for the stamp, so `make -j` never compiles
# before the headers exist.
DEPS_STAMP := $(BUILD)/.deps-ok
deps: $(DEPS_STAMP)
$(DEPS_STAMP):
	@mkdir -p $(@D)
	@if ! $(PKG_CONFIG) --exists $(PKGS) $(TEST_PKGS) 2>/dev/null || ! command -v gnuplot >/dev/null 2>&1; then \
	  echo "gpuplan: installing missing Debian packages: $(DEB_PKGS)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
	  else echo "gpuplan: run as root: apt-get update && apt-get install -y $(DEB_PKGS)"; exit 2; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEB_PKGS) >/dev/null \
	  || { echo "gpuplan: install failed; run: sudo apt-get update && sudo apt-get install -y $(DEB_PKGS)"; exit 2; }; \
	fi
	@touch $@

# ---- library ----------------------------------------------------------------
$(BUILD)/lib/%.o: lib/%.c | $(BUILD)/gen/cli_cmds.h $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(FINAL_CFLAGS) -c $< -o $@

# File lists: what is generated from a set of files must be regenerated when
# a file leaves the set, though no remaining file is newer.  Each list is
# rewritten on every run but touched only when it changes.
LIST_hwdb  := $(HWDB_YAML)
LIST_tests := $(TEST_SRC)
LIST_cli   := $(wildcard cli/cmd_*.c)
$(BUILD)/gen/%.list: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(LIST_$*) > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

FORCE:

# The shipped database, compiled in: parsed here, at build time, by the
# library's own parser (lib/gen/gen_builtin.c), so the binary carries node
# trees rather than YAML text.  A host tool: no sanitizer, no coverage.
GEN_BUILTIN := $(BUILD)/gen/gen_builtin
$(GEN_BUILTIN): lib/gen/gen_builtin.c lib/db_yaml.c lib/status.c lib/db_int.h include/gpuplan/status.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(STD) $(WARN) -O1 -Iinclude -Ilib $(DEPCFLAGS) -o $@ lib/gen/gen_builtin.c \
	  lib/db_yaml.c lib/status.c $(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null)

$(BUILD)/gen/db_builtin_data.c: $(GEN_BUILTIN) $(HWDB_YAML) $(BUILD)/gen/hwdb.list
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q)$(GEN_BUILTIN) hwdb $(HWDB_YAML) > $@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

$(BUILD)/gen/db_builtin_data.o: $(BUILD)/gen/db_builtin_data.c | $(DEPS_STAMP)
	$(call say,CC,$<)
	$(Q)$(CC) $(STD) $(OPT) $(SAN) -fPIC -Ilib $(CFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(AR) rcs $@ $^

# Exports: the public gp_* API only (lib/gpuplan.map); make check-api checks.
$(SHARED): $(LIB_OBJ) lib/gpuplan.map
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,libgpuplan.so.$(SOVERSION) \
	  -Wl,--version-script,lib/gpuplan.map $(FINAL_LDFLAGS) -o $@ $(LIB_OBJ) $(LIBS_LIB)

# ---- CLI ----------------------------------------------------------------------
# Each cli/cmd_NAME.c defines `const gp_cli_command gp_cli_cmd_NAME`; the
# table is generated from the file names so commands never collide.
$(BUILD)/gen/cli_cmds.h: $(wildcard cli/cmd_*.c) $(BUILD)/gen/cli.list
	@mkdir -p $(@D)
	@{ for c in $(CLI_CMDS); do echo "GP_CLI_CMD($$c)"; done; } > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/cli/%.o: cli/%.c $(BUILD)/gen/cli_cmds.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(FINAL_CFLAGS) -Icli -c $< -o $@

$(CLI): $(CLI_OBJ) $(STATIC)
	$(call say,LD,$@)
	$(Q)$(CC) $(FINAL_LDFLAGS) -o $@ $(CLI_OBJ) $(STATIC) $(LIBS_ALL)

# ---- tests ------------------------------------------------------------------
$(BUILD)/gen/suites.h: $(TEST_SRC) $(BUILD)/gen/tests.list
	@mkdir -p $(@D)
	@{ for s in $(SUITES); do echo "GP_SUITE($$s)"; done; } > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/gen/suites.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(FINAL_CFLAGS) $(TESTCFLAGS) -Itests -DGP_BUILD_DIR='"$(BUILD)"' -c $< -o $@

# The runner only: calls to these from the library and test objects go to
# tests/check_oom.c's __wrap_ functions (pass-through until a test arms them)
# so the oom suite can refuse the Nth allocation (GNU ld / lld --wrap).
OOM_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=free
# The runner also holds the CLI (cli/main.c without its main) so that make
# valgrind can run `gpuplan ...` in-process (GP_CLI_INPROC, tests/testutil.c).
RUNNER_CLI_OBJ := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ)) $(BUILD)/tests/cli_main.o
$(BUILD)/tests/cli_main.o: cli/main.c $(BUILD)/gen/cli_cmds.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(FINAL_CFLAGS) -Icli -DGP_CLI_NO_MAIN -c $< -o $@

$(RUNNER): $(TEST_OBJ) $(RUNNER_CLI_OBJ) $(STATIC)
	$(call say,LD,$@)
	$(Q)$(CC) $(FINAL_LDFLAGS) $(OOM_WRAP) -o $@ $(TEST_OBJ) $(RUNNER_CLI_OBJ) $(STATIC) \
	  $(TESTLIBS) $(LIBS_ALL)

$(BUILD)/examples/%: examples/%.c $(STATIC) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(FINAL_CFLAGS) -o $@ $< $(STATIC) $(FINAL_LDFLAGS) $(LIBS_ALL)

examples: $(EX_BIN)

# make check = build + unit + CLI tests + examples (their output is checked by
# tests/check_examples.c against examples/*.expected).
check test: all $(RUNNER) $(EX_BIN)
	GP_BUILD=$(BUILD) $(RUNNER)
	@$(MAKE) -s check-api
	@for ex in $(EX_BIN); do \
	  name=$$(basename $$ex); exp=examples/$$name.expected; \
	  $$ex > $(BUILD)/examples/$$name.out || { echo "example $$name failed"; exit 1; }; \
	  if [ -f $$exp ]; then diff -u $$exp $(BUILD)/examples/$$name.out || { echo "example $$name: output differs from $$exp"; exit 1; }; fi; \
	  echo "example $$name: ok"; \
	done

# The library as an outside program sees it (tests/api/check.sh): each public
# header alone (C11 and C++), the shared library's exports, and an install
# into a DESTDIR whose gpuplan.pc builds an example out of tree.
CXX ?= c++
check-api: all
	@sh tests/api/check.sh $(BUILD) "$(CC)" "$(CXX)" "$(SAN)" "$(MAKE)"

# Re-entrancy: two threads evaluating different inputs at once, against a
# ThreadSanitizer build of the library (tests/api/threads.c).
TSAN_BUILD := build/tsan
check-threads: deps
	$(MAKE) BUILD=$(TSAN_BUILD) OPT=-O1 SAN=-fsanitize=thread $(TSAN_BUILD)/libgpuplan.a
	$(Q)$(CC) $(STD) $(WARN) -O1 -g -fsanitize=thread -pthread -Iinclude tests/api/threads.c \
	  -o $(TSAN_BUILD)/threads $(TSAN_BUILD)/libgpuplan.a $(LIBS_LIB)
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/threads

run: all
	@sh examples/tour.sh $(CLI)

# ---- CI-only gates ----------------------------------------------------------
# ASan + UBSan run the suite 2-4 times slower: the tests' timeouts (there to
# catch hangs) are stretched 3 times unless CK_TIMEOUT_MULTIPLIER says.
sanitize: deps
	CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-3} $(MAKE) BUILD=build/san OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" check

# Memcheck on the runner and every child it starts (one log per process,
# build/valgrind/PID.log): any error or leak in any process fails the gate,
# even when the test that started the child ignored its exit status.  A child
# that drops privileges sets GP_VG_TAG so its log gets a name of its own.
# GP_CLI_INPROC=1: the tests' `gpuplan ...` calls run gp_cli_main inside the
# runner (tests/testutil.c) rather than as ~1,200 children, each of which paid
# memcheck's start-up (0.35 s); the CLI's leaks are then the runner's.  make
# check still runs the real binary as a child.
VG_LOGS := $(BUILD)/valgrind
# The suites run in VG_SHARDS valgrind processes side by side: each takes
# the next suite none has taken (runner --claim DIR), so they finish
# together however the suites' sizes fall.  Memcheck is single-threaded, so
# two shards use the CI machine's 2 cores.
VG_SHARDS ?= 2
# Stack traces for allocations only, 12 frames, no inlined frames: memcheck
# records a trace at each malloc and free, and reading inline info costs
# every one of the ~1,340 processes about 0.07 s of start-up (valgrind starts
# /bin/true in 0.35 s with it off, 0.45 s on); a report still names where the
# block came from.  The gate ran 644 s with the defaults, 498 s with the first
# two (CI machine, 1,343 processes); 322 s with all three, the built-in
# database parsed at build time and the suites claimed (1,347 processes);
# 64 s with the CLI in-process (163 processes, this machine).
VG_OPTS ?= --keep-stacktraces=alloc --num-callers=12 --read-inline-info=no
valgrind: all $(RUNNER)
	@rm -rf $(VG_LOGS) $(VG_LOGS).claims && mkdir -p $(VG_LOGS) $(VG_LOGS).claims && \
	  chmod 1777 $(VG_LOGS)
	@st=0; i=0; while [ $$i -lt $(VG_SHARDS) ]; do \
	  CK_FORK=no GP_BUILD=$(BUILD) GP_VALGRIND=1 GP_CLI_INPROC=1 GP_VG_TAG= valgrind --quiet --vgdb=no $(VG_OPTS) --leak-check=full \
	  --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
	  --error-exitcode=3 --trace-children=yes --trace-children-skip='*/sh,*/bash,*/gnuplot' \
	  --log-file=$(VG_LOGS)/%p%q{GP_VG_TAG}.log $(RUNNER) --claim $(VG_LOGS).claims > $(VG_LOGS)/shard$$i.out 2>&1 & \
	  eval "pid$$i=$$!"; i=$$((i + 1)); done; \
	i=0; while [ $$i -lt $(VG_SHARDS) ]; do eval "wait \$$pid$$i" || st=$$?; \
	  cat $(VG_LOGS)/shard$$i.out; rm -f $(VG_LOGS)/shard$$i.out; i=$$((i + 1)); done; \
	bad=$$(find $(VG_LOGS) -name '*.log' -size +0c); \
	if [ -n "$$bad" ]; then for f in $$bad; do echo "== $$f"; head -n 60 $$f; done; \
	  echo "make valgrind: memcheck errors or leaks in $$(echo $$bad | wc -w) process(es)"; exit 1; fi; \
	if [ $$st -ne 0 ]; then echo "make valgrind: runner failed (status $$st)"; exit 1; fi; \
	echo "make valgrind: $$(ls $(VG_LOGS) | wc -l) processes checked, no errors, no leaks"

BENCH_BIN := $(BUILD)/bench/gpuplan-bench
$(BUILD)/gen/benches.h: $(BENCH_SRC)
	@mkdir -p $(@D)
	@{ for b in $(BENCHES); do echo "GP_BENCH($$b)"; done; } > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BENCH_BIN): $(BENCH_SRC) $(STATIC) $(BUILD)/gen/benches.h
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(FINAL_CFLAGS) -Itests/bench -o $@ $(BENCH_SRC) $(STATIC) $(FINAL_LDFLAGS) $(LIBS_ALL)

bench: all $(BENCH_BIN)
	$(BENCH_BIN) $(CLI)

FUZZ_SECONDS ?= 20
fuzz: deps
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# Line and branch coverage of lib/ (counters reset each run; the CLI children
# the tests start count too).  Prints the per-file table and the summary.
coverage: deps
	@find build/cov -name '*.gcda' -delete 2>/dev/null || true
	$(MAKE) BUILD=build/cov OPT=-O0 SAN="--coverage" check
	gcovr --root . --filter lib/ --object-directory build/cov/lib --print-summary \
	  --fail-under-line 90 --fail-under-branch 80 --exclude-unreachable-branches --exclude-throw-branches

calib:
	@sh calib/build.sh $(BUILD)

# ---- install ----------------------------------------------------------------
INCDIR  = $(DESTDIR)$(PREFIX)/include
LIBDIR  = $(DESTDIR)$(PREFIX)/lib
BINDIR  = $(DESTDIR)$(PREFIX)/bin
MANDIR  = $(DESTDIR)$(PREFIX)/share/man/man1
DATADIR = $(DESTDIR)$(PREFIX)/share/gpuplan
PCDIR   = $(LIBDIR)/pkgconfig

$(BUILD)/gpuplan.1: $(CLI) docs/mkman.sh
	$(call say,MAN,$@)
	$(Q)sh docs/mkman.sh $(CLI) $(VERSION) > $@.tmp && mv $@.tmp $@

man: $(BUILD)/gpuplan.1

install: all $(BUILD)/gpuplan.1
	install -d $(INCDIR)/gpuplan $(LIBDIR) $(BINDIR) $(MANDIR) $(PCDIR) $(DATADIR)
	install -m 644 include/gpuplan.h $(INCDIR)/
	install -m 644 include/gpuplan/*.h $(INCDIR)/gpuplan/
	install -m 644 $(STATIC) $(LIBDIR)/
	install -m 755 $(SHARED) $(LIBDIR)/libgpuplan.so.$(VERSION)
	ln -sf libgpuplan.so.$(VERSION) $(LIBDIR)/libgpuplan.so.$(SOVERSION)
	ln -sf libgpuplan.so.$(SOVERSION) $(LIBDIR)/libgpuplan.so
	install -m 755 $(CLI) $(BINDIR)/
	install -m 644 $(BUILD)/gpuplan.1 $(MANDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/gpuplan.pc.in > $(PCDIR)/gpuplan.pc
	cp -R hwdb/. $(DATADIR)/hwdb
	@if [ -x $(BUILD)/gpuplan-probe ]; then install -m 755 $(BUILD)/gpuplan-probe $(BINDIR)/; fi

uninstall:
	rm -f $(INCDIR)/gpuplan.h $(LIBDIR)/libgpuplan.a $(LIBDIR)/libgpuplan.so* \
	  $(BINDIR)/gpuplan $(BINDIR)/gpuplan-probe $(MANDIR)/gpuplan.1 $(PCDIR)/gpuplan.pc
	rm -rf $(INCDIR)/gpuplan $(DATADIR)

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
