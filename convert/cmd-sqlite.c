/*
 * `dirconvert --to-sqlite`: replay the recording in perf's order through the machine
 * state, turn it into the rows of perf's database export and write them into OUT.tmp,
 * renamed to OUT when everything succeeded (style rule 20).
 */
#include "convert/cmd.h"

#include <errno.h>
#include <sys/stat.h>	/* stat */

#include "convert/cmd-export.h"
#include "convert/db-writer.h"
#include "convert/outfile.h"
#include "format/diag.h"
#include "banned.h"

/* The SQLite target: OUT.tmp, renamed to OUT on commit. */
struct sqlite_target {
	struct db_writer *w;
	const char *out;
	const char *input;	/* -i (never written over) */
	bool force;
};

static int sqlite_open(void *ctx, unsigned flags, bool threaded, struct diag *d)
{
	struct sqlite_target *st = ctx;
	struct db_writer_opts wo = { .path = outfile__tmp_path(), .flags = flags,
				     .threaded = threaded };
	int err;

	if ((err = outfile__claim(st->out, st->input, OUTFILE_PRIVATE |
				  (st->force ? OUTFILE_FORCE : 0), d)))
		return err;
	if ((err = db_writer__open(&st->w, &wo)))
		diag__set(d, st->out, DIAG_NO_OFFSET, err, "%s",
			  st->w ? db_writer__errmsg(st->w) : diag__code_str(err));
	return err;
}

static int sqlite_row(void *ctx, const struct export_row *r)
{
	return db_writer__row(((struct sqlite_target *)ctx)->w, r);
}

static const char *sqlite_errmsg(void *ctx)
{
	return db_writer__errmsg(((struct sqlite_target *)ctx)->w);
}

static int sqlite_commit(void *ctx, struct diag *d)
{
	struct sqlite_target *st = ctx;
	int err = db_writer__commit(st->w);

	if (err)
		return diag__set(d, st->out, DIAG_NO_OFFSET, err, "%s",
				 err == -EIO ? db_writer__errmsg(st->w) : diag__code_str(err));
	return outfile__commit(d);
}

/* The rows written so far dropped with OUT.tmp (sqlite_open() starts again). */
static void sqlite_drop(void *ctx)
{
	struct sqlite_target *st = ctx;

	db_writer__delete(st->w);
	st->w = NULL;
	outfile__drop();
}

int cmd_sqlite(const struct convert_opts *o, struct diag *d)
{
	struct sqlite_target st = { .out = o->output, .input = o->input, .force = o->force };
	struct export_target t = { sqlite_open, sqlite_row, sqlite_commit, sqlite_errmsg,
				   sqlite_drop, o->output, &st, true };
	struct stat sb;
	int err;

	/* before reading the input: the output's existence is a usage mistake */
	if ((err = outfile__check_input(o->output, o->input, d)))
		return err;
	if (!o->force && stat(o->output, &sb) == 0)
		return diag__set(d, o->output, DIAG_NO_OFFSET, -EEXIST,
				 "already exists (use -f to overwrite)");
	err = cmd_export(o, &t, d);
	db_writer__delete(st.w);
	outfile__drop();
	return err;
}
