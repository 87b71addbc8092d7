#!/usr/bin/env bash
# bench/scaling.sh - how dirreport and dirconvert scale with workers (-j), beside perf 6.1.
#
#   bench/scaling.sh [-n RUNS] [-s SECONDS] [-j "1 2"] [-k] [DIR [FILE]]
#
# DIR: a --threads data directory (default: a SECONDS-long, default 10,
# ../shared/bench/make-data.sh recording); FILE: a single perf.data file (default: the
# same workload recorded with `perf record -a -g -F 25000` into one file).  For each
# input and each command below, the median of RUNS (default 3) runs under GNU time
# of: wall seconds, CPU seconds (user + system), peak RSS; at every -j of the list
# (default "1 2") and once for perf's equivalent:
#
#   report    dirreport --stdio                    perf report --stdio
#   flat      dirreport --stdio --no-children -g none   (perf the same)
#   dump      dirreport -D                          perf report -D
#   sqlite    dirconvert --to-sqlite                perf script -s export-to-sqlite.py
#                                                   (only when PySide2's QtSql is there)
#
# The table gives each run's speedup over -j 1 and over perf, and the serial fraction
# that the -j 1 and largest -j timings imply by Amdahl's law, s = (N*T_N/T_1 - 1)/(N - 1),
# with the speedup it predicts on 16 and 64 cores, 1/(s + (1 - s)/P).  That s is an
# estimate from wall times on this machine (a busy machine inflates it), not a count of
# serial instructions.  A second table measures it: each dirreport/dirconvert command
# runs once more at the largest -j under `perf record -F 2000`, and the share of its
# CPU samples taken on the main thread (which runs every serial stage; in the parallel
# ones it is one worker among the others) bounds the serial fraction from above.
# Needs root (system-wide recordings), perf 6.1, GNU time.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' jobs="1 2"

bench_opts jobs_opt "$@"
set -- "${bench_args[@]}"
[ $# -le 2 ] || usage
data=${1:-}
file=${2:-}

bench_init dirreport
conv=$BUILD/dirconvert
bench_data
dir=$data
bench_file_data

bench_export_probe

# run3 NAME CMD...: a warm-up, then $runs runs; appends "NAME wall cpu rss" (medians).
run3() { bench_runs "$tmp/scaling" "$@"; }

: >"$tmp/scaling"
for input in dir file; do
	in=${!input}
	run3 "$input report perf" perf report --stdio -i "$in"
	run3 "$input flat perf" perf report --stdio --no-children -g none -i "$in"
	run3 "$input dump perf" perf report -D -i "$in"
	[ -z "$have_export" ] ||
		run3 "$input sqlite perf" perf script -i "$in" -s "$export_script" "$tmp/out.db"
	for j in $jobs; do
		run3 "$input report -j$j" "$bin" -j "$j" --stdio -i "$in"
		run3 "$input flat -j$j" "$bin" -j "$j" --stdio --no-children -g none -i "$in"
		run3 "$input dump -j$j" "$bin" -j "$j" -D -i "$in"
		run3 "$input sqlite -j$j" "$conv" -j "$j" --no-progress -i "$in" \
			--to-sqlite "$tmp/out.db"
	done
done

# main_share CMD...: percent of CMD's CPU samples on its main thread (perf record).
main_share() {
	perf record -q -F 2000 -o "$tmp/prof.data" -- "$@" >/dev/null 2>&1 || { echo -; return; }
	perf report -i "$tmp/prof.data" --stdio -s pid 2>/dev/null | grep -v '^#' |
		awk 'NF { split($2, a, ":"); p[a[1] + 0] = $1 + 0 }
		     END { m = -1; for (t in p) if (m < 0 || t + 0 < m) m = t + 0
			   if (m < 0) print "-"; else printf "%.1f\n", p[m] }'
	rm -f "$tmp/out.db"
}

maxj=$(echo "$jobs" | tr ' ' '\n' | sort -n | tail -n 1)
: >"$tmp/shares"
for input in dir file; do
	in=${!input}
	printf '%s report\t%s\n' "$input" "$(main_share "$bin" -j "$maxj" --stdio -i "$in")" >>"$tmp/shares"
	printf '%s flat\t%s\n' "$input" "$(main_share "$bin" -j "$maxj" --stdio --no-children -g none -i "$in")" >>"$tmp/shares"
	printf '%s dump\t%s\n' "$input" "$(main_share "$bin" -j "$maxj" -D -i "$in")" >>"$tmp/shares"
	printf '%s sqlite\t%s\n' "$input" "$(main_share "$conv" -j "$maxj" --no-progress -i "$in" --to-sqlite "$tmp/out.db")" >>"$tmp/shares"
done

echo
awk -F'\t' -v maxj="$(echo "$jobs" | tr ' ' '\n' | sort -n | tail -n 1)" '
	BEGIN {
		printf "%-22s %8s %8s %9s %9s %9s\n", "input command -j", "wall s", "CPU s",
			"RSS MB", "vs -j1", "vs perf"
	}
	{
		split($1, k, " "); key = k[1] " " k[2]; j = k[3]
		wall[$1] = $2; cpu[$1] = $3; rss[$1] = $4
		if (j == "perf") pw[key] = $2
		if (j == "-j1") w1[key] = $2
		if (j == "-j" maxj) wn[key] = $2
		sj = (j != "perf" && w1[key] > 0 && $2 > 0) ? sprintf("%.2fx", w1[key] / $2) : "-"
		sp = (j != "perf" && pw[key] > 0 && $2 > 0) ? sprintf("%.1fx", pw[key] / $2) : "-"
		printf "%-22s %8.3f %8.2f %9.1f %9s %9s\n", $1, $2, $3, $4 / 1024, sj, sp
		order[++n] = key
	}
	END {
		if (maxj < 2) exit
		printf "\nserial fraction (Amdahl, from -j1 and -j%d wall times)\n", maxj
		printf "%-16s %8s %12s %12s\n", "input command", "s", "16 cores", "64 cores"
		for (i = 1; i <= n; i++) {
			key = order[i]
			if (seen[key]++ || !(key in w1) || !(key in wn) || w1[key] <= 0) continue
			s = (maxj * wn[key] / w1[key] - 1) / (maxj - 1)
			if (s < 0) s = 0
			if (s > 1) s = 1
			printf "%-16s %8.3f %11.1fx %11.1fx\n", key, s,
				1 / (s + (1 - s) / 16), 1 / (s + (1 - s) / 64)
		}
	}' "$tmp/scaling"

echo
echo "main thread's share of the CPU samples at -j$maxj (perf record; an upper bound of the serial fraction)"
awk -F'\t' '{ printf "%-16s %7s %%\n", $1, $2 }' "$tmp/shares"
