#!/usr/bin/env bash
# bench/run.sh - dirreport against perf 6.1 on a real --threads recording.
#
#   bench/run.sh [-n RUNS] [-s SECONDS] [-k] [--no-check] [DATA]
#
# DATA: a perf.data file or --threads directory.  Without it, a SECONDS-long (default 10)
# system-wide recording is made with ../shared/bench/make-data.sh into a temporary
# directory (removed at the end unless -k).  Each command runs once to warm the page
# cache, then RUNS times (default 5) under `/usr/bin/time -f '%e %M'`; the table shows the
# median wall time, the median peak RSS and both as ratios to the perf command of the same
# mode (0.25 = a quarter of perf's).  Unless --no-check, dirreport's --stdio and -D
# outputs are also compared once with perf's (perf's closing tip excluded).
#
# Needs root (system-wide recording; perf reads kallsyms), perf 6.1, GNU time (Debian
# package `time`, installed here if missing) and $BUILD/dirreport (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=5 secs=10 keep='' check=1

bench_data_arg no_check_opt "$@"

bench_init dirreport
bench_data

measure "perf report --stdio" perf report --stdio -i "$data"
measure "dirreport --stdio" "$bin" -i "$data" --stdio
measure "dirreport -j 1 --stdio" "$bin" -j 1 -i "$data" --stdio
measure "perf report -D" perf report -D -i "$data"
measure "dirreport -D" "$bin" -D -i "$data"
measure "dirreport -j 1 -D" "$bin" -j 1 -D -i "$data"
bench_table ' -D$'

if [ -n "$check" ]; then
	echo
	strip_tip() { sh tests/run-cli-tests.sh --strip-tip "$1" "$2"; }
	perf report --stdio -i "$data" >"$tmp/p.out" 2>/dev/null || true
	"$bin" --stdio -i "$data" >"$tmp/d.out" 2>/dev/null || true
	strip_tip "$tmp/p.out" "$tmp/p.cmp"
	strip_tip "$tmp/d.out" "$tmp/d.cmp"
	rm -f "$tmp/p.out" "$tmp/d.out"
	if cmp -s "$tmp/p.cmp" "$tmp/d.cmp"; then
		echo "check: --stdio output equal to perf's"
	else
		echo "check: --stdio output DIFFERS from perf's ($(diff "$tmp/p.cmp" "$tmp/d.cmp" | grep -c '^[<>]') lines)"
	fi
	rm -f "$tmp/p.cmp" "$tmp/d.cmp"
	# -D is hundreds of MB: compare the two streams without storing them.
	if cmp -s <(perf report -D -i "$data" 2>/dev/null) <("$bin" -D -i "$data" 2>/dev/null); then
		echo "check: -D output equal to perf's"
	else
		echo "check: -D output DIFFERS from perf's"
	fi
fi
