/*
 * trace-event - HEADER_TRACING_DATA through libtraceevent (see trace-event.h).
 *
 * libtraceevent trusts what it parses: it evaluates constant expressions of a print fmt
 * while parsing (a "% 0" there is a SIGFPE), and at print time it reads a record through
 * offsets and counts taken from the format and the record without comparing them with
 * the record's size. So that damaged input never crashes us:
 *  1. the layout is walked once without libtraceevent (cut or inconsistent sizes);
 *  2. a forked child feeds every part to libtraceevent first; if it dies, the part it
 *     was parsing is reported and the parent never parses it;
 *  3. every static field must end within 64 KiB (the largest record), and each event's
 *     parsed print arguments are checked (tep_print_arg trees): divisions only by
 *     positive constants, array/hex dumps only of a field or __data_loc array with a
 *     count that is a constant, a __data_loc length or a field (bounded per record);
 *     anything else makes the event "unsafe" and its samples an error;
 *  4. a record is copied into a zeroed scratch buffer large enough for every offset
 *     such a read can form (static fields within 64 KiB, __data_loc/__rel_loc values
 *     are 16-bit offsets plus 16-bit lengths, dumps at most 64 KiB); the zeros after the
 *     copy end every string.
 */
#include "machine/trace-event.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "format/bytes.h"
#include "format/diag.h"
#include "banned.h"

/* Largest PERF_SAMPLE_RAW a sample can carry: perf_event_header.size is 16 bits. */
#define RAW_MAX 65535u
/* Static fields must end within this many bytes of the record start. */
#define FIELD_END_MAX 65536u
/* Largest array/hex dump a print fmt may read (bytes), see check_arg(). */
#define DUMP_MAX 65536u
/* Zeroed bytes after the largest record: a __rel_loc field ending at FIELD_END_MAX plus
 * a 16-bit offset and a 16-bit length (or a dump of DUMP_MAX from such an offset),
 * rounded up; the last byte always stays 0. */
#define SCRATCH_PAD (FIELD_END_MAX + 2 * 65536u + 4096u)

/* How safe an event's print fmt is to hand to libtraceevent (check_arg()). */
enum { ARG_OK = 0, ARG_CHECK = 1, ARG_UNSAFE = 2, ARG_OOB = 3 };

struct ev_info {
	struct tep_event *ev;
	unsigned char safety;	/* ARG_OK, ARG_CHECK (bounds depend on the record) or
				 * ARG_UNSAFE */
};

static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n',
					 'g' };

struct trace_event {
	struct tep_handle *tep;
	struct ev_info *by_id;		/* sorted by id, nr_by_id */
	size_t nr_by_id;
	unsigned char *scratch;		/* RAW_MAX + SCRATCH_PAD bytes, zero past the
					 * record being printed */
	pthread_mutex_t lock;		/* trace_event__format(): tep state, scratch */
	trace_event_resolver_fn resolve;	/* trace_event__set_resolver() */
	void *resolve_ctx;
};

/* The section being walked: a bounded reader (format/bytes.h) and where its parts go. */
struct tdata {
	struct cursor cur;	/* over the section; base: its file offset */
	bool big;		/* numbers are big-endian */
	const char *path;
	struct diag *d;
	struct tep_handle *tep;	/* parts go to it; NULL: check the layout only */
	int progress_fd;	/* >= 0: write each part's file offset here before
				 * libtraceevent parses it (the forked check) */
};

/* About to hand the part starting at `pos` to libtraceevent. */
static void progress(const struct tdata *c, size_t pos)
{
	uint64_t off = c->cur.base + pos;

	if (c->progress_fd >= 0 && write(c->progress_fd, &off, sizeof(off)) < 0)
		_exit(3);
}

static int bad(struct tdata *c, size_t at, const char *what)
{
	return diag__set(c->d, c->path ? c->path : "", c->cur.base + at, -DIAG_BAD_FEATURE,
			 "TRACING_DATA: %s", what);
}

static int cut(struct tdata *c, const char *what)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "section ends inside %s (%zu bytes)", what, c->cur.len);
	return bad(c, c->cur.pos, msg);
}

static int read_uint(struct tdata *c, unsigned n, uint64_t *v, const char *what)
{
	uint32_t x;

	if (n == 4 ? !cursor__u32(&c->cur, &x) : !cursor__u64(&c->cur, v))
		return cut(c, what);
	if (n == 4)
		*v = x;
	return 0;
}

/* A NUL-terminated string inside the section; *s borrows it. */
static int read_str(struct tdata *c, const char **s, const char *what)
{
	char msg[160];

	if (!cursor__str(&c->cur, s)) {
		snprintf(msg, sizeof(msg), "%s has no terminating NUL", what);
		return bad(c, c->cur.pos, msg);
	}
	return 0;
}

/* A part of `len` bytes at the cursor, copied with a terminating NUL. */
static int take_part(struct tdata *c, uint64_t len, char **out, const char *what)
{
	char msg[160];

	if (len > c->cur.len - c->cur.pos) {
		snprintf(msg, sizeof(msg), "%s of %llu bytes runs past the section end "
			 "(%zu bytes)", what, (unsigned long long)len, c->cur.len);
		return bad(c, c->cur.pos, msg);
	}
	*out = malloc((size_t)len + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, c->cur.p + c->cur.pos, (size_t)len);
	(*out)[len] = '\0';
	c->cur.pos += (size_t)len;
	return 0;
}

/* One event format file: tep_parse_event() it under `sys`. */
static int parse_event_file(struct tdata *c, const char *sys, const char *what)
{
	uint64_t len = 0;
	char *buf = NULL;
	size_t start;
	int err;
	enum tep_errno ret;

	if ((err = read_uint(c, 8, &len, what)))
		return err;
	start = c->cur.pos;
	if ((err = take_part(c, len, &buf, what)))
		return err;
	if (!c->tep) {
		free(buf);
		return 0;
	}
	progress(c, start);
	ret = tep_parse_event(c->tep, buf, (unsigned long)len, sys);
	free(buf);
	/* A format libtraceevent cannot read is left out, as perf leaves it out. (It
	 * reports some unreadable formats as TEP_ERRNO__MEM_ALLOC_FAILED too, so that code
	 * cannot be told apart from a real allocation failure, which also just leaves the
	 * event out.) */
	(void)ret;
	return 0;
}

/*
 * Keep only the printk lines of the form ADDR : "TEXT" (text quoted, the closing quote
 * last on the line), in place. tep_parse_printk_formats() of libtraceevent 1.7.1 reads
 * past its copy of the text on other lines (found by fuzz_trace_event under ASan).
 */
static void printk_filter(char *buf)
{
	char *out = buf, *line = buf;

	while (*line) {
		char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		char *colon = memchr(line, ':', (size_t)(end - line));
		char *quote = colon ? memchr(colon, '"', (size_t)(end - colon)) : NULL;
		size_t n = (size_t)(end - line);

		if (quote && end - quote >= 2 && end[-1] == '"') {
			memmove(out, line, n);
			out += n;
			*out++ = '\n';
		}
		line = nl ? nl + 1 : end;
	}
	*out = '\0';
}

static int parse_printk(struct tep_handle *tep, const char *buf)
{
	printk_filter((char *)buf);
	return tep_parse_printk_formats(tep, buf);
}

/* A text part with a u32/u64 size, fed to one of the tep_parse_* text parsers. */
static int parse_text(struct tdata *c, unsigned size_bytes,
		      int (*parse)(struct tep_handle *, const char *), const char *what)
{
	uint64_t len = 0;
	char *buf = NULL;
	size_t start;
	int err;

	if ((err = read_uint(c, size_bytes, &len, what)))
		return err;
	start = c->cur.pos;
	if ((err = take_part(c, len, &buf, what)))
		return err;
	/* The text parsers skip lines they do not understand; a failure here can only be
	 * an allocation inside libtraceevent, which leaves the table partial (perf 6.1
	 * goes on the same way). */
	if (len && c->tep) {
		progress(c, start);
		(void)parse(c->tep, buf);
	}
	free(buf);
	return 0;
}

static int check_fields(struct tdata *c, const struct tep_event *ev,
			const struct tep_format_field *f)
{
	char msg[200];

	for (; f; f = f->next) {
		if (f->offset >= 0 && f->size >= 0 &&
		    (uint64_t)f->offset + (uint64_t)f->size <= FIELD_END_MAX)
			continue;
		snprintf(msg, sizeof(msg), "event %s:%s: field %s (offset %d, size %d) lies "
			 "outside any record", ev->system ? ev->system : "?",
			 ev->name ? ev->name : "?", f->name ? f->name : "?", f->offset,
			 f->size);
		return bad(c, 0, msg);
	}
	return 0;
}

/* A numeric atom of a print fmt ("8", "0x10", "16UL"); false when it is none. */
static bool atom_value(const char *atom, uint64_t *v)
{
	char *end;

	if (!atom || !(*atom >= '0' && *atom <= '9'))
		return false;
	errno = 0;
	*v = strtoull(atom, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	return !errno && !*end;
}

/* The scalar field a FIELD argument names, or NULL. */
static struct tep_format_field *arg_field(struct tep_event *ev, struct tep_print_arg *a)
{
	struct tep_format_field *f = a->field.field;

	if (!f && a->field.name)
		f = tep_find_any_field(ev, a->field.name);
	if (!f || f->size <= 0 || f->size > 8 || (f->flags & TEP_FIELD_IS_ARRAY))
		return NULL;
	return f;
}

/*
 * Upper bound of an element count (HEX size, INT_ARRAY count): a numeric atom, a
 * __data_loc length (16 bits), a scalar field (read from `data`; without data the
 * result is ARG_CHECK), casts of those, or one of those divided by a positive atom.
 * Anything else is ARG_UNSAFE.
 */
static int count_bound(struct tep_handle *tep, struct tep_event *ev,
		       struct tep_print_arg *a, const unsigned char *data, uint64_t *max,
		       int depth)
{
	struct tep_format_field *f;
	uint64_t d;
	int r;

	if (!a || depth > 16)
		return ARG_UNSAFE;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return atom_value(a->atom.atom, max) ? ARG_OK : ARG_UNSAFE;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		*max = 0xffff;
		return ARG_OK;
	case TEP_PRINT_FIELD:
		if (!(f = arg_field(ev, a)))
			return ARG_UNSAFE;
		*max = data ? tep_read_number(tep, data + f->offset, f->size) : UINT64_MAX;
		return ARG_CHECK;
	case TEP_PRINT_TYPE:
		return count_bound(tep, ev, a->typecast.item, data, max, depth + 1);
	case TEP_PRINT_OP:
		if (!a->op.op || strcmp(a->op.op, "/") || !a->op.right ||
		    a->op.right->type != TEP_PRINT_ATOM ||
		    !atom_value(a->op.right->atom.atom, &d) || !d)
			return ARG_UNSAFE;
		r = count_bound(tep, ev, a->op.left, data, max, depth + 1);
		*max /= d;
		return r;
	default:
		return ARG_UNSAFE;
	}
}

static int check_list(struct tep_handle *tep, struct tep_event *ev,
		      struct tep_print_arg *a, const unsigned char *data, int depth);

/* The array a HEX/INT_ARRAY dumps must be a field or a __data_loc array (libtraceevent
 * reads any other argument as if it were a field). */
static bool dump_source_ok(struct tep_event *ev, struct tep_print_arg *a)
{
	if (!a)
		return false;
	if (a->type == TEP_PRINT_DYNAMIC_ARRAY)
		return a->dynarray.field && !a->dynarray.index;
	if (a->type == TEP_PRINT_FIELD) {
		struct tep_format_field *f = a->field.field;

		if (!f && a->field.name)
			f = tep_find_any_field(ev, a->field.name);
		return f != NULL;
	}
	return false;
}

/* A dump of count (bound kind r, bound max) elements of el bytes. */
static int dump_ok(int r, uint64_t max, uint64_t el, const unsigned char *data)
{
	if (r == ARG_UNSAFE)
		return ARG_UNSAFE;
	if (r == ARG_CHECK && !data)
		return ARG_CHECK;
	if (max > DUMP_MAX / el)
		return r == ARG_OK ? ARG_UNSAFE : ARG_OOB;
	return r;
}

/*
 * One print argument (and what hangs below it): ARG_OK, ARG_CHECK (safe once the
 * record's counts are known: call again with data), ARG_UNSAFE, or with data ARG_OOB
 * (this record's count runs past any record).
 */
static int check_arg(struct tep_handle *tep, struct tep_event *ev, struct tep_print_arg *a,
		     const unsigned char *data, int depth)
{
	uint64_t max = 0, el = 0;
	int r, r2;

	if (depth > 64)
		return ARG_UNSAFE;
	switch (a->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
	case TEP_PRINT_FIELD:
	case TEP_PRINT_STRING:
	case TEP_PRINT_BSTRING:
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		return ARG_OK;
	case TEP_PRINT_DYNAMIC_ARRAY:
		return a->dynarray.index ? ARG_UNSAFE : ARG_OK;
	case TEP_PRINT_TYPE:
		return a->typecast.item ? check_arg(tep, ev, a->typecast.item, data, depth + 1)
					: ARG_OK;
	case TEP_PRINT_FLAGS:
		return a->flags.field ? check_list(tep, ev, a->flags.field, data, depth + 1)
				      : ARG_OK;
	case TEP_PRINT_SYMBOL:
		return a->symbol.field ? check_list(tep, ev, a->symbol.field, data, depth + 1)
				       : ARG_OK;
	case TEP_PRINT_OP:
		if (!a->op.op)
			return ARG_UNSAFE;
		/* x / 0, x % 0 and LLONG_MIN / -1 trap: only positive constant divisors */
		if (!strcmp(a->op.op, "/") || !strcmp(a->op.op, "%")) {
			if (!a->op.right || a->op.right->type != TEP_PRINT_ATOM ||
			    !atom_value(a->op.right->atom.atom, &max) || !max ||
			    max > INT64_MAX)
				return ARG_UNSAFE;
		}
		/* field[index] reads index elements past the field: constants only */
		if (!strcmp(a->op.op, "[") &&
		    (!a->op.right || a->op.right->type != TEP_PRINT_ATOM ||
		     !atom_value(a->op.right->atom.atom, &max) || max >= DUMP_MAX / 8))
			return ARG_UNSAFE;
		r = a->op.left ? check_arg(tep, ev, a->op.left, data, depth + 1) : ARG_OK;
		r2 = a->op.right ? check_arg(tep, ev, a->op.right, data, depth + 1) : ARG_OK;
		return r > r2 ? r : r2;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		if (!dump_source_ok(ev, a->hex.field))
			return ARG_UNSAFE;
		r = count_bound(tep, ev, a->hex.size, data, &max, 0);
		return dump_ok(r, max, 1, data);
	case TEP_PRINT_INT_ARRAY:
		if (!dump_source_ok(ev, a->int_array.field) || !a->int_array.el_size ||
		    a->int_array.el_size->type != TEP_PRINT_ATOM ||
		    !atom_value(a->int_array.el_size->atom.atom, &el) || !el || el > 8)
			return ARG_UNSAFE;
		r = count_bound(tep, ev, a->int_array.count, data, &max, 0);
		return dump_ok(r, max, 8, data);
	default:	/* FUNC (helpers only plugins register) and anything newer */
		return ARG_UNSAFE;
	}
}

static int check_list(struct tep_handle *tep, struct tep_event *ev,
		      struct tep_print_arg *a, const unsigned char *data, int depth)
{
	int worst = ARG_OK;

	for (; a; a = a->next) {
		int r = check_arg(tep, ev, a, data, depth);

		if (r > worst)
			worst = r;
		if (worst >= ARG_UNSAFE)
			break;
	}
	return worst;
}

/* How safe printing ev is, before any record is seen. */
static unsigned char classify(struct tep_handle *tep, struct tep_event *ev)
{
	if (ev->flags & TEP_EVENT_FL_ISBPRINT)
		return ARG_UNSAFE;	/* trace_printk records: vararg buffers */
	if (ev->flags & TEP_EVENT_FL_FAILED)
		return ARG_OK;		/* printed as raw fields, arguments unused */
	return (unsigned char)check_list(tep, ev, ev->print_fmt.args, NULL, 0);
}

static int cmp_event(const void *a, const void *b)
{
	const struct ev_info *x = a, *y = b;

	if (x->ev->id != y->ev->id)
		return x->ev->id < y->ev->id ? -1 : 1;
	return 0;
}

/* The id table: every parsed event, checked and classified, sorted by id. */
static int index_events(struct trace_event *te, struct tdata *c)
{
	int n = tep_get_events_count(te->tep);
	int err;

	if (n <= 0)
		return 0;
	te->by_id = calloc((size_t)n, sizeof(*te->by_id));
	if (!te->by_id)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(te->tep, i);

		if (!ev)
			continue;
		if ((err = check_fields(c, ev, ev->format.common_fields)) ||
		    (err = check_fields(c, ev, ev->format.fields)))
			return err;
		te->by_id[te->nr_by_id].ev = ev;
		te->by_id[te->nr_by_id].safety = classify(te->tep, ev);
		te->nr_by_id++;
	}
	/* equal ids (a damaged file): the lower-bound search takes one of them */
	qsort(te->by_id, te->nr_by_id, sizeof(*te->by_id), cmp_event);
	return 0;
}

/* Walk the layout; with c->tep set, feed every part to libtraceevent. */
static int walk(struct tdata *c)
{
	const char *version, *sys;
	uint64_t v = 0, count = 0, nr_sys = 0, page_size = 0;
	unsigned long_size;
	char *buf = NULL;
	size_t start;
	int err;

	if (c->cur.len < sizeof(magic) || memcmp(c->cur.p, magic, sizeof(magic)))
		return bad(c, 0, "bad magic (not \"\\027\\010\\104tracing\")");
	c->cur.pos = sizeof(magic);
	if ((err = read_str(c, &version, "version string")))
		return err;
	if (c->cur.len - c->cur.pos < 2)
		return cut(c, "endianness and long size");
	if (c->cur.p[c->cur.pos] > 1)
		return bad(c, c->cur.pos, "endianness byte is neither 0 (little) nor 1 (big)");
	c->big = c->cur.p[c->cur.pos] == 1;
	c->cur.swap = c->big != bytes__host_big();
	long_size = c->cur.p[c->cur.pos + 1];
	if (long_size != 4 && long_size != 8)
		return bad(c, c->cur.pos + 1, "long size is neither 4 nor 8");
	c->cur.pos += 2;
	if ((err = read_uint(c, 4, &page_size, "page size")))
		return err;
	if (c->tep) {
		tep_set_file_bigendian(c->tep, c->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_long_size(c->tep, (int)long_size);
		tep_set_page_size(c->tep, (int)page_size);
	}

	/* header_page (ring-buffer page layout) and header_event (its event header) */
	if (c->cur.len - c->cur.pos < 12 || memcmp(c->cur.p + c->cur.pos, "header_page", 12))
		return c->cur.len - c->cur.pos < 12 ? cut(c, "the \"header_page\" tag") :
			bad(c, c->cur.pos, "\"header_page\" tag missing");
	c->cur.pos += 12;
	if ((err = read_uint(c, 8, &v, "header_page size")))
		return err;
	start = c->cur.pos;
	if ((err = take_part(c, v, &buf, "header_page")))
		return err;
	/* Only ring-buffer pages need it, not a sample's record: failures are ignored. */
	if (c->tep) {
		progress(c, start);
		(void)tep_parse_header_page(c->tep, buf, (unsigned long)v, (int)long_size);
	}
	free(buf);
	if (c->cur.len - c->cur.pos < 13 || memcmp(c->cur.p + c->cur.pos, "header_event", 13))
		return c->cur.len - c->cur.pos < 13 ? cut(c, "the \"header_event\" tag") :
			bad(c, c->cur.pos, "\"header_event\" tag missing");
	c->cur.pos += 13;
	if ((err = read_uint(c, 8, &v, "header_event size")))
		return err;
	if (v > c->cur.len - c->cur.pos)
		return bad(c, c->cur.pos, "header_event runs past the section end");
	c->cur.pos += (size_t)v;	/* libtraceevent has no use for it */

	/* ftrace's own events, then the events of each system */
	if ((err = read_uint(c, 4, &count, "ftrace format count")))
		return err;
	for (uint64_t i = 0; i < count; i++)
		if ((err = parse_event_file(c, "ftrace", "ftrace event format")))
			return err;
	if ((err = read_uint(c, 4, &nr_sys, "event system count")))
		return err;
	for (uint64_t i = 0; i < nr_sys; i++) {
		if ((err = read_str(c, &sys, "event system name")) ||
		    (err = read_uint(c, 4, &count, "event count")))
			return err;
		for (uint64_t j = 0; j < count; j++)
			if ((err = parse_event_file(c, sys, "event format")))
				return err;
	}

	if ((err = parse_text(c, 4, tep_parse_kallsyms, "kallsyms")) ||
	    (err = parse_text(c, 4, parse_printk, "printk formats")))
		return err;
	/* perf reads the saved cmdlines from version 0.6 on (its test: atof >= 0.6) */
	if (strtod(version, NULL) >= 0.6 &&
	    (err = parse_text(c, 8, tep_parse_saved_cmdlines, "saved cmdlines")))
		return err;
	return 0;
}

/* Sanitizer runtimes define it (sanitizer/common_interface_defs.h); NULL otherwise. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/*
 * Feed the parts to libtraceevent in a forked child first: a print fmt whose constant
 * expressions trap (x % 0) or nest too deep kills the child, not us, and the parent
 * learns which part it was from the offsets the child wrote before each one.
 */
static int check_in_child(const struct tdata *layout)
{
	/* written by the child after the last part: no file offset is this large */
	static const uint64_t done_mark = UINT64_MAX - 1;
	struct tdata c = *layout;
	uint64_t off, last = DIAG_NO_OFFSET;
	bool done = false;
	int fds[2], status = 0;
	char msg[160];
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return diag__set(c.d, c.path ? c.path : "", DIAG_NO_OFFSET, -errno,
				 "TRACING_DATA: pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return diag__set(c.d, c.path ? c.path : "", DIAG_NO_OFFSET, -e,
				 "TRACING_DATA: fork: %s", strerror(e));
	}
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
		int null = open("/dev/null", O_WRONLY);

		/* Die of the signal, silently: handlers the process installed (a fuzzer's
		 * crash reporter, a sanitizer's) must not act for the child, and no report
		 * of its death reaches our stderr. */
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		if (__sanitizer_set_death_callback)	/* sanitizer builds: no fuzzer */
			__sanitizer_set_death_callback(NULL);	/* crash report either */
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fds[0]);
		c.d = NULL;
		c.progress_fd = fds[1];
		c.tep = tep_alloc();
		if (c.tep)
			(void)walk(&c);
		/* the end reached: said on the pipe too, as a tool may change the exit
		 * status (valgrind's leak check of the child reports the other
		 * threads' memory, which it cannot see from here) */
		if (write(fds[1], &done_mark, sizeof(done_mark)) < 0)
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], &off, sizeof(off))) != 0) {
		if (n == (ssize_t)sizeof(off) && off == done_mark)
			done = true;
		else if (n == (ssize_t)sizeof(off))
			last = off;
		else if (n < 0 && errno != EINTR)
			break;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return diag__set(c.d, c.path ? c.path : "", DIAG_NO_OFFSET, -errno,
					 "TRACING_DATA: waitpid: %s", strerror(errno));
	if ((WIFEXITED(status) && WEXITSTATUS(status) == 0) || (done && !WIFSIGNALED(status)))
		return 0;
	if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "libtraceevent dies (signal %d) parsing the part "
			 "at this offset", WTERMSIG(status));
	else
		snprintf(msg, sizeof(msg), "libtraceevent fails (exit status %d) parsing the "
			 "part at this offset", WEXITSTATUS(status));
	return diag__set(c.d, c.path ? c.path : "", last, -DIAG_BAD_FEATURE,
			 "TRACING_DATA: %s", msg);
}

/*
 * Builds with LeakSanitizer only (the hook is unused otherwise): libtraceevent 1.7.1
 * leaks a few token strings on the error paths of tep_parse_event() when a format is
 * malformed. They are its allocations, unreachable from the handle: not ours to free.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void quiet(void)
{
	tep_set_loglevel(TEP_LOG_NONE);
}

int trace_event__new(struct trace_event **out, const void *data, size_t size,
		     uint64_t file_offset, const char *path, struct diag *d)
{
	struct tdata c = { .path = path, .d = d, .progress_fd = -1 };
	struct trace_event *te;
	int err;

	*out = NULL;
	cursor__init(&c.cur, data, data ? size : 0, file_offset, false);
	pthread_once(&quiet_once, quiet);
	/* 1. the layout alone; 2. libtraceevent in a child */
	if ((err = walk(&c)) || (err = check_in_child(&c)))
		return err == -ENOMEM ?
			diag__set(d, path ? path : "", DIAG_NO_OFFSET, -ENOMEM, NULL) : err;
	te = calloc(1, sizeof(*te));
	if (!te)
		return diag__set(d, path ? path : "", DIAG_NO_OFFSET, -ENOMEM, NULL);
	if (pthread_mutex_init(&te->lock, NULL)) {
		free(te);
		return diag__set(d, path ? path : "", DIAG_NO_OFFSET, -ENOMEM, NULL);
	}
	te->tep = tep_alloc();
	te->scratch = calloc(1, (size_t)RAW_MAX + SCRATCH_PAD);
	c.tep = te->tep;
	c.cur.pos = 0;
	/* 3. for real, then the field and print-argument checks */
	err = !te->tep || !te->scratch ? -ENOMEM : walk(&c);
	if (!err)
		err = index_events(te, &c);
	if (err == -ENOMEM)
		diag__set(d, path ? path : "", DIAG_NO_OFFSET, -ENOMEM, NULL);
	if (err) {
		trace_event__delete(te);
		return err;
	}
	*out = te;
	return 0;
}

void trace_event__delete(struct trace_event *te)
{
	if (!te)
		return;
	if (te->tep)
		tep_free(te->tep);
	free(te->by_id);
	free(te->scratch);
	pthread_mutex_destroy(&te->lock);
	free(te);
}

static const struct ev_info *info_of(const struct trace_event *te, uint64_t id)
{
	size_t lo = 0, hi = te->nr_by_id;

	if (id > INT32_MAX)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uint64_t)te->by_id[mid].ev->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < te->nr_by_id && (uint64_t)te->by_id[lo].ev->id == id)
		return &te->by_id[lo];
	return NULL;
}

const struct trace_event_format *trace_event__find(const struct trace_event *te,
						   uint64_t config)
{
	const struct ev_info *info = info_of(te, config);

	return info ? (const struct trace_event_format *)info->ev : NULL;
}

const char *trace_event__system(const struct trace_event_format *ev)
{
	const struct tep_event *e = (const struct tep_event *)ev;

	return e->system ? e->system : "";
}

const char *trace_event__name(const struct trace_event_format *ev)
{
	const struct tep_event *e = (const struct tep_event *)ev;

	return e->name ? e->name : "";
}

/*
 * One scalar field the way perf 6.1's --raw-trace prints it (observed on sched, syscalls,
 * kmem and sock tracepoints): pointers "0x%llx"; "unsigned long" (libtraceevent's
 * TEP_FIELD_IS_LONG) "0x%llx"; other unsigned fields decimal (size_t count=4096, an
 * "int" stored in 8 unsigned bytes as 4294967196); signed fields decimal at their size
 * (node=-1, an 8-byte long prev_state=1), except a 4-byte signed long (32-bit kernels,
 * not observed here), which perf's libtraceevent printed as "0x%x".
 * libtraceevent 1.7's own field printers use the print fmt's conversion instead
 * ("target_cpu=001", "fd=0x00000003"), which perf 6.1 does not.
 */
static void print_scalar(struct trace_seq *s, struct tep_handle *tep, const void *data,
			 const struct tep_format_field *f)
{
	unsigned long long v = tep_read_number(tep, (const char *)data + f->offset, f->size);

	if (f->flags & TEP_FIELD_IS_POINTER) {
		trace_seq_printf(s, "0x%llx", v);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (f->size) {
		case 1: trace_seq_printf(s, "%d", (int)(signed char)v); break;
		case 2: trace_seq_printf(s, "%d", (int)(short)v); break;
		case 4:
			if (f->flags & TEP_FIELD_IS_LONG)
				trace_seq_printf(s, "0x%x", (unsigned)v);
			else
				trace_seq_printf(s, "%d", (int)v);
			break;
		default: trace_seq_printf(s, "%lld", (long long)v); break;
		}
	} else if (f->flags & TEP_FIELD_IS_LONG) {
		trace_seq_printf(s, "0x%llx", v);
	} else {
		trace_seq_printf(s, "%llu", v);
	}
}

/*
 * perf report --raw-trace: " name=value" for every non-common field of e, in format
 * order. Arrays and strings (fixed or __data_loc) print through libtraceevent's
 * tep_print_field_content() (a printable char array as text, other arrays as
 * "ARRAY[7f, 00, 00, 01]"), which matches perf 6.1; scalars through print_scalar().
 */
static void print_fields(struct trace_seq *s, struct tep_handle *tep, void *data, int size,
			 struct tep_event *e)
{
	for (struct tep_format_field *f = e->format.fields; f; f = f->next) {
		trace_seq_printf(s, " %s=", f->name);
		if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING))
			tep_print_field_content(s, data, size, f);
		else
			print_scalar(s, tep, data, f);
	}
}

/* libtraceevent's resolver signature around trace_event_resolver_fn. */
static char *resolve_adapter(void *priv, unsigned long long *addrp, char **modp)
{
	struct trace_event *te = priv;
	uint64_t start = 0;
	const char *name = te->resolve(te->resolve_ctx, *addrp, &start);

	if (!name)
		return NULL;
	*addrp = start;
	*modp = NULL;
	return (char *)name;
}

int trace_event__set_resolver(struct trace_event *te, trace_event_resolver_fn fn,
			      void *ctx)
{
	te->resolve = fn;
	te->resolve_ctx = ctx;
	if (!fn) {
		tep_reset_function_resolver(te->tep);
		return 0;
	}
	return tep_set_function_resolver(te->tep, resolve_adapter, te) ? -ENOMEM : 0;
}

int trace_event__format(struct trace_event *te, const struct trace_event_format *ev,
			const void *raw, size_t raw_size, unsigned flags, char **out)
{
	struct tep_event *e = (struct tep_event *)ev;
	struct tep_record rec;
	struct trace_seq s;
	int err = 0;

	*out = NULL;
	if (!e || raw_size > RAW_MAX || (raw_size && !raw))
		return -EINVAL;
	trace_seq_init(&s);
	pthread_mutex_lock(&te->lock);
	if (raw_size)
		memcpy(te->scratch, raw, raw_size);
	memset(&rec, 0, sizeof(rec));
	rec.data = te->scratch;
	rec.size = (int)raw_size;
	if (flags & TRACE_EVENT_RAW) {
		print_fields(&s, te->tep, te->scratch, (int)raw_size, e);
	} else {
		/* libtraceevent prints the event the record's common_type names */
		int type = tep_data_type(te->tep, &rec);
		const struct ev_info *info = type >= 0 ? info_of(te, (uint64_t)type) : NULL;
		int safety = info ? info->safety : ARG_OK;

		if (safety == ARG_CHECK)
			safety = check_list(te->tep, info->ev, info->ev->print_fmt.args,
					    te->scratch, 0);
		if (safety >= ARG_UNSAFE)
			err = -DIAG_BAD_SAMPLE;
		else
			tep_print_event(te->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	}
	memset(te->scratch, 0, raw_size);
	pthread_mutex_unlock(&te->lock);
	trace_seq_terminate(&s);
	if (err) {
		/* -DIAG_BAD_SAMPLE */
	} else if (s.state != TRACE_SEQ__GOOD || !s.buffer) {
		err = -ENOMEM;
	} else {
		*out = malloc((size_t)s.len + 1);
		if (!*out) {
			err = -ENOMEM;
		} else {
			memcpy(*out, s.buffer, s.len);
			(*out)[s.len] = '\0';
		}
	}
	trace_seq_destroy(&s);
	return err;
}
