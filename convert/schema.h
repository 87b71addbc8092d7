#ifndef DIRREPORT_CONVERT_SCHEMA_H
#define DIRREPORT_CONVERT_SCHEMA_H
/*
 * schema - the tables and views of perf 6.1's export-to-sqlite.py as its database
 * holds them when made with the default arguments ("all" columns; tables it drops
 * when empty -- ptwrite, cbr, mwait, pwre, exstop, pwrx, context_switches and their
 * views -- left out), plus call_paths and call_paths_view of its "callchains" mode.
 * The SQL text is the text perf's database stores in sqlite_master, so `.schema` of
 * both databases is the same.  perf creates no index in these modes.
 *
 * Thread safety: constant data.
 */
#include <stddef.h>

#include "convert/export.h"

enum schema_flags {
	SCHEMA_CALLCHAINS = 1 << 0,	/* only with --callchains */
};

struct schema_object {
	const char *name;
	unsigned flags;		/* SCHEMA_* */
	const char *sql;	/* CREATE TABLE / CREATE VIEW statement */
};

/** Every table and view in creation order (tables first, then views). */
extern const struct schema_object schema_objects[];
extern const size_t schema_nr_objects;

/** Table of each export_table, and its columns: one letter per column in table
 *  order, 'i' integer (from export_row.v in order), 't' text (from export_row.text
 *  in order). */
struct schema_table {
	const char *name;
	const char *columns;
};
extern const struct schema_table schema_tables[EXPORT__NR_TABLES];

#endif
