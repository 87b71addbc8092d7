#ifndef DIRREPORT_TESTS_FUZZ_FUZZLIB_H
#define DIRREPORT_TESTS_FUZZ_FUZZLIB_H
/*
 * fuzzlib - helpers shared by the libFuzzer targets in tests/fuzz/: a bounds-checked
 * reader over the fuzz input, exact-size copies (so AddressSanitizer sees any read past
 * a record), a per-process temporary directory, and a builder for a minimal regular
 * perf.data file (docs/perf-data-format.md §1).
 *
 * Targets never print and never exit; on allocation failure they simply return.
 * Thread safety: single-threaded (libFuzzer runs one input at a time).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */

#include "format/evlist.h"

struct sample;

/* The libFuzzer entry point every target defines (also driven by regress.c). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Separator between the files of a multi-file input (fuzz_session, fuzz_zstd). */
#define FUZZ_SEP "\nFUZZSEP\n"
#define FUZZ_SEP_LEN 9

/* Subdirectory of fuzz__tmpdir() used as a data directory. */
#define FUZZ_DIR "dir"

/** A cursor over the fuzz input; reads past the end yield zeros / nothing. */
struct fuzz_input {
	const uint8_t *p;	/* borrowed */
	size_t len, pos;	/* bytes */
};

static inline void fuzz_input__init(struct fuzz_input *in, const uint8_t *p, size_t len)
{
	in->p = p;
	in->len = len;
	in->pos = 0;
}

static inline size_t fuzz_input__left(const struct fuzz_input *in)
{
	return in->len - in->pos;
}

uint8_t fuzz_input__u8(struct fuzz_input *in);
uint64_t fuzz_input__u64(struct fuzz_input *in);

/** Borrow up to n bytes (fewer at the end); *got receives the count. */
const uint8_t *fuzz_input__bytes(struct fuzz_input *in, size_t n, size_t *got);

/** A malloc'd copy of exactly n bytes (at least 1 byte allocated), or NULL. */
unsigned char *fuzz__dup(const void *p, size_t n);

/**
 * Split p[0..n) at each FUZZ_SEP into at most max parts.
 * @return the number of parts (>= 1); part i is [off[i], off[i] + len[i]).
 */
size_t fuzz__split(const uint8_t *p, size_t n, size_t max, size_t *off, size_t *len);

/** The process's private temporary directory (created at first use with an empty
 *  subdirectory FUZZ_DIR; both removed with their files at exit), or NULL when it
 *  cannot be created. */
const char *fuzz__tmpdir(void);

/** Write (create/truncate) file `name` inside fuzz__tmpdir(). @return 0 or -1. */
int fuzz__write(const char *name, const void *p, size_t n);

/** Remove file `name` inside fuzz__tmpdir() (no error when absent). */
void fuzz__unlink(const char *name);

/** fuzz__tmpdir()/name in a static buffer (valid until the next call). */
const char *fuzz__path(const char *name);

/** A /dev/null stream for formatters that write to a FILE (opened once). */
FILE *fuzz__devnull(void);

/**
 * Trap on any single allocation larger than max_bytes until the next call (0 = no
 * limit): "no count drives an allocation larger than the input can justify". Active
 * only under AddressSanitizer (its malloc hooks); call with the limit at the start of
 * an input and with 0 before returning (libFuzzer's own allocations are not limited).
 */
void fuzz__limit_alloc(size_t max_bytes);

/* The limit for parsers of an n-byte input: fixed buffers (strbuf, tables) plus a small
 * multiple of the input. */
#define FUZZ_ALLOC_LIMIT(n) (((size_t)1 << 20) + 64 * (size_t)(n))

/**
 * With FUZZ_LAST=PATH in the environment, write each input to PATH before running it:
 * for crashes that kill the process before libFuzzer can save the input (a corrupted
 * address space). No-op otherwise.
 */
void fuzz__save_last(const void *p, size_t n);

/** Read every byte of p[0..n) (forces AddressSanitizer to check the range). */
void fuzz__touch(const void *p, size_t n);

/** Growable byte buffer for building files; on ENOMEM `failed` is set. */
struct fuzz_buf {
	unsigned char *p;
	size_t len, cap;
	bool failed;
};

void fuzz_buf__add(struct fuzz_buf *b, const void *p, size_t n);
void fuzz_buf__u32(struct fuzz_buf *b, uint32_t v);
void fuzz_buf__u64(struct fuzz_buf *b, uint64_t v);
void fuzz_buf__exit(struct fuzz_buf *b);

/**
 * Build a regular perf.data file (host order): one attr stored as the given raw bytes
 * (its own size field says how long it is; attr_len bytes are written) with no ids, the
 * data section `data`, and the features DIR_FORMAT (version 1) when dir_format and
 * COMPRESSED (zstd) when compressed.
 */
void fuzz__perf_file(struct fuzz_buf *out, const void *attr, size_t attr_len,
		     const void *data, size_t data_len, bool dir_format, bool compressed);

/*
 * fuzz_record - the input shape of fuzz_sample and fuzz_dump:
 *   [u8 flags][attr as stored, its own size field][u8 nr_ids][nr_ids % 8 u64 ids]
 *   [records: each takes header.size bytes (at least 8, at most what is left)]
 * flags bit 0: the attr is decoded byte-swapped; bits 1-2: number of evsels - 1 (0..2,
 * 3 counts as 2), every evsel with the same attr, the ids dealt round robin.
 */
struct fuzz_record {
	struct fuzz_input in;
	uint8_t flags;
	struct event_attr attr;		/* decoded */
	struct evlist evlist;
};

/** Parse the prefix. @return 0, or -1 when the input has no valid attr (nothing to
 *  free then). */
int fuzz_record__init(struct fuzz_record *fr, const uint8_t *data, size_t size);

/** The next record as an exact-size malloc'd copy (caller frees), *n its size in bytes
 *  (>= 8), or NULL at the end. */
unsigned char *fuzz_record__next(struct fuzz_record *fr, size_t *n);

void fuzz_record__exit(struct fuzz_record *fr);

/** Read every array a parsed sample borrows, in full. */
void fuzz_record__touch_sample(const struct sample *s);

/* A property every input must keep; violating it is a finding (the process traps). */
#define FUZZ_CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

struct record_ref;
struct session;

/** What a session__deliver() handed over: count and a running hash of each record's
 *  (type, size, file, offset, time). */
struct fuzz_seen {
	const struct session *s;	/* borrowed */
	uint64_t nr, hash;
};

/**
 * session_deliver_fn (ctx = struct fuzz_seen) checking every delivered record: size >= 8
 * and equal to header.size, type equal to header.type, file index valid, kernel records
 * have their event and parse (the reader validated them); every byte is read.
 */
int fuzz__check_batch(void *ctx, const struct record_ref *const *recs, size_t n);

#endif
