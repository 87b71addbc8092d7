#!/usr/bin/env bash
# bench/unwind.sh - --call-graph dwarf recordings: dirreport and dirscript against perf 6.1.
#
#   bench/unwind.sh [-n RUNS] [-s SECONDS] [-k] [--no-check] [DATA]
#
# DATA: a recording made with --call-graph dwarf.  Without it, a SECONDS-long (default
# 10) system-wide recording is made with ../shared/bench/make-data.sh and the options
# `--call-graph dwarf,4096 -F 1000` (which override the script's -g -F 25000) into a
# temporary directory (removed at the end unless -k).  Each command runs once to warm
# the page cache, then RUNS times (default 3) under GNU time (stdout to /dev/null): the
# table shows the median wall time and peak RSS, and both as ratios to perf's command of
# the same mode; the CPU seconds (user + system) of one more run follow.  Unless
# --no-check, the outputs are compared once with perf's (report without perf's tip).
#
# Needs root (system-wide recording), perf 6.1, GNU time, $BUILD/dirreport and
# $BUILD/dirscript (default build/).  Both tools use the same $HOME (build-id cache).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' check=1

bench_data_arg no_check_opt "$@"

bench_init dirreport
script=$BUILD/dirscript
[ -x "$script" ] || { echo "bench: $script not found; run make first" >&2; exit 1; }
if [ -z "$data" ]; then
	data=$tmp/dwarf.data
	echo "bench: recording ${secs}s with $MAKE_DATA --call-graph dwarf,4096 -F 1000"
	sh "$MAKE_DATA" "$data" "$secs" --call-graph dwarf,4096 -F 1000 >"$tmp/record.log" 2>&1 ||
		{ cat "$tmp/record.log" >&2; exit 1; }
fi
bench_data

measure "perf report --stdio" perf report -i "$data" --stdio
measure "dirreport --stdio -j 1" "$bin" -j 1 -i "$data" --stdio
measure "dirreport --stdio -j 2" "$bin" -j 2 -i "$data" --stdio
measure "perf script" perf script -i "$data"
measure "dirscript -j 1" "$script" -j 1 -i "$data"
measure "dirscript -j 2" "$script" -j 2 -i "$data"
bench_table 'script'

echo
echo "CPU seconds (user + system), one run each:"
for c in "perf report -i $data --stdio" "$bin -j 1 -i $data --stdio" \
	 "$bin -j 2 -i $data --stdio" "perf script -i $data" "$script -j 1 -i $data" \
	 "$script -j 2 -i $data"; do
	# shellcheck disable=SC2086 # the command's words
	/usr/bin/time -f '%U %S' -o "$tmp/t" $c >/dev/null 2>&1 || true
	printf '  %-40s %s\n' "$(echo "$c" | sed "s|$data|DATA|")" \
		"$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/t")"
done

if [ -n "$check" ]; then
	echo
	perf report -i "$data" --stdio 2>/dev/null >"$tmp/perf.txt" || true
	"$bin" -i "$data" --stdio 2>/dev/null >"$tmp/ours.txt" || true
	sh tests/run-cli-tests.sh --strip-tip "$tmp/perf.txt" "$tmp/perf.cut"
	sh tests/run-cli-tests.sh --strip-tip "$tmp/ours.txt" "$tmp/ours.cut"
	echo "check: dirreport --stdio: $(diff "$tmp/perf.cut" "$tmp/ours.cut" |
		grep -c '^[<>]' || true) lines differ from perf's"
	if cmp -s <(perf script -i "$data" 2>/dev/null) <("$script" -i "$data" 2>/dev/null); then
		echo "check: dirscript output equal to perf script's"
	else
		echo "check: dirscript output DIFFERS from perf script's"
	fi
fi
