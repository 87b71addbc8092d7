#include "format/sample.h"

#include <string.h>	/* memset */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/record.h"
#include "banned.h"

/* A bounds-checked walk over the body of one record. */
struct walk {
	const unsigned char *p;
	size_t pos, end;
};

static int take_u64(struct walk *w, uint64_t *v)
{
	if (w->end - w->pos < 8)
		return -DIAG_BAD_SAMPLE;
	*v = bytes__u64(w->p + w->pos);
	w->pos += 8;
	return 0;
}

/* Borrow n*elem bytes; rejects counts the record cannot hold (no overflow). */
static int take_array(struct walk *w, uint64_t n, size_t elem, const unsigned char **out)
{
	if (n > (w->end - w->pos) / elem)
		return -DIAG_BAD_SAMPLE;
	*out = w->p + w->pos;
	w->pos += (size_t)n * elem;
	return 0;
}

static void sample_defaults(struct sample *s, const struct event_attr *attr, uint16_t misc)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = (uint32_t)-1;
	s->cpu = (uint32_t)-1;
	s->period = attr->sample_period;	/* perf's default when PERIOD is absent */
	s->data_src = SAMPLE_DATA_SRC_NONE;
	s->stream_id = s->id = (uint64_t)-1;
	s->time = (uint64_t)-1;
	s->misc = misc;
	s->sample_type = attr->sample_type;
}

static int parse_read(struct sample *s, const struct event_attr *attr, struct walk *w)
{
	uint64_t rf = attr->read_format;
	int err;

	if (rf & FORMAT_GROUP) {
		if ((err = take_u64(w, &s->read.nr)))
			return err;
	} else {
		if ((err = take_u64(w, &s->read.one.value)))
			return err;
	}
	if ((rf & FORMAT_TOTAL_TIME_ENABLED) && (err = take_u64(w, &s->read.time_enabled)))
		return err;
	if ((rf & FORMAT_TOTAL_TIME_RUNNING) && (err = take_u64(w, &s->read.time_running)))
		return err;
	if (rf & FORMAT_GROUP) {
		s->read.value_size = 8 + 8 * !!(rf & FORMAT_ID) + 8 * !!(rf & FORMAT_LOST);
		return take_array(w, s->read.nr, s->read.value_size, &s->read.values);
	}
	if ((rf & FORMAT_ID) && (err = take_u64(w, &s->read.one.id)))
		return err;
	if ((rf & FORMAT_LOST) && (err = take_u64(w, &s->read.one.lost)))
		return err;
	return 0;
}

static int parse_regs(struct walk *w, uint64_t mask, uint64_t *abi,
		      const unsigned char **regs, uint64_t *out_mask)
{
	int err = take_u64(w, abi);

	if (err)
		return err;
	*out_mask = mask;
	if (!*abi)
		return 0;
	return take_array(w, (uint64_t)__builtin_popcountll(mask), 8, regs);
}

static int parse_tail(struct sample *s, const struct event_attr *attr, struct walk *w)
{
	uint64_t t = attr->sample_type, v;
	int err = 0;

	if (t & SAMPLE_CALLCHAIN) {
		if ((err = take_u64(w, &s->callchain_nr)) ||
		    (err = take_array(w, s->callchain_nr, 8, &s->callchain)))
			return err;
	}
	if (t & SAMPLE_RAW) {
		if (w->end - w->pos < 4)
			return -DIAG_BAD_SAMPLE;
		s->raw_size = bytes__u32(w->p + w->pos);
		w->pos += 4;
		if ((err = take_array(w, s->raw_size, 1, &s->raw)))
			return err;
	}
	if (t & SAMPLE_BRANCH_STACK) {
		if ((err = take_u64(w, &s->branch_nr)))
			return err;
		if (attr->branch_sample_type & (1ULL << 17)) {	/* PERF_SAMPLE_BRANCH_HW_INDEX */
			s->branch_has_hw_idx = true;
			if ((err = take_u64(w, &s->branch_hw_idx)))
				return err;
		}
		if ((err = take_array(w, s->branch_nr, 24, &s->branch)))
			return err;
	}
	if ((t & SAMPLE_REGS_USER) &&
	    (err = parse_regs(w, attr->sample_regs_user, &s->user_regs_abi, &s->user_regs,
			      &s->user_regs_mask)))
		return err;
	if (t & SAMPLE_STACK_USER) {
		s->user_stack_offset = (uint32_t)w->pos;
		if ((err = take_u64(w, &s->user_stack_size)))
			return err;
		if (s->user_stack_size) {
			if ((err = take_array(w, s->user_stack_size, 1, &s->user_stack)) ||
			    (err = take_u64(w, &s->user_stack_dyn_size)))
				return err;
		}
	}
	if (t & (SAMPLE_WEIGHT | SAMPLE_WEIGHT_STRUCT)) {
		if ((err = take_u64(w, &v)))
			return err;
		if (t & SAMPLE_WEIGHT_STRUCT) {
			s->weight = (uint32_t)v;
			s->ins_lat = (uint16_t)(v >> 32);
			s->weight_var3 = (uint16_t)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	if ((t & SAMPLE_DATA_SRC) && (err = take_u64(w, &s->data_src)))
		return err;
	if ((t & SAMPLE_TRANSACTION) && (err = take_u64(w, &s->transaction)))
		return err;
	if ((t & SAMPLE_REGS_INTR) &&
	    (err = parse_regs(w, attr->sample_regs_intr, &s->intr_regs_abi, &s->intr_regs,
			      &s->intr_regs_mask)))
		return err;
	if ((t & SAMPLE_PHYS_ADDR) && (err = take_u64(w, &s->phys_addr)))
		return err;
	if ((t & SAMPLE_CGROUP) && (err = take_u64(w, &s->cgroup)))
		return err;
	if ((t & SAMPLE_DATA_PAGE_SIZE) && (err = take_u64(w, &s->data_page_size)))
		return err;
	if ((t & SAMPLE_CODE_PAGE_SIZE) && (err = take_u64(w, &s->code_page_size)))
		return err;
	if (t & SAMPLE_AUX) {
		if ((err = take_u64(w, &s->aux_size)) ||
		    (err = take_array(w, s->aux_size, 1, &s->aux)))
			return err;
	}
	return 0;
}

/* The fields of a SAMPLE record into s, which holds its defaults (or, for a check
 * alone, anything: the walk writes each field before it reads it). */
static inline __attribute__((always_inline)) int
parse_fields(struct sample *s, const struct event_attr *attr, const void *rec, size_t size)
{
	struct walk w = { .p = rec, .pos = RECORD_HEADER_SIZE, .end = size };
	uint64_t t = attr->sample_type, v;
	int err;

	if (size < RECORD_HEADER_SIZE)
		return -DIAG_BAD_SAMPLE;
	if ((t & SAMPLE_IDENTIFIER) && (err = take_u64(&w, &s->id)))
		return err;
	if ((t & SAMPLE_IP) && (err = take_u64(&w, &s->ip)))
		return err;
	if (t & SAMPLE_TID) {
		if ((err = take_u64(&w, &v)))
			return err;
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if ((t & SAMPLE_TIME) && (err = take_u64(&w, &s->time)))
		return err;
	if ((t & SAMPLE_ADDR) && (err = take_u64(&w, &s->addr)))
		return err;
	if ((t & SAMPLE_ID) && (err = take_u64(&w, &s->id)))
		return err;
	if ((t & SAMPLE_STREAM_ID) && (err = take_u64(&w, &s->stream_id)))
		return err;
	if (t & SAMPLE_CPU) {
		if ((err = take_u64(&w, &v)))
			return err;
		s->cpu = (uint32_t)v;
	}
	if ((t & SAMPLE_PERIOD) && (err = take_u64(&w, &s->period)))
		return err;
	if ((t & SAMPLE_READ) && (err = parse_read(s, attr, &w)))
		return err;
	return parse_tail(s, attr, &w);
}

int sample__parse(struct sample *s, const struct event_attr *attr, const void *rec,
		  size_t size)
{
	sample_defaults(s, attr, size >= 8 ? bytes__u16((const unsigned char *)rec + 4) : 0);
	return parse_fields(s, attr, rec, size);
}

int sample__check(const struct event_attr *attr, const void *rec, size_t size)
{
	struct sample s;	/* written, never read out: no defaults to set */

	return parse_fields(&s, attr, rec, size);
}

int sample__parse_id_trailer(struct sample *s, const struct event_attr *attr,
			     const void *rec, size_t size)
{
	const unsigned char *b = rec;
	uint64_t t = attr->sample_type, v;
	size_t pos;

	sample_defaults(s, attr, size >= 8 ? bytes__u16(b + 4) : 0);
	if (!attr__flag(attr, ATTR_SAMPLE_ID_ALL))
		return 0;
	if (size < RECORD_HEADER_SIZE + attr__id_hdr_size(attr))
		return -DIAG_BAD_RECORD;
	pos = size;
	if (t & SAMPLE_IDENTIFIER) {
		pos -= 8;
		s->id = bytes__u64(b + pos);
	}
	if (t & SAMPLE_CPU) {
		pos -= 8;
		s->cpu = bytes__u32(b + pos);
	}
	if (t & SAMPLE_STREAM_ID) {
		pos -= 8;
		s->stream_id = bytes__u64(b + pos);
	}
	if (t & SAMPLE_ID) {
		pos -= 8;
		s->id = bytes__u64(b + pos);
	}
	if (t & SAMPLE_TIME) {
		pos -= 8;
		s->time = bytes__u64(b + pos);
	}
	if (t & SAMPLE_TID) {
		pos -= 8;
		v = bytes__u64(b + pos);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	return 0;
}

static void exchange_halves(unsigned char *p)
{
	uint64_t v = bytes__u64(p);
	bytes__put_u64(p, v << 32 | v >> 32);
}

void sample__unswap_pairs(const struct event_attr *attr, void *rec, size_t size)
{
	unsigned char *b = rec;
	uint64_t t = attr->sample_type;
	size_t pos;

	if (size < RECORD_HEADER_SIZE)
		return;
	if (bytes__u32(b) != REC_SAMPLE) {
		if (!attr__flag(attr, ATTR_SAMPLE_ID_ALL) ||
		    size < RECORD_HEADER_SIZE + attr__id_hdr_size(attr))
			return;
		pos = size - 8 * !!(t & SAMPLE_IDENTIFIER);
		if (t & SAMPLE_CPU)
			exchange_halves(b + (pos -= 8));
		pos -= 8 * (!!(t & SAMPLE_STREAM_ID) + !!(t & SAMPLE_ID) + !!(t & SAMPLE_TIME));
		if (t & SAMPLE_TID)
			exchange_halves(b + pos - 8);
		return;
	}
	pos = RECORD_HEADER_SIZE + 8 * (!!(t & SAMPLE_IDENTIFIER) + !!(t & SAMPLE_IP));
	if ((t & SAMPLE_TID) && pos + 8 <= size)
		exchange_halves(b + pos);
	pos += 8 * (!!(t & SAMPLE_TID) + !!(t & SAMPLE_TIME) + !!(t & SAMPLE_ADDR) +
		    !!(t & SAMPLE_ID) + !!(t & SAMPLE_STREAM_ID));
	if ((t & SAMPLE_CPU) && pos + 8 <= size)
		exchange_halves(b + pos);
	/* Not handled: the RAW size u32 (tracepoint payloads of cross-endian files), whose
	 * position depends on the callchain before it; such samples fail to parse. */
}
