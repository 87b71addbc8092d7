#ifndef DIRREPORT_CLI_OPTIONS_H
#define DIRREPORT_CLI_OPTIONS_H
/*
 * options - one option table per program: each entry names a long option, its
 * letter, its argument and the line of --help, and the handler that checks and
 * applies it.  getopt_long()'s struct option[] and short options, the --help text and
 * the usage errors all come from the table.  The options the front ends share are
 * declared here once (CLI_OPT_*), each with its one validator (cli__opt_*()).
 *
 * A table is an array of struct cli_option ended by CLI_OPT_END, usually built inside
 * the program's parse function (its entries point at the options' variables):
 *
 *	struct cli_option opts[] = {
 *		CLI_OPT_INPUT(&o.input),
 *		{ "folded", 0, CLI_ARG_NONE, NULL, "folded stacks", cli__opt_true,
 *		  &o.folded },
 *		CLI_OPT_HELP, CLI_OPT_VERSION("dirscript"), CLI_OPT_END,
 *	};
 *
 * Thread safety: the main thread only (getopt's globals; --help and usage errors
 * write to stdout and stderr).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>	/* FILE */

struct option;

/* What an option takes. */
enum cli_arg {
	CLI_ARG_NONE,		/* --name, -x */
	CLI_ARG_REQUIRED,	/* --name ARG, --name=ARG, -x ARG, -xARG */
	CLI_ARG_OPTIONAL,	/* --name[=ARG], -x[ARG]: attached only ("[=ARG]" in
				 * --help) */
	CLI_ARG_OPTIONAL_NEXT,	/* as CLI_ARG_OPTIONAL, and the next word too when it
				 * does not start with '-' (perf's -g: "-g caller",
				 * "-g -n" and "-g" last take none) */
};

struct cli_parser;
struct cli_option;

/*
 * An option's handler: checks @p arg (NULL where the option took none) and applies it
 * to opt->value.  Returns 0 to go on, CLI_STOP to end the parse with exit status 0
 * (--help, --version), or -EINVAL for a usage error whose message it wrote with
 * cli__opt_usage().
 */
typedef int cli_option_fn(struct cli_parser *p, const struct cli_option *opt,
			  const char *arg);

/* A handler's answer: the parse ends here, exit status 0. */
#define CLI_STOP 1

/* cli__options_parse()'s answer when the program goes on. */
#define CLI_GO_ON (-1)

/* The most entries a table may have (getopt's arrays are built on the stack). */
#define CLI_OPTIONS_MAX 128

/* Where the help lines start (the width of the option column, two spaces in). */
#define CLI_HELP_COLUMN 27

struct cli_option {
	const char *long_name;	/* without "--"; "": the letter alone (perf's -g);
				 * NULL ends the table */
	int short_name;		/* the letter, or 0 */
	enum cli_arg arg;
	const char *metavar;	/* the argument in --help ("PATH"); NULL without */
	/* the --help text: lines separated by '\n' (no last one), each further line
	 * at CLI_HELP_COLUMN; a first '\n' starts it on the line below the option */
	const char *help;
	cli_option_fn *fn;	/* the handler */
	void *value;		/* what fn applies the option to */
	long defval;		/* for fn: what cli__opt_int() and cli__opt_bool()
				 * store */
};

/* The state of one parse, for the handlers. */
struct cli_parser {
	const char *prog;		/* "dirreport": usage errors, --version */
	const char *synopsis;		/* --help's first lines ("usage: ...\n") */
	const struct cli_option *opts;	/* the table */
	const char *epilogue;		/* --help's last lines after an empty one
					 * (each ending with '\n'), or NULL */
	bool operands;			/* the options end at the first operand (a
					 * command and its arguments: getopt's '+'),
					 * which with the rest is left: next */
	int next;			/* after the parse: argv's first operand (argc:
					 * none) */
	char msg[256];			/* a handler's usage error (cli__opt_usage()) */
};

/**
 * @brief Parse argv from argv[1] by the table p->opts: each option's handler in the
 *        order given; then no argument may be left (with p->operands: the options
 *        end at the first operand, p->next says where it is).  A usage error (unknown option, missing or
 *        refused argument, an ambiguous abbreviation, a value its handler refuses, a
 *        stray argument) is one line on stderr (cli__bad_usage()).
 * @param p     prog, synopsis and opts set; msg is written
 * @param argc  argc of main()
 * @param argv  argv of main(), permuted by getopt_long()
 * @return CLI_GO_ON when the program goes on; else the exit status: 0 after --help
 *         or --version, 2 after a usage error.
 * Ownership: p->opts' values point into the caller's variables; the arguments stored
 *         point into argv.
 * Thread safety: main thread (getopt's globals; writes to stdout and stderr).
 * Format: none.
 */
int cli__options_parse(struct cli_parser *p, int argc, char **argv);

/**
 * @brief getopt_long()'s arguments from a table: each entry's struct option (val:
 *        its letter, or 256 + its index without one) and the short options, ":" first
 *        (cli__getopt_error()), then each letter with ':' (CLI_ARG_REQUIRED) or "::"
 *        (CLI_ARG_OPTIONAL, CLI_ARG_OPTIONAL_NEXT).
 * @param opts      the table
 * @param lo        receives the struct option[], ended by a zeroed one
 * @param nlo       entries of lo (CLI_OPTIONS_MAX + 1 takes any table)
 * @param shorts    receives the short options (NUL-terminated)
 * @param nshorts   bytes of shorts (3 * CLI_OPTIONS_MAX + 2 takes any table)
 * @return 0, or -ENOSPC when lo or shorts is too small.
 * Thread safety: pure.  Format: none.
 */
int cli__options_getopt(const struct cli_option *opts, struct option *lo, size_t nlo,
			char *shorts, size_t nshorts);

/**
 * @brief --help's text: @p synopsis, an empty line, then a line per entry: four
 *        spaces, "-x, " (or four spaces), "--name" and its argument (" META", or
 *        "[=META]" for CLI_ARG_OPTIONAL); the help at CLI_HELP_COLUMN, or two spaces
 *        after a longer option, or on the next line where it starts with '\n'.
 * @param f         where it goes (stdout)
 * @param synopsis  the usage lines, each ending with '\n'
 * @param opts      the table
 * @return 0, or -EIO when writing failed (ferror(f)).
 * Thread safety: f's.  Format: none.
 */
int cli__options_usage(FILE *f, const char *synopsis, const struct cli_option *opts);

/**
 * @brief A handler's usage error: formats the message into p->msg.
 * @param p    the parse
 * @param fmt  printf format of the message, without newline
 * @return -EINVAL, the handler's answer.
 * Thread safety: p's.  Format: none.
 */
int cli__opt_usage(struct cli_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- generic handlers -------------------------------------------------------------- */

/**
 * @brief Handlers that store without checking: cli__opt_string() the argument
 *        (const char **value, pointing into argv), cli__opt_true() true
 *        (bool *value), cli__opt_bool() opt->defval != 0 (bool *value), cli__opt_int()
 *        opt->defval (int *value); cli__opt_accept() nothing (an option accepted
 *        for perf's sake).
 * @return 0.  Thread safety: value's.  Format: none.
 */
int cli__opt_string(struct cli_parser *p, const struct cli_option *opt, const char *arg);
/** @brief See cli__opt_string(). */
int cli__opt_true(struct cli_parser *p, const struct cli_option *opt, const char *arg);
/** @brief See cli__opt_string(). */
int cli__opt_bool(struct cli_parser *p, const struct cli_option *opt, const char *arg);
/** @brief See cli__opt_string(). */
int cli__opt_int(struct cli_parser *p, const struct cli_option *opt, const char *arg);
/** @brief See cli__opt_string(). */
int cli__opt_accept(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief -h, --help: cli__options_usage() of the parse's table on stdout.
 * @return CLI_STOP.  Thread safety: main thread (stdout).  Format: none.
 */
int cli__opt_help(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief --version: cli__version() of the parse's program.
 * @return CLI_STOP.  Thread safety: main thread (stdout).  Format: none.
 */
int cli__opt_version(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/* ---- the shared options' validators ----------------------------------------------- */

/**
 * @brief -j N: cli__parse_jobs() into (unsigned *)value; else "-j takes a number from
 *        1 to 1024".
 * @return 0 or -EINVAL.  Thread safety: value's.  Format: none.
 */
int cli__opt_jobs(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief --comms, --dsos: perf 6.1's strlist (perf report's and perf script's): an
 *        item listed twice is refused ("--comms: a command is listed twice", "--dsos:
 *        a dso is listed twice"; cli__str_list_valid()); else the list is stored
 *        (const char **value).
 * @return 0 or -EINVAL.  Thread safety: value's.  Format: none.
 */
int cli__opt_comms(struct cli_parser *p, const struct cli_option *opt, const char *arg);
/** @brief See cli__opt_comms(). */
int cli__opt_dsos(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief --pid, --tid: perf 6.1's intlist (perf report's and perf script's: distinct
 *        numbers, cli__int_list_valid()); else "--pid takes distinct numbers,
 *        comma-separated" (--tid alike).  The list is stored (const char **value).
 * @return 0 or -EINVAL.  Thread safety: value's.  Format: none.
 */
int cli__opt_pids(struct cli_parser *p, const struct cli_option *opt, const char *arg);
/** @brief See cli__opt_pids(). */
int cli__opt_tids(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief -C: a cpu list (cli__cpu_list_valid()), stored (const char **value); else
 *        "-C takes a cpu list like 0-2,5".
 * @return 0 or -EINVAL.  Thread safety: value's.  Format: none.
 */
int cli__opt_cpus(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief --time: the syntax of perf's time ranges (time_ranges__parse(); the
 *        percentages need the recording, later), stored (const char **value); else
 *        "--time: invalid time string".
 * @return 0 or -EINVAL.  Thread safety: value's.  Format: none.
 */
int cli__opt_time(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief --max-stack N: a number of frames, 0 or more (cli__parse_max_stack()), into
 *        (int *)value; else "--max-stack takes a number".
 * @return 0 or -EINVAL.  Thread safety: value's.  Format: none.
 */
int cli__opt_max_stack(struct cli_parser *p, const struct cli_option *opt, const char *arg);

/**
 * @brief The check of --max-stack's argument in perf 6.1, where perf report and perf
 *        script agree: a decimal number as strtol() reads it (leading blanks and '+'
 *        taken; the empty string is 0), nothing after it, not negative (perf script
 *        refuses those; perf report takes one as 0), with no maximum (perf takes
 *        --max-stack 500 in both); above INT_MAX it is INT_MAX.
 * @param arg    the argument
 * @param depth  receives the number (untouched on error)
 * @return 0, or -EINVAL.
 * Thread safety: pure.  Format: none.
 */
int cli__parse_max_stack(const char *arg, int *depth);

/* ---- the shared options' entries --------------------------------------------------- */

#define CLI_OPT_END { NULL, 0, CLI_ARG_NONE, NULL, NULL, NULL, NULL, 0 }

#define CLI_OPT_INPUT(v) \
	{ "input", 'i', CLI_ARG_REQUIRED, "PATH", \
	  "perf.data file, data directory, or - for stdin\n(default: perf.data)", \
	  cli__opt_string, (v), 0 }
#define CLI_OPT_JOBS(v) \
	{ "jobs", 'j', CLI_ARG_REQUIRED, "N", "worker threads (default: online CPUs)", \
	  cli__opt_jobs, (v), 0 }
#define CLI_OPT_KALLSYMS(v) \
	{ "kallsyms", 0, CLI_ARG_REQUIRED, "FILE", \
	  "kernel symbols (default: the build-id cache's copy\n" \
	  "for the recording's kernel, or /proc/kallsyms)", cli__opt_string, (v), 0 }
#define CLI_OPT_BUILDID_DIR(v) \
	{ "buildid-dir", 0, CLI_ARG_REQUIRED, "DIR", \
	  "build-id cache (perf --buildid-dir; default:\n$HOME/.debug)", \
	  cli__opt_string, (v), 0 }
/* the filters: each program says them its own way (metavariable, help) */
#define CLI_OPT_COMMS(v, meta, help) \
	{ "comms", 0, CLI_ARG_REQUIRED, meta, help, cli__opt_comms, (v), 0 }
#define CLI_OPT_PID(v, meta, help) \
	{ "pid", 0, CLI_ARG_REQUIRED, meta, help, cli__opt_pids, (v), 0 }
#define CLI_OPT_TID(v, meta, help) \
	{ "tid", 0, CLI_ARG_REQUIRED, meta, help, cli__opt_tids, (v), 0 }
#define CLI_OPT_DSOS(v, meta, help) \
	{ "dsos", 0, CLI_ARG_REQUIRED, meta, help, cli__opt_dsos, (v), 0 }
#define CLI_OPT_CPU(v, help) \
	{ "cpu", 'C', CLI_ARG_REQUIRED, "CPUS", help, cli__opt_cpus, (v), 0 }
#define CLI_OPT_TIME(v, help) \
	{ "time", 0, CLI_ARG_REQUIRED, "RANGES", help, cli__opt_time, (v), 0 }
#define CLI_OPT_MAX_STACK(v, help) \
	{ "max-stack", 0, CLI_ARG_REQUIRED, "N", help, cli__opt_max_stack, (v), 0 }
/* --no-pager sets (bool *)v true; --no-progress sets (bool *)v, whether a bar may
 * be drawn, false */
#define CLI_OPT_NO_PAGER(v) \
	{ "no-pager", 0, CLI_ARG_NONE, NULL, \
	  "standard output not through the pager, even on a\n" \
	  "terminal ($DIRREPORT_PAGER, $PAGER or less)", cli__opt_true, (v), 0 }
#define CLI_OPT_NO_PROGRESS(v) \
	{ "no-progress", 0, CLI_ARG_NONE, NULL, "no progress bar, even on a terminal", \
	  cli__opt_bool, (v), 0 }
#define CLI_OPT_HELP \
	{ "help", 'h', CLI_ARG_NONE, NULL, "this text", cli__opt_help, NULL, 0 }
#define CLI_OPT_VERSION(prog) \
	{ "version", 0, CLI_ARG_NONE, NULL, "the version (\"" prog " version N\")", \
	  cli__opt_version, NULL, 0 }

#endif
