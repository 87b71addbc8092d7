#!/bin/sh
# tests/convert/dump.sh DB OUTDIR - write the parts of a perf export database that the
# golden tests compare, one text file each, with the sqlite3 command-line shell:
#
#   schema.txt      type, name, table and SQL of every sqlite_master entry
#   <name>.txt      every row of every table and view, ORDER BY id (views without an id
#                   column: by all their columns), in `.mode quote`, so integers, reals,
#                   text and NULL are told apart (a text '5' and an integer 5 differ)
#
# Used on perf's database (tests/convert/update.sh) and on dirconvert's (run.sh).
set -eu
db=$1 out=$2
mkdir -p "$out"
q() { sqlite3 -batch -bail -cmd '.mode quote' "$db" "$1"; }
q "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name" >"$out/schema.txt"
for name in $(sqlite3 -batch "$db" \
	"SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name"); do
	ncols=$(sqlite3 -batch "$db" "SELECT count(*) FROM pragma_table_info('$name')")
	if [ "$(sqlite3 -batch "$db" \
		"SELECT count(*) FROM pragma_table_info('$name') WHERE name = 'id'")" = 1 ]; then
		order=id
	else
		order=$(seq -s, 1 "$ncols")
	fi
	q "SELECT * FROM \"$name\" ORDER BY $order" >"$out/$name.txt"
done
