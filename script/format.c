/*
 * format - perf script's sample line text (see format.h).
 */
#include "script/format.h"

#include <errno.h>
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* memcpy, memset, strlen, strncmp */

#include "machine/mem.h"
#include "banned.h"

int script_buf__reserve_slow(struct script_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (n > SIZE_MAX / 2 - b->len)
		return -ENOMEM;
	while (cap - b->len < n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

int script_buf__put(struct script_buf *b, const char *s, size_t n)
{
	if (script_buf__reserve(b, n))
		return -ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

void script_buf__exit(struct script_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static const struct {
	const char *name;
	unsigned field;
} field_names[] = {
	{ "comm", SCRIPT_F_COMM }, { "tid", SCRIPT_F_TID }, { "pid", SCRIPT_F_PID },
	{ "time", SCRIPT_F_TIME }, { "cpu", SCRIPT_F_CPU }, { "event", SCRIPT_F_EVENT },
	{ "period", SCRIPT_F_PERIOD }, { "ip", SCRIPT_F_IP }, { "sym", SCRIPT_F_SYM },
	{ "symoff", SCRIPT_F_SYMOFF }, { "dso", SCRIPT_F_DSO }, { "trace", SCRIPT_F_TRACE },
	{ "addr", SCRIPT_F_ADDR }, { "data_src", SCRIPT_F_DATA_SRC },
	{ "weight", SCRIPT_F_WEIGHT }, { "ins_lat", SCRIPT_F_INS_LAT },
	{ "phys_addr", SCRIPT_F_PHYS_ADDR }, { "data_page_size", SCRIPT_F_DATA_PAGE_SIZE },
	{ "code_page_size", SCRIPT_F_CODE_PAGE_SIZE },
};

#define NR_FIELD_NAMES (sizeof(field_names) / sizeof(field_names[0]))

int script_fields__parse(const char *arg, unsigned *fields, const char **bad)
{
	unsigned f = 0;
	const char *p = arg;

	*bad = arg;
	for (;;) {
		size_t n = strcspn(p, ",");
		size_t i;

		for (i = 0; i < NR_FIELD_NAMES; i++)
			if (strlen(field_names[i].name) == n &&
			    !strncmp(field_names[i].name, p, n))
				break;
		if (i == NR_FIELD_NAMES) {
			*bad = p;
			return -EINVAL;
		}
		f |= field_names[i].field;
		if (!p[n])
			break;
		p += n + 1;
	}
	*fields = f;
	return 0;
}

const char *script_field__name(unsigned field)
{
	for (size_t i = 0; i < NR_FIELD_NAMES; i++)
		if (field_names[i].field == field)
			return field_names[i].name;
	return "unknown";
}

/* Digits of v, backwards from end; returns the first. */
static char *dec_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* Append n spaces (room reserved by the caller). */
static void pad(struct script_buf *b, int n)
{
	if (n > 0) {
		memset(b->p + b->len, ' ', (size_t)n);
		b->len += (size_t)n;
	}
}

/* Append s right-aligned to width, then a separator; with a room check. */
static int put_right(struct script_buf *b, const char *s, size_t n, int width,
		     const char *sep)
{
	size_t sl = strlen(sep);

	if (script_buf__reserve(b, n + (size_t)(width > 0 ? width : 0) + sl))
		return -ENOMEM;
	pad(b, width - (int)n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	memcpy(b->p + b->len, sep, sl);
	b->len += sl;
	return 0;
}

int script_buf__udec(struct script_buf *b, uint64_t v, int width)
{
	char tmp[24], *s = dec_digits(tmp + sizeof(tmp), v);

	return put_right(b, s, (size_t)(tmp + sizeof(tmp) - s), width, "");
}

/* printf's %Nd, then sep. */
static int put_int(struct script_buf *b, int32_t v, int width, bool left, const char *sep)
{
	char tmp[24], *s = dec_digits(tmp + sizeof(tmp), v < 0 ? -(uint64_t)v : (uint64_t)v);
	size_t n;

	if (v < 0)
		*--s = '-';
	n = (size_t)(tmp + sizeof(tmp) - s);
	if (!left)
		return put_right(b, s, n, width, sep);
	if (script_buf__reserve(b, n + (size_t)width + strlen(sep)))
		return -ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	pad(b, width - (int)n);
	memcpy(b->p + b->len, sep, strlen(sep));
	b->len += strlen(sep);
	return 0;
}

/* "[%03d] " */
static int put_cpu(struct script_buf *b, int32_t cpu)
{
	char tmp[24], *s = dec_digits(tmp + sizeof(tmp) - 2, cpu < 0 ? -(uint64_t)cpu :
				      (uint64_t)cpu);

	tmp[sizeof(tmp) - 2] = ']';
	tmp[sizeof(tmp) - 1] = ' ';
	/* %03d: zeros up to 3 characters, the sign counted */
	while (tmp + sizeof(tmp) - 2 - s < (cpu < 0 ? 2 : 3))
		*--s = '0';
	if (cpu < 0)
		*--s = '-';
	*--s = '[';
	return script_buf__put(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

/* perf's timestamp__scnprintf_usec: seconds and microseconds (truncated),
 * "%12s: ". */
static int put_time(struct script_buf *b, uint64_t ns)
{
	char tmp[48], *end = tmp + sizeof(tmp), *s;
	uint64_t us = ns / 1000;

	s = dec_digits(end, us % 1000000);
	while (end - s < 6)
		*--s = '0';
	*--s = '.';
	s = dec_digits(s, us / 1000000);
	return put_right(b, s, (size_t)(end - s), 12, ": ");
}

int script_buf__head(struct script_buf *b, unsigned fields, const struct script_head *h)
{
	int err = 0;

	if (fields & SCRIPT_F_COMM)
		err = put_right(b, h->comm, strlen(h->comm), h->comm_unaligned ? 0 : 16, " ");
	if (!err && (fields & SCRIPT_F_PID) && (fields & SCRIPT_F_TID)) {
		err = put_int(b, h->pid, 5, false, "/");
		err = err ? err : put_int(b, h->tid, 5, true, " ");
	} else if (!err && (fields & (SCRIPT_F_PID | SCRIPT_F_TID))) {
		err = put_int(b, fields & SCRIPT_F_PID ? h->pid : h->tid, 5, false, " ");
	}
	if (!err && (fields & SCRIPT_F_CPU))
		err = put_cpu(b, h->cpu);
	if (!err && (fields & SCRIPT_F_TIME))
		err = put_time(b, h->time);
	if (!err && (fields & SCRIPT_F_PERIOD)) {
		err = script_buf__udec(b, h->period, 10);
		err = err ? err : script_buf__put(b, " ", 1);
	}
	if (!err && (fields & SCRIPT_F_EVENT))
		err = put_right(b, h->event, strlen(h->event), h->name_width, ": ");
	return err;
}

static int put_hex(struct script_buf *b, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24], *end = tmp + sizeof(tmp), *s = end;

	do {
		*--s = digits[v & 15];
		v >>= 4;
	} while (v);
	return put_right(b, s, (size_t)(end - s), width, "");
}

int script_buf__hex(struct script_buf *b, uint64_t v, int width)
{
	return put_hex(b, v, width);
}

int script_buf__data_src(struct script_buf *b, uint64_t data_src, int *width)
{
	char text[MEM_SCRIPT_TEXT_MAX];
	size_t mark = b->len, n;
	int err;

	mem_src__script_text(data_src, text, sizeof(text));
	if ((err = put_hex(b, data_src, 16)) ||
	    (err = script_buf__put(b, " ", 1)) ||
	    (err = script_buf__put(b, text, strlen(text))))
		return err;
	/* perf formats the column into a buffer of the same size */
	n = b->len - mark;
	if (n > MEM_SCRIPT_TEXT_MAX - 1) {
		b->len = mark + MEM_SCRIPT_TEXT_MAX - 1;
		n = MEM_SCRIPT_TEXT_MAX - 1;
	}
	if ((int)n > *width)
		*width = (int)n;
	if (script_buf__reserve(b, (size_t)*width - n))
		return -ENOMEM;
	pad(b, *width - (int)n);
	return 0;
}

int script_buf__page_size(struct script_buf *b, uint64_t size)
{
	static const char units[] = "BKMG";
	unsigned i = 0;
	char tmp[24], *s;

	if (!size)
		return script_buf__put(b, " N/A", 4);
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	tmp[sizeof(tmp) - 1] = units[i];
	s = dec_digits(tmp + sizeof(tmp) - 1, size);
	*--s = ' ';
	return script_buf__put(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

int script_buf__loc(struct script_buf *b, unsigned fields, const struct script_loc *l)
{
	static const char unknown[] = "[unknown]";
	int err;

	if (!(fields & SCRIPT_F_IP))
		return 0;
	if ((err = put_hex(b, l->ip, 16)))
		return err;
	if (fields & SCRIPT_F_SYM) {
		const char *s = l->sym ? l->sym : unknown;

		if ((err = script_buf__put(b, " ", 1)) ||
		    (err = script_buf__put(b, s, strlen(s))))
			return err;
		if (l->sym && (fields & SCRIPT_F_SYMOFF) &&
		    ((err = script_buf__put(b, "+0x", 3)) || (err = put_hex(b, l->symoff, 0))))
			return err;
	}
	/* perf's sample__fprintf_callchain(): an inlined function has no dso, and
	 * " (inlined)" after it whatever the fields */
	if (l->inlined)
		return script_buf__put(b, " (inlined)", 10);
	if (fields & SCRIPT_F_DSO) {
		const char *d = l->dso ? l->dso : unknown;

		if ((err = script_buf__put(b, " (", 2)) ||
		    (err = script_buf__put(b, d, strlen(d))) ||
		    (err = script_buf__put(b, ")", 1)))
			return err;
	}
	return 0;
}
