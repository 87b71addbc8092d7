#!/bin/sh
# tests/pgsql/run.sh - tests of dirconvert --to-postgresql CONNINFO: golden (perf 6.1's own
# export-to-postgresql.py of samples/), live (perf's script here vs dirconvert), an
# existing database, --append, atomicity, connection and server errors.
#
#   BUILD=build sh tests/pgsql/run.sh        standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/pgsql/run.sh                     from tests/run-cli-tests.sh: uses its
#                                            helpers and counters, prints no summary
#
# A private server (tests/pgsql/server.sh) runs in a scratch directory for the suite:
# Unix socket only, superuser dirreport (trust), as the user postgres when root; it is
# stopped and removed at the end, also on failure.  Without server binaries (initdb,
# pg_ctl on PATH or in /usr/lib/postgresql/*/bin; as root, unless CONVERT_NO_INSTALL is
# set, the Debian package postgresql is installed first) the suite is one SKIP line.
# dirconvert reaches the server through libpq's PGHOST/PGPORT/PGUSER: CONNINFO is mostly
# just dbname=NAME.
#
# server     the server starts and stops; dump.sh tells NULL, '' and text apart and
#            orders rows (a table made with psql)
# golden     tests/pgsql/golden/<case>/ (made by update.sh from perf's databases):
#            `dirconvert $(cat cmd) --to-postgresql dbname=t_<case>` (also with -j 1;
#            the pipe sample also from standard input) must give a database whose
#            tests/pgsql/dump.sh output equals the stored files: the same schema
#            (tables, views and their definitions, column types and nullability,
#            primary and foreign keys with their names, indexes) and every row of every
#            table and view.  The case names hold '-': the database name is an
#            identifier to quote.  Kernel symbols come from the build-id cache the
#            samples carry (~/.debug, tests/lib.sh samples_home).
# live       when perf 6.1's export-to-postgresql.py runs here (PySide2's QtSql and Qt's
#            QPSQL driver; installed as root unless CONVERT_NO_INSTALL is set): perf's
#            export of samples/plain.data equals the golden files and dirconvert's
# exists     an existing database: exit 1, one stderr line, the database untouched;
#            -f / --force replace it; a libpq URI names the database as well
# append     samples/plain.data, then --append samples/threads.data: the first
#            recording's rows unchanged, the second's equal to its own export (the
#            golden files) but for the ids, samples per machine_id equal to each
#            recording's, a query across both recordings
# killed     SIGKILL / SIGINT once the database is made (DIRREPORT_TEST_PAUSE): with -f
#            the old database untouched, a new one not there; the killed run's
#            temporary database (NAME_dirconvert_tmp) named by a run without -f and
#            dropped by one with -f
# atomic     --append of a damaged recording (tests/malformed/make.sh: a record of size
#            0 half-way, in a file and in a pipe), --append whose connection is killed
#            or whose server stops while it waits for a lock on samples: exit 1, one
#            stderr line, the database's dump unchanged; a new database from a damaged
#            recording: exit 1 and no database left
# errors     no server (host=/nonexistent), refused password, no CREATEDB right, no
#            dbname, an unknown or malformed CONNINFO, --append to a missing or foreign
#            database: exit 1 and exactly one stderr line "dirconvert: ..."; usage
#            errors: exit 2
#
# A dirconvert without --to-postgresql answers a valid command with a usage error
# (exit 2): one FAIL line says so and the tests that need it are not run.

pq_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$pq_root/tests/pgsql/dump.sh" ] || pq_root=$(pwd)

# Standalone: the helpers run-cli-tests.sh provides (tests/lib.sh).
pq_standalone=
if ! command -v pass >/dev/null 2>&1; then
	pq_standalone=1
	cd "$pq_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone pgsql
fi

echo "-- dirconvert --to-postgresql (tests/pgsql)"
pq_bin=$(cd "$pq_root/$BUILD" 2>/dev/null && pwd)/dirconvert
pq_tmp=$tmp/pgsql
rm -rf "$pq_tmp"
mkdir -p "$pq_tmp"
. "$pq_root/tests/pgsql/server.sh"

# pq_install PKG...: as tests/convert/run.sh's cv_install.
pq_install() {
	[ -z "${CONVERT_NO_INSTALL:-}" ] && [ "$(id -u)" = 0 ] &&
		sh "$pq_root/tools/ensure-deps.sh" "$@" >"$pq_tmp/install.log" 2>&1
}

# pq_dump DB DIR: dump.sh, quietly; false on failure.
pq_dump() {
	rm -rf "$2"
	sh "$pq_root/tests/pgsql/dump.sh" "$1" "$2" >/dev/null 2>"$pq_tmp/dump.err"
}

# pq_drop DB: no database DB (connections to it are ended).
pq_drop() {
	pg_sql postgres "DROP DATABASE IF EXISTS \"$1\" WITH (FORCE)" >/dev/null 2>&1
}

# pq_exists DB: whether database DB exists.
pq_exists() {
	[ "$(pg_sql postgres "SELECT count(*) FROM pg_database WHERE datname = '$1'")" = 1 ]
}

# pq_same NAME WANTDIR GOTDIR: pass when every .txt file of WANTDIR is equal in GOTDIR
# and GOTDIR has no others.
pq_same() {
	_bad='' _first=''
	for _f in "$2"/*.txt; do
		_b=$(basename "$_f")
		if ! cmp -s "$_f" "$3/$_b"; then
			_bad="$_bad ${_b%.txt}"
			[ -n "$_first" ] || _first=$_b
		fi
	done
	for _f in "$3"/*.txt; do
		[ -f "$2/$(basename "$_f")" ] || _bad="$_bad +$(basename "$_f" .txt)"
	done
	if [ -z "$_bad" ]; then
		pass "$1"
	else
		fail "$1" "differs:$_bad"
		[ -z "$_first" ] || diff "$2/$_first" "$3/$_first" | head -n 10 |
			sed 's/^/    /'
	fi
}

# pq_convert NAME DB ARGS...: a fresh `dirconvert ARGS --to-postgresql dbname=DB`, dumped
# into $pq_tmp/got; reports only a failure (returns 1).
pq_convert() {
	_name=$1 _db=$2
	shift 2
	pq_drop "$_db"
	run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" "$@" --to-postgresql "dbname=$_db"
	pq_check_ok "$_name" "$_db"
}

# pq_check_ok NAME DB: after run: no crash, exit 0, $pq_tmp/got is DB's dump; reports
# only a failure (returns 1).
pq_check_ok() {
	crashed "$1" "$pq_tmp/err" && return 1
	if [ "$rc" -ne 0 ]; then
		fail "$1" "exit status $rc"
		head -n 3 "$pq_tmp/err" | sed 's/^/    /'
		return 1
	fi
	if ! pq_dump "$2" "$pq_tmp/got"; then
		fail "$1" "dump.sh failed: $(head -n 1 "$pq_tmp/dump.err")"
		return 1
	fi
	return 0
}

# pq_error_line NAME [NOTE]: after run: no crash, exit 1, nothing on stdout, exactly one
# stderr line starting "dirconvert: "; reports a failure (returns 1) or nothing.
pq_error_line() {
	crashed "$1" "$pq_tmp/err" && return 1
	if [ "$rc" -ne 1 ]; then
		fail "$1" "exit status $rc, expected 1"
		head -n 3 "$pq_tmp/err" | sed 's/^/    /'
		return 1
	fi
	if [ "$(wc -l <"$pq_tmp/err")" -ne 1 ] || [ -n "$(tail -c 1 "$pq_tmp/err")" ]; then
		fail "$1" "stderr is not exactly one line"
		head -n 5 "$pq_tmp/err" | sed 's/^/    /'
		return 1
	fi
	case $(cat "$pq_tmp/err") in
	"dirconvert: "*) ;;
	*)
		fail "$1" "stderr does not start with 'dirconvert: '"
		sed 's/^/    /' "$pq_tmp/err"
		return 1 ;;
	esac
	if [ -s "$pq_tmp/out" ]; then
		fail "$1" "output on stdout"
		return 1
	fi
	return 0
}

# pq_rows FILE: FILE's rows (a dump file without its column line), without the id 0
# placeholder row.
pq_rows() {
	sed 1d "$1" | awk -F '	' '$1 != "0"'
}

# --- the server --------------------------------------------------------------------------
pq_srv=
pq_bindir=$(pg_bindir) || { pq_install postgresql && pq_bindir=$(pg_bindir); }
if [ ! -x "$pq_bin" ]; then
	fail "pgsql: dirconvert binary" "$BUILD/dirconvert missing or not executable"
elif [ -z "$pq_bindir" ]; then
	skip "pgsql" "PostgreSQL server binaries not found (initdb, pg_ctl on PATH or in /usr/lib/postgresql/*/bin: Debian package postgresql)"
# the server's directory directly in /tmp: the user postgres must reach it as root
elif ! pq_srv=$(mktemp -d "$([ "$(id -u)" = 0 ] && echo /tmp || echo "${TMPDIR:-/tmp}")/pgsql-tests.XXXXXX"); then
	fail "pgsql-server" "mktemp failed"
elif trap 'pg_stop; rm -rf "$pq_srv" "$tmp"' EXIT && trap 'exit 1' INT TERM &&
     ! pg_start "$pq_srv"; then
	fail "pgsql-server" "$pg_why"
	sed 's/^/    /' "$pq_srv/server.log" 2>/dev/null | tail -n 5
else
	pass "pgsql-server" "$("$pq_bindir/postgres" --version 2>/dev/null)"

	# --- dump.sh on a table made with psql ---------------------------------------------
	pq_drop t_dump
	if pg_sql postgres 'CREATE DATABASE t_dump' >"$pq_tmp/out" 2>&1 &&
	   pg_sql t_dump "CREATE TABLE t (id bigint PRIMARY KEY, s varchar(8), n integer, b boolean);
		INSERT INTO t VALUES (2, '5', 5, TRUE), (1, NULL, NULL, NULL), (0, '', 0, FALSE),
			(3, E'a\\tb', -1, FALSE);
		CREATE VIEW v AS SELECT s, n FROM t" >"$pq_tmp/out" 2>&1 &&
	   pq_dump t_dump "$pq_tmp/got"; then
		printf 'id\ts\tn\tb\n0\t\t0\tf\n1\t\\N\t\\N\t\\N\n2\t5\t5\tt\n3\ta\\tb\t-1\tf\n' \
			>"$pq_tmp/want-t"
		printf 's\tn\n\t0\n5\t5\na\\tb\t-1\n\\N\t\\N\n' >"$pq_tmp/want-v"
		if cmp -s "$pq_tmp/want-t" "$pq_tmp/got/t.txt" &&
		   cmp -s "$pq_tmp/want-v" "$pq_tmp/got/v.txt" &&
		   grep -q '^t	t_pkey	p	PRIMARY KEY (id)$' "$pq_tmp/got/schema.txt" &&
		   grep -q '^t	2	s	character varying(8)	NULL$' "$pq_tmp/got/schema.txt"; then
			pass "pgsql-dump"
		else
			fail "pgsql-dump" "dump.sh's files are not as expected" "$pq_tmp/want-t" \
				"$pq_tmp/got/t.txt"
			diff -u "$pq_tmp/want-v" "$pq_tmp/got/v.txt" | head -n 10 | sed 's/^/    /'
		fi
	else
		fail "pgsql-dump" "$(head -n 1 "$pq_tmp/out") $(head -n 1 "$pq_tmp/dump.err")"
	fi
	pq_drop t_dump

	# --- does dirconvert take --to-postgresql? -----------------------------------------
	pq_drop t_probe
	run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_root/samples/plain.data" \
		--to-postgresql dbname=t_probe
	pq_ready=1
	if ! crashed "pgsql-cli" "$pq_tmp/err" && [ "$rc" -eq 2 ]; then
		fail "pgsql-cli" "dirconvert answers a valid --to-postgresql command with a usage error (exit 2): $(head -n 1 "$pq_tmp/err")"
		pq_ready=
	fi
	pq_drop t_probe

	# --- a progress bar when stderr is a terminal (script(1) gives one; drawn at once
	# with DIRREPORT_PROGRESS_DELAY=0, cli/progress.h) -----------------------------------
	if [ -n "$pq_ready" ] && command -v script >/dev/null 2>&1; then
		pq_drop t_progress
		on_tty "$pq_tmp/tty" "DIRREPORT_PROGRESS_DELAY=0 '$pq_bin' -i \
'$pq_root/samples/callchain.data' --to-postgresql dbname=t_progress"
		if [ "$rc" -eq 0 ] && grep -q '\[[#.]*\] *[0-9]*%  ' "$pq_tmp/tty"; then
			pass "pgsql-progress"
		else
			fail "pgsql-progress" "exit $rc, no progress bar: $(head -c 200 "$pq_tmp/tty")"
		fi
		pq_drop t_progress
	fi

	# --- golden ------------------------------------------------------------------------
	for pq_dir in "$pq_root"/tests/pgsql/golden/*/; do
		[ -n "$pq_ready" ] || break
		pq_dir=${pq_dir%/}
		pq_case=$(basename "$pq_dir")
		[ -f "$pq_dir/cmd" ] || continue
		pq_name=pgsql-golden:$pq_case
		set -f
		# shellcheck disable=SC2046 # the arguments are whitespace-separated words
		set -- $(cat "$pq_dir/cmd")
		set +f
		for pq_j in "" 1; do
			pq_n=$pq_name${pq_j:+:-j$pq_j}
			# shellcheck disable=SC2086
			pq_convert "$pq_n" "t_$pq_case" ${pq_j:+-j $pq_j} "$@" || continue
			pq_same "$pq_n" "$pq_dir" "$pq_tmp/got"
		done
		if [ "$pq_case" = pipe ]; then
			pq_n=$pq_name:stdin
			pq_drop "t_$pq_case"
			timeout "$TIMEOUT" "$pq_bin" -i - --to-postgresql "dbname=t_$pq_case" \
				--kallsyms "$pq_root/samples/pipe.data.kallsyms" \
				<"$pq_root/samples/pipe.data" >"$pq_tmp/out" 2>"$pq_tmp/err"
			rc=$?
			pq_check_ok "$pq_n" "t_$pq_case" &&
				pq_same "$pq_n" "$pq_dir" "$pq_tmp/got"
		fi
		pq_drop "t_$pq_case"
	done

	# --- live --------------------------------------------------------------------------
	# perf's export of samples/plain.data here, with the samples' build-id cache: equal
	# to the golden files (perf, this server and dump.sh agree with update.sh's) and to
	# dirconvert's.  perf's script writes NAME-perf-data into its current directory.
	pq_golden=$pq_root/tests/pgsql/golden
	pq_script=
	if [ -n "$have_perf" ]; then
		pq_script=$(perf --exec-path 2>/dev/null)/scripts/python/export-to-postgresql.py
		pq_probe() {
			pq_drop p_live
			rm -rf "$pq_tmp/live"
			mkdir -p "$pq_tmp/live"
			[ -f "$pq_script" ] &&
				(cd "$pq_tmp/live" && perf script -i "$pq_root/samples/plain.data" \
					-s "$pq_script" p_live) >"$pq_tmp/live.log" 2>&1
		}
		if ! pq_probe && grep -q -e PySide -e 'Driver not loaded' "$pq_tmp/live.log" &&
		   pq_install python3-pyside2.qtsql libqt5sql5-psql; then
			pq_probe
		fi
		if ! pq_exists p_live || grep -q -e Traceback -e 'Query failed' "$pq_tmp/live.log"; then
			pq_why="perf's export-to-postgresql.py does not run here: $(grep -v '^[0-9-]* [0-9:.]* ' "$pq_tmp/live.log" | tail -n 1) (apt-get install python3-pyside2.qtsql libqt5sql5-psql)"
			pq_script=
		fi
	else
		pq_why="$perf_why"
	fi
	if [ -z "$pq_script" ]; then
		skip "pgsql-live" "$pq_why"
	elif ! pq_dump p_live "$pq_tmp/want"; then
		fail "pgsql-live" "dump.sh failed: $(head -n 1 "$pq_tmp/dump.err")"
	else
		pq_same pgsql-live:perf-vs-golden "$pq_golden/plain" "$pq_tmp/want"
		if [ -n "$pq_ready" ] && pq_convert pgsql-live:plain t_live \
			-i "$pq_root/samples/plain.data"; then
			pq_same pgsql-live:plain "$pq_tmp/want" "$pq_tmp/got"
		fi
		pq_drop t_live
	fi
	pq_drop p_live


	# --- an existing database ----------------------------------------------------------
	pq_plain=$pq_root/samples/plain.data
	if [ -n "$pq_ready" ]; then
		# pq_precious DB: a database DB that is not perf's, with one table and row
		pq_precious() {
			pq_drop "$1"
			pg_sql postgres "CREATE DATABASE \"$1\"" >/dev/null 2>&1 &&
				pg_sql "$1" "CREATE TABLE precious (x text); INSERT INTO precious VALUES ('mine')" \
					>/dev/null 2>&1
		}
		# pq_untouched DB: DB still holds precious and nothing else
		pq_untouched() {
			[ "$(pg_sql "$1" "SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace")" = precious:r ] &&
				[ "$(pg_sql "$1" "SELECT x FROM precious")" = mine ]
		}
		pq_n=pgsql-exists
		pq_precious t_exists
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" --to-postgresql dbname=t_exists
		if pq_error_line "$pq_n"; then
			if pq_untouched t_exists; then
				pass "$pq_n" "$(cat "$pq_tmp/err")"
			else
				fail "$pq_n" "the existing database was changed"
			fi
		fi
		for pq_f in -f --force; do
			pq_n=pgsql-exists:$pq_f
			pq_precious t_exists
			run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" "$pq_f" \
				--to-postgresql dbname=t_exists
			pq_check_ok "$pq_n" t_exists && pq_same "$pq_n" "$pq_golden/plain" "$pq_tmp/got"
		done
		pq_drop t_exists
		# a URI names the database (and here the server, as a query parameter)
		pq_n=pgsql-uri
		pq_drop t_uri
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" \
			--to-postgresql "postgresql:///t_uri?host=$PGHOST&port=$PGPORT"
		pq_check_ok "$pq_n" t_uri && pq_same "$pq_n" "$pq_golden/plain" "$pq_tmp/got"
		pq_drop t_uri
	fi

	# --- append ------------------------------------------------------------------------
	# samples/plain.data, then --append samples/threads.data.  Rows come ORDER BY id (or
	# by all columns, ids first), and the second recording's ids continue after the
	# first's: the dump before the append must be the beginning of the dump after it,
	# and what follows must be threads' own rows (its golden files, without the id 0
	# rows) once the columns that hold ids are cut.
	pq_threads=$pq_root/samples/threads.data
	if [ -n "$pq_ready" ] && pq_convert pgsql-append:first t_append -i "$pq_plain"; then
		mv "$pq_tmp/got" "$pq_tmp/app1"
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_threads" --append \
			--to-postgresql dbname=t_append
		if pq_check_ok pgsql-append t_append; then
			mv "$pq_tmp/got" "$pq_tmp/app2"
			pass pgsql-append
			# the first recording's rows, the schema and branch_types unchanged
			pq_bad=
			for pq_f in "$pq_tmp/app1"/*.txt; do
				pq_b=$(basename "$pq_f")
				head -n "$(wc -l <"$pq_f")" "$pq_tmp/app2/$pq_b" 2>/dev/null |
					cmp -s - "$pq_f" || pq_bad="$pq_bad ${pq_b%.txt}"
			done
			for pq_b in schema.txt branch_types.txt; do
				cmp -s "$pq_tmp/app1/$pq_b" "$pq_tmp/app2/$pq_b" ||
					pq_bad="$pq_bad ${pq_b%.txt}(grew)"
			done
			[ "$(ls "$pq_tmp/app1")" = "$(ls "$pq_tmp/app2")" ] || pq_bad="$pq_bad (tables)"
			if [ -z "$pq_bad" ]; then
				pass pgsql-append:first-kept
			else
				fail pgsql-append:first-kept "changed:$pq_bad"
			fi
			# the second recording's rows: FILE:FIELDS (the columns that are not ids)
			for pq_v in samples_view:2- symbols_view:2,3,5- dsos_view:3- threads_view:3,5- \
				    machines_view:2- selected_events:2- comms:2,4- comm_threads_view:2,4- \
				    samples:8-11,14-; do
				pq_f=${pq_v%%:*} pq_c=${pq_v#*:}
				pq_n=pgsql-append:second:$pq_f
				pq_rows "$pq_golden/threads/$pq_f.txt" | cut -f "$pq_c" >"$pq_tmp/want-a"
				tail -n "+$(($(wc -l <"$pq_tmp/app1/$pq_f.txt") + 1))" \
					"$pq_tmp/app2/$pq_f.txt" | cut -f "$pq_c" >"$pq_tmp/got-a"
				if cmp -s "$pq_tmp/want-a" "$pq_tmp/got-a"; then
					pass "$pq_n" "$(wc -l <"$pq_tmp/got-a") rows"
				else
					fail "$pq_n" "differs from threads' own export (ids cut)" \
						"$pq_tmp/want-a" "$pq_tmp/got-a"
				fi
			done
			# samples per machine_id: each recording's own count (ordered by machine_id:
			# plain's, then threads')
			pq_n=pgsql-append:per-machine
			{ pq_rows "$pq_golden/plain/samples.txt" | cut -f 3 | sort -n | uniq -c
			  pq_rows "$pq_golden/threads/samples.txt" | cut -f 3 | sort -n | uniq -c
			} | awk '{ print $1 }' >"$pq_tmp/want-a"
			if pg_sql t_append "SELECT machine_id, count(*) FROM samples WHERE id <> 0 GROUP BY machine_id ORDER BY machine_id" \
				>"$pq_tmp/pm" 2>"$pq_tmp/err" && cut -f 2 "$pq_tmp/pm" >"$pq_tmp/got-a" &&
			   cmp -s "$pq_tmp/want-a" "$pq_tmp/got-a" &&
			   [ "$(pg_sql t_append "SELECT count(*) FROM machines WHERE id <> 0")" = \
			     "$(wc -l <"$pq_tmp/pm")" ]; then
				pass "$pq_n" "machine_id=samples: $(tr '\t\n' '= ' <"$pq_tmp/pm" | sed 's/ $//')"
			else
				fail "$pq_n" "samples per machine_id (counts: want, got)" "$pq_tmp/want-a" \
					"$pq_tmp/got-a"
			fi
			# across the recordings: samples per symbol per machine, the machine of the
			# first recording and of the second, each equal to its own export's
			pq_n=pgsql-append:cross-query
			pq_sym() {	# pq_sym SAMPLES_VIEW: "symbol<TAB>count" of its samples
				pq_rows "$1" | cut -f 9 | LC_ALL=C sort | uniq -c |
					awk '{ n = $1; sub(/^ *[0-9]+ /, ""); print $0 "\t" n }'
			}
			{ pq_sym "$pq_golden/plain/samples_view.txt"
			  pq_sym "$pq_golden/threads/samples_view.txt"; } >"$pq_tmp/want-a"
			if pg_sql t_append "SELECT v.symbol, count(*) FROM samples s JOIN samples_view v ON v.id = s.id WHERE s.id <> 0 GROUP BY s.machine_id, v.symbol ORDER BY s.machine_id, v.symbol COLLATE \"C\"" \
				>"$pq_tmp/got-a" 2>"$pq_tmp/err" && cmp -s "$pq_tmp/want-a" "$pq_tmp/got-a"; then
				pass "$pq_n" "$(wc -l <"$pq_tmp/got-a") symbol-machine pairs"
			else
				fail "$pq_n" "$(head -n 1 "$pq_tmp/err")" "$pq_tmp/want-a" "$pq_tmp/got-a"
			fi
			# a third recording, with callchains, into a database without call_paths
			# is refused or works, but never half: covered by atomic below
		fi
	fi
	pq_drop t_append

	# --- atomicity ---------------------------------------------------------------------
	pq_gen=$pq_tmp/malformed
	if [ -z "$pq_ready" ]; then
		:
	elif ! sh "$pq_root/tests/malformed/make.sh" "$pq_gen" >"$pq_tmp/gen.log" 2>&1; then
		fail "pgsql-atomic:generator" "tests/malformed/make.sh failed"
	elif pq_convert pgsql-atomic:setup t_atomic -i "$pq_plain"; then
		mv "$pq_tmp/got" "$pq_tmp/before"
		# a record of size 0 half-way through a file, one of an unknown type
		# half-way through a pipe (a pipe's record of size 0 ends its stream: no
		# error)
		for pq_c in record-size-zero record-type-unknown-pipe; do
			pq_n=pgsql-atomic:append:$pq_c
			# in the case's directory: the message names just "input"
			cd "$pq_gen/$pq_c" || exit 2
			run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i input --append \
				--to-postgresql dbname=t_atomic
			cd "$pq_root" || exit 2
			if pq_error_line "$pq_n"; then
				if pq_dump t_atomic "$pq_tmp/got"; then
					pq_same "$pq_n" "$pq_tmp/before" "$pq_tmp/got"
				else
					fail "$pq_n" "dump.sh failed: $(head -n 1 "$pq_tmp/dump.err")"
				fi
			fi
			pq_n=pgsql-atomic:new:$pq_c
			pq_drop t_atomic_new
			cd "$pq_gen/$pq_c" || exit 2
			run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i input \
				--to-postgresql dbname=t_atomic_new
			cd "$pq_root" || exit 2
			if pq_error_line "$pq_n"; then
				if pq_exists t_atomic_new; then
					fail "$pq_n" "database t_atomic_new left behind"
				else
					pass "$pq_n" "$(cat "$pq_tmp/err")"
				fi
			fi
			pq_drop t_atomic_new
		done
		# The connection lost half-way: another session holds a SHARE lock on samples
		# (reads go on, writes wait) while --append runs; once dirconvert's session
		# waits for it, the session is killed (pg_terminate_backend) or the server is
		# stopped at once (pg_ctl -m immediate, then started again).
		for pq_how in killed server-stopped; do
			pq_n=pgsql-atomic:append:$pq_how
			pg_sql t_atomic "BEGIN; LOCK TABLE samples IN SHARE MODE; SELECT pg_sleep($TIMEOUT); COMMIT" \
				>/dev/null 2>&1 &
			pq_locker=$!
			pq_i=0
			while [ "$pq_i" -lt 100 ] && [ "$(pg_sql t_atomic "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'samples' AND l.mode = 'ShareLock' AND l.granted")" != 1 ]; do
				sleep 0.1
				pq_i=$((pq_i + 1))
			done
			timeout "$TIMEOUT" "$pq_bin" -i "$pq_threads" --append \
				--to-postgresql dbname=t_atomic >"$pq_tmp/out" 2>"$pq_tmp/err" </dev/null &
			pq_pid=$!
			pq_i=0 pq_waiting=
			while [ "$pq_i" -lt 200 ] && [ -z "$pq_waiting" ] && kill -0 "$pq_pid" 2>/dev/null; do
				pq_waiting=$(pg_sql t_atomic "SELECT pid FROM pg_stat_activity WHERE datname = 't_atomic' AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()" 2>/dev/null | head -n 1)
				[ -n "$pq_waiting" ] || sleep 0.1
				pq_i=$((pq_i + 1))
			done
			if [ -n "$pq_waiting" ] && [ "$pq_how" = killed ]; then
				pg_sql postgres "SELECT pg_terminate_backend($pq_waiting)" >/dev/null 2>&1
			elif [ -n "$pq_waiting" ]; then
				pg_stop immediate
			fi
			wait "$pq_pid"
			rc=$?
			# the lock's session: ended (a stopped server ended it already)
			pg_sql postgres "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 't_atomic' AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()" \
				>/dev/null 2>&1
			wait "$pq_locker"
			if [ "$pq_how" = server-stopped ] && [ -n "$pq_waiting" ] && ! pg_restart; then
				fail "$pq_n" "the server did not start again"
				break
			fi
			if [ -z "$pq_waiting" ]; then
				fail "$pq_n" "dirconvert never waited for the lock on samples (exit $rc: $(head -n 1 "$pq_tmp/err"))"
			elif pq_error_line "$pq_n"; then
				if pq_dump t_atomic "$pq_tmp/got"; then
					pq_same "$pq_n" "$pq_tmp/before" "$pq_tmp/got"
				else
					fail "$pq_n" "dump.sh failed: $(head -n 1 "$pq_tmp/dump.err")"
				fi
			fi
		done
	fi
	pq_drop t_atomic

	# --- errors --------------------------------------------------------------------------
	if [ -n "$pq_ready" ]; then
		pq_drop t_err
		# NAME|CONNINFO
		for pq_v in "no-server|host=/nonexistent dbname=t_err" \
			    "auth-refused|user=pwuser password=wrong dbname=t_err" \
			    "no-createdb|user=pwuser password=$pg_pwpass dbname=t_err" \
			    "no-dbname|port=$PGPORT" \
			    "unknown-option|dbname=t_err bogus=1" \
			    "malformed|dbname='t_err" \
			    "bad-uri|postgresql://[::1/t_err"; do
			pq_n=pgsql-error:${pq_v%%|*}
			run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" \
				--to-postgresql "${pq_v#*|}"
			if pq_error_line "$pq_n"; then
				if pq_exists t_err; then
					fail "$pq_n" "database t_err created"
				else
					pass "$pq_n" "$(cat "$pq_tmp/err")"
				fi
			fi
			pq_drop t_err
		done
		# --append: no such database; a database that is not perf's (left as it was)
		pq_n=pgsql-error:append-no-database
		pq_drop t_nodb
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" --append \
			--to-postgresql dbname=t_nodb
		if pq_error_line "$pq_n"; then
			if pq_exists t_nodb; then
				fail "$pq_n" "database t_nodb created"
			else
				pass "$pq_n" "$(cat "$pq_tmp/err")"
			fi
		fi
		pq_drop t_nodb
		pq_n=pgsql-error:append-not-perf
		pq_precious t_foreign
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" --append \
			--to-postgresql dbname=t_foreign
		if pq_error_line "$pq_n"; then
			if pq_untouched t_foreign; then
				pass "$pq_n" "$(cat "$pq_tmp/err")"
			else
				fail "$pq_n" "the database was changed"
			fi
		fi
		pq_drop t_foreign
		# Killed or interrupted half-way (DIRREPORT_TEST_PAUSE: the database is made
		# before the input is read; the session waits on the FIFO after its scan
		# pass): the old database untouched, or none; a killed run's temporary
		# database named by the next run and dropped by -f.
		# pq_paused DB SIG ARGS...: dirconvert ARGS --to-postgresql dbname=DB, sent SIG
		# once paused (KILL, or INT and then let go on); sets $rc
		pq_paused() {
			_db=$1 _sig=$2
			shift 2
			rm -f "$pq_tmp/pause" "$pq_tmp/pid" "$pq_tmp/rc"
			mkfifo "$pq_tmp/pause"
			(
				DIRREPORT_TEST_PAUSE=$pq_tmp/pause "$pq_bin" "$@" \
					--to-postgresql "dbname=$_db" >"$pq_tmp/out" \
					2>"$pq_tmp/err" </dev/null &
				echo $! >"$pq_tmp/pid"
				wait $!
				echo $? >"$pq_tmp/rc"
				echo end >"$pq_tmp/pause"	# it ended, paused or not
			) &
			read -r _what <"$pq_tmp/pause"
			if [ "$_what" = paused ]; then
				kill -"$_sig" "$(cat "$pq_tmp/pid")"
				[ "$_sig" = KILL ] || : >"$pq_tmp/pause"
				read -r _what <"$pq_tmp/pause"
			fi
			wait
			rc=$(cat "$pq_tmp/rc")
		}
		# INT first: KILL leaves the temporary databases the next cases look at
		for pq_sig in INT KILL; do
			pq_n=pgsql-killed:$pq_sig:old-kept
			pq_precious t_killed
			pq_drop t_killed_dirconvert_tmp
			pq_paused t_killed $pq_sig -i "$pq_plain" -f
			if [ "$rc" -eq 0 ]; then
				fail "$pq_n" "exit 0"
			elif ! pq_untouched t_killed; then
				fail "$pq_n" "the old database was changed or dropped"
			elif [ $pq_sig = INT ] && pq_exists t_killed_dirconvert_tmp; then
				fail "$pq_n" "interrupted: its temporary database left"
			else
				pass "$pq_n" "exit $rc"
			fi
			pq_n=pgsql-killed:$pq_sig:new-none
			pq_drop t_killed_new
			pq_drop t_killed_new_dirconvert_tmp
			pq_paused t_killed_new $pq_sig -i "$pq_plain"
			if pq_exists t_killed_new; then
				fail "$pq_n" "database t_killed_new left behind"
			else
				pass "$pq_n" "exit $rc"
			fi
		done
		# the killed run's temporary database: named, kept without -f, dropped by -f
		pq_n=pgsql-killed:stale-named
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" --to-postgresql dbname=t_killed_new
		if pq_error_line "$pq_n"; then
			if ! grep -q 't_killed_new_dirconvert_tmp.*-f drops it' "$pq_tmp/err"; then
				fail "$pq_n" "want the temporary database named: $(cat "$pq_tmp/err")"
			elif pq_exists t_killed_new; then
				fail "$pq_n" "database t_killed_new made"
			else
				pass "$pq_n" "$(cat "$pq_tmp/err")"
			fi
		fi
		pq_n=pgsql-killed:stale-dropped-by-f
		run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" -f --to-postgresql dbname=t_killed_new
		if pq_check_ok "$pq_n" t_killed_new; then
			if pq_exists t_killed_new_dirconvert_tmp; then
				fail "$pq_n" "the temporary database is still there"
			else
				pq_same "$pq_n" "$pq_golden/plain" "$pq_tmp/got"
			fi
		fi
		pq_drop t_killed
		pq_drop t_killed_new
		pq_drop t_killed_dirconvert_tmp
		pq_drop t_killed_new_dirconvert_tmp
		# usage errors: exit 2, no database
		for pq_args in "--to-postgresql" "--to-postgresql dbname=t_err --append -f" \
			       "--to-postgresql dbname=t_err -j 0" \
			       "--to-postgresql dbname=t_err --bogus"; do
			pq_n="pgsql-usage:$(echo "$pq_args" | tr ' ' '_')"
			# shellcheck disable=SC2086 # the arguments are whitespace-separated words
			run "$pq_tmp/out" "$pq_tmp/err" "$pq_bin" -i "$pq_plain" $pq_args
			crashed "$pq_n" "$pq_tmp/err" && continue
			if [ "$rc" -eq 2 ] && ! pq_exists t_err; then
				pass "$pq_n"
			else
				fail "$pq_n" "exit $rc, expected 2; $(head -n 1 "$pq_tmp/err")"
			fi
			pq_drop t_err
		done
	fi
fi
if [ -n "$pq_srv" ]; then
	pg_stop
	rm -rf "$pq_srv"
	trap 'rm -rf "$tmp"' EXIT INT TERM
fi

if [ -n "$pq_standalone" ]; then
	suite_summary
fi
