#ifndef DIRREPORT_FORMAT_RECORD_REF_H
#define DIRREPORT_FORMAT_RECORD_REF_H
/*
 * record_ref - one record of a recording as the reader hands it on: where its bytes
 * are (host byte order, already decompressed), its type, time, event, and where it
 * came from (file and byte offset, for diagnostics).  The reader (reader/session.h)
 * makes them; machine/, the sample pipeline and the front ends read them.
 *
 * Format: docs/perf-data-format.md §2 (record header), §2.3 (COMPRESSED containers),
 * §4 (ordering: time).
 */

#include <stdint.h>

struct evsel;

/* One record handed to the caller: a view, it owns nothing. */
struct record_ref {
	const unsigned char *data;	/* whole record in host byte order; borrowed from
					 * the session, valid until session__close() */
	uint32_t size;			/* bytes (header.size) */
	uint32_t type;			/* header.type */
	uint64_t offset;		/* file offset perf prints: of the record, or of the
					 * COMPRESSED container it came out of (pipe: from
					 * the end of the 16-byte pipe header) */
	uint64_t time;			/* nanoseconds; 0 when the record has none */
	struct evsel *evsel;		/* kernel records: their event; else NULL */
	uint16_t file;			/* index into session__file_label() */
	uint16_t flags;			/* RECORD_REF_* */
	uint32_t disk_size;		/* on-disk bytes the record took (with payloads
					 * following it); 0 for decompressed records */
};

enum record_ref_flags {
	/* A COMPRESSED/COMPRESSED2 container: counted by perf, never printed by -D. */
	RECORD_REF_CONTAINER = 1 << 0,
	/* Delivered at arrival (perf's own records, time 0); otherwise from the queue. */
	RECORD_REF_IMMEDIATE = 1 << 1,
};

#endif
