/*
 * dirconvert - perf.data recordings (files, pipe streams, data directories,
 * compressed data) into other formats: perf 6.1's SQLite and PostgreSQL exports.
 * A thin front end: parse options, run the mode, print the one-line diagnostic.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>	/* strtol */
#include <string.h>	/* strcmp */

#include "convert/cmd.h"
#include "format/diag.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "util/phase.h"
#include "banned.h"

/* The SYNOPSIS and OPTIONS of docs/dirconvert.1.md. */
static const char usage_text[] =
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
	"   or: dirconvert --index PATH [-j N]\n"
	"\n"
	"    -i, --input PATH       perf.data file, data directory, or - for stdin\n"
	"                           (default: perf.data)\n"
	"        --to-sqlite OUT    write the database of perf's export-to-sqlite.py\n"
	"        --to-postgresql CONNINFO\n"
	"                           create the database CONNINFO names (libpq string\n"
	"                           or URI) as perf's export-to-postgresql.py does\n"
	"        --append           add to the existing database of --to-postgresql\n"
	"        --to-json OUT      write perf data convert --to-json's JSON\n"
	"        --to-file OUT      write one time-ordered perf.data file\n"
	"        --to-dir OUT       write a data directory (data + data.N)\n"
	"        --split cpu|N      --to-dir: a data.N file per cpu, or N files of\n"
	"                           time chunks (default: cpu when sampled, else 1)\n"
	"        --decompress       plain records (no COMPRESSED records)\n"
	"        --index PATH       build the index of the recording PATH (PATH/dirindex\n"
	"                           or PATH.dirindex)\n"
	"        --index-interval BYTES\n"
	"                           --index: bytes of records per index entry (4096 to\n"
	"                           1 GiB, default 1 MiB)\n"
	"    -z, --compression-level[=LEVEL]\n"
	"                           zstd-compress the records (LEVEL 1..22, default 1)\n"
	"    -f, --force            replace OUT (or the database) if it exists\n"
	"    -j, --jobs N           worker threads (default: online CPUs)\n"
	"        --callchains       also call_paths and samples.call_path_id\n"
	"        --all-events       also tracepoint samples (perf's export drops them)\n"
	"        --kallsyms FILE    kernel symbols (default: the build-id cache's copy\n"
	"                           for the recording's kernel, or /proc/kallsyms)\n"
	"        --buildid-dir DIR  build-id cache (perf --buildid-dir; default:\n"
	"                           $HOME/.debug)\n"
	"        --no-progress      no progress bar, even on a terminal\n"
	"    -h, --help             this text\n"
	"        --version          the version (\"dirconvert version N\")\n";

enum { OPT_TO_SQLITE = 256, OPT_TO_POSTGRESQL, OPT_APPEND, OPT_TO_JSON, OPT_INDEX, OPT_VERSION, OPT_CALLCHAINS, OPT_ALL_EVENTS, OPT_KALLSYMS, OPT_NO_PROGRESS,
       OPT_BUILDID_DIR, OPT_TO_FILE, OPT_TO_DIR, OPT_SPLIT, OPT_DECOMPRESS,
       OPT_INDEX_INTERVAL };

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "to-sqlite", required_argument, NULL, OPT_TO_SQLITE },
	{ "to-postgresql", required_argument, NULL, OPT_TO_POSTGRESQL },
	{ "append", no_argument, NULL, OPT_APPEND },
	{ "to-json", required_argument, NULL, OPT_TO_JSON },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "index-interval", required_argument, NULL, OPT_INDEX_INTERVAL },
	{ "to-file", required_argument, NULL, OPT_TO_FILE },
	{ "to-dir", required_argument, NULL, OPT_TO_DIR },
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "decompress", no_argument, NULL, OPT_DECOMPRESS },
	{ "compression-level", optional_argument, NULL, 'z' },
	{ "force", no_argument, NULL, 'f' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "callchains", no_argument, NULL, OPT_CALLCHAINS },
	{ "all-events", no_argument, NULL, OPT_ALL_EVENTS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* getopt's short options (a ':' after those that take an argument). */
static const char short_opts[] = ":i:fj:hz::";

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

int main(int argc, char **argv)
{
	struct convert_opts o = { .progress = progress__wanted(false) };
	struct diag d = { .offset = DIAG_NO_OFFSET };
	char line[1024];
	int c, err;

	phases__start(getenv("DIRREPORT_PHASES") != NULL);	/* util/phase.h */
	opterr = 0;	/* cli__getopt_error() says what is wrong */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'i': o.input = optarg; break;
		case 'f': o.force = true; break;
		case OPT_TO_SQLITE: o.output = optarg; break;
		case OPT_TO_POSTGRESQL: o.conninfo = optarg; break;
		case OPT_APPEND: o.append = true; break;
		case OPT_TO_JSON: o.json = optarg; break;
		case OPT_INDEX: o.index = optarg; break;
		case OPT_INDEX_INTERVAL: {
			long n = parse_num(optarg, 4096, 1L << 30);

			if (n < 0)
				return bad_usage("--index-interval takes bytes from 4096 to "
						 "1073741824");
			o.index_interval = (uint64_t)n;
			break;
		}
		case OPT_CALLCHAINS: o.callchains = true; break;
		case OPT_ALL_EVENTS: o.all_events = true; break;
		case OPT_KALLSYMS: o.kallsyms = optarg; break;
		case OPT_BUILDID_DIR: o.buildid_dir = optarg; break;
		case OPT_NO_PROGRESS: o.progress = false; break;
		case OPT_TO_FILE: o.to_file = optarg; break;
		case OPT_TO_DIR: o.to_dir = optarg; break;
		case OPT_DECOMPRESS: o.decompress = true; break;
		case OPT_SPLIT:
			if (strcmp(optarg, "cpu") == 0) {
				o.split_cpu = true;
			} else {
				long n = parse_num(optarg, 1, 4096);

				if (n < 0)
					return bad_usage("--split takes cpu or a number from 1 "
							 "to 4096");
				o.split_n = (unsigned)n;
			}
			break;
		case 'z':
			o.comp_level = optarg ? (int)parse_num(optarg, 1, 22) : 1;
			if (o.comp_level < 0)
				return bad_usage("-z takes a level from 1 to 22");
			break;
		case 'j':
			if (cli__parse_jobs(optarg, &o.jobs))
				return bad_usage("-j takes a number from 1 to 1024");
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case OPT_VERSION:
			return cli__version("dirconvert");
		default:	/* '?' or ':' */
			return cli__getopt_error("dirconvert", c, argv, long_opts);
		}
	}
	if (optind < argc)
		return cli__no_arguments("dirconvert", argc, argv, optind);
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
