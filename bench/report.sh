#!/usr/bin/env bash
# bench/report.sh - dirreport's report modes beside perf 6.1, at -j 1 and -j 2.
#
#   bench/report.sh [-n RUNS] [-s SECONDS] [-k] [--no-ceiling] [DIR [FILE [DWARF]]]
#
# Three recordings: DIR, a `perf record --threads` directory (default: a SECONDS-long,
# default 10, ../shared/bench/make-data.sh recording), FILE, a single perf.data file of
# the same workload (default: bench/lib.sh's bench_file_data, 60-70 MB at 10 s), and
# DWARF, a directory recorded with `--call-graph dwarf,4096 -F 1000` (default: made
# with make-data.sh).  For DIR and FILE the children report (`--stdio`) and the flat
# report (`--stdio --no-children -g none`), for DWARF `--stdio`; each as
#   perf report, dirreport -j 1, dirreport -j 2 (the default mode: one entry per key),
#   dirreport --perf-compat -j 2 (perf's bytes: its entry trees replayed)
# once to warm the page cache, then RUNS times (default 3) under GNU time: the medians
# of the wall time, the CPU time (user + system) and the peak RSS, with ratios to the
# block's perf line and -j 2's speedup over -j 1.  Then bench/ceiling.sh's figure for
# the recording (`dirreport -j 1 --stdio` alone and two at once: the most a second
# core can give here), unless --no-ceiling.
#
# Needs root (system-wide recordings; perf reads kallsyms), perf 6.1, GNU time and
# $BUILD/dirreport (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' ceiling=1

opt() { case $1 in --no-ceiling) ceiling=''; took=1 ;; esac; }
bench_opts opt "$@"
set -- "${bench_args[@]}"
[ $# -le 3 ] || usage
data=${1:-} file=${2:-} dwarf=${3:-}

bench_init dirreport
bench_data
bench_file_data
if [ -z "$dwarf" ]; then
	dwarf=$tmp/bench-dwarf.data
	echo "bench: recording ${secs}s with --call-graph dwarf,4096 -F 1000 into $dwarf"
	sh "$MAKE_DATA" "$dwarf" "$secs" --call-graph dwarf,4096 -F 1000 \
		>"$tmp/record-dwarf.log" 2>&1 || { cat "$tmp/record-dwarf.log" >&2; exit 1; }
fi

# one report form of one recording: perf, -j 1, -j 2, --perf-compat -j 2
run_form() {
	local d=$1 res=$2 label=$3 j
	shift 3
	bench_runs "$res" "perf report $label" perf report "$@" -i "$d"
	for j in 1 2; do
		bench_runs "$res" "dirreport $label -j $j" "$bin" -j "$j" "$@" -i "$d"
	done
	bench_runs "$res" "dirreport $label --perf-compat" "$bin" -j 2 --perf-compat "$@" -i "$d"
}


for which in data file dwarf; do
	d=${!which}
	echo
	echo "== the $(case $which in data) echo directory ;; file) echo file ;;
		*) echo DWARF directory ;; esac) ($(du -sh "$d" | cut -f1))"
	: >"$tmp/res-$which"
	run_form "$d" "$tmp/res-$which" --stdio --stdio
	[ "$which" = dwarf ] ||
		run_form "$d" "$tmp/res-$which" flat --stdio --no-children -g none
	bench_jtable "$tmp/res-$which"
	if [ -n "$ceiling" ]; then
		echo
		bash bench/ceiling.sh -n "$runs" "$d" -- --stdio 2>&1 | grep -E 'ceiling|-j 2|alone'
	fi
done
