#!/usr/bin/env bash
# bench/pgsql.sh - dirconvert --to-postgresql against perf 6.1's export-to-postgresql.py,
# into the same local PostgreSQL server.
#
#   bench/pgsql.sh [-n RUNS] [-s SECONDS] [-k] [-c] [DATA]
#
# DATA: a perf.data file or --threads directory.  Without it, a SECONDS-long (default 10)
# system-wide recording is made with ../shared/bench/make-data.sh into a temporary
# directory (removed at the end unless -k).  A private server is started in a temporary
# directory with tests/pgsql/server.sh (Unix socket only, fsync off: the disk is not
# measured) and stopped at the end.  Each command runs once to warm up, then RUNS times
# (default 3); every run first drops the database it writes (perf's script cannot write
# into an existing one), and the table shows the median wall time and peak RSS of the
# client (the server's work is in the wall time, not in the RSS) with ratios to perf's.
# -c adds the --callchains mode (perf's script with its callchains-mode crash fixed by
# sed, as in tests/convert/update.sh).  Then: the rows written and the writer's rate
# (rows of every table / median wall time), the time the server spent per kind of
# statement in one run of dirconvert (from its log), and a check that both databases
# are equal (tests/pgsql/dump.sh).
#
# Needs root (system-wide recording; the server runs as the user postgres), perf 6.1,
# the Debian packages postgresql, python3-pyside2.qtsql and libqt5sql5-psql, GNU time,
# and $BUILD/dirconvert (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
# shellcheck source=tests/pgsql/server.sh
. tests/pgsql/server.sh
runs=3 secs=10 keep='' callchains=''

usage() { sed -n '5p' "$0" | sed 's/^#   /usage: /' >&2; exit 2; }
opt() { case $1 in -c) callchains=1; took=1 ;; esac; }
bench_opts opt "$@"
set -- "${bench_args[@]}"
[ $# -le 1 ] || usage
data=${1:-}

bench_init dirconvert
script=$(perf --exec-path)/scripts/python/export-to-postgresql.py
[ -f "$script" ] || { echo "bench: $script not found" >&2; exit 1; }
sed 's/^\([[:space:]]*\)call_return_table(0, /\1if perf_db_export_calls: call_return_table(0, /' \
	"$script" >"$tmp/export-callchains.py"
bench_data

# the server: in a short directory of its own (the socket path), readable by postgres
srv=$(mktemp -d /tmp/pgbench.XXXXXX)
trap 'pg_stop; rm -rf "$srv"; [ -n "$keep" ] || rm -rf "$tmp"' EXIT
pg_start "$srv" || { echo "bench: $pg_why" >&2; exit 1; }
chmod 755 "$tmp"
abs_data=$(cd "$(dirname "$data")" && pwd)/$(basename "$data")
abs_bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# One command per run, the database dropped first (in the measured time for both).
cat >"$tmp/perf-export.sh" <<'SH'
# perf-export.sh DATA SCRIPT DB [ARGS...]: perf's export into a new database DB
data=$1 script=$2 db=$3
shift 3
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" 2>/dev/null
rm -rf "$db-perf-data"
exec perf script -i "$data" -s "$script" "$db" "$@"
SH
(
	cd "$tmp"
	measure "perf export-to-postgresql.py" sh perf-export.sh "$abs_data" "$script" perfdb
	measure "dirconvert --to-postgresql" "$abs_bin" -i "$abs_data" -f --to-postgresql dbname=ours
	measure "dirconvert -j 1 --to-postgresql" "$abs_bin" -j 1 -i "$abs_data" -f \
		--to-postgresql dbname=ours1
	if [ -n "$callchains" ]; then
		measure "perf export-to-postgresql.py callchains" sh perf-export.sh "$abs_data" \
			"$tmp/export-callchains.py" perfcc all callchains
		measure "dirconvert --callchains" "$abs_bin" -i "$abs_data" -f --callchains \
			--to-postgresql dbname=ourscc
	fi
)
bench_table 'callchains$'

echo
rows=$(pg_sql ours "SELECT (SELECT count(*) FROM samples) + (SELECT count(*) FROM symbols) +
	(SELECT count(*) FROM dsos) + (SELECT count(*) FROM threads) +
	(SELECT count(*) FROM comms) + (SELECT count(*) FROM comm_threads) +
	(SELECT count(*) FROM machines) + (SELECT count(*) FROM selected_events) +
	(SELECT count(*) FROM branch_types)")
wall=$(awk -F'\t' '$1 == "dirconvert --to-postgresql" { print $2 }' "$tmp/results")
awk -v r="$rows" -v w="$wall" 'BEGIN { printf "rows written: %d (%.0f rows/s over the whole run)\n", r, r / w }'
if [ -n "$callchains" ]; then
	rows=$(pg_sql ourscc "SELECT (SELECT count(*) FROM samples) + (SELECT count(*) FROM call_paths)")
	wall=$(awk -F'\t' '$1 == "dirconvert --callchains" { print $2 }' "$tmp/results")
	awk -v r="$rows" -v w="$wall" 'BEGIN { printf "--callchains: samples + call_paths rows: %d (%.0f rows/s)\n", r, r / w }'
fi

# the server's own time per statement kind, one run of dirconvert
: >"$srv/server.log"
PGOPTIONS="-c log_min_duration_statement=0" "$bin" -i "$data" -f --to-postgresql dbname=ours \
	2>/dev/null
echo "server time per statement (one dirconvert run):"
grep -o 'duration: [0-9.]* ms  statement: [A-Z]* [A-Z]*' "$srv/server.log" |
	awk '{ k = $5 " " $6; s[k] += $2; t += $2 }
	     END { for (k in s) printf "  %8.1f ms  %s\n", s[k], k; printf "  %8.1f ms  total\n", t }' |
	sort -rn

echo
# check NAME PERF-DB OUR-DB: same dump (schema, keys, every row of every table and view)
check() {
	sh tests/pgsql/dump.sh "$2" "$tmp/want" >/dev/null && sh tests/pgsql/dump.sh "$3" "$tmp/got" >/dev/null ||
		{ echo "check: $1: dump failed"; return; }
	if diff -rq "$tmp/want" "$tmp/got" >/dev/null; then
		echo "check: $1: database equal to perf's"
	else
		echo "check: $1: database DIFFERS from perf's: $(diff -rq "$tmp/want" "$tmp/got" | wc -l) files"
	fi
	rm -rf "$tmp/want" "$tmp/got"
}
check "--to-postgresql" perfdb ours
check "-j 1 --to-postgresql" perfdb ours1
[ -z "$callchains" ] || check "--callchains" perfcc ourscc
