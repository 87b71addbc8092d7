/*
 * dirconvert - perf.data recordings (files, pipe streams, data directories,
 * compressed data) into other formats: perf 6.1's SQLite and PostgreSQL exports.
 * A thin front end: parse options, run the mode, print the one-line diagnostic.
 */
#include <stdio.h>
#include <stdlib.h>	/* strtol */
#include <string.h>	/* strcmp */

#include "convert/cmd.h"
#include "format/diag.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "util/phase.h"
#include "banned.h"

/* The SYNOPSIS of docs/dirconvert.1.md; the options follow in --help, from the
 * table. */
static const char synopsis[] =
	"usage: dirconvert [-i PATH] --to-sqlite OUT.db [-f] [-j N] [--callchains]\n"
	"                  [--all-events] [--kallsyms FILE] [--buildid-dir DIR]\n"
	"                  [--no-progress]\n"
	"   or: dirconvert [-i PATH] --to-postgresql CONNINFO [--append | -f] [-j N]\n"
	"                  [--callchains] [--all-events] [--kallsyms FILE]\n"
	"                  [--buildid-dir DIR] [--no-progress]\n"
	"   or: dirconvert [-i PATH] --to-json OUT.json [-f] [-j N] [--kallsyms FILE]\n"
	"                  [--buildid-dir DIR] [--no-progress]\n"
	"   or: dirconvert [-i PATH] --to-file OUT [-f] [-j N] [--decompress | -z[LEVEL]]\n"
	"   or: dirconvert [-i PATH] --to-dir OUT [--split cpu|N] [-f] [-j N]\n"
	"                  [--decompress | -z[LEVEL]]\n"
	"   or: dirconvert --index PATH [-j N]\n";

static int bad_usage(const char *msg)
{
	return cli__bad_usage("dirconvert", msg);
}

/* A whole decimal number from lo to hi; -1 otherwise. */
static long parse_num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < lo || v > hi ? -1 : v;
}

/* --index-interval: bytes per index entry into (uint64_t *)value. */
static int opt_index_interval(struct cli_parser *p, const struct cli_option *opt,
			      const char *arg)
{
	long n = parse_num(arg, 4096, 1L << 30);

	if (n < 0)
		return cli__opt_usage(p, "--index-interval takes bytes from 4096 to "
				      "1073741824");
	*(uint64_t *)opt->value = (uint64_t)n;
	return 0;
}

/* --split cpu|N into the struct convert_opts at value. */
static int opt_split(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct convert_opts *o = opt->value;
	long n;

	if (strcmp(arg, "cpu") == 0) {
		o->split_cpu = true;
		return 0;
	}
	n = parse_num(arg, 1, 4096);
	if (n < 0)
		return cli__opt_usage(p, "--split takes cpu or a number from 1 to 4096");
	o->split_n = (unsigned)n;
	return 0;
}

/* -z[LEVEL]: the zstd level (1 without one) into (int *)value. */
static int opt_compression_level(struct cli_parser *p, const struct cli_option *opt,
				 const char *arg)
{
	long n = arg ? parse_num(arg, 1, 22) : 1;

	if (n < 0)
		return cli__opt_usage(p, "-z takes a level from 1 to 22");
	*(int *)opt->value = (int)n;
	return 0;
}

int main(int argc, char **argv)
{
	struct convert_opts o = { .progress = progress__wanted(false) };
	struct diag d = { .offset = DIAG_NO_OFFSET };
	char line[1024];
	int err;
	/* --help prints them in this order */
	const struct cli_option opts[] = {
		CLI_OPT_INPUT(&o.input),
		{ "to-sqlite", 0, CLI_ARG_REQUIRED, "OUT",
		  "write the database of perf's export-to-sqlite.py", cli__opt_string,
		  &o.output },
		{ "to-postgresql", 0, CLI_ARG_REQUIRED, "CONNINFO",
		  "\ncreate the database CONNINFO names (libpq string\n"
		  "or URI) as perf's export-to-postgresql.py does", cli__opt_string,
		  &o.conninfo },
		{ "append", 0, CLI_ARG_NONE, NULL,
		  "add to the existing database of --to-postgresql", cli__opt_true,
		  &o.append },
		{ "to-json", 0, CLI_ARG_REQUIRED, "OUT",
		  "write perf data convert --to-json's JSON", cli__opt_string, &o.json },
		{ "to-file", 0, CLI_ARG_REQUIRED, "OUT",
		  "write one time-ordered perf.data file", cli__opt_string, &o.to_file },
		{ "to-dir", 0, CLI_ARG_REQUIRED, "OUT",
		  "write a data directory (data + data.N)", cli__opt_string, &o.to_dir },
		{ "split", 0, CLI_ARG_REQUIRED, "cpu|N",
		  "--to-dir: a data.N file per cpu, or N files of\n"
		  "time chunks (default: cpu when sampled, else 1)", opt_split, &o },
		{ "decompress", 0, CLI_ARG_NONE, NULL, "plain records (no COMPRESSED records)",
		  cli__opt_true, &o.decompress },
		{ "index", 0, CLI_ARG_REQUIRED, "PATH",
		  "build the index of the recording PATH (PATH/dirindex\n"
		  "or PATH.dirindex)", cli__opt_string, &o.index },
		{ "index-interval", 0, CLI_ARG_REQUIRED, "BYTES",
		  "\n--index: bytes of records per index entry (4096 to\n"
		  "1 GiB, default 1 MiB)", opt_index_interval, &o.index_interval },
		{ "compression-level", 'z', CLI_ARG_OPTIONAL, "LEVEL",
		  "\nzstd-compress the records (LEVEL 1..22, default 1)",
		  opt_compression_level, &o.comp_level },
		{ "force", 'f', CLI_ARG_NONE, NULL,
		  "replace OUT (or the database) if it exists", cli__opt_true, &o.force },
		CLI_OPT_JOBS(&o.jobs),
		{ "callchains", 0, CLI_ARG_NONE, NULL,
		  "also call_paths and samples.call_path_id", cli__opt_true, &o.callchains },
		{ "all-events", 0, CLI_ARG_NONE, NULL,
		  "also tracepoint samples (perf's export drops them)", cli__opt_true,
		  &o.all_events },
		CLI_OPT_KALLSYMS(&o.kallsyms),
		CLI_OPT_BUILDID_DIR(&o.buildid_dir),
		CLI_OPT_NO_PROGRESS(&o.progress),
		CLI_OPT_HELP,
		CLI_OPT_VERSION("dirconvert"),
		CLI_OPT_END,
	};
	struct cli_parser p = { .prog = "dirconvert", .synopsis = synopsis, .opts = opts };

	phases__start(getenv("DIRREPORT_PHASES") != NULL);	/* util/phase.h */
	err = cli__options_parse(&p, argc, argv);
	if (err != CLI_GO_ON)
		return err;
	if (o.index_interval && !o.index)
		return bad_usage("--index-interval goes with --index");
	if (o.index) {
		if (!*o.index || o.input || o.output || o.conninfo || o.json || o.to_file ||
		    o.to_dir || o.force || o.callchains || o.all_events || o.kallsyms ||
		    o.buildid_dir || o.append || o.decompress || o.comp_level ||
		    o.split_cpu || o.split_n)
			return bad_usage("--index PATH takes only -j and --index-interval");
		if (cmd_index(&o, &d)) {
			fprintf(stderr, "dirconvert: %s\n", diag__format(&d, line, sizeof(line)));
			return 1;
		}
		return 0;
	}
	if (!!o.output + !!o.conninfo + !!o.json + !!o.to_file + !!o.to_dir > 1)
		return bad_usage("--to-sqlite, --to-postgresql, --to-json, --to-file, "
				 "--to-dir: one at a time");
	if (!(o.output && *o.output) && !(o.conninfo && *o.conninfo) && !(o.json && *o.json) &&
	    !(o.to_file && *o.to_file) && !(o.to_dir && *o.to_dir))
		return bad_usage("--to-sqlite OUT.db, --to-postgresql CONNINFO, --to-json "
				 "OUT.json, --to-file OUT or --to-dir OUT is required");
	if ((o.split_cpu || o.split_n) && !o.to_dir)
		return bad_usage("--split is for --to-dir");
	if ((o.decompress || o.comp_level) && !o.to_file && !o.to_dir)
		return bad_usage("--decompress and -z are for --to-file and --to-dir");
	if (o.decompress && o.comp_level)
		return bad_usage("--decompress and -z: one or the other");
	if ((o.to_file || o.to_dir) && (o.callchains || o.all_events || o.kallsyms ||
					o.buildid_dir))
		return bad_usage("--callchains, --all-events, --kallsyms and --buildid-dir "
				 "are not for --to-file and --to-dir");
	if (o.json && (o.callchains || o.all_events))
		return bad_usage("--callchains and --all-events are for the database exports");
	if (o.append && !o.conninfo)
		return bad_usage("--append adds to a database of --to-postgresql");
	if (o.append && o.force)
		return bad_usage("--append and -f: one or the other");
	err = o.conninfo ? cmd_postgresql(&o, &d) : o.json ? cmd_json(&o, &d) :
	      o.to_file || o.to_dir ? cmd_write(&o, &d) : cmd_sqlite(&o, &d);
	/* for bench/phases.sh: where the time went */
	(void)phases__print(stderr, "dirconvert");
	if (err) {
		fprintf(stderr, "dirconvert: %s\n", diag__format(&d, line, sizeof(line)));
		return 1;
	}
	return 0;
}
