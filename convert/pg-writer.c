/*
 * pg_writer - export rows into a PostgreSQL database with perf's schema, through
 * libpq's binary COPY (see pg-writer.h).
 */
#include "convert/pg-writer.h"

#include <dlfcn.h>	/* dlopen, dlsym, dlerror: libpq */
#include <errno.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdarg.h>	/* va_list */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>	/* snprintf, vsnprintf */
#include <stdlib.h>	/* calloc, free, getenv, malloc, strtoll */
#include <string.h>	/* memcpy, strcmp, strlen */

#include "convert/pg-schema.h"
#include "convert/schema.h"	/* schema_tables: the table names */
#include "banned.h"

#define COPY_CHUNK (4u << 20)	/* bytes of rows per COPY statement */
#define NR_INFLIGHT 4		/* chunks queued for the writer thread at most */
#define MAINTENANCE_DB "postgres"

/* The binary COPY header: signature, flags (no OIDs), header extension length 0;
 * the trailer is a field count of -1.  Format: PostgreSQL documentation, COPY,
 * "Binary Format". */
static const unsigned char copy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
#define COPY_TRAILER_LEN 2

/*
 * libpq, loaded by the first writer opened (dlopen()) rather than linked: linked, it
 * and the 22 libraries it needs (TLS, Kerberos, LDAP, ...) took 4.4 ms of every
 * dirconvert run's start-up on the benchmark machine - the SQLite and JSON exports'
 * too, before their kernel symbols were read - against 1.8 ms for the others in all.
 * The functions are libpq's own, called through pq.
 */
#define PG_TMP_SUFFIX "_dirconvert_tmp"	/* the database built, renamed at commit */
#define PG_NAME_MAX 63				/* NAMEDATALEN - 1: longer names are cut */
#define LIBPQ_SONAME "libpq.so.5"	/* libpq's soname since PostgreSQL 8.0 */
#define PQ_FUNCS(X) X(PQclear) X(PQconnectdbParams) X(PQconninfoFree) \
	X(PQconninfoParse) X(PQerrorMessage) X(PQescapeIdentifier) X(PQescapeLiteral) X(PQexec) \
	X(PQfinish) X(PQfreemem) X(PQgetResult) X(PQgetvalue) X(PQntuples) \
	X(PQputCopyData) X(PQputCopyEnd) X(PQresultErrorField) X(PQresultStatus) \
	X(PQsetNoticeProcessor) X(PQstatus)
#define PQ_FIELD(f) __typeof__(f) *f;
static struct {
	PQ_FUNCS(PQ_FIELD)
} pq;
static bool pq_ready;			/* every field of pq set */
static char pq_error[256];		/* why not */
static pthread_once_t pq_once = PTHREAD_ONCE_INIT;

static void pq_load(void)
{
	void *h = dlopen(LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *missing = NULL;

	if (!h) {
		const char *e = dlerror();

		snprintf(pq_error, sizeof(pq_error), "%s", e ? e : "not found");
		return;
	}
#define PQ_SYM(f) \
	if (!missing && !(pq.f = (__typeof__(pq.f))(uintptr_t)dlsym(h, #f))) \
		missing = #f;
	PQ_FUNCS(PQ_SYM)
#undef PQ_SYM
	if (missing) {
		snprintf(pq_error, sizeof(pq_error), "%s has no %s", LIBPQ_SONAME, missing);
		dlclose(h);
		return;
	}
	pq_ready = true;	/* h stays open: the process's libpq from here on */
}

struct chunk {
	enum export_table table;
	size_t len, cap;
	unsigned char *data;	/* header, rows; the trailer is added when sent */
};

struct pg_writer {
	PGconn *conn;		/* the database: owned */
	PGconn *maint;		/* "postgres", when this writer created the database */
	char *dbname;		/* owned */
	char *dbident;		/* owned (PQfreemem): the quoted identifier */
	char *tmpname;		/* owned: the database built, renamed to dbname at
				 * commit (dbname PG_TMP_SUFFIX) */
	char *tmpident;		/* owned (PQfreemem): its quoted identifier */
	unsigned flags;
	bool append, created, committed;
	int64_t base[EXPORT__NR_TABLES];	/* append: the largest ids before */
	uint64_t nr_cut, nr_replaced;	/* texts changed by pg_text__fit() */
	PGresult *fkeys;	/* append: the foreign keys dropped for the load
				 * (table, name, definition), added back at commit */
	struct chunk *cur[EXPORT__NR_TABLES];	/* being filled */

	/* hand-over to the writer thread: queue[cons % NR] .. [(prod - 1) % NR] */
	bool threaded, thread_started, stop;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cv_work, cv_space;
	struct chunk *queue[NR_INFLIGHT];
	uint64_t prod, cons;

	/* first error: while the thread runs, written by it (errmsg first, then err) */
	_Atomic int err;
	char errmsg[512];
};

static int set_err(struct pg_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(struct pg_writer *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return w->err;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	/* libpq's messages span lines ("...failed: FATAL: ...\n\tIs the server
	 * running...?"): one line, single spaces */
	char *o = w->errmsg;
	bool space = false;

	for (const char *i = w->errmsg; *i; i++) {
		if (*i == '\n' || *i == '\t' || *i == ' ') {
			space = o != w->errmsg;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = *i;
	}
	*o = '\0';
	w->err = err;
	return err;
}

const char *pg_writer__errmsg(const struct pg_writer *w)
{
	return w->errmsg[0] ? w->errmsg : "no error";
}

void pg_writer__text_fixes(const struct pg_writer *w, uint64_t *cut, uint64_t *replaced)
{
	*cut = w->nr_cut;
	*replaced = w->nr_replaced;
}

const char *pg_writer__dbname(const struct pg_writer *w)
{
	return w ? w->dbname : NULL;
}

/* An error of a statement on c: SQLSTATEs the callers tell apart get their errno. */
static int result_err(struct pg_writer *w, PGconn *c, const PGresult *r)
{
	const char *state = r ? pq.PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = r ? pq.PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	int err = -EIO;

	if (pq.PQstatus(c) == CONNECTION_BAD)
		err = -ECONNRESET;
	else if (state && !strcmp(state, "42P04"))	/* duplicate_database */
		err = -EEXIST;
	else if (state && !strcmp(state, "42P01"))	/* undefined_table */
		err = -EPROTO;
	if (msg)
		return set_err(w, err, "%s", msg);
	return set_err(w, err, "%s", pq.PQerrorMessage(c));
}

/* Run one statement; its rows (if any) are returned in *out (caller clears). */
static int query(struct pg_writer *w, PGconn *c, const char *sql, PGresult **out)
{
	PGresult *r = pq.PQexec(c, sql);
	ExecStatusType st = pq.PQresultStatus(r);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		if (out)
			*out = r;
		else
			pq.PQclear(r);
		return 0;
	}
	int err = result_err(w, c, r);

	pq.PQclear(r);
	return err;
}

static int exec(struct pg_writer *w, PGconn *c, const char *sql)
{
	return query(w, c, sql, NULL);
}

static void no_notices(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;	/* library code prints nothing: notices ("skipping") are dropped */
}

/* Connect with the options of conninfo, the database being dbname. */
static int connect_to(struct pg_writer *w, const char *conninfo, const char *dbname,
		      PGconn **out)
{
	char *perr = NULL;
	PQconninfoOption *opts = pq.PQconninfoParse(conninfo, &perr);
	const char **kw = NULL, **val = NULL;
	size_t n = 0, nopts = 0;
	bool have_encoding = false;
	int err = 0;

	*out = NULL;
	if (!opts) {
		err = perr ? set_err(w, -EINVAL, "%s", perr) : set_err(w, -ENOMEM, "out of memory");
		pq.PQfreemem(perr);
		return err;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		nopts++;
	kw = calloc(nopts + 3, sizeof(*kw));
	val = calloc(nopts + 3, sizeof(*val));
	if (!kw || !val) {
		err = set_err(w, -ENOMEM, "out of memory");
		goto out;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++) {
		if (!o->val || !strcmp(o->keyword, "dbname"))
			continue;
		have_encoding |= !strcmp(o->keyword, "client_encoding");
		kw[n] = o->keyword;
		val[n++] = o->val;
	}
	kw[n] = "dbname";
	val[n++] = dbname;
	if (!have_encoding) {	/* our text is UTF-8, as perf's script assumes */
		kw[n] = "client_encoding";
		val[n++] = "UTF8";
	}
	*out = pq.PQconnectdbParams(kw, val, 0);
	if (!*out) {
		err = set_err(w, -ENOMEM, "out of memory");
	} else if (pq.PQstatus(*out) != CONNECTION_OK) {
		err = set_err(w, -ECONNREFUSED, "%s", pq.PQerrorMessage(*out));
		pq.PQfinish(*out);
		*out = NULL;
	} else {
		pq.PQsetNoticeProcessor(*out, no_notices, NULL);
	}
out:
	free(kw);
	free(val);
	pq.PQconninfoFree(opts);
	return err;
}

/* The database conninfo names (dbname, else PGDATABASE: libpq's own fallback to the
 * user name is not taken for a database to be created). */
static int find_dbname(struct pg_writer *w, const char *conninfo)
{
	char *perr = NULL;
	PQconninfoOption *opts = pq.PQconninfoParse(conninfo, &perr);
	const char *name = NULL;

	if (!opts) {
		int err = perr ? set_err(w, -EINVAL, "%s", perr)
			       : set_err(w, -ENOMEM, "out of memory");

		pq.PQfreemem(perr);
		return err;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "dbname") && o->val && *o->val)
			name = o->val;
	if (!name)
		name = getenv("PGDATABASE");
	bool named = name && *name;

	if (named)
		w->dbname = strdup(name);
	pq.PQconninfoFree(opts);	/* name may point into it: not used from here on */
	if (!named)
		return set_err(w, -EINVAL, "the connection string names no database "
			       "(dbname=NAME, or postgresql://HOST/NAME)");
	if (!w->dbname)
		return set_err(w, -ENOMEM, "out of memory");
	return 0;
}

/* ---- the rows ------------------------------------------------------------------- */

static int send_chunk(struct pg_writer *w, struct chunk *c)
{
	char sql[96];
	PGresult *r;
	int err = 0;

	/* a table created by this transaction takes its rows frozen: later scans
	 * (the foreign keys' checks, the first queries) need not mark them */
	snprintf(sql, sizeof(sql), "COPY %s FROM STDIN (FORMAT binary%s)",
		 schema_tables[c->table].name, w->append ? "" : ", FREEZE");
	r = pq.PQexec(w->conn, sql);
	if (pq.PQresultStatus(r) != PGRES_COPY_IN) {
		err = result_err(w, w->conn, r);
		pq.PQclear(r);
		return err;
	}
	pq.PQclear(r);
	c->data[c->len++] = 0xff;	/* the trailer: field count -1 */
	c->data[c->len++] = 0xff;
	if (pq.PQputCopyData(w->conn, (const char *)c->data, (int)c->len) != 1 ||
	    pq.PQputCopyEnd(w->conn, NULL) != 1)
		err = set_err(w, -ECONNRESET, "%s", pq.PQerrorMessage(w->conn));
	while ((r = pq.PQgetResult(w->conn))) {
		if (!err && pq.PQresultStatus(r) != PGRES_COMMAND_OK)
			err = result_err(w, w->conn, r);
		pq.PQclear(r);
	}
	return err;
}

static void free_chunk(struct chunk *c)
{
	if (c) {
		free(c->data);
		free(c);
	}
}

static void *writer_main(void *arg)
{
	struct pg_writer *w = arg;

	(void)pthread_setname_np(pthread_self(), "dr-pgsql");	/* for perf, top, gdb */
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->cons == w->prod && !w->stop)
			pthread_cond_wait(&w->cv_work, &w->lock);
		if (w->cons == w->prod)
			break;
		struct chunk *c = w->queue[w->cons % NR_INFLIGHT];
		bool failed = w->err != 0;

		pthread_mutex_unlock(&w->lock);
		if (!failed)
			send_chunk(w, c);	/* w->err is only written here meanwhile */
		free_chunk(c);
		pthread_mutex_lock(&w->lock);
		w->cons++;
		pthread_cond_signal(&w->cv_space);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Hand a chunk to the writer thread (waiting for room) or send it now. */
static int submit(struct pg_writer *w, struct chunk *c)
{
	if (!w->thread_started) {
		int err = w->err ? w->err : send_chunk(w, c);

		free_chunk(c);
		return err;
	}
	pthread_mutex_lock(&w->lock);
	while (w->prod - w->cons == NR_INFLIGHT)
		pthread_cond_wait(&w->cv_space, &w->lock);
	w->queue[w->prod++ % NR_INFLIGHT] = c;
	pthread_cond_signal(&w->cv_work);
	pthread_mutex_unlock(&w->lock);
	return w->err;
}

/* Send table t's chunk, after those of the tables its rows may refer to (the tables
 * before it: export_table is in the order of perf's foreign keys). */
static int flush_through(struct pg_writer *w, enum export_table t)
{
	for (int u = 0; u <= (int)t; u++) {
		struct chunk *c = w->cur[u];
		int err;

		if (!c || c->len == sizeof(copy_header))
			continue;
		w->cur[u] = NULL;
		if ((err = submit(w, c)))
			return err;
	}
	return 0;
}

static struct chunk *new_chunk(enum export_table t, size_t need)
{
	struct chunk *c = malloc(sizeof(*c));
	size_t cap = sizeof(copy_header) + need + COPY_TRAILER_LEN;

	if (cap < COPY_CHUNK + (64u << 10))
		cap = COPY_CHUNK + (64u << 10);
	if (!c || !(c->data = malloc(cap))) {
		free(c);
		return NULL;
	}
	c->table = t;
	c->cap = cap;
	memcpy(c->data, copy_header, sizeof(copy_header));
	c->len = sizeof(copy_header);
	return c;
}

static unsigned char *put_be(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--)
		*p++ = (unsigned char)(v >> (8 * i));
	return p;
}

int pg_writer__row(struct pg_writer *w, const struct export_row *r)
{
	enum export_table t = r->table;
	const char *cols = pg_schema_columns[t];
	size_t need = 2, it = 0, iv = 0;
	struct chunk *c;
	unsigned char *p;

	if (w->err)
		return w->err;
	if (w->append && (t == EXPORT_BRANCH_TYPE || r->v[0] == 0))
		return 0;	/* already there: fixed rows, the id-0 placeholders */
	/* text may grow to 3 bytes per byte (U+FFFD for bytes that are not UTF-8) */
	for (const char *k = cols; *k; k++) {
		need += 4 + (*k == 't' ? 3 * (r->text[it] ? strlen(r->text[it]) : 0) : 8);
		it += *k == 't';
	}
	c = w->cur[t];
	if (c && c->len + need + COPY_TRAILER_LEN > c->cap) {
		int err = flush_through(w, t);

		if (err)
			return err;
		c = NULL;
	}
	if (!c && !(c = w->cur[t] = new_chunk(t, need)))
		return set_err(w, -ENOMEM, "out of memory");
	p = put_be(c->data + c->len, strlen(cols), 2);
	it = 0;
	for (const char *k = cols; *k; k++) {
		if (*k == 't') {
			const char *s = r->text[it];
			unsigned fixes;
			size_t n = pg_text__fit(s ? s : "", s ? strlen(s) : 0,
						pg_schema_text_max[t][it], (char *)p + 4, &fixes);

			it++;
			p = put_be(p, n, 4) + n;
			w->nr_cut += !!(fixes & PG_TEXT_CUT);
			w->nr_replaced += !!(fixes & PG_TEXT_REPLACED);
			continue;
		}
		int64_t v = r->v[iv];
		unsigned ref = pg_schema_refs[t][iv++];

		if (w->append && ref && v)
			v += w->base[ref - 1];
		switch (*k) {
		case 'q': p = put_be(put_be(p, 8, 4), (uint64_t)v, 8); break;
		case 'i': p = put_be(put_be(p, 4, 4), (uint32_t)(int32_t)v, 4); break;
		default: p = put_be(put_be(p, 1, 4), v != 0, 1); break;	/* 'b' */
		}
	}
	c->len = (size_t)(p - c->data);
	return c->len >= COPY_CHUNK ? flush_through(w, t) : 0;
}

/* ---- opening -------------------------------------------------------------------- */

/* Whether database @p name exists (*yes); 0 or the error. */
static int db_exists(struct pg_writer *w, const char *name, bool *yes)
{
	char sql[1200], *lit = pq.PQescapeLiteral(w->maint, name, strlen(name));
	PGresult *r = NULL;
	int err;

	if (!lit)
		return set_err(w, -EINVAL, "%s", pq.PQerrorMessage(w->maint));
	snprintf(sql, sizeof(sql), "SELECT 1 FROM pg_database WHERE datname = %s", lit);
	pq.PQfreemem(lit);
	err = query(w, w->maint, sql, &r);
	*yes = !err && pq.PQntuples(r) > 0;
	pq.PQclear(r);
	return err;
}

/*
 * The database is built under a temporary name, NAME_dirconvert_tmp, and renamed to
 * NAME at commit: an interrupted or killed export leaves the old NAME (or none), never
 * a half-made one.  A temporary database that is there already was left by a killed
 * run (or belongs to one still running): named in the error, dropped by force.
 */
static int create_database(struct pg_writer *w, const char *conninfo, bool force)
{
	char sql[1200];
	bool exists;
	int err;

	if ((err = connect_to(w, conninfo, MAINTENANCE_DB, &w->maint)))
		return err;
	if (!(w->dbident = pq.PQescapeIdentifier(w->maint, w->dbname, strlen(w->dbname))))
		return set_err(w, -EINVAL, "%s", pq.PQerrorMessage(w->maint));
	if (strlen(w->dbident) > 1024)
		return set_err(w, -EINVAL, "database name too long");
	if (asprintf(&w->tmpname, "%s" PG_TMP_SUFFIX, w->dbname) < 0) {
		w->tmpname = NULL;
		return set_err(w, -ENOMEM, "out of memory");
	}
	if (strlen(w->tmpname) > PG_NAME_MAX)
		return set_err(w, -EINVAL, "database name too long: its temporary name, "
			       "\"%s\", must fit PostgreSQL's %d bytes", w->tmpname,
			       PG_NAME_MAX);
	if (!(w->tmpident = pq.PQescapeIdentifier(w->maint, w->tmpname, strlen(w->tmpname))))
		return set_err(w, -EINVAL, "%s", pq.PQerrorMessage(w->maint));
	if (!force && (err = db_exists(w, w->dbname, &exists)))
		return err;
	if (!force && exists)
		return set_err(w, -EEXIST, "database \"%s\" already exists", w->dbname);
	if ((err = db_exists(w, w->tmpname, &exists)))
		return err;
	if (exists && !force)
		return set_err(w, -EBUSY, "database \"%s\" exists: left by a dirconvert that "
			       "was killed, or one still writing \"%s\" (-f drops it)",
			       w->tmpname, w->dbname);
	if (exists) {
		snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", w->tmpident);
		if ((err = exec(w, w->maint, sql)))
			return err;
	}
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", w->tmpident);
	if ((err = exec(w, w->maint, sql)))
		return err == -EEXIST ? set_err(w, -EBUSY, "database \"%s\" exists: another "
						 "dirconvert is writing \"%s\"", w->tmpname,
						 w->dbname) : err;
	w->created = true;
	return 0;
}

/* Commit of a new database: the temporary one takes the name (the old one, with
 * force, dropped first: the one moment neither exists). */
static int rename_database(struct pg_writer *w)
{
	char sql[2400];
	int err;

	pq.PQfinish(w->conn);	/* no session may be in it while it is renamed */
	w->conn = NULL;
	snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", w->dbident);
	if ((err = exec(w, w->maint, sql)))
		return err;
	snprintf(sql, sizeof(sql), "ALTER DATABASE %s RENAME TO %s", w->tmpident, w->dbident);
	return exec(w, w->maint, sql);
}

static int create_tables(struct pg_writer *w)
{
	int err = 0;

	for (size_t i = 0; i < pg_schema_nr_tables && !err; i++)
		if (!(pg_schema_tables[i].flags & SCHEMA_CALLCHAINS) ||
		    (w->flags & EXPORT_CALLCHAINS))
			err = exec(w, w->conn, pg_schema_tables[i].sql);
	return err;
}

/* Append: perf's tables must be there; lock them against other writers (this mode
 * conflicts with itself and with every write) and read the largest ids. */
static int prepare_append(struct pg_writer *w)
{
	bool cc = w->flags & EXPORT_CALLCHAINS;
	PGresult *r = NULL;
	char sql[1024];
	size_t len;
	int err;

	if ((err = query(w, w->conn, "SELECT count(*) FROM information_schema.columns WHERE "
			 "table_schema = current_schema() AND table_name = 'samples'", &r)))
		return err;
	bool samples_ok = !strcmp(pq.PQgetvalue(r, 0, 0), "25");

	pq.PQclear(r);
	if (!samples_ok)
		return set_err(w, -EPROTO, "no samples table of perf's export (all "
			       "columns): not made by dirconvert or perf's "
			       "export-to-postgresql.py");
	if (cc) {
		if ((err = query(w, w->conn, "SELECT to_regclass('call_paths') IS NULL", &r)))
			return err;
		bool missing = !strcmp(pq.PQgetvalue(r, 0, 0), "t");

		pq.PQclear(r);
		if (missing)
			return set_err(w, -EPROTO, "no call_paths table (made without "
				       "--callchains)");
	}
	len = (size_t)snprintf(sql, sizeof(sql), "LOCK TABLE ");
	for (int t = 0; t < EXPORT__NR_TABLES; t++) {
		if (t == EXPORT_CALL_PATH && !cc)
			continue;
		len += (size_t)snprintf(sql + len, sizeof(sql) - len, "%s%s", t ? ", " : "",
					schema_tables[t].name);
	}
	snprintf(sql + len, sizeof(sql) - len, " IN SHARE ROW EXCLUSIVE MODE");
	if ((err = exec(w, w->conn, sql)))
		return err;
	len = (size_t)snprintf(sql, sizeof(sql), "SELECT ");
	for (int t = 0; t < EXPORT__NR_TABLES; t++)
		len += (size_t)snprintf(sql + len, sizeof(sql) - len,
					"%s(SELECT coalesce(max(id), 0) FROM %s)", t ? ", " : "",
					t == EXPORT_CALL_PATH && !cc ? "branch_types"
								     : schema_tables[t].name);
	if ((err = query(w, w->conn, sql, &r)))
		return err;
	for (int t = 0; t < EXPORT__NR_TABLES; t++)
		w->base[t] = strtoll(pq.PQgetvalue(r, 0, t), NULL, 10);
	pq.PQclear(r);
	/* Foreign keys check every row COPY adds, one query each (ten times slower
	 * than the load itself): drop them for the load and add them back before the
	 * commit, which checks the tables in one pass per key.  All in the
	 * transaction: nobody sees the tables without them. */
	if ((err = query(w, w->conn, "SELECT quote_ident(c.relname), quote_ident(k.conname), "
			 "pg_get_constraintdef(k.oid) FROM pg_constraint k JOIN pg_class c "
			 "ON c.oid = k.conrelid WHERE k.contype = 'f' AND c.relnamespace = "
			 "current_schema()::regnamespace AND c.relname IN ('selected_events', "
			 "'machines', 'threads', 'comms', 'comm_threads', 'dsos', 'symbols', "
			 "'branch_types', 'call_paths', 'samples') ORDER BY k.oid", &w->fkeys)))
		return err;
	for (int i = 0; i < pq.PQntuples(w->fkeys) && !err; i++) {
		snprintf(sql, sizeof(sql), "ALTER TABLE %s DROP CONSTRAINT %s",
			 pq.PQgetvalue(w->fkeys, i, 0), pq.PQgetvalue(w->fkeys, i, 1));
		err = exec(w, w->conn, sql);
	}
	return err;
}

/* Append: the foreign keys dropped by prepare_append(), back as they were. */
static int restore_fkeys(struct pg_writer *w)
{
	int err = 0;

	for (int i = 0; w->fkeys && i < pq.PQntuples(w->fkeys) && !err; i++) {
		const char *t = pq.PQgetvalue(w->fkeys, i, 0), *n = pq.PQgetvalue(w->fkeys, i, 1);
		const char *def = pq.PQgetvalue(w->fkeys, i, 2);
		size_t len = strlen(t) + strlen(n) + strlen(def) + 64;
		char *sql = malloc(len);

		if (!sql)
			return set_err(w, -ENOMEM, "out of memory");
		snprintf(sql, len, "ALTER TABLE %s ADD CONSTRAINT %s %s", t, n, def);
		err = exec(w, w->conn, sql);
		free(sql);
	}
	return err;
}

static int start_thread(struct pg_writer *w)
{
	int rc;

	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cv_work, NULL);
	pthread_cond_init(&w->cv_space, NULL);
	w->threaded = true;
	rc = pthread_create(&w->thread, NULL, writer_main, w);
	if (rc)
		return set_err(w, -rc, "cannot start the writer thread: %s", strerror(rc));
	w->thread_started = true;
	return 0;
}

int pg_writer__open(struct pg_writer **out, const struct pg_writer_opts *o)
{
	struct pg_writer *w = calloc(1, sizeof(*w));
	int err;

	*out = w;
	if (!w)
		return -ENOMEM;
	pthread_once(&pq_once, pq_load);
	if (!pq_ready)
		return set_err(w, -ENOENT, "cannot load %s, PostgreSQL's client library: %s",
			       LIBPQ_SONAME, pq_error);
	w->flags = o->flags;
	w->append = o->append;
	if ((err = find_dbname(w, o->conninfo)))
		return err;
	if (!o->append && !strcmp(w->dbname, MAINTENANCE_DB))
		return set_err(w, -EINVAL, "the database \"%s\" is the server's own: name "
			       "a database to create", MAINTENANCE_DB);
	if (!o->append && (err = create_database(w, o->conninfo, o->force)))
		return err;
	if ((err = connect_to(w, o->conninfo, o->append ? w->dbname : w->tmpname,
			      &w->conn)) ||
	    (err = exec(w, w->conn, "SET client_min_messages TO WARNING")) ||
	    (err = exec(w, w->conn, "BEGIN")))
		return err;
	err = o->append ? prepare_append(w) : create_tables(w);
	if (!err && o->threaded)
		err = start_thread(w);
	return err;
}

/* ---- the end -------------------------------------------------------------------- */

static void stop_thread(struct pg_writer *w)
{
	if (!w->thread_started)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cv_work);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->thread_started = false;
}

int pg_writer__commit(struct pg_writer *w)
{
	int err = w->err ? w->err : flush_through(w, EXPORT__NR_TABLES - 1);

	stop_thread(w);
	if (err || (err = w->err))
		return err;
	if (!w->append) {
		for (size_t i = 0; i < pg_schema_nr_keys && !err; i++)
			if (!(pg_schema_keys[i].flags & SCHEMA_CALLCHAINS) ||
			    (w->flags & EXPORT_CALLCHAINS))
				err = exec(w, w->conn, pg_schema_keys[i].sql);
		for (size_t i = 0; i < pg_schema_nr_views && !err; i++)
			if (!(pg_schema_views[i].flags & SCHEMA_CALLCHAINS) ||
			    (w->flags & EXPORT_CALLCHAINS))
				err = exec(w, w->conn, pg_schema_views[i].sql);
	}
	if (!err && w->append)
		err = restore_fkeys(w);
	if (!err && !(err = exec(w, w->conn, "COMMIT")) && w->created)
		err = rename_database(w);
	if (!err)
		w->committed = true;
	return err;
}

void pg_writer__delete(struct pg_writer *w)
{
	if (!w)
		return;
	stop_thread(w);
	if (w->threaded) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cv_work);
		pthread_cond_destroy(&w->cv_space);
	}
	for (int t = 0; t < EXPORT__NR_TABLES; t++)
		free_chunk(w->cur[t]);
	if (!pq_ready) {	/* nothing was opened */
		free(w->dbname);
		free(w);
		return;
	}
	if (w->conn && !w->committed && pq.PQstatus(w->conn) == CONNECTION_OK)
		pq.PQclear(pq.PQexec(w->conn, "ROLLBACK"));
	pq.PQfinish(w->conn);
	if (w->created && !w->committed && w->maint &&
	    pq.PQstatus(w->maint) == CONNECTION_OK) {
		char sql[1200];

		snprintf(sql, sizeof(sql), "DROP DATABASE %s", w->tmpident);
		pq.PQclear(pq.PQexec(w->maint, sql));
	}
	pq.PQfinish(w->maint);
	pq.PQclear(w->fkeys);
	pq.PQfreemem(w->dbident);
	pq.PQfreemem(w->tmpident);
	free(w->tmpname);
	free(w->dbname);
	free(w);
}
