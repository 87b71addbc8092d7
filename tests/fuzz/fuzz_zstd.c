/*
 * fuzz_zstd - the decompression path of the reader: a data directory (DIR_FORMAT 1,
 * COMPRESSED feature) whose `data` holds the input's attr, and whose data.0 (and
 * data.1) come from the input, through session__open/load/deliver.
 *
 * Input: [u8 flags][attr as stored, its own size field][payload]
 * flags bit 0 clear: the payload is raw records (split at FUZZ_SEP into data.0 and
 *   data.1), compressed here into COMPRESSED records of `chunk` raw bytes each, so
 *   records straddle containers; bit 1: COMPRESSED2 (83) containers instead of 81;
 *   bit 2: each container ends its zstd frame (perf only flushes one long frame);
 *   bits 3-5: chunk = 1, 7, 64, 256, 1000, 4096, 16384 or 32768 bytes (made larger
 *   when a file would need more than MAX_CONTAINERS containers).
 * flags bit 0 set: the payload is data.0 as is (FUZZ_SEP: data.0 then data.1), e.g. a
 *   real -z data.N with fuzzed zstd bytes.
 * bit 6: a streaming window of 3 records (else the default).
 * bit 7: deliver twice (both deliveries must agree).
 * Format: docs/perf-data-format.md §§3, 6 (COMPRESSED, COMPRESSED2, straddling records).
 */
#include <stdio.h>	/* fprintf (FUZZ_DEBUG) */
#include <stdlib.h>	/* free */
#include <string.h>	/* memset */
#include <zstd.h>

#include "format/attr.h"
#include "format/diag.h"
#include "format/record.h"
#include "reader/session.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static const size_t chunks[8] = { 1, 7, 64, 256, 1000, 4096, 16384, 32768 };

/* At most this many containers per file: each costs a zstd flush (a frame restart with
 * bit 2), and thousands of them made an input take 10 ms. */
#define MAX_CONTAINERS 256

static void container(struct fuzz_buf *out, bool v2, const unsigned char *z, size_t n)
{
	static const unsigned char pad[8];
	size_t padded = v2 ? (n + 7) & ~(size_t)7 : n;

	fuzz_buf__u32(out, v2 ? REC_COMPRESSED2 : REC_COMPRESSED);
	fuzz_buf__add(out, "\0\0", 2);
	if (v2) {
		uint16_t size = (uint16_t)(16 + padded);

		fuzz_buf__add(out, &size, 2);
		fuzz_buf__u64(out, n);
	} else {
		uint16_t size = (uint16_t)(8 + n);

		fuzz_buf__add(out, &size, 2);
	}
	fuzz_buf__add(out, z, n);
	fuzz_buf__add(out, pad, padded - n);
}

/* Compress raw into containers of `chunk` raw bytes each. */
static int compress(struct fuzz_buf *out, const uint8_t *raw, size_t len, uint8_t flags)
{
	static ZSTD_CCtx *cctx;
	static unsigned char z[ZSTD_COMPRESSBOUND(32768) + 64];
	size_t chunk = chunks[flags >> 3 & 7];

	if (len / chunk > MAX_CONTAINERS)
		chunk = len / MAX_CONTAINERS + 1;

	if (!cctx && !(cctx = ZSTD_createCCtx()))
		return -1;
	ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
	for (size_t pos = 0; pos < len; pos += chunk) {
		size_t n = len - pos < chunk ? len - pos : chunk, rest;
		ZSTD_inBuffer in = { raw + pos, n, 0 };
		ZSTD_outBuffer o = { z, sizeof(z), 0 };
		ZSTD_EndDirective mode = (flags & 4) ? ZSTD_e_end : ZSTD_e_flush;

		do {
			rest = ZSTD_compressStream2(cctx, &o, &in, mode);
			if (ZSTD_isError(rest))
				return -1;
		} while (rest || in.pos < in.size);
		if (o.pos > 65535 - 24)
			return -1;
		container(out, flags & 2, z, o.pos);
	}
	return out->failed ? -1 : 0;
}

static int write_data_n(const char *name, const uint8_t *p, size_t n, uint8_t flags)
{
	struct fuzz_buf b = { 0 };
	int err;

	if (flags & 1)
		return fuzz__write(name, p, n);
	err = compress(&b, p, n, flags);
	if (!err)
		err = fuzz__write(name, b.p, b.len);
	fuzz_buf__exit(&b);
	return err;
}

static void run(uint8_t flags)
{
	struct session_opts o = { .path = fuzz__path(FUZZ_DIR), .jobs = 1,
				  .window = (flags & 0x40) ? 3 : 0 };
	struct fuzz_seen a, b;
	struct session *s;
	struct diag d;

	int err;

	if (session__open(&s, &o, &d))
		return;
	err = session__load(s, &d);
#ifdef FUZZ_DEBUG	/* -DFUZZ_DEBUG: what each input does, on stderr */
	fprintf(stderr, "load %d %s (%zu files)\n", err, err ? d.msg : "", session__nr_files(s));
#endif
	if (err == 0) {
		memset(&a, 0, sizeof(a));
		a.s = s;
		(void)session__deliver(s, fuzz__check_batch, &a, 0);
		if (flags & 0x80) {
			memset(&b, 0, sizeof(b));
			b.s = s;
			(void)session__deliver(s, fuzz__check_batch, &b, 0);
			FUZZ_CHECK(a.nr == b.nr && a.hash == b.hash);
		}
	}
	session__close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the `data` file's only record: FINISHED_INIT (type 82, 8 bytes) */
	static const unsigned char finished_init[8] = { 82, 0, 0, 0, 0, 0, 8, 0 };
	struct fuzz_buf hdr = { 0 };
	struct fuzz_input in;
	struct event_attr a;
	size_t off[2], len[2], parts;
	const uint8_t *attr, *payload;
	uint8_t flags;
	int err;

	fuzz__save_last(data, size);
	fuzz_input__init(&in, data, size);
	flags = fuzz_input__u8(&in);
	attr = in.p + in.pos;
	if (attr__decode(&a, attr, fuzz_input__left(&in), false) || a.size > ATTR_SIZE_MAX ||
	    !fuzz__tmpdir())
		return 0;
	payload = attr + a.size;
	parts = fuzz__split(payload, fuzz_input__left(&in) - a.size, 2, off, len);
	fuzz__perf_file(&hdr, attr, a.size, finished_init, sizeof(finished_init), true, true);
	err = hdr.failed || fuzz__write(FUZZ_DIR "/data", hdr.p, hdr.len);
	fuzz_buf__exit(&hdr);
	if (err || write_data_n(FUZZ_DIR "/data.0", payload + off[0], len[0], flags))
		return 0;
	if (parts > 1) {
		if (write_data_n(FUZZ_DIR "/data.1", payload + off[1], len[1], flags))
			return 0;
	} else {
		fuzz__unlink(FUZZ_DIR "/data.1");
	}
	run(flags);
	return 0;
}
