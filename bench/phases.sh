#!/usr/bin/env bash
# bench/phases.sh - where a run's wall and CPU time go, stage by stage, at each -j.
#
#   bench/phases.sh [-n RUNS] [-s SECONDS] [-k] [-j "1 2"] [DATA]
#
# Each command runs RUNS times (default 3) at each -j of the list (default "1 2") with
# DIRREPORT_PHASES=1: the program then prints, per stage of its run on the calling
# thread (util/phase.h: the recording loaded, the kernel's symbols waited for, the
# records delivered, the output written), the stage's wall time and the process's
# CPU time (every thread) in it.  CPU / wall is how many threads the stage kept busy
# on average: about 1 where one thread works alone (a serial stage), up to -j where
# each worker does.  The table gives, for the run of median total wall time, each
# stage's wall ms, CPU ms and busy threads, at each -j side by side, so that one sees
# which stage a second core shortened and which it did not.
#
#   report   dirreport --stdio
#   flat     dirreport --stdio --no-children -g none
#   dump     dirreport -D
#   sqlite   dirconvert --to-sqlite
#
# DATA: a recording (default: a SECONDS-long, default 10, ../shared/bench/make-data.sh
# directory, into a temporary directory removed at the end unless -k).
# Needs $BUILD/dirreport and $BUILD/dirconvert (default build/); not perf.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
# shellcheck disable=SC2034 # secs and keep: read by bench/lib.sh
runs=3 secs=10 keep='' jobs="1 2"

bench_data_arg jobs_opt "$@"
[ -x "$BUILD/dirconvert" ] || { echo "bench: $BUILD/dirconvert not found; run make first" >&2; exit 1; }
bench_init dirreport
bench_data

# phases NAME J CMD...: RUNS runs; the phase lines of the median run (by total wall)
# into $tmp/NAME.J
phases() {
	local name=$1 j=$2 i
	shift 2
	for ((i = 0; i < runs; i++)); do
		rm -f "$tmp/out.db"
		DIRREPORT_PHASES=1 "$@" 2>"$tmp/run.$i" >/dev/null ||
			{ echo "bench: $name -j $j failed:" >&2; head -n 3 "$tmp/run.$i" >&2; exit 1; }
	done
	for ((i = 0; i < runs; i++)); do
		printf '%s %s\n' "$(sed -n 's/^.*: phase total: \([0-9.]*\) ms wall.*/\1/p' \
			"$tmp/run.$i")" "$i"
	done | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) { print $2 }' |
		{ read -r m; grep ': phase ' "$tmp/run.$m" >"$tmp/$name.$j"; }
}

for name in report flat dump sqlite; do
	for j in $jobs; do
		case $name in
		report) phases $name "$j" "$BUILD/dirreport" -j "$j" -i "$data" --stdio ;;
		flat) phases $name "$j" "$BUILD/dirreport" -j "$j" -i "$data" --stdio \
			--no-children -g none ;;
		dump) phases $name "$j" "$BUILD/dirreport" -j "$j" -i "$data" -D ;;
		sqlite) phases $name "$j" "$BUILD/dirconvert" -j "$j" -i "$data" \
			--to-sqlite "$tmp/out.db" ;;
		esac
	done
	echo
	printf '%-12s %-26s' "$name" "stage"
	for j in $jobs; do printf ' | %-25s' "-j $j: wall CPU busy"; done
	echo
	# the stages in the order of the run with the most of them (-j 2 has stages -j 1
	# lacks: the kernel symbols check), the others' that it lacks after
	first=${jobs%% *}
	for j in $jobs; do
		if [ "$(wc -l <"$tmp/$name.$j")" -gt "$(wc -l <"$tmp/$name.$first")" ]; then
			first=$j
		fi
	done
	{ sed 's/^[^:]*: phase \([^:]*\):.*/\1/' "$tmp/$name.$first"
	  for j in $jobs; do sed 's/^[^:]*: phase \([^:]*\):.*/\1/' "$tmp/$name.$j"; done; } |
		awk '!seen[$0]++' | while IFS= read -r stage; do
		printf '%-12s %-26s' '' "$stage"
		for j in $jobs; do
			awk -v s="$stage" -F': ' '$2 == "phase " s {
				split($3, f, /[ ,]+/)
				printf " | %8s %8s %6s ", f[1], f[4], f[7]; found = 1 }
				END { if (!found) printf " | %8s %8s %6s ", "-", "-", "-" }' \
				"$tmp/$name.$j"
		done
		echo
	done
done
echo
echo "wall and CPU in ms (CPU: every thread); busy = CPU / wall, the threads a stage kept busy"
