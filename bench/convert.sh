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
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' check=1 callchains=''

opt() {
	case $1 in
	-c) callchains=1; took=1 ;;
	--no-check) check=''; took=1 ;;
	esac
}
bench_opts opt "$@"
set -- "${bench_args[@]}"
[ $# -le 1 ] || usage
data=${1:-}

bench_init dirconvert
script=$(perf --exec-path)/scripts/python/export-to-sqlite.py
[ -f "$script" ] || { echo "bench: $script not found" >&2; exit 1; }
sed 's/^\([[:space:]]*\)call_return_table(0, /\1if perf_db_export_calls: call_return_table(0, /' \
	"$script" >"$tmp/export-callchains.py"
bench_data

out=$tmp/perf.db measure "perf export-to-sqlite.py" \
	perf script -i "$data" -s "$script" "$tmp/perf.db"
out=$tmp/dc.db measure "dirconvert --to-sqlite" "$bin" -i "$data" --to-sqlite "$tmp/dc.db"
out=$tmp/dc1.db measure "dirconvert -j 1 --to-sqlite" \
	"$bin" -j 1 -i "$data" --to-sqlite "$tmp/dc1.db"
if [ -n "$callchains" ]; then
	out=$tmp/perf-cc.db measure "perf export-to-sqlite.py callchains" \
		perf script -i "$data" -s "$tmp/export-callchains.py" "$tmp/perf-cc.db" \
		all callchains
	out=$tmp/dc-cc.db measure "dirconvert --callchains" \
		"$bin" -i "$data" --callchains --to-sqlite "$tmp/dc-cc.db"
fi
bench_table 'callchains$'

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
