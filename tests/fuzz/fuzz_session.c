/*
 * fuzz_session - the whole reader: session__open() + session__load() +
 * session__deliver() on files written from the input into a per-process temporary
 * directory (rewritten for every input), optionally followed by the -D mode
 * (cmd_dump) into /dev/null.
 *
 * Input: [u8 flags][part 0] FUZZ_SEP [part 1] FUZZ_SEP [part 2] FUZZ_SEP [part 3]
 * flags bits 0-1, the container:
 *   0: a data directory: `data` = part 0, `data.0`..`data.2` = parts 1..3;
 *   1: part 0 as a single file;
 *   2: part 0 as a pipe stream in a file (a 16-byte pipe header is put in front unless
 *      part 0 starts with the PERFILE2 magic already);
 *   3: all three.
 * bits 2-4: the streaming window (records per file): default, 1, 2, 3, 5, 16, 64, 1000.
 * bit 5: deliver a second time, and open the same input again with the default window:
 *        both must deliver the same records in the same order (checked; a difference
 *        traps).
 * bit 6: batches of one record.  bit 7: also run `-D` (cmd_dump).
 *
 * Checked for every delivered record: size >= 8 and equal to header.size, type equal
 * to header.type, file index valid, kernel records have their event and parse (the
 * reader validated them); every byte of each record is read.
 * Format: docs/perf-data-format.md §§1, 3, 4, 7, 8.
 */
#include <stdlib.h>	/* free */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/feature.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "report/cmd.h"
#include "machine/machine.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static const size_t windows[8] = { 0, 1, 2, 3, 5, 16, 64, 1000 };

static void use_session(struct session *s)
{
	const struct features *f = session__features(s);
	const void *body;
	size_t size;
	uint64_t off;
	bool swap;

	for (unsigned feat = 0; feat < FEAT_BITS; feat++)
		if (session__feature(s, feat, &body, &size, &off, &swap))
			fuzz__touch(body, size);
	for (size_t i = 0; i < session__nr_files(s); i++)
		(void)session__file_label(s, i);
	for (size_t i = 0; i < session__nr_warnings(s); i++)
		(void)session__warning(s, i);
	(void)session__path(s);
	(void)session__is_dir(s);
	(void)session__mtime(s);
	(void)session__feat_offset(s);
	(void)session__header(s);
	(void)features__has(f, FEAT_HOSTNAME);
}

static void run_dump(struct session *s)
{
	struct report_opts o = { 0 };
	struct machine *m;

	if (!fuzz__devnull() || machine__new(&m, "/nonexistent/kallsyms"))
		return;
	if (machine__apply_build_ids(m, session__features(s)) == 0)
		(void)cmd_dump(s, &o, m, fuzz__devnull());
	machine__delete(m);
}

/* Open, load and deliver path; returns the load result (1 when open failed). */
static int run(const char *path, uint8_t flags, size_t window, struct fuzz_seen *out)
{
	struct session_opts o = { .path = path, .jobs = 1, .window = window };
	struct session *s;
	struct fuzz_seen again;
	struct diag d;
	int err;

	memset(out, 0, sizeof(*out));
	if (session__open(&s, &o, &d))
		return 1;
	err = session__load(s, &d);
#ifdef FUZZ_DEBUG	/* -DFUZZ_DEBUG: what each input does, on stderr */
	fprintf(stderr, "%s: load %d %s\n", path, err, err ? d.msg : "");
#endif
	if (!err) {
		use_session(s);
		out->s = s;
		(void)session__deliver(s, fuzz__check_batch, out, (flags & 0x40) ? 1 : 0);
		if (flags & 0x20) {
			memset(&again, 0, sizeof(again));
			again.s = s;
			(void)session__deliver(s, fuzz__check_batch, &again, 0);
			FUZZ_CHECK(again.nr == out->nr && again.hash == out->hash);
		}
		if (flags & 0x80)
			run_dump(s);
		(void)session__evlist(s);
	}
	session__close(s);
	return err;
}

static void run_checked(const char *name, uint8_t flags)
{
	size_t window = windows[flags >> 2 & 7];
	struct fuzz_seen a, b;
	char path[512];
	int ea, eb;

	snprintf(path, sizeof(path), "%s", fuzz__path(name));
	ea = run(path, flags, window, &a);
	if (!(flags & 0x20) || !window)
		return;
	/* the order must not depend on the window size */
	eb = run(path, flags & 0x7f, 0, &b);
	FUZZ_CHECK(ea == eb);
	FUZZ_CHECK(a.nr == b.nr && a.hash == b.hash);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const data_n[3] = { FUZZ_DIR "/data.0", FUZZ_DIR "/data.1",
					       FUZZ_DIR "/data.2" };
	size_t off[4], len[4], parts;
	uint8_t flags;

	if (!size || !fuzz__tmpdir())
		return 0;
	fuzz__save_last(data, size);
	flags = data[0];
	parts = fuzz__split(data + 1, size - 1, 4, off, len);
	if ((flags & 3) == 0 || (flags & 3) == 3) {
		if (fuzz__write(FUZZ_DIR "/data", data + 1 + off[0], len[0]))
			return 0;
		for (size_t i = 0; i < 3; i++) {
			if (i + 1 < parts) {
				if (fuzz__write(data_n[i], data + 1 + off[i + 1], len[i + 1]))
					return 0;
			} else {
				fuzz__unlink(data_n[i]);
			}
		}
		run_checked(FUZZ_DIR, flags);
	}
	if ((flags & 3) == 1 || (flags & 3) == 3) {
		if (fuzz__write("file", data + 1 + off[0], len[0]))
			return 0;
		run_checked("file", flags);
	}
	if ((flags & 3) == 2 || (flags & 3) == 3) {
		struct fuzz_buf b = { 0 };

		if (len[0] < 8 || bytes__u64(data + 1 + off[0]) != PERF_MAGIC2) {
			fuzz_buf__u64(&b, PERF_MAGIC2);
			fuzz_buf__u64(&b, PIPE_HEADER_SIZE);
		}
		fuzz_buf__add(&b, data + 1 + off[0], len[0]);
		if (!b.failed && fuzz__write("pipe", b.p, b.len) == 0)
			run_checked("pipe", flags);
		fuzz_buf__exit(&b);
	}
	return 0;
}
