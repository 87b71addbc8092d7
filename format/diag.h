#ifndef DIRREPORT_FORMAT_DIAG_H
#define DIRREPORT_FORMAT_DIAG_H
/*
 * diag - one diagnostic for the user: which file, which byte offset, what is wrong.
 *
 * Library functions return 0 on success and a negative number on failure:
 * -errno for operating-system failures (-ENOENT, -ENOMEM, -EIO, ...) and
 * -DIAG_<CODE> (>= 10000, disjoint from errno) for damaged or unsupported input.
 * Where a function takes a `struct diag *` (which may be NULL) it fills it in at the
 * point the fault is found; front ends print it as one line with diag__format().
 *
 * Thread safety: a struct diag belongs to one thread; diag__code_str() is pure.
 */
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

#define DIAG_CODES(X) \
	X(NOT_PERF,        "not a perf.data file (bad magic)") \
	X(TRUNCATED,       "file ends inside the header") \
	X(BAD_HEADER,      "bad file header") \
	X(BAD_ATTR,        "bad event attribute") \
	X(ABI,             "attribute uses an unsupported ABI") \
	X(BAD_FEATURE,     "bad feature section") \
	X(BAD_RECORD,      "bad record") \
	X(RECORD_SIZE,     "bad record size") \
	X(RECORD_TYPE,     "unknown record type") \
	X(BAD_SAMPLE,      "bad sample") \
	X(UNKNOWN_ID,      "sample id matches no event") \
	X(ZSTD,            "corrupt compressed data") \
	X(NO_DATA_FILE,    "data directory has no data file") \
	X(DIR_VERSION,     "unsupported data directory version") \
	X(PIPE,            "bad pipe-format stream") \
	X(MISMATCH,        "events have non-matching sample layouts") \
	X(USAGE,           "bad usage") \
	X(BAD_INDEX,       "bad index file") \
	X(CHANGED,         "file changed while being read")

enum diag_code {
	DIAG__FIRST = 10000,
#define DIAG_ENUM_(name, msg) DIAG_##name,
	DIAG_CODES(DIAG_ENUM_)
#undef DIAG_ENUM_
	DIAG__LAST
};

/** Sentinel for diag.offset when no byte offset applies (e.g. open() failed). */
#define DIAG_NO_OFFSET UINT64_MAX

struct diag {
	char path[512];		/* the file as the user named it (relative stays relative) */
	uint64_t offset;	/* bytes from the start of that file, or DIAG_NO_OFFSET */
	int code;		/* negative return code: -errno or -DIAG_<CODE> */
	char msg[256];		/* what is wrong, one line, no trailing newline */
};

/**
 * @brief Fill a diagnostic (no-op when d is NULL) and return code.
 * @param d       destination, may be NULL
 * @param path    file name as given by the user (copied, truncated to fit)
 * @param offset  byte offset in that file, or DIAG_NO_OFFSET
 * @param code    negative error code (-errno or -DIAG_<CODE>)
 * @param fmt     printf-style description; NULL uses diag__code_str(code)
 * @return code, so callers can write `return diag__set(d, ...)`.
 * Thread safety: touches only *d.
 */
int diag__set(struct diag *d, const char *path, uint64_t offset, int code,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/**
 * @brief Message of an error code: strerror() for -errno, the DIAG_CODES text otherwise.
 * @return a static string, never NULL. Thread safety: pure.
 */
const char *diag__code_str(int code);

/**
 * @brief Render d as "PATH: offset N: MSG" (or "PATH: MSG" without an offset).
 * @param buf, len  output buffer and its size in bytes (always NUL-terminated if len > 0)
 * @return buf. Thread safety: touches only buf.
 */
char *diag__format(const struct diag *d, char *buf, size_t len);

#endif
