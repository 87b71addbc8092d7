#!/usr/bin/env bash
# bench/script.sh - dirscript and dirconvert --to-json against perf 6.1 (perf script,
# perf data convert --to-json) on a real --threads recording.
#
#   bench/script.sh [-n RUNS] [-s SECONDS] [-k] [--no-check] [DATA]
#
# DATA: a perf.data file or --threads directory.  Without it, a SECONDS-long (default 10)
# system-wide recording is made with ../shared/bench/make-data.sh into a temporary
# directory (removed at the end unless -k).  Each command runs once to warm the page
# cache, then RUNS times (default 5) under `/usr/bin/time -f '%e %M'` (stdout to
# /dev/null; the JSON into a file of $tmp); the table shows the median wall time and
# peak RSS, and both as ratios to the perf command of the same mode.  Then the time
# dirscript --flamegraph takes to write the recording's flame graph.  Unless --no-check,
# the outputs are compared once with perf's (perf script's text byte for byte, the JSON
# as JSON values with jq).
#
# Needs root (system-wide recording; perf reads kallsyms), perf 6.1, GNU time, jq, and
# $BUILD/dirscript and $BUILD/dirconvert (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=5 secs=10 keep='' check=1

bench_data_arg no_check_opt "$@"

bench_init dirscript
conv=$BUILD/dirconvert
[ -x "$conv" ] || { echo "bench: $conv not found; run make first" >&2; exit 1; }
bench_data

measure "perf script" perf script -i "$data"
measure "dirscript" "$bin" -i "$data"
measure "dirscript -j 1" "$bin" -j 1 -i "$data"
measure "dirscript -j 2" "$bin" -j 2 -i "$data"
out=$tmp/p.json measure "perf data convert --to-json" \
	perf data convert -f -i "$data" --to-json "$tmp/p.json"
out=$tmp/d.json measure "dirconvert --to-json" "$conv" -f -i "$data" --to-json "$tmp/d.json"
out=$tmp/d1.json measure "dirconvert -j 1 --to-json" \
	"$conv" -f -j 1 -i "$data" --to-json "$tmp/d1.json"
bench_table 'json$'

echo
/usr/bin/time -f '%e %M' -o "$tmp/t" "$bin" -i "$data" --flamegraph "$tmp/flame.svg"
echo "dirscript --flamegraph: $(cut -d' ' -f1 "$tmp/t") s, $(du -h "$tmp/flame.svg" | cut -f1) SVG, $(grep -c '<g class="f"' "$tmp/flame.svg") frames"

if [ -n "$check" ]; then
	echo
	if cmp -s <(perf script -i "$data" 2>/dev/null) <("$bin" -i "$data" 2>/dev/null); then
		echo "check: dirscript output equal to perf script's"
	else
		echo "check: dirscript output DIFFERS from perf script's"
	fi
	if cmp -s <(jq -S -c . "$tmp/p.json") <(jq -S -c . "$tmp/d.json"); then
		echo "check: --to-json equal to perf's (as JSON values)"
	else
		echo "check: --to-json DIFFERS from perf's"
	fi
fi
