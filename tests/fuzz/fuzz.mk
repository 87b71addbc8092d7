# tests/fuzz/fuzz.mk - fuzzing, ThreadSanitizer and valgrind targets; included at the end
# of the Makefile (`-include tests/fuzz/fuzz.mk`), so every variable of it is known here.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="fuzz_session ..."]
#       builds each target with clang -fsanitize=fuzzer,address,undefined into build-fuzz/
#       and runs them one after the other (one process at a time), FUZZ_SECONDS each.
#       The committed seeds tests/fuzz/corpus/<target>/ are read; new inputs go to
#       build-fuzz/corpus/<target>/; crashes, leaks, timeouts and OOMs are saved in
#       tests/fuzz/crashers/<target>/; logs in build-fuzz/<target>.log.
#   make fuzz-smoke [FUZZ_SMOKE_SECONDS=20]
#       builds every target and runs each FUZZ_SMOKE_SECONDS (CI: a fuzz build that no
#       longer links, or a finding, fails)
#   make fuzz-merge     minimise the working corpora build-fuzz/corpus/<target> in place
#   make fuzz-regress   replay tests/fuzz/corpus/ and tests/fuzz/crashers/ through every
#                       target without libFuzzer, with $(CC) and the build's flags (so also
#                       under SANITIZE=address,undefined); part of `make check`
#   make tsan-check     the reader, workqueue and symbol unit tests, dirreport -D / --stdio
#                       -j 4 on every sample and on a fresh perf record -g of several
#                       batches, the flat report, dirconvert --to-json, --to-sqlite
#                       and dirscript -j 4 on four, dirrecord --threads (-z,
#                       --aio, a full disk),
#                       under ThreadSanitizer (gcc, build-tsan/)
#   make valgrind-check tests/valgrind.sh: dirreport -D / --stdio / --header-only, dirscript and
#                       dirconvert --to-json on every
#                       sample under valgrind memcheck (not part of make check: minutes)

FUZZ_TARGETS ?= fuzz_header fuzz_features fuzz_sample fuzz_dump fuzz_zstd fuzz_session \
	fuzz_trace_event fuzz_index
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_CC ?= clang
# Debian packages `make fuzz` needs besides the build's own (libFuzzer is in libclang-rt)
FUZZ_DEB_DEPS := clang libclang-rt-dev
FUZZ_SAN := -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
# clang warns where gcc does not (e.g. -Wcast-align on x86): warnings stay, not -Werror
FUZZ_CFLAGS = -std=c11 -O1 $(filter-out -Werror,$(WARN)) $(FUZZ_SAN) -pthread
FUZZ_HELPER_SRCS := tests/fuzz/fuzzlib.c
# The libraries' sources, report/ whole (-D is cmd_dump, the header text header-print;
# machine state is machine/, the tracepoint texts resolve/), in one archive: a target
# takes the objects it needs, as the regression build takes them from the build's
# libraries, so a function moving to another file of report/ does not break the link.
FUZZ_LIB_SRCS := $(FORMAT_SRCS) $(READER_SRCS) $(MACHINE_SRCS) $(RESOLVE_SRCS) $(UTIL_SRCS) \
	$(REPORT_SRCS)
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_ARCHIVE := $(FUZZ_BUILD)/libfuzzdeps.a
FUZZ_HELPER_OBJS := $(FUZZ_HELPER_SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/bin/%)
# make fuzz-smoke: seconds per target (CI)
FUZZ_SMOKE_SECONDS ?= 20

# --- libFuzzer build (clang) --------------------------------------------------
$(FUZZ_BUILD)/.deps-ok:
	@mkdir -p $(FUZZ_BUILD)
	$(Q)sh tools/ensure-deps.sh $(DEB_DEPS) $(FUZZ_DEB_DEPS)
	$(Q)touch $@

$(FUZZ_BUILD)/%.o: %.c | $(FUZZ_BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CLANG   $@"
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) \
		$(DEPFLAGS) -c $< -o $@

$(FUZZ_ARCHIVE): $(FUZZ_LIB_OBJS)
	@[ "$(V)" = 1 ] || echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(FUZZ_BUILD)/bin/%: $(FUZZ_BUILD)/tests/fuzz/%.o $(FUZZ_HELPER_OBJS) $(FUZZ_ARCHIVE)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ $(PKG_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	$(Q)sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI: build every target and run each briefly (a broken fuzz build, or a finding in
# FUZZ_SMOKE_SECONDS, fails)
fuzz-smoke: $(FUZZ_BINS)
	$(Q)sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# Minimise each working corpus in place (after long runs): a smallest set of its inputs
# with the same coverage stays.
fuzz-merge: $(FUZZ_BINS)
	$(Q)for t in $(FUZZ_TARGETS); do \
		rm -rf $(FUZZ_BUILD)/corpus.new/$$t && mkdir -p $(FUZZ_BUILD)/corpus.new/$$t \
			$(FUZZ_BUILD)/corpus/$$t && \
		$(FUZZ_BUILD)/bin/$$t -merge=1 -max_len=65536 -timeout=20 \
			$(FUZZ_BUILD)/corpus.new/$$t $(FUZZ_BUILD)/corpus/$$t \
			>$(FUZZ_BUILD)/$$t.merge.log 2>&1 || \
		{ echo "fuzz-merge: $$t failed, see $(FUZZ_BUILD)/$$t.merge.log"; exit 1; }; \
		rm -rf $(FUZZ_BUILD)/corpus/$$t && \
		mv $(FUZZ_BUILD)/corpus.new/$$t $(FUZZ_BUILD)/corpus/$$t && \
		echo "  $$t: $$(ls $(FUZZ_BUILD)/corpus/$$t | wc -l) inputs"; \
	done

-include $(wildcard $(FUZZ_BUILD)/*/*.d $(FUZZ_BUILD)/*/*/*.d)

# --- regression replay (make check) -------------------------------------------
FUZZ_REGRESS := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/%-regress)

$(BUILD)/tests/fuzz/%-regress: $(BUILD)/tests/fuzz/%.o $(BUILD)/tests/fuzz/regress.o \
		$(BUILD)/tests/fuzz/fuzzlib.o $(LIBREPORT) $(LIBRESOLVE) $(LIBMACHINE) $(LIBREADER) $(LIBFORMAT) \
		$(LIBUTIL)
	@[ "$(V)" = 1 ] || echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

fuzz-regress: $(FUZZ_REGRESS)
	@echo "== fuzz regression (tests/fuzz/corpus, tests/fuzz/crashers)"
	$(Q)for t in $(FUZZ_TARGETS); do \
		$(BUILD)/tests/fuzz/$$t-regress tests/fuzz/corpus/$$t tests/fuzz/crashers/$$t \
			|| exit 1; \
	done

# GNU make merges this prerequisite into the Makefile's check rule.
check: fuzz-regress

# --- ThreadSanitizer ------------------------------------------------------------
TSAN_BUILD := build-tsan

tsan-check: samples/buildid-cache/.unpacked
	$(MAKE) SANITIZE=thread BUILD=$(TSAN_BUILD) $(TSAN_BUILD)/unit-tests $(TSAN_BUILD)/dirreport \
		$(TSAN_BUILD)/dirconvert $(TSAN_BUILD)/dirscript $(TSAN_BUILD)/dirrecord
	@echo "== reader, workqueue, symbol (the kernel symbols read in parallel blocks) and pipeline unit tests under ThreadSanitizer"
	$(Q)for suite in reader workqueue symbol pipeline; do \
		CK_FORK=no CK_RUN_SUITE=$$suite TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" \
			$(TSAN_BUILD)/unit-tests || exit 1; \
	done
	@echo "== dirreport -D / --stdio -j 4 on every sample under ThreadSanitizer"
	@echo "   (the samples' build-id cache: --call-graph dwarf stacks are unwound)"
	$(Q)for f in samples/*.data; do for m in -D --stdio; do \
		TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" \
			$(TSAN_BUILD)/dirreport --buildid-dir samples/buildid-cache $$m -j 4 \
			-i $$f >/dev/null || \
			{ echo "tsan-check: dirreport $$m -j 4 -i $$f failed"; exit 1; }; \
	done; done
	@echo "== the flat report -j 4 of recordings with callchains (samples resolved to their maps in the lookup jobs)"
	$(Q)for f in samples/callchain.data samples/system-g.data samples/threads-z.data; do \
		k=; [ ! -f $$f.kallsyms ] || k="--kallsyms $$f.kallsyms"; \
		TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" \
			$(TSAN_BUILD)/dirreport --buildid-dir samples/buildid-cache $$k \
			--stdio --no-children -g none -j 4 -i $$f >/dev/null || \
			{ echo "tsan-check: dirreport --stdio --no-children -g none -j 4 -i $$f failed"; exit 1; }; \
	done
	@echo "== dirreport -D -j 4 on a recording of several batches (one formatted while the next is prepared)"
	$(Q)TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirreport -D -j 4 \
		--kallsyms tests/external/empty.kallsyms -i tests/external/perf.data.busy.1-3.4 \
		>/dev/null || { echo "tsan-check: dirreport -D -j 4 (busy.1-3.4) failed"; exit 1; }
	@echo "== dirconvert --to-json, --to-sqlite --callchains and dirscript -j 4 (the sample"
	@echo "   pipeline: jobs resolve while the calling thread replays; --call-graph dwarf:"
	@echo "   an unwinder per worker)"
	$(Q)for f in samples/callchain.data samples/system-g.data samples/threads-z.data \
		samples/dwarf-perl.data; do \
		TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirconvert -j 4 -f \
			-i $$f --to-json $(TSAN_BUILD)/tsan.json >/dev/null || \
			{ echo "tsan-check: dirconvert --to-json -i $$f failed"; exit 1; }; \
		TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirconvert -j 4 -f \
			--buildid-dir samples/buildid-cache --callchains \
			-i $$f --to-sqlite $(TSAN_BUILD)/tsan.db >/dev/null || \
			{ echo "tsan-check: dirconvert --to-sqlite -i $$f failed"; exit 1; }; \
		TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirscript -j 4 \
			-i $$f >/dev/null || { echo "tsan-check: dirscript -i $$f failed"; exit 1; }; \
	done
	$(Q)TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirscript -j 4 \
		--kallsyms tests/external/empty.kallsyms -i tests/external/perf.data.busy.1-3.4 \
		>/dev/null || { echo "tsan-check: dirscript -j 4 (busy.1-3.4) failed"; exit 1; }
	@echo "== a data directory started from its index, samples left out by --time, -j 4"
	$(Q)rm -rf $(TSAN_BUILD)/tsan-ix.data && cp -Rp samples/threads.data $(TSAN_BUILD)/tsan-ix.data && \
		$(TSAN_BUILD)/dirconvert --index $(TSAN_BUILD)/tsan-ix.data --index-interval 4096 && \
		for m in -D --stdio "--stdio --time 20%-60%"; do \
		TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" \
			$(TSAN_BUILD)/dirreport $$m -j 4 -i $(TSAN_BUILD)/tsan-ix.data >/dev/null || \
			{ echo "tsan-check: dirreport $$m -j 4 on an indexed directory failed"; exit 1; }; \
	done
	@echo "== dirreport -j 4 on a fresh perf record -g of ~35,000 samples (several batches:"
	@echo "   the counter and the replayer threads overlap), output equal to -j 1's"
	$(Q)if perf record -q --no-buildid-cache -g -F 20000 -o $(TSAN_BUILD)/tsan-fresh.data -- \
		sh -c 'i=0; while [ $$i -lt 400000 ]; do i=$$((i + 1)); done' >/dev/null 2>&1; then \
		for m in --stdio "--stdio --no-children" "--stdio -g caller -s sym" \
			 "--stdio --no-children -g none"; do \
			TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirreport $$m \
				-j 4 -i $(TSAN_BUILD)/tsan-fresh.data >$(TSAN_BUILD)/tsan-j4.out && \
			$(TSAN_BUILD)/dirreport $$m -j 1 -i $(TSAN_BUILD)/tsan-fresh.data \
				>$(TSAN_BUILD)/tsan-j1.out && \
			cmp -s $(TSAN_BUILD)/tsan-j1.out $(TSAN_BUILD)/tsan-j4.out || \
			{ echo "tsan-check: dirreport $$m -j 4 on a fresh recording failed"; exit 1; }; \
		done; \
	else echo "   skipped: perf record cannot record here"; fi
	@echo "== dirreport --perf-compat --stdio and dirconvert -j 4 on that recording with the kernel's symbols read"
	@echo "   ahead from a copy of /proc/kallsyms (checked on a thread of its own): the same copy,"
	@echo "   then a changed one (all made again), output equal to -j 1's"
	$(Q)if [ -f $(TSAN_BUILD)/tsan-fresh.data ] && [ -r /proc/kallsyms ] && \
		kb=$$(perf buildid-list -i $(TSAN_BUILD)/tsan-fresh.data 2>/dev/null | \
		      awk '$$2 == "[kernel.kallsyms]" { print $$1 }') && [ -n "$$kb" ]; then \
		h=$(TSAN_BUILD)/ahead-home; c="$$h/.debug/[kernel.kallsyms]/$$kb"; \
		rm -rf $$h && mkdir -p "$$c" && \
		$(TSAN_BUILD)/dirreport --perf-compat --stdio -j 1 \
			-i $(TSAN_BUILD)/tsan-fresh.data >$(TSAN_BUILD)/tsan-j1.out || exit 1; \
		for how in same changed; do \
			if [ $$how = same ]; then cat /proc/kallsyms; \
			else sed '1000,$$ { / _text$$/!s/ \([tT]\) / \1 ahead_/; }' /proc/kallsyms; fi \
				>"$$c/kallsyms" && \
			HOME=$$h TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" \
				$(TSAN_BUILD)/dirreport --perf-compat --stdio -j 4 \
				-i $(TSAN_BUILD)/tsan-fresh.data >$(TSAN_BUILD)/tsan-j4.out && \
			cmp -s $(TSAN_BUILD)/tsan-j1.out $(TSAN_BUILD)/tsan-j4.out && \
			rm -f "/dev/shm/dirreport-kallsyms-$$(id -u)-$$kb" && \
			HOME=$$h TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" \
				$(TSAN_BUILD)/dirconvert -j 4 -f -i $(TSAN_BUILD)/tsan-fresh.data \
				--to-sqlite $(TSAN_BUILD)/tsan.db >/dev/null || \
			{ echo "tsan-check: kernel symbols read ahead ($$how copy) failed"; exit 1; }; \
		done; \
		rm -f "/dev/shm/dirreport-kallsyms-$$(id -u)-$$kb"; \
	else echo "   skipped: no fresh recording of the running kernel"; fi
	@echo "== dirrecord --threads -a -g (a reader thread per cpu: the rings, the files hit, the"
	@echo "   maps' generation), with -z, with --aio=2 (writes in flight through io_uring),"
	@echo "   then a full 2 MiB tmpfs (salvaged), read back"
	$(Q)if [ "$$(id -u)" -eq 0 ]; then \
		for z in "" -z "--aio=2" "-z --aio=2"; do \
			rm -rf $(TSAN_BUILD)/tsan-rec.data; \
			TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirrecord -q -N \
				--threads -a -g -F 10000 $$z -o $(TSAN_BUILD)/tsan-rec.data -- \
				sh -c 'seq 1 200000 | sort -r | md5sum >/dev/null' && \
			$(TSAN_BUILD)/dirreport --stats -i $(TSAN_BUILD)/tsan-rec.data >/dev/null || \
			{ echo "tsan-check: dirrecord --threads $$z failed"; exit 1; }; \
		done; \
		m=$(TSAN_BUILD)/tsan-full; mkdir -p $$m; \
		if mount -t tmpfs -o size=2m tmpfs $$m 2>/dev/null; then \
			TSAN_OPTIONS="halt_on_error=1 $(TSAN_OPTIONS)" $(TSAN_BUILD)/dirrecord -q -N \
				--threads --aio=2 -a -g -F 25000 -o $$m/f.data -- sh -c 'i=0; \
				while [ $$i -lt 12 ]; do seq 1 300000 | sort -r | md5sum >/dev/null; \
				i=$$((i + 1)); done' 2>$(TSAN_BUILD)/tsan-full.err; \
			rc=$$?; $(TSAN_BUILD)/dirreport --stats -i $$m/f.data >/dev/null; rr=$$?; \
			umount $$m; \
			[ $$rc -eq 1 ] && [ $$rr -eq 0 ] && \
			! grep -q ThreadSanitizer $(TSAN_BUILD)/tsan-full.err || \
			{ echo "tsan-check: dirrecord on a full disk: exit $$rc, read back $$rr"; \
			  cat $(TSAN_BUILD)/tsan-full.err; exit 1; }; \
		fi; \
	else echo "   skipped: not root"; fi

# --- valgrind -------------------------------------------------------------------
valgrind-check: $(BUILD)/dirreport $(BUILD)/dirscript $(BUILD)/dirconvert samples/buildid-cache/.unpacked
	$(if $(SANITIZE),$(error valgrind-check runs the plain build: no SANITIZE))
	$(Q)sh tools/ensure-deps.sh valgrind
	$(Q)BUILD=$(BUILD) sh tests/valgrind.sh

fuzz-clean:
	rm -rf $(FUZZ_BUILD) $(TSAN_BUILD)

clean: fuzz-clean

.PHONY: fuzz fuzz-build fuzz-smoke fuzz-merge fuzz-regress tsan-check valgrind-check fuzz-clean
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_HELPER_OBJS) $(FUZZ_ARCHIVE) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/tests/fuzz/%.o) \
	$(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/%.o)
