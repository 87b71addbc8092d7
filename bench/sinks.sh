#!/usr/bin/env bash
# bench/sinks.sh - the front ends of the sample pipeline beside perf 6.1, at -j 1 and -j 2.
#
#   bench/sinks.sh [-n RUNS] [-s SECONDS] [-k] [--no-ceiling] [DIR [FILE]]
#
# For each recording - DIR, a `perf record --threads` directory (default: a SECONDS-long,
# default 10, ../shared/bench/make-data.sh recording), and FILE, a single perf.data file
# of the same workload (default: recorded for SECONDS with bench/lib.sh's
# bench_file_data; at 10 s it is 60-70 MB) - it runs each command once to warm the page
# cache, then RUNS times (default 3) under GNU time, and prints the medians of the wall
# time, the CPU time (user + system) and the peak RSS, perf's command first:
#   perf report -D / dirreport -D, perf script / dirscript, dirscript --flamegraph,
#   perf data convert --to-json / dirconvert --to-json, perf's export-to-sqlite.py /
#   dirconvert --to-sqlite (perf's script only where PySide2's QtSql runs it).
# Each line has its time and RSS as ratios to the perf line of its block, and the
# -j 2 line its speedup over -j 1.  Then bench/ceiling.sh's figure for the same
# recording (`dirreport -j 1 -D` alone and two at once: the most a second core can
# give here), unless --no-ceiling.  Outputs go to /dev/null or to files in $tmp.
#
# Needs root (system-wide recording; perf reads kallsyms), perf 6.1, GNU time and
# $BUILD/dirreport, dirscript, dirconvert (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' ceiling=1

opt() { case $1 in --no-ceiling) ceiling=''; took=1 ;; esac; }
bench_opts opt "$@"
set -- "${bench_args[@]}"
[ $# -le 2 ] || usage
data=${1:-} file=${2:-}

bench_init dirscript
for p in dirreport dirconvert; do
	[ -x "$BUILD/$p" ] || { echo "bench: $BUILD/$p not found; run make first" >&2; exit 1; }
done
bench_data
bench_file_data
bench_export_probe

# one recording: every command, a block per front end
run_all() {
	local d=$1 res=$2 j
	local rep=$BUILD/dirreport scr=$BUILD/dirscript conv=$BUILD/dirconvert

	bench_runs "$res" "perf report -D" perf report -D -i "$d"
	for j in 1 2; do bench_runs "$res" "dirreport -D -j $j" "$rep" -j "$j" -D -i "$d"; done
	bench_runs "$res" "perf script" perf script -i "$d"
	for j in 1 2; do bench_runs "$res" "dirscript -j $j" "$scr" -j "$j" -i "$d"; done
	for j in 1 2; do
		bench_runs "$res" "dirscript --flamegraph -j $j" \
			"$scr" -j "$j" -i "$d" --flamegraph "$tmp/out.db"
	done
	bench_runs "$res" "perf data convert --to-json" \
		perf data convert -f -i "$d" --to-json "$tmp/out.db"
	for j in 1 2; do
		bench_runs "$res" "dirconvert --to-json -j $j" \
			"$conv" -f -j "$j" -i "$d" --to-json "$tmp/out.db"
	done
	[ -z "$have_export" ] ||
		bench_runs "$res" "perf export-to-sqlite.py" \
			perf script -i "$d" -s "$export_script" "$tmp/out.db"
	for j in 1 2; do
		bench_runs "$res" "dirconvert --to-sqlite -j $j" \
			"$conv" -j "$j" -i "$d" --to-sqlite "$tmp/out.db"
	done
}


for which in data file; do
	d=${!which}
	echo
	echo "== $d ($(du -sh "$d" | cut -f1))"
	: >"$tmp/res-$which"
	run_all "$d" "$tmp/res-$which"
	bench_jtable "$tmp/res-$which"
	if [ -n "$ceiling" ]; then
		echo
		bash bench/ceiling.sh -n "$runs" "$d" -- -D 2>&1 | grep -E 'ceiling|-j 2|alone'
	fi
done
