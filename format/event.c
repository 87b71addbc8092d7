#include "format/event.h"

#include <string.h>	/* memchr, memcpy, memset */

#include "format/bytes.h"
#include "format/diag.h"
#include "banned.h"

/*
 * Field reads at fixed offsets. A field that lies entirely inside the record is read
 * and counted (while no earlier field was missing); one that does not reads as 0 and
 * stops the count. Offsets only grow within a view, so the count is the number of
 * leading fields inside the record.
 */
struct fields {
	const unsigned char *p;
	size_t size;
	unsigned nr;		/* leading fields inside the record */
	bool gap;		/* a field was missing */
};

static bool fits(struct fields *f, size_t off, size_t len)
{
	if (off <= f->size && f->size - off >= len) {
		if (!f->gap)
			f->nr++;
		return true;
	}
	f->gap = true;
	return false;
}

static uint64_t get_u64(struct fields *f, size_t off)
{
	return fits(f, off, 8) ? bytes__u64(f->p + off) : 0;
}

static uint32_t get_u32(struct fields *f, size_t off)
{
	return fits(f, off, 4) ? bytes__u32(f->p + off) : 0;
}

static uint16_t get_u16(struct fields *f, size_t off)
{
	return fits(f, off, 2) ? bytes__u16(f->p + off) : 0;
}

static uint8_t get_u8(struct fields *f, size_t off)
{
	return fits(f, off, 1) ? f->p[off] : 0;
}

/* len bytes at off into dst, byte by byte as far as the record goes (0 beyond);
 * counted as one field when all of them are inside. */
static void get_bytes(struct fields *f, size_t off, unsigned char *dst, size_t len)
{
	memset(dst, 0, len);
	for (size_t i = 0; i < len && off + i < f->size; i++)
		dst[i] = f->p[off + i];
	fits(f, off, len);
}

/* The string at off: up to the first NUL or the record end. Counted when at least
 * one byte is inside. */
static void get_str(struct fields *f, size_t off, struct event_str *s)
{
	const unsigned char *nul;

	s->s = NULL;
	s->len = 0;
	s->nul = false;
	if (!fits(f, off, 1))
		return;
	s->s = (const char *)f->p + off;
	nul = memchr(f->p + off, 0, f->size - off);
	s->nul = nul != NULL;
	s->len = nul ? (size_t)(nul - (f->p + off)) : f->size - off;
}

/* The bytes from off to the record end (NULL, 0 when none); counted when non-empty. */
static const unsigned char *get_rest(struct fields *f, size_t off, size_t *len)
{
	if (!fits(f, off, 1)) {
		*len = 0;
		return NULL;
	}
	*len = f->size - off;
	return f->p + off;
}

/* Entries of elem bytes from off that are inside the record, at most nr. */
static uint64_t room(const struct fields *f, size_t off, size_t elem, uint64_t nr)
{
	uint64_t n = off < f->size ? (f->size - off) / elem : 0;

	return nr < n ? nr : n;
}

static void fields_init(struct fields *f, const void *rec, size_t size)
{
	f->p = rec;
	f->size = size;
	f->nr = 0;
	f->gap = false;
}

static uint16_t misc_of(const void *rec, size_t size)
{
	return size >= RECORD_HEADER_SIZE ? bytes__u16((const unsigned char *)rec + 4) : 0;
}

static int done(const struct fields *f, unsigned *nfields, unsigned want)
{
	*nfields = f->nr;
	return f->size >= RECORD_HEADER_SIZE && f->nr >= want ? 0 : -DIAG_RECORD_SIZE;
}

/* --- kernel records ---------------------------------------------------------- */

int event_mmap__decode(const void *rec, size_t size, struct event_mmap *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->misc = misc_of(rec, size);
	out->pid = get_u32(&f, 8);
	out->tid = get_u32(&f, 12);
	out->start = get_u64(&f, 16);
	out->len = get_u64(&f, 24);
	out->pgoff = get_u64(&f, 32);
	get_str(&f, 40, &out->filename);
	return done(&f, &out->nfields, EVENT_MMAP_NFIELDS);
}

int event_mmap2__decode(const void *rec, size_t size, struct event_mmap2 *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->misc = misc_of(rec, size);
	out->has_build_id = out->misc & MISC_MMAP_BUILD_ID;
	out->pid = get_u32(&f, 8);
	out->tid = get_u32(&f, 12);
	out->start = get_u64(&f, 16);
	out->len = get_u64(&f, 24);
	out->pgoff = get_u64(&f, 32);
	out->maj = out->min = 0;
	out->ino = out->ino_generation = 0;
	out->build_id_size = 0;
	memset(out->build_id, 0, sizeof(out->build_id));
	if (out->has_build_id) {
		const unsigned char *p = rec;

		out->build_id_size = get_u8(&f, 40);
		get_bytes(&f, 44, out->build_id, EVENT_BUILD_ID_MAX);
		/* perf reads the ids through the union all the same: its maps' and dsos'
		 * maj, min, ino and ino_generation are these bytes (--mmaps prints the
		 * ino); not counted as fields */
		if (size >= 48)
			out->maj = bytes__u32(p + 40), out->min = bytes__u32(p + 44);
		if (size >= 64)
			out->ino = bytes__u64(p + 48), out->ino_generation = bytes__u64(p + 56);
	} else {
		out->maj = get_u32(&f, 40);
		out->min = get_u32(&f, 44);
		out->ino = get_u64(&f, 48);
		out->ino_generation = get_u64(&f, 56);
	}
	out->prot = get_u32(&f, 64);
	out->flags = get_u32(&f, 68);
	get_str(&f, 72, &out->filename);
	return done(&f, &out->nfields, out->has_build_id ? EVENT_MMAP2_BUILD_ID_NFIELDS
							 : EVENT_MMAP2_NFIELDS);
}

int event_comm__decode(const void *rec, size_t size, struct event_comm *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->misc = misc_of(rec, size);
	out->pid = get_u32(&f, 8);
	out->tid = get_u32(&f, 12);
	get_str(&f, 16, &out->comm);
	return done(&f, &out->nfields, EVENT_COMM_NFIELDS);
}

int event_fork__decode(const void *rec, size_t size, struct event_fork *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->misc = misc_of(rec, size);
	out->pid = get_u32(&f, 8);
	out->ppid = get_u32(&f, 12);
	out->tid = get_u32(&f, 16);
	out->ptid = get_u32(&f, 20);
	out->time = get_u64(&f, 24);
	return done(&f, &out->nfields, EVENT_FORK_NFIELDS);
}

int event_lost__decode(const void *rec, size_t size, struct event_lost *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->id = get_u64(&f, 8);
	out->lost = get_u64(&f, 16);
	return done(&f, &out->nfields, EVENT_LOST_NFIELDS);
}

int event_lost_samples__decode(const void *rec, size_t size, struct event_lost_samples *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->lost = get_u64(&f, 8);
	return done(&f, &out->nfields, EVENT_LOST_SAMPLES_NFIELDS);
}

int event_read__decode(const void *rec, size_t size, struct event_read *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->pid = get_u32(&f, 8);
	out->tid = get_u32(&f, 12);
	out->value = get_u64(&f, 16);
	out->time_enabled = get_u64(&f, 24);
	out->time_running = get_u64(&f, 32);
	out->id = get_u64(&f, 40);
	out->lost = get_u64(&f, 48);
	return done(&f, &out->nfields, EVENT_READ_NFIELDS);
}

int event_throttle__decode(const void *rec, size_t size, struct event_throttle *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->time = get_u64(&f, 8);
	out->id = get_u64(&f, 16);
	out->stream_id = get_u64(&f, 24);
	return done(&f, &out->nfields, EVENT_THROTTLE_NFIELDS);
}

int event_switch__decode(const void *rec, size_t size, struct event_switch *out)
{
	struct fields f;
	bool wide = size >= RECORD_HEADER_SIZE &&
		    bytes__u32(rec) == REC_SWITCH_CPU_WIDE;

	fields_init(&f, rec, size);
	out->misc = misc_of(rec, size);
	out->out = out->misc & MISC_SWITCH_OUT;
	out->preempt = out->misc & MISC_SWITCH_OUT_PREEMPT;
	out->next_prev_pid = out->next_prev_tid = 0;
	if (wide) {
		out->next_prev_pid = get_u32(&f, 8);
		out->next_prev_tid = get_u32(&f, 12);
	}
	return done(&f, &out->nfields, wide ? EVENT_SWITCH_NFIELDS
					    : EVENT_SWITCH_PLAIN_NFIELDS);
}

int event_namespaces__decode(const void *rec, size_t size, struct event_namespaces *out)
{
	struct fields f;
	int err;

	fields_init(&f, rec, size);
	out->pid = get_u32(&f, 8);
	out->tid = get_u32(&f, 12);
	out->nr_namespaces = get_u64(&f, 16);
	out->nr_fit = room(&f, 24, 16, out->nr_namespaces);
	out->link_info = out->nr_fit ? f.p + 24 : NULL;
	if (!f.gap && out->nr_fit == out->nr_namespaces)
		f.nr++;		/* the array, complete */
	err = done(&f, &out->nfields, EVENT_NAMESPACES_NFIELDS);
	return err;
}

bool event_namespaces__link(const struct event_namespaces *ev, uint64_t i,
			    uint64_t *dev, uint64_t *ino)
{
	if (i >= ev->nr_fit)
		return false;
	*dev = bytes__u64(ev->link_info + 16 * i);
	*ino = bytes__u64(ev->link_info + 16 * i + 8);
	return true;
}

int event_ksymbol__decode(const void *rec, size_t size, struct event_ksymbol *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->addr = get_u64(&f, 8);
	out->len = get_u32(&f, 16);
	out->ksym_type = get_u16(&f, 20);
	out->flags = get_u16(&f, 22);
	get_str(&f, 24, &out->name);
	return done(&f, &out->nfields, EVENT_KSYMBOL_NFIELDS);
}

int event_bpf_event__decode(const void *rec, size_t size, struct event_bpf_event *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->type = get_u16(&f, 8);
	out->flags = get_u16(&f, 10);
	out->id = get_u32(&f, 12);
	get_bytes(&f, 16, out->tag, EVENT_BPF_TAG_SIZE);
	return done(&f, &out->nfields, EVENT_BPF_EVENT_NFIELDS);
}

int event_cgroup__decode(const void *rec, size_t size, struct event_cgroup *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->id = get_u64(&f, 8);
	get_str(&f, 16, &out->path);
	return done(&f, &out->nfields, EVENT_CGROUP_NFIELDS);
}

int event_text_poke__decode(const void *rec, size_t size, struct event_text_poke *out)
{
	struct fields f;
	int err;

	fields_init(&f, rec, size);
	out->addr = get_u64(&f, 8);
	out->old_len = get_u16(&f, 16);
	out->new_len = get_u16(&f, 18);
	out->bytes = size > 20 ? f.p + 20 : NULL;
	out->bytes_avail = size > 20 ? size - 20 : 0;
	err = done(&f, &out->nfields, EVENT_TEXT_POKE_NFIELDS);
	if (!err && (size_t)out->old_len + out->new_len > out->bytes_avail)
		err = -DIAG_RECORD_SIZE;
	return err;
}

int event_aux__decode(const void *rec, size_t size, struct event_aux *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->aux_offset = get_u64(&f, 8);
	out->aux_size = get_u64(&f, 16);
	out->flags = get_u64(&f, 24);
	return done(&f, &out->nfields, EVENT_AUX_NFIELDS);
}

int event_itrace_start__decode(const void *rec, size_t size, struct event_itrace_start *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->pid = get_u32(&f, 8);
	out->tid = get_u32(&f, 12);
	return done(&f, &out->nfields, EVENT_ITRACE_START_NFIELDS);
}

int event_aux_output_hw_id__decode(const void *rec, size_t size,
				   struct event_aux_output_hw_id *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->hw_id = get_u64(&f, 8);
	return done(&f, &out->nfields, EVENT_AUX_OUTPUT_HW_ID_NFIELDS);
}

/* --- records written by perf --------------------------------------------------- */

int event_id_index__decode(const void *rec, size_t size, struct event_id_index *out)
{
	struct fields f;
	size_t body = size >= 16 ? size - 16 : 0;
	int err;

	fields_init(&f, rec, size);
	out->nr = get_u64(&f, 8);
	out->max_nr = body / 32;
	out->has_vcpu = out->nr <= out->max_nr && body >= out->nr * 48;
	out->entries = size > 16 ? f.p + 16 : NULL;
	err = done(&f, &out->nfields, EVENT_ID_INDEX_NFIELDS);
	if (!err && out->nr > out->max_nr)
		err = -DIAG_RECORD_SIZE;
	return err;
}

bool event_id_index__entry(const struct event_id_index *ev, uint64_t i,
			   struct event_id_index_entry *out)
{
	const unsigned char *e, *e2;

	if (i >= ev->nr || ev->nr > ev->max_nr)
		return false;
	e = ev->entries + 32 * i;
	out->id = bytes__u64(e);
	out->idx = bytes__u64(e + 8);
	out->cpu = bytes__u64(e + 16);
	out->tid = bytes__u64(e + 24);
	out->machine_pid = out->vcpu = 0;
	if (ev->has_vcpu) {
		e2 = ev->entries + 32 * ev->nr + 16 * i;
		out->machine_pid = bytes__u64(e2);
		out->vcpu = bytes__u64(e2 + 8);
	}
	return true;
}

int event_thread_map__decode(const void *rec, size_t size, struct event_thread_map *out)
{
	struct fields f;
	int err;

	fields_init(&f, rec, size);
	out->nr = get_u64(&f, 8);
	out->nr_fit = room(&f, 16, EVENT_THREAD_MAP_ENTRY, out->nr);
	out->entries = out->nr_fit ? f.p + 16 : NULL;
	err = done(&f, &out->nfields, EVENT_THREAD_MAP_NFIELDS);
	if (!err && out->nr_fit < out->nr)
		err = -DIAG_RECORD_SIZE;
	return err;
}

bool event_thread_map__entry(const struct event_thread_map *ev, uint64_t i,
			     uint64_t *pid, struct event_str *comm)
{
	const unsigned char *e, *nul;

	if (i >= ev->nr_fit)
		return false;
	e = ev->entries + EVENT_THREAD_MAP_ENTRY * i;
	*pid = bytes__u64(e);
	nul = memchr(e + 8, 0, 16);
	comm->s = (const char *)e + 8;
	comm->nul = nul != NULL;
	comm->len = nul ? (size_t)(nul - (e + 8)) : 16;
	return true;
}

int event_cpu_map__decode(const void *rec, size_t size, struct event_cpu_map *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->data = size > 8 ? f.p + 8 : NULL;
	out->data_len = size > 8 ? size - 8 : 0;
	fits(&f, 8, 2);		/* the u16 type */
	return done(&f, &out->nfields, EVENT_CPU_MAP_NFIELDS);
}

int event_stat_config__decode(const void *rec, size_t size, struct event_stat_config *out)
{
	struct fields f;
	int err;

	fields_init(&f, rec, size);
	out->nr = get_u64(&f, 8);
	out->nr_fit = room(&f, 16, 16, out->nr);
	out->data = out->nr_fit ? f.p + 16 : NULL;
	err = done(&f, &out->nfields, EVENT_STAT_CONFIG_NFIELDS);
	if (!err && out->nr_fit < out->nr)
		err = -DIAG_RECORD_SIZE;
	return err;
}

bool event_stat_config__entry(const struct event_stat_config *ev, uint64_t i,
			      uint64_t *tag, uint64_t *val)
{
	if (i >= ev->nr_fit)
		return false;
	*tag = bytes__u64(ev->data + 16 * i);
	*val = bytes__u64(ev->data + 16 * i + 8);
	return true;
}

int event_stat__decode(const void *rec, size_t size, struct event_stat *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->id = get_u64(&f, 8);
	out->cpu = get_u32(&f, 16);
	out->thread = get_u32(&f, 20);
	out->val = get_u64(&f, 24);
	out->ena = get_u64(&f, 32);
	out->run = get_u64(&f, 40);
	return done(&f, &out->nfields, EVENT_STAT_NFIELDS);
}

int event_stat_round__decode(const void *rec, size_t size, struct event_stat_round *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->type = get_u64(&f, 8);
	out->time = get_u64(&f, 16);
	return done(&f, &out->nfields, EVENT_STAT_ROUND_NFIELDS);
}

int event_event_update__decode(const void *rec, size_t size, struct event_event_update *out)
{
	struct fields f, payload;
	uint64_t bits;
	int err;

	fields_init(&f, rec, size);
	out->type = get_u64(&f, 8);
	out->id = get_u64(&f, 16);
	out->data = get_rest(&f, 24, &out->data_len);
	/* the payload's typed readings, each bounded by the record on its own */
	fields_init(&payload, rec, size);
	get_str(&payload, 24, &out->str);
	bits = get_u64(&payload, 24);
	out->has_scale = payload.nr == 2;
	memcpy(&out->scale, &bits, sizeof(out->scale));
	err = done(&f, &out->nfields, EVENT_UPDATE_NFIELDS);
	if (!err && out->type == EVENT_UPDATE_SCALE && !out->has_scale)
		err = -DIAG_RECORD_SIZE;
	return err;
}

int event_time_conv__decode(const void *rec, size_t size, struct event_time_conv *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->time_shift = get_u64(&f, 8);
	out->time_mult = get_u64(&f, 16);
	out->time_zero = get_u64(&f, 24);
	out->extended = size > 32;
	out->time_cycles = out->time_mask = 0;
	out->cap_user_time_zero = out->cap_user_time_short = 0;
	if (out->extended) {
		out->time_cycles = get_u64(&f, 32);
		out->time_mask = get_u64(&f, 40);
		out->cap_user_time_zero = get_u8(&f, 48);
		out->cap_user_time_short = get_u8(&f, 49);
	}
	return done(&f, &out->nfields, out->extended ? EVENT_TIME_CONV_EXT_NFIELDS
						     : EVENT_TIME_CONV_NFIELDS);
}

int event_tracing_data__decode(const void *rec, size_t size,
			       struct event_tracing_data *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->size = get_u32(&f, 8);
	return done(&f, &out->nfields, EVENT_TRACING_DATA_NFIELDS);
}

int event_build_id__decode(const void *rec, size_t size, struct event_build_id *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->misc = misc_of(rec, size);
	out->pid = (int32_t)get_u32(&f, 8);
	get_bytes(&f, 12, out->build_id, EVENT_BUILD_ID_MAX);
	out->size = get_u8(&f, 32);
	get_str(&f, 36, &out->filename);
	return done(&f, &out->nfields, EVENT_BUILD_ID_NFIELDS);
}

int event_auxtrace_error__decode(const void *rec, size_t size,
				 struct event_auxtrace_error *out)
{
	struct fields f;
	const unsigned char *nul;
	unsigned char unused[EVENT_AUXTRACE_ERROR_MSG];

	fields_init(&f, rec, size);
	out->type = get_u32(&f, 8);
	out->code = get_u32(&f, 12);
	out->cpu = get_u32(&f, 16);
	out->pid = get_u32(&f, 20);
	out->tid = get_u32(&f, 24);
	out->fmt = get_u32(&f, 28);
	out->ip = get_u64(&f, 32);
	out->time = get_u64(&f, 40);
	/* msg: bounded by its 64 bytes and by the record */
	out->msg.s = NULL;
	out->msg.len = 0;
	out->msg.nul = false;
	if (size > 48) {
		size_t max = size - 48 < EVENT_AUXTRACE_ERROR_MSG ? size - 48
								  : EVENT_AUXTRACE_ERROR_MSG;

		out->msg.s = (const char *)f.p + 48;
		nul = memchr(f.p + 48, 0, max);
		out->msg.nul = nul != NULL;
		out->msg.len = nul ? (size_t)(nul - (f.p + 48)) : max;
	}
	get_bytes(&f, 48, unused, sizeof(unused));	/* counts msg when all inside */
	out->machine_pid = get_u32(&f, 112);
	out->vcpu = get_u32(&f, 116);
	out->has_machine_pid = size >= 120;
	return done(&f, &out->nfields, EVENT_AUXTRACE_ERROR_NFIELDS);
}

int event_auxtrace_info__decode(const void *rec, size_t size,
				struct event_auxtrace_info *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->type = get_u32(&f, 8);
	out->reserved = get_u32(&f, 12);
	out->priv = size > 16 ? f.p + 16 : NULL;
	out->priv_len = size > 16 ? size - 16 : 0;
	return done(&f, &out->nfields, EVENT_AUXTRACE_INFO_NFIELDS);
}

int event_auxtrace__decode(const void *rec, size_t size, struct event_auxtrace *out)
{
	struct fields f;

	fields_init(&f, rec, size);
	out->size = get_u64(&f, 8);
	out->offset = get_u64(&f, 16);
	out->reference = get_u64(&f, 24);
	out->idx = get_u32(&f, 32);
	out->tid = get_u32(&f, 36);
	out->cpu = get_u32(&f, 40);
	out->reserved = get_u32(&f, 44);
	return done(&f, &out->nfields, EVENT_AUXTRACE_NFIELDS);
}
