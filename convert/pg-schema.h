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

/**
 * The size of each text column (varchar(N): characters) of each export_table, in
 * the order of export_row.text; 0 = no text column there.
 */
extern const unsigned short pg_schema_text_max[EXPORT__NR_TABLES][EXPORT_ROW_MAX_TEXT];

/** What pg_text__fit() changed. */
enum pg_text_fix {
	PG_TEXT_CUT = 1 << 0,		/* longer than the column: cut */
	PG_TEXT_REPLACED = 1 << 1,	/* bytes that are not UTF-8: U+FFFD each */
};

/**
 * @brief Make @p s (n bytes) a text PostgreSQL takes into a varchar(@p max_chars)
 *        column of a UTF8 database: every byte that does not start a well-formed
 *        UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above
 *        U+10FFFF) becomes U+FFFD, and the text is cut after @p max_chars characters.
 *        Well-formed text that fits is copied unchanged.
 * @param out    receives the text (not NUL-terminated); room for 3 * n bytes
 * @param fixes  receives PG_TEXT_* bits (0 when unchanged)
 * @return the bytes written to out.
 * Thread safety: pure.  Format: UTF-8 (RFC 3629); PostgreSQL's varchar(n) counts
 *         characters.
 */
size_t pg_text__fit(const char *s, size_t n, size_t max_chars, char *out, unsigned *fixes);

#endif
