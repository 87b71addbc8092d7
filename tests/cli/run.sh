#!/bin/sh
# tests/cli/run.sh - what the three front ends (dirreport, dirscript, dirconvert) do
# alike at the command line: the make goals that build them, usage errors.
#
#   BUILD=build sh tests/cli/run.sh         standalone: PASS/FAIL/SKIP lines, then
#                                           "N passed, N failed[, N skipped]"
#   . tests/cli/run.sh                      from tests/run-cli-tests.sh: uses its
#                                           helpers and counters, prints no summary
#
# make       `make -n` and `make -n demo` (into a scratch BUILD) link all three
#            programs.
# usage      a bad command line (unknown option, ambiguous abbreviation, missing or
#            refused argument, bad value, stray argument): exit 2, nothing on stdout,
#            one stderr line "PROG: WHAT; see 'PROG --help'"; --help and -h: the usage
#            on stdout, nothing on stderr, exit 0.

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
cl_plain=$cl_root/samples/plain.data

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

# --- usage errors: one line, exit 2 -------------------------------------------------------
# cl_usage PROG 'ARGS' 'EXPECTED MESSAGE': PROG ARGS must exit 2, print nothing on stdout
# and "PROG: EXPECTED MESSAGE; see 'PROG --help'" alone on stderr.
cl_usage() {
	_p=$1 _a=$2 _n="usage:$1:$(echo "$2" | sed "s|$cl_root/||g")"
	# shellcheck disable=SC2086
	run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$_p" $_a
	crashed "$_n" "$cl_tmp/err" && return
	printf "%s: %s; see '%s --help'\n" "$_p" "$3" "$_p" >"$cl_tmp/want"
	if [ "$rc" -ne 2 ]; then
		fail "$_n" "exit status $rc, expected 2"
	elif [ -s "$cl_tmp/out" ]; then
		fail "$_n" "something on stdout"
	elif ! cmp -s "$cl_tmp/want" "$cl_tmp/err"; then
		fail "$_n" "stderr is not the one line" "$cl_tmp/want" "$cl_tmp/err"
	else
		pass "$_n"
	fi
}
cl_usage dirreport "--stdoi" "unknown option '--stdoi'"
cl_usage dirreport "--stdio --bogus=3" "unknown option '--bogus'"
cl_usage dirreport "-i $cl_plain -Z" "unknown option '-Z'"
cl_usage dirreport "-qZ" "unknown option '-Z'"
cl_usage dirreport "--stdio -i" "option '-i' needs an argument"
cl_usage dirreport "--stdio --input" "option '--input' needs an argument"
cl_usage dirreport "--stdio=yes" "option '--stdio' takes no argument"
cl_usage dirreport "--gro" "ambiguous option '--gro' (--group, --group-sort-idx)"
cl_usage dirreport "-j 0" "-j takes a number from 1 to 1024"
cl_usage dirreport "--percentage half" "--percentage takes relative or absolute"
cl_usage dirreport "--stdio stray" "unexpected argument 'stray'"
cl_usage dirreport "--stats -D" "--stats and -D cannot be combined"
cl_usage dirscript "--folded --bogus" "unknown option '--bogus'"
cl_usage dirscript "-F" "option '-F' needs an argument"
cl_usage dirscript "--max-stack x" "--max-stack takes a number"
cl_usage dirscript "--folded -F comm" "--folded and -F do not go together"
cl_usage dirconvert "--to-sqlite" "option '--to-sqlite' needs an argument"
cl_usage dirconvert "--to-json x.json --bogus" "unknown option '--bogus'"
cl_usage dirconvert "-z30 --to-file x" "-z takes a level from 1 to 22"
cl_usage dirconvert "-i $cl_plain" "--to-sqlite OUT.db, --to-postgresql CONNINFO, --to-json OUT.json, --to-file OUT or --to-dir OUT is required"

for cl_p in dirreport dirscript dirconvert; do
	for cl_h in --help -h; do
		run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$cl_p" $cl_h
		if [ "$rc" -eq 0 ] && [ ! -s "$cl_tmp/err" ] &&
		   head -n 1 "$cl_tmp/out" | grep -q "^usage: $cl_p " &&
		   [ "$(wc -l <"$cl_tmp/out")" -gt 10 ]; then
			pass "usage:$cl_p:$cl_h"
		else
			fail "usage:$cl_p:$cl_h" "exit status $rc; $(head -n 1 "$cl_tmp/out")"
		fi
	done
done

if [ -n "$cl_standalone" ]; then
	suite_summary
fi
