#!/usr/bin/env bash
# bench/readme-table.sh - the README's performance table: each program against perf 6.1.
#
#   bench/readme-table.sh [-n RUNS] [-s SECONDS] [-k] [DIR [FILE]]
#
# DIR: a --threads data directory (default: a SECONDS-long, default 10,
# ../shared/bench/make-data.sh recording); FILE: a single perf.data file (default: the
# same workload recorded with `perf record -a -g -F 25000` into one file, as
# bench/scaling.sh records it).  For each input and command below: the median of RUNS
# (default 3) runs under GNU time of the wall time and peak RSS, at -j 1 and -j 2, and
# perf's equivalent in the same run:
#
#   --stdio            dirreport --stdio               perf report --stdio
#   flat               dirreport --stdio --no-children -g none   (perf the same)
#   -D                 dirreport -D                     perf report -D
#   dirscript          dirscript                        perf script
#   --to-json          dirconvert --to-json             perf data convert --to-json
#   --to-sqlite        dirconvert --to-sqlite           perf script -s export-to-sqlite.py
#                                                       (only where PySide2's QtSql is)
#
# and bench/ceiling.sh's figure for the directory's --stdio (what a perfect -j 2 could
# give on this machine) from the same run.  Prints a Markdown table and writes it, with
# the machine it ran on, to bench/results.md; the README's table is copied from there.
# Needs root (system-wide recordings), perf 6.1, GNU time.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep=''

bench_opts '' "$@"
set -- "${bench_args[@]}"
[ $# -le 2 ] || usage
data=${1:-}
file=${2:-}

bench_init dirreport
script_bin=$BUILD/dirscript
conv=$BUILD/dirconvert
bench_data
dir=$data
bench_file_data

bench_export_probe

# one NAME CMD...: a warm-up, then $runs runs; appends "NAME wall cpu rss_kb" (medians).
one() { bench_runs "$tmp/table" "$@"; }

: >"$tmp/table"
for input in dir file; do
	in=${!input}
	one "$input stdio perf" perf report --stdio -i "$in"
	one "$input flat perf" perf report --stdio --no-children -g none -i "$in"
	one "$input dump perf" perf report -D -i "$in"
	one "$input script perf" perf script -i "$in"
	one "$input json perf" perf data convert -f -i "$in" --to-json "$tmp/out.db"
	[ -z "$have_export" ] ||
		one "$input sqlite perf" perf script -i "$in" -s "$export_script" "$tmp/out.db"
	for j in 1 2; do
		one "$input stdio $j" "$bin" -j "$j" --no-pager --stdio -i "$in"
		one "$input flat $j" "$bin" -j "$j" --no-pager --stdio --no-children -g none -i "$in"
		one "$input dump $j" "$bin" -j "$j" --no-pager -D -i "$in"
		one "$input script $j" "$script_bin" -j "$j" --no-pager -i "$in"
		one "$input json $j" "$conv" -f -j "$j" --no-progress -i "$in" --to-json "$tmp/out.db"
		one "$input sqlite $j" "$conv" -j "$j" --no-progress -i "$in" --to-sqlite "$tmp/out.db"
	done
done

ceiling=$(bash bench/ceiling.sh -n "$runs" "$dir" 2>/dev/null |
	awk '/at once \(ceiling\)/ { print $NF }' | head -n 1)

{
	echo "| input, command | \`-j 1\` | \`-j 2\` | \`-j 2\` / \`-j 1\` | perf 6.1 | vs perf at \`-j 2\` | peak RSS at \`-j 2\` (perf's) |"
	echo "|---|---|---|---|---|---|---|"
	awk -F'\t' '
		{ split($1, k, " "); key = k[1] " " k[2]; w[key, k[3]] = $2; m[key, k[3]] = $4
		  if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
		END {
			name["stdio"] = "`--stdio`"; name["flat"] = "flat report"
			name["dump"] = "`-D`"; name["script"] = "`dirscript`"
			name["json"] = "`dirconvert --to-json`"
			name["sqlite"] = "`dirconvert --to-sqlite`"
			input["dir"] = "directory"; input["file"] = "file"
			for (i = 1; i <= n; i++) {
				split(order[i], k, " ")
				pw = w[order[i], "perf"]; pm = m[order[i], "perf"]
				w1 = w[order[i], 1]; w2 = w[order[i], 2]
				printf "| %s, %s | %.2f s | %.2f s | %.2fx | %s | %s | %.0f MB (%s) |\n",
					input[k[1]], name[k[2]], w1, w2, (w2 > 0 ? w1 / w2 : 0),
					(pw == "" ? "-" : sprintf("%.2f s", pw)),
					(pw == "" || w2 == 0 ? "-" : sprintf("%.1fx", pw / w2)),
					m[order[i], 2] / 1024,
					(pm == "" ? "-" : sprintf("%.0f MB", pm / 1024))
			}
		}' "$tmp/table"
	echo
	echo "\`bench/ceiling.sh\` in the same run: a perfect \`-j 2\` could give ${ceiling:-?} over \`-j 1\` here."
} >"$tmp/md"

{
	echo "# Results of bench/readme-table.sh"
	echo
	echo "Machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo),"
	echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r), $(perf version)."
	echo "Inputs: directory $(du -sh "$dir" | cut -f1), file $(du -sh "$file" | cut -f1); medians of $runs runs."
	echo
	cat "$tmp/md"
} >bench/results.md
cat "$tmp/md"
