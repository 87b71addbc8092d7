#ifndef DIRREPORT_CONVERT_DB_WRITER_H
#define DIRREPORT_CONVERT_DB_WRITER_H
/*
 * db_writer - writes export rows into a new SQLite database with perf's schema.
 *
 * Everything goes through SQLite's C API: one transaction for everything (journal
 * off, synchronous off, exclusive locking, as a throw-away file renamed on success
 * allows), one prepared INSERT per table with bound parameters.  The samples and
 * call_paths tables, which hold nearly all the rows, also have a prepared INSERT of
 * 64 rows at once (fewer statement executions).  Rows are handed over in batches to
 * a writer thread (unless opened without one), so record decoding and symbol
 * resolution run while SQLite writes.
 *
 * Invariants: rows are written in the order db_writer__row() received them; text
 * pointers in the rows must stay valid until db_writer__commit() returns.
 *
 * Thread safety: db_writer__row(), __commit() and __delete() are called by one
 * thread; the writer thread is internal.
 */
#include <stdbool.h>
#include <stddef.h>

#include "convert/export.h"

struct db_writer;

struct db_writer_opts {
	const char *path;	/* database file to create (missing or empty) */
	unsigned flags;		/* EXPORT_* flags: EXPORT_CALLCHAINS adds call_paths */
	bool threaded;		/* write on a thread of its own */
};

/**
 * @brief Create the database file and its schema, and start the transaction.
 * @param out  the writer (caller owns; db_writer__delete frees)
 * @param o    options
 * @return 0; -EEXIST if the file exists and is not empty; -ENOMEM; -EIO for an SQLite failure (the
 *         message is in db_writer__errmsg(); *out is set even then, so the caller
 *         can read it before deleting the writer).
 * Thread safety: see file comment.  Format: perf's export-to-sqlite.py schema.
 */
int db_writer__open(struct db_writer **out, const struct db_writer_opts *o);

/**
 * @brief Queue one row (copied).
 * @return 0; -ENOMEM; -EIO when writing failed (now or for an earlier row).
 * Thread safety: see file comment.  Format: none.
 */
int db_writer__row(struct db_writer *w, const struct export_row *r);

/**
 * @brief db_writer__row() with the signature of export_sink.row.
 * @param ctx  the struct db_writer
 * @return as db_writer__row().
 * Thread safety: see file comment.  Format: none.
 */
int db_writer__sink_row(void *ctx, const struct export_row *r);

/**
 * @brief Write everything queued, commit, write the samples pages and close the
 *        file (not synced to disk, as perf's export).
 * @return 0; -ENOMEM; -EIO (message in db_writer__errmsg()).
 * Thread safety: see file comment.  Format: SQLite file format.
 */
int db_writer__commit(struct db_writer *w);

/**
 * @brief Stop the writer thread and close the database without committing (a
 *        committed one is left as it is) and free the writer.  NULL is a no-op.
 *        Does not remove the file (the caller owns its life cycle).
 * Thread safety: see file comment.  Format: none.
 */
void db_writer__delete(struct db_writer *w);

/**
 * @brief Why the first failure happened: SQLite's message with the system's reason,
 *        or the failing call ("no error" when none).
 * @return a string owned by the writer, valid until db_writer__delete().
 * Thread safety: after a call of this thread returned an error.  Format: none.
 */
const char *db_writer__errmsg(const struct db_writer *w);

#endif
