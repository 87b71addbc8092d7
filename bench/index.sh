#!/usr/bin/env bash
# bench/index.sh - what the per-file index (docs/index-format.md) buys a data directory.
#
#   bench/index.sh [-n RUNS] [-s SECONDS] [-t SLICE] [-k] [DIR]
#
# DIR: a --threads data directory (default: a SECONDS-long, default 60,
# ../shared/bench/make-data.sh recording).  Its index is built once (timed) and each
# command below runs RUNS times (default 3, median) with the index and with the index
# moved aside, the same binary and data:
#
#   stats    dirreport --stats
#   slice    dirreport --stdio --time SLICE            (default SLICE 45%-55%: 10 %)
#   report   dirreport --stdio
#   dump     dirreport -D > /dev/null
#
# For each: wall and CPU seconds, peak RSS (GNU time), the bytes of records the run
# read (DIRREPORT_IO_STATS: bytes the scan and delivery decoded, and for the entries
# whose samples were left out the pages of their side-band records), and for report
# and dump the seconds until the first line of output (bench/first-line.py).  The
# slice's report is checked equal with and without the index.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=60 keep='' slice=45%-55%

opt() { case $1 in -t) slice=${2:?}; took=2 ;; esac; }
bench_opts opt "$@"
set -- "${bench_args[@]}"
[ $# -le 1 ] || usage
data=${1:-}

bench_init dirreport
bench_data
dir=$data
rep=$BUILD/dirreport
aside=$tmp/dirindex.aside

t0=$(date +%s.%N)
"$BUILD/dirconvert" --index "$dir"
t1=$(date +%s.%N)
echo "bench: dirconvert --index: $(echo "$t1 - $t0" | bc) s, $(stat -c %s "$dir/dirindex") bytes" \
     "($(du -sb "$dir" | cut -f1) bytes of recording)"
cp "$dir/dirindex" "$aside"

# one NAME INDEX(1|0) CMD...: RUNS runs; prints the medians
one() {
	local name=$1 ix=$2 i walls=() cpus=() rss=() bytes=''
	shift 2
	if [ "$ix" = 1 ]; then cp -p "$aside" "$dir/dirindex"; else rm -f "$dir/dirindex"; fi
	"$@" >/dev/null 2>&1 || true	# warm the page cache
	for ((i = 0; i < runs; i++)); do
		DIRREPORT_IO_STATS=1 /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" \
			>/dev/null 2>"$tmp/err" || true
		read -r w u s m <"$tmp/time"
		walls+=("$w")
		cpus+=("$(echo "$u + $s" | bc)")
		rss+=("$m")
		bytes=$(sed -n 's/^dirreport: io: \([0-9]*\) bytes.*/\1/p' "$tmp/err")
	done
	printf '%-8s %-6s %8s %8s %9.1f %12s\n' "$name" "$([ "$ix" = 1 ] && echo yes || echo no)" \
		"$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" \
		"$(echo "$(printf '%s\n' "${rss[@]}" | median) / 1024" | bc -l)" "${bytes:--}"
}

# first NAME INDEX CMD...: median seconds to the first output line
first() {
	local name=$1 ix=$2 i v=()
	shift 2
	if [ "$ix" = 1 ]; then cp -p "$aside" "$dir/dirindex"; else rm -f "$dir/dirindex"; fi
	for ((i = 0; i < runs; i++)); do
		v+=("$(python3 bench/first-line.py "$@")")
	done
	printf '%-8s %-6s %8s\n' "$name" "$([ "$ix" = 1 ] && echo yes || echo no)" "$(printf '%s\n' "${v[@]}" | median)"
}

echo
printf '%-8s %-6s %8s %8s %9s %12s\n' command index "wall s" "CPU s" "RSS MB" "bytes read"
for ix in 0 1; do one stats $ix "$rep" --stats -i "$dir"; done
for ix in 0 1; do one slice $ix "$rep" --stdio --time "$slice" -i "$dir"; done
for ix in 0 1; do one report $ix "$rep" --stdio -i "$dir"; done
for ix in 0 1; do one dump $ix "$rep" -D -i "$dir"; done
echo
printf '%-8s %-6s %8s\n' command index "first line s"
for ix in 0 1; do first report $ix "$rep" --stdio -i "$dir"; done
for ix in 0 1; do first dump $ix "$rep" -D -i "$dir"; done

# the slice's report is the same with and without the index
cp -p "$aside" "$dir/dirindex"
"$rep" --stdio --time "$slice" -i "$dir" >"$tmp/with" 2>/dev/null
rm -f "$dir/dirindex"
"$rep" --stdio --time "$slice" -i "$dir" >"$tmp/without" 2>/dev/null
cp -p "$aside" "$dir/dirindex"
if cmp -s "$tmp/with" "$tmp/without"; then
	echo "bench: the $slice report is the same with and without the index"
else
	echo "bench: the $slice report DIFFERS with and without the index" >&2
	exit 1
fi
