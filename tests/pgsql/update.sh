#!/bin/sh
# tests/pgsql/update.sh - regenerate tests/pgsql/golden/ from perf 6.1's own export of
# the recordings in samples/ into PostgreSQL (export-to-postgresql.py), for the cases
# and arguments of tests/convert/update.sh.
#
#   sh tests/pgsql/update.sh          (from anywhere; needs root for kallsyms)
#
# A private server is started in a scratch directory (tests/pgsql/server.sh: Unix
# socket only, run as the user postgres when root) and stopped at the end.  perf's
# script connects through Qt's QPSQL driver and libpq with PGHOST/PGPORT/PGUSER, makes
# the database with CREATE DATABASE NAME (unquoted: NAME is g_<case> with _ for -), and
# writes its intermediate files to NAME-perf-data in the current directory, so it runs
# in the scratch directory.
#
# For each golden case, tests/pgsql/golden/<case>/ holds:
#   cmd            dirconvert's arguments, one line (run from the repository root,
#                  `--to-postgresql CONNINFO` is added by run.sh)
#   perf-cmd       the perf command that made the expected database
#   *.txt          the database as tests/pgsql/dump.sh prints it
#
# perf's script needs PySide2's QtSql and Qt's PostgreSQL driver: on Debian
# `apt-get install python3-pyside2.qtsql libqt5sql5-psql`.  perf 6.1's "callchains"
# mode dies at start (NameError: call_file: it writes the placeholder row of the calls
# table, which only "calls" mode creates); the callchain case runs a copy of the script
# with that one line made conditional, changed at run time with sed (the fix of
# tests/convert/update.sh); nothing of perf's script is stored here.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
script=$(perf --exec-path)/scripts/python/export-to-postgresql.py
[ -f "$script" ] || { echo "update.sh: $script not found" >&2; exit 1; }
. tests/pgsql/server.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgsql-update.XXXXXX")
# the server's directory: its own, directly in /tmp (the user postgres must reach it)
srv=$(mktemp -d /tmp/pgsql-update-srv.XXXXXX)
trap 'pg_stop; rm -rf "$tmp" "$srv"' EXIT
trap 'exit 1' INT TERM
pg_start "$srv" || { echo "update.sh: $pg_why" >&2; exit 1; }
# perf's build-id cache is the one the samples carry, as in the tests (tests/README.md)
[ -f samples/buildid-cache/.unpacked ] || make -s buildid-cache
mkdir -p "$tmp/home"
cp -R samples/buildid-cache "$tmp/home/.debug"
HOME=$tmp/home
export HOME
# the callchains fix: write the calls placeholder only when the calls table exists
sed 's/^\([[:space:]]*\)call_return_table(0, /\1if perf_db_export_calls: call_return_table(0, /' \
	"$script" >"$tmp/export-callchains.py"
cmp -s "$script" "$tmp/export-callchains.py" &&
	{ echo "update.sh: the callchains fix no longer applies to $script" >&2; exit 1; }

# make_case NAME ARGS PERFSCRIPT PERFARGS [DIRCONVERT-ARGS]: ARGS are perf's and
# dirconvert's (paths relative to the repository root)
make_case() {
	name=$1 args=$2 perfscript=$3 perfargs=$4
	dir=tests/pgsql/golden/$name
	db=g_$(echo "$name" | tr - _)
	rm -rf "$dir"
	mkdir -p "$dir"
	# perf runs in the scratch directory: the recording's paths made absolute
	set -f
	pargs=
	for a in $args; do
		case $a in -*) ;; *) a=$root/$a ;; esac
		pargs="$pargs $a"
	done
	pg_sql postgres "DROP DATABASE IF EXISTS $db" >/dev/null
	# shellcheck disable=SC2086 # word splitting of the argument lists is intended
	(cd "$tmp" && perf script $pargs -s "$perfscript" "$db" $perfargs) \
		>"$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log" >&2; exit 1; }
	set +f
	echo "$args${5:+ $5}" >"$dir/cmd"
	echo "perf script $args -s export-to-postgresql.py $db${perfargs:+ $perfargs}" \
		"(in a scratch directory)" >"$dir/perf-cmd"
	sh tests/pgsql/dump.sh "$db" "$dir"
	pg_sql postgres "DROP DATABASE $db" >/dev/null
	echo "update.sh: $dir"
}

for name in plain threads threads-z callchain pipe; do
	s=samples/$name.data
	# a pipe recording names no build-id: its kernel symbols are given
	ks=
	[ -e "$s.kallsyms" ] && ks=" --kallsyms $s.kallsyms"
	make_case "$name" "-i $s$ks" "$script" ""
done
make_case callchain-callchains "-i samples/callchain.data" "$tmp/export-callchains.py" \
	"all callchains" "--callchains"
# kernel modules of a recording made elsewhere, with symbols from a synthetic kallsyms
# (tests/external/kallsyms/make.py): [module] short names, module-relative symbols
make_case ext-kmod-forkexit "-i tests/external/perf.data.forkexit-3.8 --kallsyms \
tests/external/kallsyms/forkexit-3.8" "$script" ""
# branch stacks (perf record -b): perf 6.1's export does not export the branch stack;
# the samples' branch columns (to_ip, to_symbol_id, to_dso_id, branch_type, in_tx)
# stay 0 there, as for any sample without an address
make_case ext-branch "-i tests/external/perf.data.branch-4.14 --kallsyms \
tests/external/empty.kallsyms" "$script" ""
