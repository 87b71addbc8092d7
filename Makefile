# dirreport - one non-recursive Makefile.
#   make            build every program: build/dirreport, build/dirscript,
#                   build/dirconvert, build/dirrecord (and the libraries)
#   make check      build and run every test (unit, golden, malformed)
#   make demo       build every program, then report on a bundled --threads sample
#   make SANITIZE=address,undefined check   the same under ASan+UBSan, in build-asan/
#   make V=1        show full commands
#   make install    programs, man pages and bash completions under $(DESTDIR)$(PREFIX)
#                   (PREFIX default /usr/local); make uninstall removes them

.DEFAULT_GOAL := all
SANITIZE ?=
ifneq ($(SANITIZE),)
BUILD ?= build-asan
SANFLAGS := -g -fno-omit-frame-pointer -fsanitize=$(SANITIZE) -fno-sanitize-recover=all
else
BUILD ?= build
SANFLAGS :=
endif

CC ?= cc
OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wundef -Wpointer-arith \
	-Wcast-align -Wno-missing-field-initializers
# The version every program prints for --version.
VERSION := 0.6
# Feature-test macros are defined here and nowhere else.
CPPFLAGS += -D_GNU_SOURCE -I. -Icompat -DDIRREPORT_VERSION='"$(VERSION)"'
CFLAGS += -std=c11 $(OPT) $(WARN) $(SANFLAGS) -pthread
# x86 (GCC): a memset()/memcpy() of a known size of more than a few words calls the C
# library's (vector stores) instead of being inlined as `rep stos`/`rep movs`, whose
# start-up costs tens of cycles on AMD Zen and whose stores the loads right after it
# wait for: sample__parse()'s 368-byte struct cleared took 16 ns, 3-7 with memset().
# Small copies stay inline.  Compilers and targets without the option go without.
STRINGOP := $(shell $(CC) -Werror -mstringop-strategy=libcall -E -x c /dev/null \
	>/dev/null 2>&1 && echo -mstringop-strategy=libcall)
CFLAGS += $(STRINGOP)
DEPFLAGS = -MMD -MP
LDFLAGS += $(SANFLAGS) -pthread

PKGS := libzstd libdw libelf sqlite3 libtraceevent libpq jansson yajl libxml-2.0 zlib liburing
DEB_DEPS := pkg-config libzstd-dev libsqlite3-dev sqlite3 libpq-dev libdw-dev libelf-dev check libc6-dbg \
	libtraceevent-dev xz-utils go-md2man libjansson-dev libyajl-dev libxml2-dev zlib1g-dev liburing-dev

ifeq ($(V),1)
Q :=
else
Q := @
endif

# --- dependencies -----------------------------------------------------------
# Both `make` and `make check` first make sure the Debian build dependencies are here.
DEPS_STAMP := $(BUILD)/.deps-ok
$(DEPS_STAMP): | $(BUILD)
	$(Q)sh tools/ensure-deps.sh $(DEB_DEPS)
	$(Q)touch $@

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

# --- sources ---------------------------------------------------------------
FORMAT_SRCS := $(wildcard format/*.c)
READER_SRCS := $(wildcard reader/*.c)
MACHINE_SRCS := $(wildcard machine/*.c)
RESOLVE_SRCS := $(wildcard resolve/*.c)
CLI_SRCS := $(wildcard cli/*.c)
UTIL_SRCS := $(wildcard util/*.c)
REPORT_SRCS := $(filter-out report/main.c,$(wildcard report/*.c))
CONVERT_SRCS := $(wildcard convert/*.c)
SCRIPT_SRCS := $(wildcard script/*.c)
RECORD_SRCS := $(wildcard record/*.c)
UNIT_SRCS := $(wildcard tests/unit/*.c)

FORMAT_OBJS := $(FORMAT_SRCS:%.c=$(BUILD)/%.o)
READER_OBJS := $(READER_SRCS:%.c=$(BUILD)/%.o)
MACHINE_OBJS := $(MACHINE_SRCS:%.c=$(BUILD)/%.o)
RESOLVE_OBJS := $(RESOLVE_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UTIL_OBJS := $(UTIL_SRCS:%.c=$(BUILD)/%.o)
REPORT_OBJS := $(REPORT_SRCS:%.c=$(BUILD)/%.o)
RECORD_OBJS := $(RECORD_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
CONVERT_OBJS := $(CONVERT_SRCS:%.c=$(BUILD)/%.o)
# convert/main.c is dirconvert's main(); the rest is libconvert.a (unit-testable)
LIBCONVERT_OBJS := $(filter-out $(BUILD)/convert/main.o,$(CONVERT_OBJS))
SCRIPT_OBJS := $(SCRIPT_SRCS:%.c=$(BUILD)/%.o)
# script/main.c is dirscript's main(); the rest is libscript.a (unit-testable)
LIBSCRIPT_OBJS := $(filter-out $(BUILD)/script/main.o,$(SCRIPT_OBJS))
# record/main.c is dirrecord's main(); the rest is librecord.a (unit-testable)
LIBRECORD_OBJS := $(filter-out $(BUILD)/record/main.o,$(RECORD_OBJS))

LIBFORMAT := $(BUILD)/libformat.a
LIBREADER := $(BUILD)/libreader.a
LIBMACHINE := $(BUILD)/libmachine.a
LIBRESOLVE := $(BUILD)/libresolve.a
LIBCLI := $(BUILD)/libcli.a
LIBUTIL := $(BUILD)/libutil.a
LIBREPORT := $(BUILD)/libreport.a
LIBCONVERT := $(BUILD)/libconvert.a
LIBSCRIPT := $(BUILD)/libscript.a
LIBRECORD := $(BUILD)/librecord.a
PROGRAMS := $(BUILD)/dirreport $(if $(wildcard convert/main.c),$(BUILD)/dirconvert) \
	$(if $(wildcard script/main.c),$(BUILD)/dirscript) \
	$(if $(wildcard record/main.c),$(BUILD)/dirrecord)

all: $(PROGRAMS)

$(BUILD):
	$(Q)mkdir -p $@

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CC      $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/unit/%.o: tests/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CC      $@"
	$(Q)$(CC) $(CPPFLAGS) -I$(BUILD)/tests/unit $(CFLAGS) $(PKG_CFLAGS) $(CHECK_CFLAGS) $(DEPFLAGS) -c $< -o $@

# The suite list: one SUITE(name) per tests/unit/check_<name>.c.
SUITES_INC := $(BUILD)/tests/unit/suites.inc
$(SUITES_INC): $(UNIT_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)for f in $(sort $(notdir $(filter tests/unit/check_%.c,$(UNIT_SRCS)))); do \
		n=$${f#check_}; echo "SUITE($${n%.c})"; done > $@.tmp && mv $@.tmp $@
$(BUILD)/tests/unit/main.o: $(SUITES_INC)

$(LIBFORMAT): $(FORMAT_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBREADER): $(READER_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBMACHINE): $(MACHINE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBRESOLVE): $(RESOLVE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBCLI): $(CLI_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBRECORD): $(LIBRECORD_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBUTIL): $(UTIL_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBREPORT): $(REPORT_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBCONVERT): $(LIBCONVERT_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBSCRIPT): $(LIBSCRIPT_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

# libcli after the front end's library: both main.o and the library use it
$(BUILD)/dirreport: $(BUILD)/report/main.o $(LIBREPORT) $(LIBCLI) $(LIBRESOLVE) $(LIBMACHINE) $(LIBREADER) \
		$(LIBFORMAT) $(LIBUTIL)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/dirconvert: $(BUILD)/convert/main.o $(LIBCONVERT) $(LIBCLI) $(LIBRESOLVE) $(LIBMACHINE) \
		$(LIBREADER) $(LIBFORMAT) $(LIBUTIL)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# dirscript links no part of report/ (script/README.md)
$(BUILD)/dirscript: $(BUILD)/script/main.o $(LIBSCRIPT) $(LIBCLI) $(LIBRESOLVE) $(LIBMACHINE) \
		$(LIBREADER) $(LIBFORMAT) $(LIBUTIL)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# dirrecord writes through format/ only; libcli's objects bring the rest of the libraries
$(BUILD)/dirrecord: $(BUILD)/record/main.o $(LIBRECORD) $(LIBCLI) $(LIBMACHINE) \
		$(LIBREADER) $(LIBFORMAT) $(LIBUTIL)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/unit-tests: $(UNIT_OBJS) $(if $(CONVERT_SRCS),$(LIBCONVERT)) \
		$(if $(SCRIPT_SRCS),$(LIBSCRIPT)) $(if $(RECORD_SRCS),$(LIBRECORD)) \
		$(LIBREPORT) $(LIBCLI) \
		$(LIBRESOLVE) $(LIBMACHINE) $(LIBREADER) $(LIBFORMAT) $(LIBUTIL)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(CHECK_LIBS) -lm

# --- the samples' kernel symbols ---------------------------------------------
# samples/buildid-cache.tar.xz holds, in perf's build-id cache layout (~/.debug), the
# kernel symbols and vdso images the recordings in samples/ were made with
# (samples/record.sh keeps them); unpacked here, every test and the demo read them
# through perf's rules (tests/README.md).
BUILDID_CACHE := samples/buildid-cache
$(BUILDID_CACHE)/.unpacked: samples/buildid-cache.tar.xz | $(DEPS_STAMP)
	$(Q)rm -rf $(BUILDID_CACHE) && mkdir -p $(BUILDID_CACHE) && \
		tar -xJf $< -C $(BUILDID_CACHE) && touch $@
buildid-cache: $(BUILDID_CACHE)/.unpacked

# --- top-level targets -----------------------------------------------------
# every program: the README's walk-through goes on with dirscript and dirconvert
demo: $(PROGRAMS) $(BUILDID_CACHE)/.unpacked
	$(BUILD)/dirreport --buildid-dir $(BUILDID_CACHE) -i samples/threads.data --stdio

check: $(PROGRAMS) $(BUILD)/unit-tests $(BUILDID_CACHE)/.unpacked
	@echo "== unit tests (Check)"
	$(Q)$(BUILD)/unit-tests
	@echo "== golden and malformed-input tests"
	$(Q)BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run-cli-tests.sh
	$(Q)$(MAKE) -s install-check

asan-check:
	$(MAKE) SANITIZE=address,undefined check

# --- installation ------------------------------------------------------------
# Man pages: docs/NAME.1.md through go-md2man (Debian's go-md2man), its first line
# made the .TH title line that go-md2man expects.
PREFIX ?= /usr/local
MANPAGES := $(patsubst $(BUILD)/%,$(BUILD)/man/%.1,$(PROGRAMS))
BASH_COMPLETIONS := $(notdir $(PROGRAMS))

$(BUILD)/man/%.1: docs/%.1.md $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q){ printf '# %s 1 "" "dirreport $(VERSION)" "User Commands"\n' "$$(echo $* | tr a-z A-Z)"; \
		tail -n +2 $<; } | go-md2man >$@.tmp && mv $@.tmp $@

man: $(MANPAGES)

install: $(PROGRAMS) $(MANPAGES)
	$(Q)for p in $(PROGRAMS); do \
		install -Dm755 $$p $(DESTDIR)$(PREFIX)/bin/$${p##*/} || exit 1; done
	$(Q)for m in $(MANPAGES); do \
		install -Dm644 $$m $(DESTDIR)$(PREFIX)/share/man/man1/$${m##*/} || exit 1; done
	$(Q)for c in $(BASH_COMPLETIONS); do \
		install -Dm644 tools/bash-completion \
			$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$c || exit 1; done

uninstall:
	$(Q)for p in $(BASH_COMPLETIONS); do \
		rm -f $(DESTDIR)$(PREFIX)/bin/$$p $(DESTDIR)$(PREFIX)/share/man/man1/$$p.1 \
			$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$p; done

# make install into a scratch DESTDIR, the installed files checked, make uninstall
# must leave none.
INSTALL_TEST := $(abspath $(BUILD))/install-test
install-check: $(PROGRAMS) $(MANPAGES)
	@echo "== make install / uninstall"
	$(Q)rm -rf $(INSTALL_TEST)
	$(Q)$(MAKE) -s install DESTDIR=$(INSTALL_TEST) PREFIX=/usr
	$(Q)sh tests/install-check.sh $(INSTALL_TEST) $(VERSION)
	$(Q)$(MAKE) -s uninstall DESTDIR=$(INSTALL_TEST) PREFIX=/usr
	$(Q)if [ -n "$$(find $(INSTALL_TEST) -type f)" ]; then \
		echo "FAIL install:uninstall (files left in $(INSTALL_TEST))"; exit 1; \
	else echo "PASS install:uninstall"; fi

clean:
	rm -rf build build-asan

.PHONY: all demo check asan-check clean buildid-cache man install uninstall install-check

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/*/*/*.d)
-include tests/fuzz/fuzz.mk
