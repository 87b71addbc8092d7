# tests/pgsql/server.sh - a private PostgreSQL server for the dirconvert --to-postgresql
# tests (run.sh) and for regenerating their golden files (update.sh).  Sourced (POSIX sh).
#
#   pg_bindir          print the directory of the server binaries (initdb, pg_ctl): PATH
#                      first, else the newest /usr/lib/postgresql/*/bin; status 1 when
#                      there are none (the suites then print one SKIP line)
#   pg_psql            print the psql to use (the server's own, else PATH's); status 1
#                      when there is none
#   pg_start DIR       initdb into DIR/data (superuser dirreport, trust, UTF8, C locale),
#                      a server that listens only on a Unix socket in DIR (no TCP), with
#                      fsync off; a role pwuser with the password $pg_pwpass, whose
#                      logins need scram-sha-256 (the refused-authentication tests);
#                      started with pg_ctl -w.  Exports PGHOST=DIR PGPORT PGUSER=dirreport
#                      and clears the libpq variables that would choose another server,
#                      database or password.  As root the server runs as the user
#                      postgres (initdb refuses root): DIR is chowned to it (mode 700)
#                      and must be reachable by it (make DIR directly in /tmp).  On
#                      failure: status 1 and $pg_why says why
#   pg_stop [MODE]     stop the server pg_start started; MODE fast (the default; falls back
#                      to immediate) or immediate (at once, as in a crash); idempotent
#   pg_restart         start the stopped server again (same DIR, port, settings)
#   pg_sql DB SQL      run SQL on database DB (psql -X, unaligned, tuples only, tab
#                      separated, stops at the first error)
#
# Variables: PG_PORT (default 5432: the socket is in DIR, so it cannot clash with another
# server's), pg_dir (DIR once started), pg_pwpass.

pg_pwpass=pw-secret
pg_dir=
pg__up=

pg_bindir() {
	if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
		# a link (/usr/local/bin/pg_ctl -> /usr/lib/postgresql/15/bin/pg_ctl) counts as
		# its target's directory, where the server's own psql is too
		dirname "$(readlink -f "$(command -v pg_ctl)")"
		return 0
	fi
	_pgb=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | while read -r _d; do
		[ -x "$_d/initdb" ] && [ -x "$_d/pg_ctl" ] && echo "$_d"
	done | tail -n 1)
	[ -n "$_pgb" ] || return 1
	echo "$_pgb"
}

# The server's own psql first: Debian's /usr/bin/psql is pg_wrapper, a perl script
# (tests/hermetic.sh replaces perl).
pg_psql() {
	_pgb=$(pg_bindir 2>/dev/null)
	if [ -n "$_pgb" ] && [ -x "$_pgb/psql" ]; then
		echo "$_pgb/psql"
	elif command -v psql >/dev/null 2>&1; then
		command -v psql
	else
		return 1
	fi
}

# pg__as CMD...: CMD as the server's user (postgres when we are root), in DIR.
pg__as() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$pg_dir" && runuser -u postgres -- "$@")
	else
		(cd "$pg_dir" && "$@")
	fi
}

pg_sql() {
	_pgdb=$1
	shift
	PGCLIENTENCODING=UTF8 "$pg__psql" -X -q -A -t -F '	' -v ON_ERROR_STOP=1 \
		-d "$_pgdb" -c 'SET client_min_messages TO warning' -c "$1"
}

pg_start() {
	pg_why=
	if ! pg__bin=$(pg_bindir); then
		pg_why="PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin (Debian package postgresql)"
		return 1
	fi
	if ! pg__psql=$(pg_psql); then
		pg_why="psql not found (Debian package postgresql-client)"
		return 1
	fi
	mkdir -p "$1" || { pg_why="cannot create $1"; return 1; }
	pg_dir=$(cd "$1" && pwd)
	PG_PORT=${PG_PORT:-5432}
	# a Unix socket path is at most 107 bytes
	if [ "${#pg_dir}" -gt 80 ]; then
		pg_why="$pg_dir is too long for a Unix socket path (set TMPDIR to a shorter directory)"
		return 1
	fi
	if [ "$(id -u)" = 0 ]; then
		if ! id postgres >/dev/null 2>&1; then
			pg_why="running as root and there is no user postgres to run the server as"
			return 1
		fi
		chown postgres "$pg_dir" && chmod 700 "$pg_dir"
		if ! runuser -u postgres -- test -w "$pg_dir"; then
			pg_why="the user postgres cannot reach $pg_dir (its parent directories must be searchable)"
			return 1
		fi
	fi
	if ! pg__as "$pg__bin/initdb" -D "$pg_dir/data" -U dirreport --auth=trust -E UTF8 \
		--locale=C --no-sync >"$pg_dir/initdb.log" 2>&1; then
		pg_why="initdb failed: $(tail -n 1 "$pg_dir/initdb.log")"
		return 1
	fi
	# written as the server's user: the files are theirs
	pg__as sh -c 'cat >>"$1/postgresql.conf"' sh "$pg_dir/data" <<EOF
# tests/pgsql/server.sh: a Unix socket in this directory only, no durability
listen_addresses = ''
unix_socket_directories = '$pg_dir'
port = $PG_PORT
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 40
password_encryption = 'scram-sha-256'
EOF
	pg__as sh -c 'cat >"$1/pg_hba.conf"' sh "$pg_dir/data" <<EOF
# tests/pgsql/server.sh: pwuser needs its password; everyone else is trusted
local all pwuser scram-sha-256
local all all trust
EOF
	if ! pg__as "$pg__bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 60 \
		start >"$pg_dir/pg_ctl.log" 2>&1; then
		pg_why="the server did not start: $(tail -n 1 "$pg_dir/server.log" 2>/dev/null)"
		return 1
	fi
	pg__up=1
	unset PGDATABASE PGPASSWORD PGPASSFILE PGSERVICE PGSERVICEFILE PGOPTIONS \
		PGHOSTADDR PGSSLMODE PGREQUIRESSL PGCONNECT_TIMEOUT PGTARGETSESSIONATTRS
	PGHOST=$pg_dir PGPORT=$PG_PORT PGUSER=dirreport
	export PGHOST PGPORT PGUSER
	if ! pg_sql postgres "CREATE ROLE pwuser LOGIN PASSWORD '$pg_pwpass'" \
		>"$pg_dir/role.log" 2>&1; then
		pg_why="cannot create role pwuser: $(head -n 1 "$pg_dir/role.log")"
		pg_stop
		return 1
	fi
	return 0
}

pg_stop() {
	[ -n "$pg__up" ] || return 0
	pg__up=
	pg__as "$pg__bin/pg_ctl" -D "$pg_dir/data" -m "${1:-fast}" -w -t 30 stop \
		>/dev/null 2>&1 ||
		pg__as "$pg__bin/pg_ctl" -D "$pg_dir/data" -m immediate -w -t 30 stop \
			>/dev/null 2>&1
}

pg_restart() {
	pg__as "$pg__bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 60 \
		start >"$pg_dir/pg_ctl.log" 2>&1 && pg__up=1
}
