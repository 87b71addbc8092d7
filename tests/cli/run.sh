#!/bin/sh
# tests/cli/run.sh - what the three front ends (dirreport, dirscript, dirconvert) do
# alike at the command line: the make goals that build them.
#
#   BUILD=build sh tests/cli/run.sh         standalone: PASS/FAIL/SKIP lines, then
#                                           "N passed, N failed[, N skipped]"
#   . tests/cli/run.sh                      from tests/run-cli-tests.sh: uses its
#                                           helpers and counters, prints no summary
#
# make       `make -n` and `make -n demo` (into a scratch BUILD) link all three
#            programs.

cl_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$cl_root/tests/cli/run.sh" ] || cl_root=$(pwd)

cl_standalone=
if ! command -v pass >/dev/null 2>&1; then
	cl_standalone=1
	cd "$cl_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, suite_standalone
	suite_standalone cli
fi

echo "-- the command line (tests/cli)"
cl_build=$(cd "$cl_root/$BUILD" 2>/dev/null && pwd)
cl_tmp=$tmp/cli
rm -rf "$cl_tmp"
mkdir -p "$cl_tmp"

# --- make and make demo build every program ---------------------------------------------
for cl_goal in all demo; do
	# shellcheck disable=SC2086
	if make -C "$cl_root" -n ${cl_goal#all} BUILD="$cl_tmp/mk" V=1 >"$cl_tmp/make.out" 2>&1; then
		cl_missing=
		for cl_p in dirreport dirscript dirconvert; do
			grep -q -- "-o $cl_tmp/mk/$cl_p\( \|\$\)" "$cl_tmp/make.out" ||
				cl_missing="$cl_missing $cl_p"
		done
		if [ -z "$cl_missing" ]; then
			pass "make:$cl_goal-builds-every-program"
		else
			fail "make:$cl_goal-builds-every-program" "not linked:$cl_missing"
		fi
	else
		fail "make:$cl_goal-builds-every-program" "make -n failed: $(tail -n 1 "$cl_tmp/make.out")"
	fi
done

if [ -n "$cl_standalone" ]; then
	suite_summary
fi
