#ifndef DIRREPORT_CONVERT_PG_SCHEMA_H
#define DIRREPORT_CONVERT_PG_SCHEMA_H
/*
 * pg_schema - the tables, keys and views of perf 6.1's export-to-postgresql.py as its
 * database holds them when made with the default arguments ("all" columns; the tables
 * it drops again when they stay empty -- ptwrite, cbr, mwait, pwre, exstop, pwrx,
 * context_switches and their views -- left out), plus call_paths and call_paths_view
 * of its "callchains" mode.  Column names, types and lengths, primary keys, foreign
 * keys (with perf's constraint names) and view definitions are perf's, so its viewer
 * (exported-sql-viewer.py) and queries written for perf's database work unchanged.
 *
 * Thread safety: constant data.
 */
#include <stddef.h>

#include "convert/export.h"
#include "convert/schema.h"	/* SCHEMA_CALLCHAINS */

/** One SQL statement, with SCHEMA_* flags saying when it applies. */
struct pg_statement {
	unsigned flags;
	const char *sql;
};

/** CREATE TABLE statements, in perf's order. */
extern const struct pg_statement pg_schema_tables[];
extern const size_t pg_schema_nr_tables;

/** ALTER TABLE ... ADD PRIMARY KEY / ADD CONSTRAINT ... FOREIGN KEY, perf's order:
 *  run after the data is in (as perf does). */
extern const struct pg_statement pg_schema_keys[];
extern const size_t pg_schema_nr_keys;

/** CREATE VIEW statements. */
extern const struct pg_statement pg_schema_views[];
extern const size_t pg_schema_nr_views;

/**
 * The binary COPY layout of each export_table: one letter per column in table order,
 * 'q' bigint (int8), 'i' integer (int4), 'b' boolean, 't' varchar; the integers come
 * from export_row.v in order (text from export_row.text).  Format: PostgreSQL's
 * binary COPY format (PostgreSQL documentation, "COPY", section "Binary Format"),
 * the types of perf's CREATE TABLE statements.
 */
extern const char *const pg_schema_columns[EXPORT__NR_TABLES];

/**
 * For each export_table and integer column (index into export_row.v), 1 + the
 * export_table its value is an id of (the row's own id or a foreign key), or 0 for
 * plain values.  --append shifts every id by the largest id already in that table
 * (0, "unknown", stays 0).
 */
extern const unsigned char pg_schema_refs[EXPORT__NR_TABLES][ES__NR_COLS];

#endif
