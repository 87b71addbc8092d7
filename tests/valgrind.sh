#!/bin/sh
# tests/valgrind.sh - run dirreport -D, --stdio and --header-only on every samples/*.data
# under valgrind memcheck (with -j 1 and -j 2), and the sample pipeline's sinks, dirscript
# and dirconvert --to-json (with -j 2): no invalid access, no use of uninitialised
# values, no leak. `make valgrind-check` runs it (not part of `make check`: it takes
# minutes). Output goes to /dev/null; on a finding valgrind's report is printed.
# The forked child that checks a recording's tracing data first (machine/trace-event.c)
# is left silent (--child-silent-after-fork): it ends with _exit() while the parent's
# other threads' memory, which it cannot see, looks lost to the leak check.
# The samples' build-id cache (samples/buildid-cache, unpacked by make) is passed
# with --buildid-dir, so that --call-graph dwarf stacks are unwound here too.
# Environment: BUILD (default build), VALGRIND_FLAGS (extra flags).
set -u
cd "$(dirname "$0")/.." || exit 2
build=${BUILD:-build}
bin=$build/dirreport
log=${TMPDIR:-/tmp}/dirreport-valgrind.$$
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not installed" >&2; exit 1; }
[ -x "$bin" ] || { echo "valgrind.sh: $bin not built" >&2; exit 1; }
cache=samples/buildid-cache
[ -d "$cache" ] || { echo "valgrind.sh: $cache not unpacked (make buildid-cache)" >&2; exit 1; }
fail=0 runs=0
out=${TMPDIR:-/tmp}/dirreport-valgrind-json.$$

# memcheck PROGRAM ARGS...: one run; exit 0 (or 1 with a diagnostic) is the program's,
# valgrind's 99, a signal or a report line are findings
memcheck() {
	runs=$((runs + 1))
	# shellcheck disable=SC2086 # VALGRIND_FLAGS is a list of flags
	valgrind -q --error-exitcode=99 --child-silent-after-fork=yes --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible \
		${VALGRIND_FLAGS:-} "$@" >/dev/null 2>"$log"
	rc=$?
	if [ $rc -ge 99 ] || grep -q '^==[0-9]*==' "$log"; then
		echo "FAIL: $* (exit $rc)"
		cat "$log"
		fail=$((fail + 1))
	fi
}

for input in samples/*.data; do
	for mode in -D --stdio --header-only; do
		for j in 1 2; do
			memcheck "$bin" --buildid-dir "$cache" $mode -j $j -i "$input"
		done
	done
	# the sample pipeline: its jobs on a worker and the calling thread
	memcheck "$build/dirscript" --buildid-dir "$cache" -j 2 -i "$input"
	memcheck "$build/dirconvert" --buildid-dir "$cache" -j 2 -f -i "$input" --to-json "$out"
done
rm -f "$log" "$out"
echo "valgrind.sh: $runs runs, $fail with memcheck errors"
[ $fail -eq 0 ]
