/*
 * fuzz_trace_event - tracing data through trace_event__new() (layout walk, the forked
 * libtraceevent check, the real parse, field and print-argument checks), then one raw
 * record through trace_event__format() in both modes, with and without a kernel symbol
 * resolver.
 *
 * Input: [u8 flags][u32 config, little-endian][u16 raw_len, little-endian]
 *        [raw_len bytes: the record (fewer at the end of the input)][tracing data: the
 *        rest]
 * flags bit 0: install a resolver (every address resolves to "fn" at addr & ~0xff);
 * bit 1: format with every event id 0..15 and config, not only config.
 * The record and the tracing data are copied to buffers of exactly their size.
 * Format: HEADER_TRACING_DATA (machine/trace-event.h), PERF_SAMPLE_RAW.
 */
#include <stdlib.h>	/* free */
#include <string.h>	/* strlen */

#include "format/diag.h"
#include "machine/trace-event.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static const char *resolve(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	*start = addr & ~(uint64_t)0xff;
	return "fn";
}

static void format_with(struct trace_event *te, uint64_t config, const unsigned char *raw,
			size_t n)
{
	const struct trace_event_format *ev = trace_event__find(te, config);

	if (!ev)
		return;
	(void)trace_event__system(ev);
	(void)trace_event__name(ev);
	for (unsigned flags = 0; flags < 2; flags++) {
		char *s = NULL;

		if (trace_event__format(te, ev, raw, n, flags ? TRACE_EVENT_RAW : 0, &s) == 0)
			fuzz__touch(s, strlen(s) + 1);
		free(s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in;
	struct trace_event *te = NULL;
	struct diag d;
	const uint8_t *p;
	unsigned char *raw = NULL, *td = NULL;
	size_t raw_len, td_len;
	uint64_t config;
	uint8_t flags;

	fuzz__save_last(data, size);
	fuzz_input__init(&in, data, size);
	flags = fuzz_input__u8(&in);
	config = fuzz_input__u8(&in);
	config |= (uint64_t)fuzz_input__u8(&in) << 8;
	config |= (uint64_t)fuzz_input__u8(&in) << 16;
	config |= (uint64_t)fuzz_input__u8(&in) << 24;
	raw_len = fuzz_input__u8(&in);
	raw_len |= (size_t)fuzz_input__u8(&in) << 8;
	p = fuzz_input__bytes(&in, raw_len, &raw_len);
	raw = fuzz__dup(p, raw_len);
	p = fuzz_input__bytes(&in, fuzz_input__left(&in), &td_len);
	td = fuzz__dup(p, td_len);
	if (!raw || !td)
		goto out;
	fuzz__limit_alloc(FUZZ_ALLOC_LIMIT(size) + (1u << 19));	/* + the scratch buffer */
	if (trace_event__new(&te, td, td_len, 0, "fuzz", &d) == 0) {
		if (flags & 1)
			(void)trace_event__set_resolver(te, resolve, NULL);
		format_with(te, config, raw, raw_len);
		if (flags & 2)
			for (uint64_t id = 0; id < 16; id++)
				format_with(te, id, raw, raw_len);
		trace_event__delete(te);
	}
	fuzz__limit_alloc(0);
out:
	free(raw);
	free(td);
	return 0;
}
