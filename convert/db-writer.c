/*
 * db_writer - export rows into an SQLite database with perf's schema (see
 * db-writer.h).
 */
#include "convert/db-writer.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>	/* va_list */
#include <stdatomic.h>
#include <stdio.h>	/* snprintf, vsnprintf */
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* strerror, strlen */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close, pread */

#include "convert/btree.h"
#include "convert/schema.h"
#include "banned.h"

#define BATCH_ROWS 4096		/* rows handed to the writer thread at once */
#define NR_BATCHES 4		/* batches in flight: the producer runs this far ahead */

struct batch {
	struct export_row rows[BATCH_ROWS];
	size_t n;
};

struct db_writer {
	sqlite3 *db;				/* owned */
	sqlite3_stmt *ins[EXPORT__NR_TABLES];	/* owned prepared INSERTs */
	struct btree_builder *fast[EXPORT__NR_TABLES];	/* owned; tables bulk-loaded */
	uint32_t root[EXPORT__NR_TABLES];	/* root pages of the bulk-loaded tables */
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

static int write_row(struct db_writer *w, const struct export_row *r)
{
	const char *cols = schema_tables[r->table].columns;
	sqlite3_stmt *st = w->ins[r->table];
	size_t iv = 0, it = 0;
	int err;

	if (w->fast[r->table]) {
		err = btree_builder__add(w->fast[r->table], r->v, strlen(cols));
		return err ? set_err(w, err, "%s: rows out of order",
				     schema_tables[r->table].name) : 0;
	}
	if (!st)
		return set_err(w, -EIO, "no table for row type %d", (int)r->table);
	for (int c = 0; cols[c]; c++) {
		int rc = cols[c] == 'i'
			 ? sqlite3_bind_int64(st, c + 1, r->v[iv++])
			 : sqlite3_bind_text(st, c + 1, r->text[it] ? r->text[it] : "", -1,
					     SQLITE_STATIC);

		if (cols[c] == 't')
			it++;
		if (rc != SQLITE_OK)
			return sql_err(w, "bind");
	}
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return sql_err(w, "writing the database");
	}
	sqlite3_reset(st);
	return 0;
}

static void write_batch(struct db_writer *w, const struct batch *b)
{
	for (size_t i = 0; i < b->n && !w->err; i++)
		write_row(w, &b->rows[i]);
}

static void *writer_main(void *arg)
{
	struct db_writer *w = arg;

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

static int create_schema(struct db_writer *w)
{
	char sql[160];
	int err;

	if ((err = exec(w, "PRAGMA journal_mode = OFF")) ||
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
		const char *cols = schema_tables[t].columns;
		size_t n = strlen(cols);

		if (t == EXPORT_CALL_PATH && !(w->flags & EXPORT_CALLCHAINS))
			continue;
		/* "INSERT INTO name VALUES (?, ?, ...)", as perf's script prepares them */
		int len = snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES (",
				   schema_tables[t].name);
		for (size_t c = 0; c < n; c++)
			len += snprintf(sql + len, sizeof(sql) - (size_t)len, "%s?",
					c ? ", " : "");
		snprintf(sql + len, sizeof(sql) - (size_t)len, ")");
		if (sqlite3_prepare_v2(w->db, sql, -1, &w->ins[t], NULL) != SQLITE_OK)
			return sql_err(w, "prepare");
	}
	return 0;
}

/* The root page of a table, for the bulk loader. */
static int root_page(struct db_writer *w, const char *table, uint32_t *root)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(w->db, "SELECT rootpage FROM sqlite_master "
			       "WHERE type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
		return sql_err(w, "prepare");
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*root = rc == SQLITE_ROW ? (uint32_t)sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return *root ? 0 : set_err(w, -EIO, "%s: no root page", table);
}

/* Bulk-load samples (and call_paths): page geometry from the file SQLite wrote. */
static int setup_fast(struct db_writer *w)
{
	static const enum export_table fast[] = { EXPORT_SAMPLE, EXPORT_CALL_PATH };
	unsigned char hdr[100];
	uint32_t page_size;
	int fd, err;
	ssize_t r;

	fd = open(w->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return set_err(w, -errno, "%s: %s", w->path, strerror(errno));
	r = pread(fd, hdr, sizeof(hdr), 0);
	close(fd);
	if (r != (ssize_t)sizeof(hdr))
		return set_err(w, -EIO, "%s: cannot read the database header", w->path);
	page_size = (uint32_t)(hdr[16] << 8 | hdr[17]);
	if (page_size == 1)
		page_size = 65536;
	for (size_t i = 0; i < sizeof(fast) / sizeof(fast[0]); i++) {
		enum export_table t = fast[i];

		if (t == EXPORT_CALL_PATH && !(w->flags & EXPORT_CALLCHAINS))
			continue;
		if ((err = root_page(w, schema_tables[t].name, &w->root[t])))
			return err;
		err = btree_builder__new(&w->fast[t], page_size, hdr[20], hdr[44] >= 4);
		if (err)
			return set_err(w, err, "%s: unusable page size %u", w->path, page_size);
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
	if (!o->no_fast_samples && (err = setup_fast(w)))
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
		w->ins[t] = NULL;
	}
	sqlite3_close(w->db);
	w->db = NULL;
}

/* Append the bulk-loaded tables to the closed database file.  Not synced: like
 * perf's export (journal off, synchronous off) the file is complete for every
 * reader once renamed, but not made durable against a power cut. */
static int write_fast(struct db_writer *w)
{
	int fd = open(w->path, O_RDWR | O_CLOEXEC), err = 0;

	if (fd < 0)
		return set_err(w, -errno, "%s: %s", w->path, strerror(errno));
	for (int t = 0; t < EXPORT__NR_TABLES && !err; t++) {
		if (!w->fast[t])
			continue;
		err = btree_builder__write(w->fast[t], fd, w->root[t]);
		if (err)
			set_err(w, err, "writing the database: table %s: %s",
				schema_tables[t].name,
				err == -EIO ? "unexpected database layout" : strerror(-err));
	}
	if (close(fd) && !err)
		err = set_err(w, -errno, "%s: close: %s", w->path, strerror(errno));
	return err;
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
	if ((err = write_fast(w)))
		return err;
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
	for (int t = 0; t < EXPORT__NR_TABLES; t++)
		btree_builder__delete(w->fast[t]);
	free(w->batches);
	free(w->path);
	free(w);
}
