#!/usr/bin/env bash
# bench/convert.sh - dirconvert --to-sqlite against perf 6.1's export-to-sqlite.py.
#
#   bench/convert.sh [-n RUNS] [-s SECONDS] [-k] [-c] [--no-check] [DATA]
#
# DATA: a perf.data file or --threads directory.  Without it, a SECONDS-long (default 10)
# system-wide recording is made with ../shared/bench/make-data.sh into a temporary
# directory (removed at the end unless -k).  Each command runs once to warm the page
# cache, then RUNS times (default 3; perf's export takes seconds) under
# `/usr/bin/time -f '%e %M'`; the table shows the median wall time, the median peak RSS
# and both as ratios to perf's export (time/perf 0.03 = 33 times faster).  -c adds the
# --callchains mode (against perf's script with its callchains-mode crash fixed by sed,
# see tests/convert/update.sh).  Unless --no-check, the databases are compared once
# with tests/convert/dump.sh (schema, every row of every table and view).
#
# Needs root (system-wide recording; perf reads kallsyms), perf 6.1 with PySide2's QtSql
# (Debian: python3-pyside2.qtsql), sqlite3, GNU time (Debian package `time`, installed
# here if missing) and $BUILD/dirconvert (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${BUILD:-build}
MAKE_DATA=${MAKE_DATA:-../shared/bench/make-data.sh}
runs=3 secs=10 keep='' check=1 callchains=''

usage() { sed -n '4p' "$0" | sed 's/^#   /usage: /' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=${2:?}; shift 2 ;;
	-s) secs=${2:?}; shift 2 ;;
	-k) keep=1; shift ;;
	-c) callchains=1; shift ;;
	--no-check) check=''; shift ;;
	-h | --help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || usage
data=${1:-}

bin=$BUILD/dirconvert
[ -x "$bin" ] || { echo "bench: $bin not found; run make first" >&2; exit 1; }
perf version 2>/dev/null | grep -q '^perf version 6\.1\.' ||
	echo "bench: warning: $(perf version 2>&1 | head -n 1) is not perf 6.1" >&2
if [ ! -x /usr/bin/time ]; then
	echo "bench: installing GNU time (Debian package time)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null
fi
script=$(perf --exec-path)/scripts/python/export-to-sqlite.py
[ -f "$script" ] || { echo "bench: $script not found" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dirconvert-bench.XXXXXX")
cleanup() { [ -n "$keep" ] || rm -rf "$tmp"; }
trap cleanup EXIT
sed 's/^\([[:space:]]*\)call_return_table(0, /\1if perf_db_export_calls: call_return_table(0, /' \
	"$script" >"$tmp/export-callchains.py"
if [ -z "$data" ]; then
	data=$tmp/bench.data
	echo "bench: recording ${secs}s with $MAKE_DATA into $data"
	sh "$MAKE_DATA" "$data" "$secs" >"$tmp/record.log" 2>&1 ||
		{ cat "$tmp/record.log" >&2; exit 1; }
	[ -z "$keep" ] || echo "bench: keeping $data"
fi
[ -e "$data" ] || { echo "bench: $data: no such file or directory" >&2; exit 1; }

echo "bench: $data, $(du -sh "$data" | cut -f1), $(nproc) CPUs, median of $runs runs"

# measure NAME OUT CMD...: warm-up run, then $runs timed runs (OUT removed before each);
# appends "NAME<TAB>wall<TAB>rss_kb<TAB>status" to $tmp/results.  The warm-up's
# database stays in OUT for the check.
measure() {
	local name=$1 out=$2 i status=ok
	shift 2
	rm -f "$out"
	"$@" >/dev/null 2>"$tmp/err" || status="FAILED (exit $?)"
	cp "$out" "$out.keep" 2>/dev/null || true
	: >"$tmp/times"
	for ((i = 0; i < runs; i++)); do
		rm -f "$out"
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>>"$tmp/err" ||
			status="FAILED"
		tail -n 1 "$tmp/t" >>"$tmp/times"
	done
	mv "$out.keep" "$out" 2>/dev/null || true
	printf '%s\t%s\t%s\t%s\n' "$name" \
		"$(cut -d' ' -f1 "$tmp/times" | median)" \
		"$(cut -d' ' -f2 "$tmp/times" | median)" "$status" >>"$tmp/results"
	printf '  %-34s %s\n' "$name" "$status" >&2
	[ "$status" = ok ] || head -n 3 "$tmp/err" | sed 's/^/    /' >&2
}
median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$tmp/results"
measure "perf export-to-sqlite.py" "$tmp/perf.db" \
	perf script -i "$data" -s "$script" "$tmp/perf.db"
measure "dirconvert --to-sqlite" "$tmp/dc.db" "$bin" -i "$data" --to-sqlite "$tmp/dc.db"
measure "dirconvert -j 1 --to-sqlite" "$tmp/dc1.db" \
	"$bin" -j 1 -i "$data" --to-sqlite "$tmp/dc1.db"
if [ -n "$callchains" ]; then
	measure "perf export-to-sqlite.py callchains" "$tmp/perf-cc.db" \
		perf script -i "$data" -s "$tmp/export-callchains.py" "$tmp/perf-cc.db" \
		all callchains
	measure "dirconvert --callchains" "$tmp/dc-cc.db" \
		"$bin" -i "$data" --callchains --to-sqlite "$tmp/dc-cc.db"
fi

echo
awk -F'\t' '
	BEGIN { printf "%-36s %9s %13s %11s %10s\n", "command", "wall s", "peak RSS MB",
		"time/perf", "RSS/perf" }
	{
		mode = ($1 ~ /callchains$/) ? "cc" : "plain"
		if ($1 ~ /^perf /) { pw[mode] = $2; pm[mode] = $3 }
		tr = (pw[mode] > 0) ? sprintf("%.3f", $2 / pw[mode]) : "-"
		mr = (pm[mode] > 0) ? sprintf("%.2f", $3 / pm[mode]) : "-"
		sp = ""
		if ($2 > 0 && pw[mode] > 0 && $1 !~ /^perf /)
			sp = sprintf("  (%.1fx faster)", pw[mode] / $2)
		printf "%-36s %9.2f %13.1f %11s %10s%s%s\n", $1, $2, $3 / 1024, tr, mr, sp,
			($4 == "ok") ? "" : "  " $4
	}' "$tmp/results"

if [ -n "$check" ]; then
	echo
	# check NAME PERF-DB OUR-DB: same dump (schema, every row of every table and view)
	check() {
		sh tests/convert/dump.sh "$2" "$tmp/want" && sh tests/convert/dump.sh "$3" "$tmp/got" ||
			{ echo "check: $1: dump failed"; return; }
		if diff -rq "$tmp/want" "$tmp/got" >/dev/null; then
			echo "check: $1: database equal to perf's"
		else
			echo "check: $1: database DIFFERS from perf's: $(diff -rq "$tmp/want" "$tmp/got" | wc -l) files"
		fi
		rm -rf "$tmp/want" "$tmp/got"
	}
	check "--to-sqlite" "$tmp/perf.db" "$tmp/dc.db"
	check "-j 1 --to-sqlite" "$tmp/perf.db" "$tmp/dc1.db"
	[ -z "$callchains" ] || check "--callchains" "$tmp/perf-cc.db" "$tmp/dc-cc.db"
fi
