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
BUILD=${BUILD:-build}
MAKE_DATA=${MAKE_DATA:-../shared/bench/make-data.sh}
runs=5 secs=10 keep='' check=1

usage() { sed -n '4p' "$0" | sed 's/^#   /usage: /' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=${2:?}; shift 2 ;;
	-s) secs=${2:?}; shift 2 ;;
	-k) keep=1; shift ;;
	--no-check) check=''; shift ;;
	-h | --help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || usage
data=${1:-}

bin=$BUILD/dirreport
[ -x "$bin" ] || { echo "bench: $bin not found; run make first" >&2; exit 1; }
perf version 2>/dev/null | grep -q '^perf version 6\.1\.' ||
	echo "bench: warning: $(perf version 2>&1 | head -n 1) is not perf 6.1" >&2
if [ ! -x /usr/bin/time ]; then
	echo "bench: installing GNU time (Debian package time)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dirreport-bench.XXXXXX")
cleanup() { [ -n "$keep" ] || rm -rf "$tmp"; }
trap cleanup EXIT
if [ -z "$data" ]; then
	data=$tmp/bench.data
	echo "bench: recording ${secs}s with $MAKE_DATA into $data"
	sh "$MAKE_DATA" "$data" "$secs" >"$tmp/record.log" 2>&1 ||
		{ cat "$tmp/record.log" >&2; exit 1; }
	[ -z "$keep" ] || echo "bench: keeping $data"
fi
[ -e "$data" ] || { echo "bench: $data: no such file or directory" >&2; exit 1; }

echo "bench: $data, $(du -sh "$data" | cut -f1), $(nproc) CPUs, median of $runs runs"

# measure NAME CMD...: warm-up run, then $runs timed runs, stdout to /dev/null; appends
# "NAME<TAB>wall<TAB>rss_kb<TAB>status" to $tmp/results.
measure() {
	local name=$1 i status=ok
	shift
	"$@" >/dev/null 2>"$tmp/err" || status="FAILED (exit $?)"
	: >"$tmp/times"
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>>"$tmp/err" ||
			status="FAILED"
		tail -n 1 "$tmp/t" >>"$tmp/times"
	done
	printf '%s\t%s\t%s\t%s\n' "$name" \
		"$(cut -d' ' -f1 "$tmp/times" | median)" \
		"$(cut -d' ' -f2 "$tmp/times" | median)" "$status" >>"$tmp/results"
	printf '  %-28s %s\n' "$name" "$status" >&2
	[ "$status" = ok ] || head -n 3 "$tmp/err" | sed 's/^/    /' >&2
}
median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$tmp/results"
measure "perf report --stdio" perf report --stdio -i "$data"
measure "dirreport --stdio" "$bin" -i "$data" --stdio
measure "dirreport -j 1 --stdio" "$bin" -j 1 -i "$data" --stdio
measure "perf report -D" perf report -D -i "$data"
measure "dirreport -D" "$bin" -D -i "$data"
measure "dirreport -j 1 -D" "$bin" -j 1 -D -i "$data"

echo
awk -F'\t' '
	BEGIN { printf "%-28s %9s %13s %11s %10s\n", "command", "wall s", "peak RSS MB",
		"time/perf", "RSS/perf" }
	{
		mode = ($1 ~ / -D$/) ? "D" : "stdio"
		if ($1 ~ /^perf /) { pw[mode] = $2; pm[mode] = $3 }
		tr = (pw[mode] > 0) ? sprintf("%.2f", $2 / pw[mode]) : "-"
		mr = (pm[mode] > 0) ? sprintf("%.2f", $3 / pm[mode]) : "-"
		printf "%-28s %9.2f %13.1f %11s %10s%s\n", $1, $2, $3 / 1024, tr, mr,
			($4 == "ok") ? "" : "  " $4
	}' "$tmp/results"

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
