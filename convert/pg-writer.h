#ifndef DIRREPORT_CONVERT_PG_WRITER_H
#define DIRREPORT_CONVERT_PG_WRITER_H
/*
 * pg_writer - writes export rows into a PostgreSQL database with the schema of perf
 * 6.1's export-to-postgresql.py, through libpq.
 *
 * The database is named by a libpq connection string or URI (its other settings, and
 * PGHOST, PGUSER, PGPASSWORD, ~/.pgpass..., as for any libpq client).  A new database
 * is created from the server's maintenance database "postgres" (as perf's script
 * does); with append, rows go into an existing one.  Everything of one recording is
 * one transaction: tables, rows, keys, views and the commit; on failure (or without
 * a commit) it is rolled back, and a database this writer created is dropped again
 * when the server can still be reached.
 *
 * Rows are encoded in PostgreSQL's binary COPY format on the caller's thread, per
 * table, and sent as COPY ... FROM STDIN statements of about COPY_CHUNK bytes by a
 * writer thread (unless opened without one) while the caller goes on.  Chunks of the
 * tables a row may refer to go before it (perf's foreign keys are not deferrable:
 * appending into a database that has them needs referenced rows first).
 *
 * Append: ids continue after the largest id of each table (0, "unknown", stays 0);
 * the id-0 placeholder rows and branch_types are not written again; the tables are
 * locked against other writers for the transaction.
 *
 * Invariants: rows are written in the order they were received within each table.
 * Thread safety: pg_writer__row(), __commit() and __delete() are called by one
 * thread; the writer thread is internal.
 */
#include <stdbool.h>
#include <stdint.h>

#include "convert/export.h"

struct pg_writer;

struct pg_writer_opts {
	const char *conninfo;	/* libpq connection string or URI naming the database */
	unsigned flags;		/* EXPORT_* flags: EXPORT_CALLCHAINS adds call_paths */
	bool append;		/* add to an existing database */
	bool force;		/* replace an existing database, drop a stale temporary
				 * one (not with append) */
	bool threaded;		/* send rows on a thread of its own */
};

/**
 * @brief Connect, create the database (or check and lock an existing one with
 *        append), begin the transaction and create the tables.  A new database is
 *        made as NAME_dirconvert_tmp and renamed to NAME by pg_writer__commit(), so
 *        NAME is never half-made; pg_writer__delete() drops it uncommitted.
 * @param out  the writer (caller owns; pg_writer__delete frees); set even on error
 *             (except -ENOMEM), so that pg_writer__errmsg() can be read
 * @return 0; -EINVAL: the connection string does not parse, names no database, or
 *         names "postgres", or NAME_dirconvert_tmp is longer than PostgreSQL's 63 bytes;
 *         -EEXIST: the database exists (neither force nor append); -EBUSY:
 *         NAME_dirconvert_tmp exists (a killed run's, or one running; not with force);
 *         -ECONNREFUSED: no connection (server down, authentication refused, no
 *         such database to append to...); -ENOENT: libpq.so.5 could not be loaded
 *         (dlopen(): not installed, or without a function used here); -EPROTO: append into
 *         a database without perf's tables (or without call_paths for callchains);
 *         -EIO: any other server error; -ENOMEM.  Messages: pg_writer__errmsg().
 * Thread safety: see file comment.  Format: perf's export-to-postgresql.py schema.
 */
int pg_writer__open(struct pg_writer **out, const struct pg_writer_opts *o);

/**
 * @brief Encode one row (copied) and queue it.
 * @return 0; -ENOMEM; -EIO / -ECONNRESET when sending failed (now or earlier).
 * Thread safety: see file comment.  Format: binary COPY (pg-schema.h).
 */
int pg_writer__row(struct pg_writer *w, const struct export_row *r);

/**
 * @brief Send everything queued, add perf's keys and views (new database) and commit;
 *        a new database then takes its name (the old one dropped first, with force).
 * @return 0; -ENOMEM; -EIO / -ECONNRESET (message in pg_writer__errmsg()); the
 *         transaction is then rolled back by pg_writer__delete().
 * Thread safety: see file comment.  Format: none.
 */
int pg_writer__commit(struct pg_writer *w);

/**
 * @brief Stop the writer thread, roll back what is not committed (dropping a
 *        database created by this writer), close the connections and free the
 *        writer.  NULL is a no-op.
 * Thread safety: see file comment.  Format: none.
 */
void pg_writer__delete(struct pg_writer *w);

/**
 * @brief Why the first failure happened: the server's or libpq's message on one
 *        line ("no error" when none).
 * @return a string owned by the writer, valid until pg_writer__delete().
 * Thread safety: after a call of this thread returned an error.  Format: none.
 */
const char *pg_writer__errmsg(const struct pg_writer *w);

/**
 * @brief How many texts were changed to fit perf's columns (pg_text__fit()): cut to
 *        the column's size (perf's export fails on them: "value too long"), or with
 *        bytes that are not UTF-8 replaced by U+FFFD (the server refuses them).
 * Thread safety: the caller's thread.  Format: none.
 */
void pg_writer__text_fixes(const struct pg_writer *w, uint64_t *cut, uint64_t *replaced);

/**
 * @brief The database the connection string names (for messages), or NULL when it
 *        names none (or did not parse; w NULL is allowed).
 * @return a string owned by the writer, valid until pg_writer__delete().
 * Thread safety: any.  Format: none.
 */
const char *pg_writer__dbname(const struct pg_writer *w);

#endif
