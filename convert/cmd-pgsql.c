/*
 * `dirconvert --to-postgresql`: the rows of perf's database export (the exporter
 * cmd-export.c runs) into a PostgreSQL database, in one transaction (pg-writer.h).
 */
#include "convert/cmd.h"

#include <errno.h>
#include <signal.h>	/* sigaction */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset */

#include "convert/cmd-export.h"
#include "convert/pg-writer.h"
#include "format/diag.h"
#include "banned.h"

/* Set by SIGINT, SIGTERM, SIGHUP: the export stops at the next row and rolls back
 * (dropping the database it created), instead of dying with it half made. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a lost connection is an error, not a death */
}

struct pg_target {
	struct pg_writer *w;
	char label[300];	/* database "NAME" */
};

static int pg_row(void *ctx, const struct export_row *r)
{
	if (interrupted)
		return -EINTR;
	return pg_writer__row(((struct pg_target *)ctx)->w, r);
}

static const char *pg_errmsg(void *ctx)
{
	return interrupted ? "interrupted: nothing written"
			   : pg_writer__errmsg(((struct pg_target *)ctx)->w);
}

static int pg_commit(void *ctx, struct diag *d)
{
	struct pg_target *pt = ctx;
	int err = interrupted ? -EINTR : pg_writer__commit(pt->w);

	if (err)
		diag__set(d, pt->label, DIAG_NO_OFFSET, err, "%s", pg_errmsg(ctx));
	return err;
}

int cmd_postgresql(const struct convert_opts *o, struct diag *d)
{
	struct pg_target pt = { 0 };
	struct export_target t = { NULL, pg_row, pg_commit, pg_errmsg, NULL, pt.label, &pt };
	struct pg_writer_opts wo = {
		.conninfo = o->conninfo,
		.flags = cmd_export_flags(o),
		.append = o->append,
		.force = o->force,
		.threaded = o->jobs != 1,
	};
	int err;

	catch_signals();
	/* connect (and create the database) before reading the input: a wrong
	 * connection string fails at once */
	err = pg_writer__open(&pt.w, &wo);
	if (pg_writer__dbname(pt.w))
		snprintf(pt.label, sizeof(pt.label), "database \"%s\"",
			 pg_writer__dbname(pt.w));
	else	/* the connection string did not parse, or named no database */
		snprintf(pt.label, sizeof(pt.label), "--to-postgresql");
	if (err == -EEXIST)
		diag__set(d, pt.label, DIAG_NO_OFFSET, err, "already exists (use -f to "
			  "replace it, --append to add to it)");
	else if (err)
		diag__set(d, pt.label, DIAG_NO_OFFSET, err, "%s",
			  pt.w ? pg_writer__errmsg(pt.w) : diag__code_str(err));
	if (!err)
		err = cmd_export(o, &t, d);
	if (!err) {
		uint64_t cut, replaced;

		pg_writer__text_fixes(pt.w, &cut, &replaced);
		if (cut)
			fprintf(stderr, "dirconvert: warning: %llu names longer than perf's "
				"columns allow were cut to fit (symbols.name: 2048 characters, "
				"dsos.short_name: 256, ...)\n", (unsigned long long)cut);
		if (replaced)
			fprintf(stderr, "dirconvert: warning: %llu names with bytes that are "
				"not UTF-8 were stored with U+FFFD in their place\n",
				(unsigned long long)replaced);
	}
	pg_writer__delete(pt.w);
	return err;
}
