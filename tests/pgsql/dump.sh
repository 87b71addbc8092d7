#!/bin/sh
# tests/pgsql/dump.sh DBNAME OUTDIR - write the parts of a perf export database in
# PostgreSQL that the golden tests compare, one text file each, with psql (the server is
# the one of PGHOST/PGPORT/PGUSER; DBNAME may also be a libpq connection string):
#
#   schema.txt   the database's encoding; every table, view (and any other relation
#                but indexes) of schema public with its kind; every column of each, in
#                order, with its type (format_type: bigint, character varying(80),
#                numeric, ...), NOT NULL or NULL and default; each view's definition
#                (pg_views); every constraint (primary keys, foreign keys) with its name
#                and definition; every index with its definition
#   <name>.txt   every row of every table and view: a first line of the column names,
#                then COPY ... TO STDOUT in text format (tab-separated; NULL is \N, an
#                empty text is nothing, booleans t/f; the column types are schema.txt's),
#                ORDER BY id, or for a relation without an id column by all its columns
#                (text with COLLATE "C")
#
# Used on perf's database (tests/pgsql/update.sh) and on dirconvert's (run.sh).
set -eu
db=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/server.sh"
psql=$(pg_psql) || { echo "dump.sh: psql not found" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out in *"'"* | *'\'*) echo "dump.sh: $out: a quote in the path" >&2; exit 1 ;; esac
q() { PGCLIENTENCODING=UTF8 "$psql" -X -q -A -t -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# One psql script, written by the server from its catalogs: each part into its file
# (\o), then run by a second psql.
q -v out="$out" >"$out/.dump.sql" <<'EOF'
SELECT format('\o %s', quote_literal(:'out' || '/schema.txt'));
SELECT $q$SELECT '-- database'; SELECT 'encoding ' || pg_encoding_to_char(encoding) FROM pg_database WHERE datname = current_database();$q$;
SELECT $q$SELECT '-- relations (kind name)'; SELECT c.relkind::text || E'\t' || c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind NOT IN ('i', 'I') ORDER BY c.relname COLLATE "C";$q$;
SELECT $q$SELECT '-- columns (relation number name type null default)'; SELECT concat_ws(E'\t', c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 'NOT NULL' ELSE 'NULL' END, pg_get_expr(d.adbin, d.adrelid)) FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum WHERE c.relnamespace = 'public'::regnamespace AND c.relkind NOT IN ('i', 'I') ORDER BY c.relname COLLATE "C", a.attnum;$q$;
SELECT $q$SELECT '-- views (name, then definition)'; SELECT viewname || E'\n' || definition FROM pg_views WHERE schemaname = 'public' ORDER BY viewname COLLATE "C";$q$;
SELECT $q$SELECT '-- constraints (relation name type definition)'; SELECT concat_ws(E'\t', c.conrelid::regclass::text, c.conname, c.contype, pg_get_constraintdef(c.oid)) FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace ORDER BY c.conrelid::regclass::text COLLATE "C", c.conname COLLATE "C";$q$;
SELECT $q$SELECT '-- indexes (relation name definition)'; SELECT concat_ws(E'\t', tablename, indexname, indexdef) FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename COLLATE "C", indexname COLLATE "C";$q$;
SELECT format(E'\\o %s\nSELECT %s;\nCOPY (SELECT * FROM %I ORDER BY %s) TO STDOUT;',
	quote_literal(:'out' || '/' || c.relname || '.txt'),
	quote_literal(string_agg(a.attname, E'\t' ORDER BY a.attnum)),
	c.relname,
	CASE WHEN bool_or(a.attname = 'id') THEN 'id'
	     ELSE string_agg(quote_ident(a.attname) ||
			     CASE WHEN t.typcategory = 'S' THEN ' COLLATE "C"' ELSE '' END,
			     ', ' ORDER BY a.attnum) END)
FROM pg_class c
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
GROUP BY c.relname
ORDER BY c.relname COLLATE "C";
SELECT '\o';
EOF
q -f "$out/.dump.sql" >/dev/null
rm -f "$out/.dump.sql"
