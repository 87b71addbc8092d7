#ifndef DIRREPORT_CONVERT_CMD_H
#define DIRREPORT_CONVERT_CMD_H
/*
 * cmd - the modes of dirconvert and their options.  main() parses the command line
 * into struct convert_opts and runs the mode; the mode opens the recording itself
 * (it owns the output file's life cycle: temporary file, rename, clean-up).
 */
#include <stdbool.h>
#include <stdint.h>

struct diag;

struct convert_opts {
	const char *input;	/* -i; NULL = perf.data; "-" = standard input */
	const char *output;	/* --to-sqlite OUT */
	const char *conninfo;	/* --to-postgresql CONNINFO */
	const char *json;	/* --to-json OUT */
	const char *index;	/* --index PATH: build the recording's index */
	uint64_t index_interval;	/* --index-interval: bytes per entry (0: default) */
	bool append;		/* --append: add to an existing database */
	unsigned jobs;		/* -j; 0 = online CPUs */
	bool force;		/* -f: replace an existing OUT */
	bool callchains;	/* --callchains: call_paths and samples.call_path_id */
	bool all_events;	/* --all-events: tracepoint samples too */
	bool progress;		/* a progress bar may be drawn (stderr is a terminal) */
	const char *kallsyms;	/* --kallsyms; NULL = perf's choice (dsos_opts) */
	const char *buildid_dir; /* --buildid-dir; NULL = $HOME/.debug */
	const char *to_file;	/* --to-file OUT: a single perf.data file */
	const char *to_dir;	/* --to-dir OUT: a data directory */
	bool split_cpu;		/* --split cpu */
	unsigned split_n;	/* --split N: N data.N files (0: not given) */
	bool decompress;	/* --decompress: plain records */
	int comp_level;		/* -z / --compression-level: 1..22; 0 = not given */
};

/**
 * @brief `dirconvert --to-sqlite`: the recording as perf 6.1's export-to-sqlite.py
 *        database.  Writes OUT.tmp beside OUT and renames it on success; on any
 *        error the temporary file is removed and OUT is untouched.
 * @param o  options
 * @param d  filled on error: the input file and offset of damaged input, or OUT
 *           (or OUT.tmp) for output errors
 * @return 0; -EEXIST (OUT exists without force, or OUT.tmp exists: another
 *         dirconvert may be writing it); -errno; -DIAG_* of the reader; -EIO for
 *         SQLite failures.
 * Thread safety: call from the main thread (installs signal handlers that remove
 *         the temporary file on SIGINT, SIGTERM, SIGHUP and SIGPIPE).
 * Format: perf.data (via the session), perf's export-to-sqlite.py schema.
 */
int cmd_sqlite(const struct convert_opts *o, struct diag *d);

/**
 * @brief `dirconvert --to-postgresql`: the recording into a PostgreSQL database with
 *        perf 6.1's export-to-postgresql.py schema (convert/pg-writer.h), the same
 *        rows as cmd_sqlite(), in one transaction.  Without append the database is
 *        created (dropped first with force); with append it must exist.  Connects
 *        before reading the input.
 * @param o  options (o->conninfo: libpq connection string or URI)
 * @param d  filled on error: the input file and offset of damaged input, or
 *           `database "NAME"` with the server's (or libpq's) message
 * @return 0; -EEXIST (the database exists, without force or append); -EINTR
 *         (SIGINT, SIGTERM or SIGHUP: rolled back); the errors of pg_writer__open(),
 *         pg_writer__row() and pg_writer__commit(); -DIAG_* of the reader.
 * Thread safety: call from the main thread (installs handlers for SIGINT, SIGTERM
 *         and SIGHUP, and ignores SIGPIPE).
 * Format: perf.data (via the session), perf's export-to-postgresql.py schema.
 */
int cmd_postgresql(const struct convert_opts *o, struct diag *d);

/**
 * @brief `dirconvert --to-json`: the recording as perf 6.1's `perf data convert
 *        --to-json OUT` writes it (equal as JSON values): "linux-perf-json-version",
 *        "headers" (header-version, captured-on, data-offset, data-size, feat-offset,
 *        hostname, os-release, arch, cpu-desc, cpuid, nrcpus-online, nrcpus-avail,
 *        perf-version, cmdline; the file-layout fields are left out for pipe input,
 *        where perf 6.1 crashes) and one "samples" entry per sample in perf's
 *        delivery order (timestamp, pid, tid, cpu when sampled, comm, callchain of
 *        {ip, symbol, dso}).  Written to OUT.tmp, renamed on success (convert/outfile.h).
 * @param o  options (o->json: OUT)
 * @param d  filled on error: the input file and offset of damaged input, or OUT
 * @return 0; -EEXIST (OUT exists without force, or OUT.tmp exists); -EIO (write
 *         error); -ENOMEM; -errno; -DIAG_* of the reader.
 * Thread safety: the main thread (installs outfile's signal handlers).
 * Format: perf.data (via the session); JSON (RFC 8259) through jansson.
 */
int cmd_json(const struct convert_opts *o, struct diag *d);

/** @brief `dirconvert --index`: session__build_index() of o->index, o->jobs,
 *         o->index_interval. */
int cmd_index(const struct convert_opts *o, struct diag *d);

/**
 * @brief `dirconvert --to-file OUT` / `--to-dir OUT`: the recording rewritten as one
 *        time-ordered perf.data file, or as a data directory (`data` + `data.N`, split
 *        by cpu or in N time chunks), in this machine's byte order, that perf 6.1 reads
 *        as it reads the input; zstd-compressed (COMPRESSED records, one zstd frame
 *        each) with comp_level or when the input was and not decompress.  Every feature
 *        section is kept (the input's other byte order: those format/writer.h can
 *        re-encode), but DIR_FORMAT and COMPRESSED (made anew) and AUXTRACE (its
 *        offsets would be wrong).  Written as OUT.tmp (a directory for --to-dir),
 *        renamed on success (convert/outfile.h).
 * @param o  options (to_file or to_dir, split_cpu/split_n, decompress, comp_level)
 * @param d  filled on error: the input file and offset of damaged input, or OUT
 * @return 0; -EEXIST (OUT exists without force, or OUT.tmp exists); -DIAG_USAGE
 *         (--split cpu on a recording whose events do not sample the cpu); -errno;
 *         -DIAG_* of the reader and the writer.
 * Thread safety: the main thread (installs outfile's signal handlers).
 * Format: perf.data (docs/perf-data-format.md §§1-3, 6, 7) through format/writer.h.
 */
int cmd_write(const struct convert_opts *o, struct diag *d);

#endif
