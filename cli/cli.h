#ifndef DIRREPORT_CLI_CLI_H
#define DIRREPORT_CLI_CLI_H
/*
 * cli - what the front ends (dirreport, dirconvert, dirscript) parse and print alike.
 *
 * Thread safety: pure functions, but for those that write to stderr (said each).
 */
#include <getopt.h>	/* struct option */
#include <stdbool.h>

/**
 * @brief Parse the argument of -j: a number of worker threads from 1 to 1024.
 * @param arg   the option's argument (NUL-terminated)
 * @param jobs  receives the number (untouched on error)
 * @return 0, or -EINVAL when arg is not a decimal number in 1..1024.
 * Format: none.
 */
int cli__parse_jobs(const char *arg, unsigned *jobs);

/**
 * @brief Report a usage error the way git and perf do, on one line of stderr:
 *        "PROG: MSG; see 'PROG --help'" (the full usage is --help's alone).
 * @param prog  program name ("dirreport")
 * @param msg   the problem, without newline ("-j takes a number from 1 to 1024")
 * @return 2, the exit status of a usage error.
 * Thread safety: main thread (writes to stderr).  Format: none.
 */
int cli__bad_usage(const char *prog, const char *msg);

/**
 * @brief The arguments left after the options, as a usage error: none is taken, so the
 *        first is "unexpected argument 'ARG'" (cli__bad_usage()).
 * @param prog    program name ("dirreport")
 * @param argc    argc of main()
 * @param argv    argv of main()
 * @param first   getopt's optind after the last option
 * @return 0 when no argument is left, else 2 (the usage error was printed).
 * Thread safety: main thread (writes to stderr).  Format: none.
 */
int cli__no_arguments(const char *prog, int argc, char *const *argv, int first);

/**
 * @brief What getopt_long() refused, as a usage error: the unknown option
 *        ("unknown option '--stdoi'"), an option given without its argument
 *        ("option '--input' needs an argument"), an ambiguous abbreviation, or an
 *        argument to an option that takes none; then cli__bad_usage().
 *        getopt_long() must run with opterr = 0 and an optstring that starts with
 *        ':' (a missing argument returns ':'), so that getopt prints nothing itself.
 * @param prog       program name ("dirreport")
 * @param c          what getopt_long() returned: '?' or ':'
 * @param argv       the argv given to getopt_long() (read at optind - 1)
 * @param long_opts  the long options given to getopt_long()
 * @return 2, the exit status of a usage error.
 * Thread safety: main thread (reads getopt's globals, writes to stderr).
 * Format: none.
 */
int cli__getopt_error(const char *prog, int c, char *const *argv,
		      const struct option *long_opts);

/**
 * @brief --version: "PROG version VERSION" on stdout, the form of perf --version
 *        ("perf version 6.1.x"); VERSION is the build's (Makefile VERSION).
 * @param prog  program name ("dirreport")
 * @return 0, the exit status.
 * Format: none.
 */
int cli__version(const char *prog);

struct machine;

/**
 * @brief Before a front end prints (or commits) what kernel symbols decided: whether
 *        the symbols the machine read ahead from the build-id cache's copy of the
 *        running kernel's kallsyms are /proc/kallsyms's
 *        (machine__check_kernel_symbols(): waits for the check).  Where there was a
 *        check, marks the phase "kernel symbols checked" or "kernel symbols differ"
 *        (util/phase.h); where they differ, says on stderr "PROG: note:
 *        /proc/kallsyms differs ... the WHAT is made again ..." (the machine noted
 *        the copy stale for the rest of the boot: dso__check_kernel()).
 * @param prog  program name ("dirreport")
 * @param what  the output made again ("report")
 * @return true when the output must be dropped and made again without reading ahead.
 * Thread safety: the machine's thread.
 */
bool cli__kernel_symbols_differ(struct machine *m, const char *prog, const char *what);

#endif
