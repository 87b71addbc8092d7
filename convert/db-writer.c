/*
 * db_writer - export rows into an SQLite database with perf's schema (see
 * db-writer.h).
 */
#include "convert/db-writer.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>	/* va_list */
#include <stdatomic.h>
#include <stdio.h>	/* snprintf, vsnprintf */
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* strerror, strlen */
#include <sys/stat.h>	/* stat */

#include "convert/schema.h"
#include "banned.h"

#define BATCH_ROWS 4096		/* rows handed to the writer thread at once */
#define MULTI_ROWS 64		/* rows per multi-row INSERT (samples, call_paths) */
#define NR_BATCHES 4		/* batches in flight: the producer runs this far ahead */

struct batch {
	struct export_row rows[BATCH_ROWS];
	size_t n;
};

struct db_writer {
	sqlite3 *db;				/* owned */
	sqlite3_stmt *ins[EXPORT__NR_TABLES];	/* owned prepared INSERTs, one row */
	sqlite3_stmt *multi[EXPORT__NR_TABLES];	/* owned, MULTI_ROWS rows; or NULL */
	const struct export_row *pending[EXPORT__NR_TABLES][MULTI_ROWS];
	size_t nr_pending[EXPORT__NR_TABLES];	/* rows waiting for a multi INSERT */
	char *path;				/* owned */
	unsigned flags;
	bool threaded, committed;

	/* hand-over to the writer thread: batches[prod % NR] is filled by the caller,
	 * [cons % NR] .. [(prod - 1) % NR] wait for the writer */
	pthread_t thread;
	bool thread_started, stop;
	pthread_mutex_t lock;
	pthread_cond_t cv_work, cv_space;
	struct batch *batches;			/* owned, NR_BATCHES */
	uint64_t prod, cons;
	struct batch *cur;			/* being filled, or NULL */

	/* first error: set by the writer thread while it runs (errmsg first, then err),
	 * else by the caller's thread */
	_Atomic int err;
	char errmsg[512];
};

static int set_err(struct db_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(struct db_writer *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return w->err;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	w->err = err;
	return err;
}

static int sql_err(struct db_writer *w, const char *what)
{
	int sys = sqlite3_system_errno(w->db);

	if (sys)	/* "disk I/O error" says little: add the system's reason */
		return set_err(w, -EIO, "%s: %s (%s)", what, sqlite3_errmsg(w->db),
			       strerror(sys));
	return set_err(w, -EIO, "%s: %s", what, sqlite3_errmsg(w->db));
}

const char *db_writer__errmsg(const struct db_writer *w)
{
	return w->errmsg[0] ? w->errmsg : "no error";
}

static int exec(struct db_writer *w, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(w->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	sqlite3_free(msg);
	return sql_err(w, "writing the database");
}

/* ---- writing one row ----------------------------------------------------------- */

/* Bind row r to the parameters of st from number first + 1 on. */
static int bind_row(struct db_writer *w, sqlite3_stmt *st, int first,
		    const struct export_row *r)
{
	const char *cols = schema_tables[r->table].columns;
	size_t iv = 0, it = 0;

	for (int c = 0; cols[c]; c++) {
		int rc = cols[c] == 'i'
			 ? sqlite3_bind_int64(st, first + c + 1, r->v[iv++])
			 : sqlite3_bind_text(st, first + c + 1,
					     r->text[it] ? r->text[it] : "", -1,
					     SQLITE_STATIC);

		if (cols[c] == 't')
			it++;
		if (rc != SQLITE_OK)
			return sql_err(w, "bind");
	}
	return 0;
}

static int step(struct db_writer *w, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return sql_err(w, "writing the database");
	}
	sqlite3_reset(st);
	return 0;
}

static int write_row(struct db_writer *w, const struct export_row *r)
{
	sqlite3_stmt *st = w->ins[r->table];
	int err;

	if (!st)
		return set_err(w, -EIO, "no table for row type %d", (int)r->table);
	if ((err = bind_row(w, st, 0, r)))
		return err;
	return step(w, st);
}

/* Write the rows waiting for table t: MULTI_ROWS at a time, the rest one by one. */
static int flush_pending(struct db_writer *w, enum export_table t)
{
	size_t n = w->nr_pending[t], ncols = strlen(schema_tables[t].columns);
	int err = 0;

	w->nr_pending[t] = 0;
	if (n == MULTI_ROWS) {
		for (size_t i = 0; i < n && !err; i++)
			err = bind_row(w, w->multi[t], (int)(i * ncols), w->pending[t][i]);
		return err ? err : step(w, w->multi[t]);
	}
	for (size_t i = 0; i < n && !err; i++)
		err = write_row(w, w->pending[t][i]);
	return err;
}

/* Rows of one table keep their order; tables are independent (ids are explicit). */
static int queue_row(struct db_writer *w, const struct export_row *r)
{
	enum export_table t = r->table;

	if ((unsigned)t >= EXPORT__NR_TABLES || !w->multi[t])
		return write_row(w, r);
	w->pending[t][w->nr_pending[t]++] = r;
	return w->nr_pending[t] == MULTI_ROWS ? flush_pending(w, t) : 0;
}

static int flush_all(struct db_writer *w)
{
	int err = 0;

	for (int t = 0; t < EXPORT__NR_TABLES && !err; t++)
		err = flush_pending(w, (enum export_table)t);
	return err;
}

/* The rows point into b: everything pending is written before it is reused. */
static void write_batch(struct db_writer *w, const struct batch *b)
{
	for (size_t i = 0; i < b->n && !w->err; i++)
		queue_row(w, &b->rows[i]);
	if (!w->err)
		flush_all(w);
}

static void *writer_main(void *arg)
{
	struct db_writer *w = arg;

	(void)pthread_setname_np(pthread_self(), "dr-sqlite");	/* for perf, top, gdb */
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->cons == w->prod && !w->stop)
			pthread_cond_wait(&w->cv_work, &w->lock);
		if (w->cons == w->prod)
			break;
		struct batch *b = &w->batches[w->cons % NR_BATCHES];
		bool failed = w->err != 0;

		pthread_mutex_unlock(&w->lock);
		if (!failed)
			write_batch(w, b);	/* w->err is only written here meanwhile */
		pthread_mutex_lock(&w->lock);
		w->cons++;
		pthread_cond_signal(&w->cv_space);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* ---- opening ------------------------------------------------------------------- */

/* "INSERT INTO name VALUES (?, ?, ...)" as perf's script prepares it; with rows > 1,
 * that many parenthesized rows in one statement. */
static int prepare_insert(struct db_writer *w, enum export_table t, size_t rows,
			  sqlite3_stmt **out)
{
	size_t n = strlen(schema_tables[t].columns);
	sqlite3_str *q = sqlite3_str_new(w->db);
	char *sql;
	int rc;

	sqlite3_str_appendf(q, "INSERT INTO %s VALUES ", schema_tables[t].name);
	for (size_t r = 0; r < rows; r++) {
		sqlite3_str_appendall(q, r ? ",(" : "(");
		for (size_t c = 0; c < n; c++)
			sqlite3_str_appendall(q, c ? ", ?" : "?");
		sqlite3_str_appendchar(q, 1, ')');
	}
	sql = sqlite3_str_finish(q);
	if (!sql)
		return set_err(w, -ENOMEM, "%s", strerror(ENOMEM));
	rc = sqlite3_prepare_v2(w->db, sql, -1, out, NULL);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : sql_err(w, "prepare");
}

static int create_schema(struct db_writer *w)
{
	int err;

	/* 16 KiB pages: a tenth less work per row than SQLite's default 4 KiB (fewer
	 * page splits and cells moved); the file's contents are the same */
	if ((err = exec(w, "PRAGMA page_size = 16384")) ||
	    (err = exec(w, "PRAGMA journal_mode = OFF")) ||
	    (err = exec(w, "PRAGMA synchronous = OFF")) ||
	    (err = exec(w, "PRAGMA locking_mode = EXCLUSIVE")) ||
	    (err = exec(w, "BEGIN TRANSACTION")))
		return err;
	for (size_t i = 0; i < schema_nr_objects; i++) {
		if ((schema_objects[i].flags & SCHEMA_CALLCHAINS) &&
		    !(w->flags & EXPORT_CALLCHAINS))
			continue;
		if ((err = exec(w, schema_objects[i].sql)))
			return err;
	}
	if ((err = exec(w, "END TRANSACTION")))
		return err;
	for (int t = 0; t < EXPORT__NR_TABLES; t++) {
		if (t == EXPORT_CALL_PATH && !(w->flags & EXPORT_CALLCHAINS))
			continue;
		if ((err = prepare_insert(w, (enum export_table)t, 1, &w->ins[t])))
			return err;
		if ((t == EXPORT_SAMPLE || t == EXPORT_CALL_PATH) &&
		    (err = prepare_insert(w, (enum export_table)t, MULTI_ROWS,
					  &w->multi[t])))
			return err;
	}
	return 0;
}

static int start_thread(struct db_writer *w)
{
	int rc;

	w->batches = calloc(NR_BATCHES, sizeof(*w->batches));
	if (!w->batches)
		return set_err(w, -ENOMEM, "%s", strerror(ENOMEM));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cv_work, NULL);
	pthread_cond_init(&w->cv_space, NULL);
	rc = pthread_create(&w->thread, NULL, writer_main, w);
	if (rc)
		return set_err(w, -rc, "cannot start the writer thread: %s", strerror(rc));
	w->thread_started = true;
	return 0;
}

int db_writer__open(struct db_writer **out, const struct db_writer_opts *o)
{
	struct db_writer *w = calloc(1, sizeof(*w));
	struct stat st;
	int err;

	*out = w;
	if (!w)
		return -ENOMEM;
	w->flags = o->flags;
	w->threaded = o->threaded;
	w->path = strdup(o->path);
	if (!w->path)
		return set_err(w, -ENOMEM, "%s", strerror(ENOMEM));
	if (stat(o->path, &st) == 0 && st.st_size != 0)
		return set_err(w, -EEXIST, "%s: already exists", o->path);
	if (sqlite3_open_v2(o->path, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return w->db ? sql_err(w, o->path)
			     : set_err(w, -ENOMEM, "%s", strerror(ENOMEM));
	if ((err = create_schema(w)))
		return err;
	if ((err = exec(w, "BEGIN TRANSACTION")))
		return err;
	return w->threaded ? start_thread(w) : 0;
}

/* ---- rows ------------------------------------------------------------------------ */

static int submit(struct db_writer *w)
{
	pthread_mutex_lock(&w->lock);
	w->prod++;
	pthread_cond_signal(&w->cv_work);
	pthread_mutex_unlock(&w->lock);
	w->cur = NULL;
	return 0;
}

static int take_batch(struct db_writer *w)
{
	int err;

	pthread_mutex_lock(&w->lock);
	while (w->prod - w->cons >= NR_BATCHES)
		pthread_cond_wait(&w->cv_space, &w->lock);
	err = w->err;
	pthread_mutex_unlock(&w->lock);
	if (err)
		return err;
	w->cur = &w->batches[w->prod % NR_BATCHES];
	w->cur->n = 0;
	return 0;
}

int db_writer__row(struct db_writer *w, const struct export_row *r)
{
	int err;

	if (!w->threaded)
		return w->err ? w->err : write_row(w, r);
	if (!w->cur && (err = take_batch(w)))
		return err;
	w->cur->rows[w->cur->n++] = *r;
	return w->cur->n == BATCH_ROWS ? submit(w) : 0;
}

int db_writer__sink_row(void *ctx, const struct export_row *r)
{
	return db_writer__row(ctx, r);
}

static void stop_thread(struct db_writer *w)
{
	if (!w->thread_started)
		return;
	if (w->cur && w->cur->n)
		submit(w);
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cv_work);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->thread_started = false;
}

static void close_db(struct db_writer *w)
{
	for (int t = 0; t < EXPORT__NR_TABLES; t++) {
		sqlite3_finalize(w->ins[t]);
		sqlite3_finalize(w->multi[t]);
		w->ins[t] = w->multi[t] = NULL;
	}
	sqlite3_close(w->db);
	w->db = NULL;
}

int db_writer__commit(struct db_writer *w)
{
	int err;

	stop_thread(w);
	if (w->err)
		return w->err;
	if ((err = exec(w, "END TRANSACTION")))
		return err;
	close_db(w);
	w->committed = true;
	return 0;
}

void db_writer__delete(struct db_writer *w)
{
	if (!w)
		return;
	stop_thread(w);
	if (w->batches) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cv_work);
		pthread_cond_destroy(&w->cv_space);
	}
	close_db(w);
	free(w->batches);
	free(w->path);
	free(w);
}
