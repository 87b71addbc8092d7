/*
 * script - dirscript's run: the session, the machine, perf script's fields per event
 * type, the filters, and one pass over the records in perf's order (script.h).
 */
#include "script/script.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, strtol, strtoul */
#include <string.h>	/* strcmp, strlen, strncmp */

#include "cli/progress.h"
#include "cli/time-range.h"
#include "format/attr.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "format/feature.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/srcline.h"
#include "machine/unwind.h"
#include "machine/symbol.h"
#include "resolve/trace-sort.h"
#include "reader/session.h"
#include "resolve/filter.h"
#include "resolve/pipeline.h"
#include "util/array.h"
#include "util/workqueue.h"
#include "script/flame.h"
#include "script/fold.h"
#include "script/format.h"
#include "script/speedscope.h"
#include "util/hugemem.h"
#include "util/outpath.h"
#include "util/phase.h"
#include "util/strtab.h"
#include "banned.h"

/* perf's PERF_MAX_STACK_DEPTH: perf script's default --max-stack. */
#define SCRIPT_MAX_STACK 127
/* --max-stack above this is taken as this: a callchain record holds at most 65535
 * bytes of a u16 header.size, so 8191 entries, and an unwound stack fewer */
#define SCRIPT_MAX_STACK_LIMIT 8192u
/* perf script's output types: the attr types below PERF_TYPE_MAX, and "other". */
enum { OUT_TYPES = 7, OUT_OTHER = 6 };

struct ev_cfg {
	unsigned fields;	/* SCRIPT_F_* printed for this event */
	bool chain;		/* its callchains are printed */
};

struct run {
	const struct script_opts *o;
	struct machine *m;		/* borrowed */
	struct pipeline *pipe;		/* owned: resolves the samples (resolve/) */
	struct ev_cfg *cfg;		/* owned, per evsel index */
	int name_width;
	int src_width;			/* the data_src column's width so far (perf
					 * keeps one for the whole run): prepare() */
	struct script_buf scratch;	/* prepare(): a data_src column measured */
	struct script_buf pname;	/* --speedscope: its process name (emit()) */
	struct script_fold *fold;	/* owned, --folded */
	struct script_fold **efold;	/* owned, --flamegraph: per evsel index,
					 * annotated with kinds */
	size_t nr_efold;
	struct script_speedscope *ss;	/* owned, --speedscope */
	bool stacks;			/* any of the three: frames are gathered */
	bool fold_workers;		/* --folded, --flamegraph without --speedscope:
					 * each worker counts its samples' stacks in
					 * sets of its own, merged once at the end */
	int merge_err;			/* -ENOMEM of that merge */
	unsigned max_stack;
	bool unwind;			/* --call-graph dwarf stacks: each worker has
					 * an unwinder */
	const char *arch;		/* the recording's (ARCH feature), or NULL */
	struct unwinder *uw_first;	/* the first worker's (the others share its
					 * files); borrowed */
	struct time_ranges time;	/* --time (nr 0: every sample) */
	struct trace_sort *trace;	/* owned: tracepoint formats; NULL = none */
	struct diag *d;			/* borrowed: the run's diagnostic */
	struct sample_filter filter;	/* owned: -C, --comms, --pid, --tid, --dsos
					 * (resolve/filter.h) */
	FILE *fp;
	bool write_failed;
	bool ahead;			/* the kernel's symbols may come from the build-id
					 * cache's copy read ahead (dsos_opts.kallsyms_ahead):
					 * no output is final before its check */
	bool hold;			/* ahead, text on stdout: held in `held` while
					 * the check has no answer (put_text()) */
	struct script_buf held;
	bool again;			/* the copy differs from the running kernel's
					 * file: nothing was written, the caller runs
					 * again without reading ahead */
	const struct session *s;	/* the recording (diagnostics' paths, offsets) */
	struct progress prog;	/* bytes of records replayed (o->progress: a bar) */
};

static unsigned output_type(uint32_t type)
{
	return type < OUT_OTHER ? type : OUT_OTHER;
}

/* perf 6.1's default fields of an output type (builtin-script.c's output[]). */
static unsigned default_fields(unsigned otype)
{
	const unsigned base = SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_CPU | SCRIPT_F_TIME |
			      SCRIPT_F_EVENT | SCRIPT_F_IP | SCRIPT_F_SYM |
			      SCRIPT_F_SYMOFF | SCRIPT_F_DSO | SCRIPT_F_PERIOD;

	if (otype == ATTR_TYPE_TRACEPOINT)
		return SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_CPU | SCRIPT_F_TIME |
		       SCRIPT_F_EVENT | SCRIPT_F_TRACE;
	if (otype == ATTR_TYPE_RAW)
		return base | SCRIPT_F_RAW_EXTRA;
	return base;
}

/* The fields that need a sample_type bit, and perf's name of that bit. */
static const struct {
	unsigned field;
	uint64_t stype;
	const char *what;
} needs[] = {
	{ SCRIPT_F_IP, SAMPLE_IP, "IP" },
	{ SCRIPT_F_TID, SAMPLE_TID, "TID" },
	{ SCRIPT_F_PID, SAMPLE_TID, "TID" },
	{ SCRIPT_F_TIME, SAMPLE_TIME, "TIME" },
	{ SCRIPT_F_CPU, SAMPLE_CPU, "CPU" },
	{ SCRIPT_F_ADDR, SAMPLE_ADDR, "ADDR" },
	{ SCRIPT_F_DATA_SRC, SAMPLE_DATA_SRC, "DATA_SRC" },
	{ SCRIPT_F_WEIGHT, SAMPLE_WEIGHT | SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
	{ SCRIPT_F_INS_LAT, SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ SCRIPT_F_PHYS_ADDR, SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ SCRIPT_F_DATA_PAGE_SIZE, SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ SCRIPT_F_CODE_PAGE_SIZE, SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
};

/*
 * perf's perf_session__check_output_opt(): each output type's fields are checked
 * against the first event of that type; a default field the event does not record
 * is dropped, a field asked for with -F is an error.
 */
static int check_fields(struct run *r, struct evlist *el, const char *path, bool pipe,
			struct diag *d)
{
	unsigned fields[OUT_TYPES];
	bool seen[OUT_TYPES] = { false }, use_chain = pipe, tp_chain = false;
	unsigned user = r->o->fields;

	for (size_t i = 0; i < el->nr; i++)
		use_chain |= !!(el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN);
	for (unsigned t = 0; t < OUT_TYPES; t++)
		fields[t] = user ? user : default_fields(t);
	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];
		unsigned t = output_type(ev->attr.type);

		if (seen[t])
			continue;
		seen[t] = true;
		for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++) {
			if (!(fields[t] & needs[k].field) || (ev->attr.sample_type & needs[k].stype))
				continue;
			if (user)
				return diag__set(d, path, DIAG_NO_OFFSET, -EINVAL,
						 "Samples for '%s' event do not have %s attribute "
						 "set. Cannot print '%s' field.", evsel__name(ev),
						 needs[k].what, script_field__name(needs[k].field));
			fields[t] &= ~needs[k].field;
		}
		/* perf prints the callchains of tracepoints, with symbols */
		if (!user && t == ATTR_TYPE_TRACEPOINT && use_chain && !tp_chain &&
		    (ev->attr.sample_type & SAMPLE_CALLCHAIN)) {
			tp_chain = true;
			fields[t] |= SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_SYMOFF | SCRIPT_F_DSO;
		}
	}
	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];
		unsigned f = fields[output_type(ev->attr.type)];
		size_t len = strlen(evsel__name(ev));

		/* the payload is a tracepoint's only */
		if (ev->attr.type != ATTR_TYPE_TRACEPOINT)
			f &= ~SCRIPT_F_TRACE;
		r->cfg[i].fields = f;
		r->cfg[i].chain = use_chain && (ev->attr.sample_type & SAMPLE_CALLCHAIN);
		if ((int)len > r->name_width)
			r->name_width = (int)len;
	}
	return 0;
}

/* ---- filters --------------------------------------------------------------------- */

/* ---- samples: resolved and formatted on the pipeline's workers ---------------- */

/* Callchain lines a worker remembers (direct-mapped by map and address): most
 * frames of a profile are the same call sites again, their text the same. */
#define FRAME_SLOTS 8192
struct frame_slot {
	uint64_t map_id, ip;	/* the frame's map (0: none) and address */
	unsigned fields;
	uint16_t len;		/* bytes of text; 0: empty */
	char text[182];		/* "\t<location>\n" */
};

/* A worker's own state (resolve/pipeline.h: thread_size). */
struct script_worker {
	struct frame_slot *fcache;	/* owned: FRAME_SLOTS, or NULL (yet) */
	bool want_fcache;		/* the lines are remembered: fcache made at
					 * its first use, on the worker */
	struct unwinder *uw;		/* owned: --call-graph dwarf stacks; else NULL */
	struct srclines *inl;		/* owned with uw: inlined functions of unwound
					 * frames */
	struct strtab inl_names;	/* inlined names of folded frames (kept until
					 * the stacks are written) */
	uint64_t *user_ips;		/* owned with uw: one sample's unwound frames
					 * (max_stack + 1) */
	struct script_fold *fold;	/* owned, run.fold_workers: its --folded set */
	struct script_fold **efold;	/* owned, run.fold_workers: its --flamegraph
					 * sets (run.nr_efold) */
};

/* One folded sample, as a chunk keeps it for emit(). */
struct stack_entry {
	size_t head_off, head_len;	/* its header line in the chunk's text */
	size_t frame_start, nr_frames;	/* its frames in the chunk's frames */
	size_t evsel_idx;
	const char *event, *comm;	/* borrowed */
	int32_t pid;
};

/* What one job writes (resolve/pipeline.h: chunk_size). */
struct script_chunk {
	struct script_buf out;		/* text, in sample order; --folded & co: the
					 * header lines */
	struct script_fold_frame *frames;	/* --folded & co */
	size_t nr_frames, cap_frames;
	struct stack_entry *stacks;
	size_t nr_stacks, cap_stacks;
};

/* One sample() call: who resolves, into what. */
struct sx {
	const struct run *r;
	struct script_worker *w;
	struct script_chunk *c;
	struct pipeline_thread *pt;
	const struct resolved_sample *rs;
	const char *inl_text;		/* resolve(): the frame's inline list, or NULL */
	int inl_err;			/* -ENOMEM from an inline lookup, else 0 */
	size_t frames_mark;		/* c->nr_frames when the sample started */
};

/* perf's machine__resolve() --dsos filter: the sample's dso. */
static bool dso_filtered(struct sx *x, uint16_t cpumode, uint64_t ip)
{
	struct addr_location al;

	if (!x->r->filter.o.dsos)
		return false;
	pipeline__resolve_map(x->pt, x->rs, cpumode, ip, &al);
	return sample_filter__dso(&x->r->filter, al.dso);
}

/* The location perf script prints of @p ip resolved to @p al. */
static void loc_of(const struct addr_location *al, uint64_t ip, struct script_loc *l)
{
	l->ip = ip;
	l->map_addr = al->addr;
	l->dso = al->dso ? dso__name(al->dso) : NULL;
	l->module = al->dso && al->dso->kind == DSO_KIND_MODULE;
	l->sym = al->sym ? symbol__name(al->sym) : NULL;
	l->inlined = false;
	l->symoff = 0;
	if (al->sym)	/* perf's __symbol__fprintf_symname_offs() */
		l->symoff = al->addr < al->sym->end ? al->addr - al->sym->start :
			    al->addr - al->map_start - al->sym->start;
}

/* One address resolved as perf script prints it.  @return 0, PIPELINE_AGAIN. */
static int resolve(struct sx *x, uint16_t cpumode, uint64_t ip, struct script_loc *l)
{
	struct addr_location al;
	int err = pipeline__resolve(x->pt, x->rs, cpumode & ~CALLCHAIN_UNWOUND, ip, &al);

	if (err)
		return err;
	loc_of(&al, ip, l);
	/* an unwound frame with a symbol: its inlined functions (perf's
	 * append_inlines()), kept for the frame walkers */
	x->inl_text = NULL;
	if ((cpumode & CALLCHAIN_UNWOUND) && al.sym && al.dso && x->w->inl) {
		x->inl_text = srclines__inlines(x->w->inl, al.dso, al.addr);
		if (!x->inl_text)
			x->inl_err = -ENOMEM;
		else if (!*x->inl_text)
			x->inl_text = NULL;
	}
	return 0;
}

/* Each function of an inline list as its own location: perf's new_inline_sym()
 * keeps the frame's symbol for the name it has, others are "inlined". */
static int each_inline(struct sx *x, const struct script_loc *l,
		       int (*fn)(struct sx *x, const struct script_loc *l, void *ctx),
		       void *ctx)
{
	struct inline_record rec[INLINE_RECORDS_MAX];
	size_t n = srclines__inline_records(x->inl_text, rec, INLINE_RECORDS_MAX);
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		struct script_loc il = *l;
		char buf[1024];

		snprintf(buf, sizeof(buf), "%.*s", (int)rec[i].name_len, rec[i].name);
		il.inlined = strcmp(buf, l->sym) != 0;
		il.sym = il.inlined ? buf : l->sym;
		err = fn(x, &il, ctx);
	}
	return err ? err : x->inl_err;
}

struct chain_ctx {
	struct sx *x;
	unsigned fields;
	uint16_t cpumode;	/* fold_frame(): the frame's, for its inlined ones */
};

static int put_frame(struct sx *x, const struct script_loc *l, void *ctx)
{
	const struct chain_ctx *c = ctx;
	int err;

	if ((err = script_buf__put(&x->c->out, "\t", 1)) ||
	    (err = script_buf__loc(&x->c->out, c->fields, l)))
		return err;
	return script_buf__put(&x->c->out, "\n", 1);
}

static uint64_t frame_hash(uint64_t map_id, uint64_t ip)
{
	uint64_t h = (map_id * 0x9e3779b97f4a7c15ULL) ^ ip;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

/* A frame that is not expanded into inlined functions, through the worker's
 * cache of lines: its map found, its line copied where the cache has it, else
 * resolved, printed and remembered.  @return 0, PIPELINE_AGAIN, -ENOMEM. */
static int print_cached_frame(struct chain_ctx *c, uint16_t cpumode, uint64_t ip)
{
	struct sx *x = c->x;
	struct script_buf *out = &x->c->out;
	struct addr_location al;
	struct frame_slot *fs;
	struct script_loc l;
	size_t mark = out->len;
	int err;

	/* made on the worker that uses it, written before its first probe
	 * (util/hugemem.h: hugemem__touch_zeroed()) */
	if (!x->w->fcache) {
		if (!(x->w->fcache = calloc(FRAME_SLOTS, sizeof(*x->w->fcache))))
			return -ENOMEM;
		hugemem__touch_zeroed(x->w->fcache, FRAME_SLOTS * sizeof(*x->w->fcache));
	}
	pipeline__resolve_map(x->pt, x->rs, cpumode, ip, &al);
	fs = &x->w->fcache[frame_hash(al.map_id, ip) & (FRAME_SLOTS - 1)];
	if (fs->len && fs->map_id == al.map_id && fs->ip == ip && fs->fields == c->fields)
		return script_buf__put(out, fs->text, fs->len);
	if ((err = pipeline__resolve_sym(x->pt, &al)))
		return err;
	loc_of(&al, ip, &l);
	if (l.dso && !l.module)	/* see print_frame() */
		l.ip = l.map_addr;
	if ((err = put_frame(x, &l, c)))
		return err;
	if (out->len - mark <= sizeof(fs->text)) {
		fs->map_id = al.map_id;
		fs->ip = ip;
		fs->fields = c->fields;
		fs->len = (uint16_t)(out->len - mark);
		memcpy(fs->text, out->p + mark, fs->len);
	}
	return 0;
}

static int print_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct chain_ctx *c = ctx;
	struct script_loc l;
	int err;

	if (!(cpumode & CALLCHAIN_UNWOUND) && c->x->w->want_fcache &&
	    !pipeline_thread__in_turn(c->x->pt))
		return print_cached_frame(c, cpumode, ip);
	if ((err = resolve(c->x, cpumode, ip, &l)))
		return err;
	/* perf 6.1 prints a callchain entry that has a map at its map-relative address
	 * (al->addr: the same for the kernel's map), unlike the sample's own ip; in a
	 * kernel module's map at the address as recorded, with or without module
	 * symbols (observed) */
	if (l.dso && !l.module)
		l.ip = l.map_addr;
	if (c->x->inl_text)
		return each_inline(c->x, &l, put_frame, c);
	return put_frame(c->x, &l, c);
}

/* Whether a dso holds JIT code: perf's map files (/tmp/perf-PID.map), jitdump's
 * jitted-PID-N.so, anonymous executable memory. */
static bool jit_dso(const char *dso)
{
	const char *base = strrchr(dso, '/');

	base = base ? base + 1 : dso;
	return !strncmp(dso, "//anon", 6) || !strncmp(dso, "[anon", 5) ||
	       !strncmp(base, "jitted-", 7) ||
	       (!strncmp(base, "perf-", 5) && strlen(base) > 4 &&
		!strcmp(base + strlen(base) - 4, ".map"));
}

/* The flame graph's kind of a resolved frame (script/fold.h). */
static enum script_frame_kind frame_kind(uint16_t cpumode, const struct script_loc *l)
{
	if (!l->sym || (l->dso && jit_dso(l->dso)))
		return SCRIPT_KIND_OTHER;
	if (cpumode == MISC_KERNEL || cpumode == MISC_GUEST_KERNEL)
		return SCRIPT_KIND_KERNEL;
	return SCRIPT_KIND_USER;
}

static int add_frame(struct sx *x, uint16_t cpumode, const struct script_loc *l)
{
	struct script_chunk *c = x->c;
	struct script_fold_frame *f;

	if (c->nr_frames - x->frames_mark > x->r->max_stack)
		return 0;	/* as many as the text would print */
	if (array__grow(&c->frames, &c->cap_frames, c->nr_frames + 1,
			sizeof(*c->frames), 16))
		return -ENOMEM;
	f = &c->frames[c->nr_frames++];
	f->sym = l->sym;
	/* stackcollapse reads an inlined function's "(inlined)" as its module */
	f->dso = l->inlined ? "inlined" : l->dso;
	f->kind = frame_kind(cpumode & ~CALLCHAIN_UNWOUND, l);
	return 0;
}

static int add_inline_frame(struct sx *x, const struct script_loc *l, void *ctx)
{
	const struct chain_ctx *c = ctx;

	/* the name lives in each_inline()'s buffer: keep a copy */
	if (l->inlined) {
		struct script_loc il = *l;

		il.sym = strtab__intern(&x->w->inl_names, l->sym);
		if (!il.sym)
			return -ENOMEM;
		return add_frame(x, c->cpumode, &il);
	}
	return add_frame(x, c->cpumode, l);
}

static int fold_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct chain_ctx *c = ctx;
	struct script_loc l;
	int err = resolve(c->x, cpumode, ip, &l);

	if (err)
		return err;
	if (c->x->inl_text) {
		c->cpumode = cpumode;
		return each_inline(c->x, &l, add_inline_frame, c);
	}
	return add_frame(c->x, cpumode, &l);
}

/* A sample's callchain walked in perf's cursor order, its unwound user stack
 * included (machine__callchain_walk_unwound()). */
static int walk_chain(struct sx *x, callchain_frame_fn fn, void *ctx)
{
	const struct sample *s = &x->rs->s;
	size_t nr_user = 0;
	int err;

	if (x->w->uw && x->r->max_stack &&
	    (err = unwinder__unwind(x->w->uw, &x->rs->maps, s, x->w->user_ips,
				    x->r->max_stack, &nr_user)))
		return err;
	return machine__callchain_walk_unwound(s, false, x->r->max_stack, x->w->user_ips,
					       nr_user, fn, ctx);
}

static int fold_sample(struct sx *x, const struct ev_cfg *cfg, const struct script_head *h,
		       const struct script_loc *loc, size_t evsel_idx)
{
	struct chain_ctx cc = { x, cfg->fields, 0 };
	struct script_chunk *c = x->c;
	struct stack_entry *e;
	size_t head_off = c->out.len;
	int err;

	if ((err = script_buf__head(&c->out, cfg->fields, h)))
		return err;
	if (cfg->chain) {
		err = walk_chain(x, fold_frame, &cc);
		if (err == 1)
			c->nr_frames = x->frames_mark;	/* perf drops the whole chain */
		else if (err)
			return err;
	} else if ((err = add_frame(x, x->rs->s.misc & MISC_CPUMODE_MASK, loc))) {
		return err;
	}
	if (array__grow(&c->stacks, &c->cap_stacks, c->nr_stacks + 1,
			sizeof(*c->stacks), 16))
		return -ENOMEM;
	e = &c->stacks[c->nr_stacks++];
	*e = (struct stack_entry){ head_off, c->out.len - head_off, x->frames_mark,
				   c->nr_frames - x->frames_mark, evsel_idx, h->event,
				   h->comm, h->pid };
	return 0;
}

/* PERF_COUNT_SW_PAGE_FAULTS, _MIN, _MAJ (uapi linux/perf_event.h) */
enum { SW_PAGE_FAULTS = 2, SW_PAGE_FAULTS_MIN = 5, SW_PAGE_FAULTS_MAJ = 6 };

/* perf's sample_addr_correlates_sym(): the address of a page fault, or of a branch,
 * is printed with its symbol and dso. */
static bool addr_has_sym(const struct event_attr *a)
{
	return (a->type == ATTR_TYPE_SOFTWARE &&
		(a->config == SW_PAGE_FAULTS || a->config == SW_PAGE_FAULTS_MIN ||
		 a->config == SW_PAGE_FAULTS_MAJ)) || a->branch_sample_type;
}

/* The sample's addr field: `%16llx`, then where perf resolves it (its
 * thread__resolve(): the sample's cpumode first, then user and kernel space)
 * " SYM+0xOFF (DSO)" as the fields select. */
static int put_addr(struct sx *x, unsigned fields, const struct event_attr *a)
{
	static const uint16_t modes[] = { MISC_USER, MISC_KERNEL };
	const struct sample *s = &x->rs->s;
	struct script_loc l;
	int err;

	if (!addr_has_sym(a) || !(fields & (SCRIPT_F_SYM | SCRIPT_F_DSO)))
		return script_buf__hex(&x->c->out, s->addr, 16);
	if ((err = resolve(x, s->misc & MISC_CPUMODE_MASK, s->addr, &l)))
		return err;
	for (size_t i = 0; !l.dso && i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((err = resolve(x, modes[i], s->addr, &l)))
			return err;
	x->inl_text = NULL;
	l.inlined = false;
	return script_buf__loc(&x->c->out, (fields & (SCRIPT_F_SYM | SCRIPT_F_SYMOFF |
						      SCRIPT_F_DSO)) | SCRIPT_F_IP, &l);
}

/* perf script's fields between the event name and the location: addr, data_src,
 * weight, ins_lat. */
static int put_mem_head(struct sx *x, unsigned f, const struct event_attr *a)
{
	const struct sample *s = &x->rs->s;
	int width = x->rs->aux_int;	/* the column's width before this sample */
	int err = 0;

	if (f & SCRIPT_F_ADDR)
		err = put_addr(x, f, a);
	if (!err && (f & SCRIPT_F_DATA_SRC))
		err = script_buf__data_src(&x->c->out, s->data_src, &width);
	if (!err && (f & SCRIPT_F_WEIGHT))
		err = script_buf__udec(&x->c->out, s->weight, 16);
	if (!err && (f & SCRIPT_F_INS_LAT))
		err = script_buf__udec(&x->c->out, s->ins_lat, 16);
	return err;
}

/* ... and after the location: phys_addr, the page sizes. */
static int put_mem_tail(struct sx *x, unsigned f)
{
	const struct sample *s = &x->rs->s;
	int err = 0;

	if (f & SCRIPT_F_PHYS_ADDR)
		err = script_buf__hex(&x->c->out, s->phys_addr, 16);
	if (!err && (f & SCRIPT_F_DATA_PAGE_SIZE))
		err = script_buf__page_size(&x->c->out, s->data_page_size);
	if (!err && (f & SCRIPT_F_CODE_PAGE_SIZE))
		err = script_buf__page_size(&x->c->out, s->code_page_size);
	return err;
}

static int print_sample(struct sx *x, const struct ev_cfg *cfg, const struct event_attr *a,
			const struct script_head *h, const struct script_loc *loc)
{
	struct chain_ctx cc = { x, cfg->fields, 0 };
	struct script_buf *out = &x->c->out;
	int err;

	if ((err = script_buf__head(out, cfg->fields, h)))
		return err;
	if ((cfg->fields & SCRIPT_F_TRACE) && h->trace &&
	    (err = script_buf__put(out, h->trace, strlen(h->trace))))
		return err;
	if ((cfg->fields & SCRIPT_F_RAW_EXTRA) && (err = put_mem_head(x, cfg->fields, a)))
		return err;
	if (cfg->fields & SCRIPT_F_IP) {
		if (cfg->chain) {
			size_t mark;

			if ((err = script_buf__put(out, "\n", 1)))
				return err;
			mark = out->len;
			err = walk_chain(x, print_frame, &cc);
			if (err == 1)
				out->len = mark;	/* perf drops the whole chain */
			else if (err)
				return err;
		} else {
			if ((err = script_buf__put(out, " ", 1)) ||
			    (err = script_buf__loc(out, cfg->fields, loc)))
				return err;
		}
	}
	if ((cfg->fields & SCRIPT_F_RAW_EXTRA) && (err = put_mem_tail(x, cfg->fields)))
		return err;
	return script_buf__put(out, "\n", 1);
}

/* pipeline sink: select() - the cpu and time filters, before anything else */
static bool sink_select(void *ctx, const struct record_ref *ref, const struct sample *s)
{
	const struct run *r = ctx;

	if ((ref->evsel->attr.sample_type & SAMPLE_CPU) &&
	    !sample_filter__cpu(&r->filter, (int32_t)s->cpu))
		return false;
	return !(r->time.nr && time_ranges__skip(&r->time, s->time));
}

/* pipeline sink: prepare() - the thread filters, and what depends on the samples
 * before: the data_src column's width, a tracepoint's text (its handle is one
 * thread's) */
static int sink_prepare(void *ctx, struct resolved_sample *rs)
{
	struct run *r = ctx;
	const struct evsel *ev = rs->ref->evsel;
	const struct ev_cfg *cfg = &r->cfg[ev->idx];
	const char *text = NULL;
	int err;

	if (sample_filter__thread(&r->filter, rs->t, rs->comm))
		return PIPELINE_DROP;
	rs->aux_int = r->src_width;
	if ((cfg->fields & SCRIPT_F_RAW_EXTRA) && (cfg->fields & SCRIPT_F_DATA_SRC)) {
		r->scratch.len = 0;
		if ((err = script_buf__data_src(&r->scratch, rs->s.data_src, &r->src_width)))
			return err;
	}
	if ((cfg->fields & SCRIPT_F_RAW_EXTRA) && (cfg->fields & SCRIPT_F_ADDR) &&
	    addr_has_sym(&ev->attr) && (cfg->fields & (SCRIPT_F_SYM | SCRIPT_F_DSO)))
		rs->kernel = true;	/* put_addr() may look in kernel space */
	if ((cfg->fields & SCRIPT_F_TRACE) && !r->stacks && rs->s.raw &&
	    (err = trace_sort__text(r->trace, ev, rs->s.raw, rs->s.raw_size,
				    session__file_path(r->s, rs->ref->file),
				    session__file_offset(r->s, rs->ref->file, rs->ref->offset),
				    &text, r->d)))
		return err;
	rs->aux = text;
	return 0;
}

/* A sample's stack counted in the sets of --folded (fold) and --flamegraph (efold, per
 * event), either or both NULL: the worker's (run.fold_workers) or the run's. */
static int fold_stack(struct script_fold *fold, struct script_fold *const *efold,
		      const struct script_chunk *c, const struct stack_entry *e)
{
	const char *head = c->out.p + e->head_off;
	const struct script_fold_frame *f = c->frames + e->frame_start;
	int err = 0;

	if (fold)
		err = script_fold__add(fold, head, e->head_len, f, e->nr_frames);
	if (!err && efold)
		err = script_fold__add(efold[e->evsel_idx], head, e->head_len, f, e->nr_frames);
	return err;
}

/* pipeline sink: sample() - on a worker */
static int sink_sample(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
		       const struct resolved_sample *rs)
{
	const struct run *r = ctx;
	struct script_chunk *c = chunk;
	struct sx x = { r, state, c, pt, rs, NULL, 0, c->nr_frames };
	const struct evsel *ev = rs->ref->evsel;
	const struct ev_cfg *cfg = &r->cfg[ev->idx];
	const struct sample *s = &rs->s;
	size_t out_mark = c->out.len, stacks_mark = c->nr_stacks;
	struct script_head h;
	struct script_loc loc;
	int err;

	/* perf's machine__resolve(): the sample's own address first */
	if ((err = resolve(&x, s->misc & MISC_CPUMODE_MASK, s->ip, &loc)))
		return err;
	if (dso_filtered(&x, s->misc & MISC_CPUMODE_MASK, s->ip))
		return 0;
	h.comm = rs->comm;
	h.comm_unaligned = cfg->chain && (cfg->fields & SCRIPT_F_IP);
	h.pid = (int32_t)s->pid;
	h.tid = (int32_t)s->tid;
	h.cpu = (int32_t)s->cpu;
	h.time = s->time;
	h.period = s->period;
	h.event = evsel__name(ev);
	h.trace = rs->aux;
	h.name_width = r->name_width;
	if (r->stacks) {
		h.comm_unaligned = true;	/* stackcollapse reads callchain output */
		err = fold_sample(&x, cfg, &h, &loc, ev->idx);
		/* counted here, in this worker's sets, and gone from the chunk */
		if (!err && r->fold_workers && c->nr_stacks > stacks_mark) {
			err = fold_stack(x.w->fold, x.w->efold, c, &c->stacks[c->nr_stacks - 1]);
			c->out.len = out_mark;
			c->nr_frames = x.frames_mark;
			c->nr_stacks = stacks_mark;
		}
	} else {
		err = print_sample(&x, cfg, &ev->attr, &h, &loc);
	}
	if (err == PIPELINE_AGAIN) {	/* done again once its dso is loaded */
		c->out.len = out_mark;
		c->nr_frames = x.frames_mark;
		c->nr_stacks = stacks_mark;
	}
	return err;
}

/* Text held back at most (bytes) while the check of the kernel's symbols read ahead
 * runs; past it the output waits for its answer. */
#define HOLD_MAX ((size_t)4 << 20)

/* emit()'s error where the copy read ahead differs: the delivery stops, nothing was
 * written (r->again). */
#define SCRIPT_AGAIN (-ECANCELED)

/* Whether the kernel's symbols read ahead differ from the running kernel's file
 * (waiting for the check): then r->again, and a warning says so. */
static bool kernel_differs(struct run *r)
{
	char msg[256];
	uint64_t at = 0;
	enum kallsyms_check_result k = machine__check_kernel_symbols(r->m, &at);

	if (k == KALLSYMS_NOT_AHEAD)
		return false;
	phases__mark(k == KALLSYMS_SAME ? "kernel symbols checked" : "kernel symbols differ");
	if (k == KALLSYMS_SAME)
		return false;
	r->again = true;
	snprintf(msg, sizeof(msg), "/proc/kallsyms differs from the build-id cache's copy "
		 "read ahead (at byte %llu): the output is made again from /proc/kallsyms, "
		 "which this boot's later runs read first", (unsigned long long)at);
	if (r->o->warn)
		r->o->warn(r->o->warn_ctx, msg);
	return true;
}

static int write_out(struct run *r, const char *p, size_t n)
{
	if (n && fwrite(p, 1, n, r->fp) != n) {
		r->write_failed = true;
		return -EIO;
	}
	return 0;
}

/*
 * Text to stdout.  Where the kernel's symbols came from the build-id cache's copy
 * read ahead, it is held until the check of that copy against /proc/kallsyms answers
 * (a thread of its own reads the running kernel's file meanwhile): written then if
 * they are the same; if not, nothing is written and the run starts again
 * (SCRIPT_AGAIN).  Text made before the copy's table was taken uses none of it, and
 * is written when the hold is full; past HOLD_MAX with the table taken, the output
 * waits for the answer.
 */
static int put_text(struct run *r, const char *p, size_t n)
{
	if (r->hold) {
		enum kallsyms_check_state st = machine__kernel_check_state(r->m);

		if (st != KALLSYMS_CHECK_SETTLED && r->held.len + n <= HOLD_MAX)
			return script_buf__put(&r->held, p, n);
		if (st == KALLSYMS_CHECK_UNUSED) {
			int err = write_out(r, r->held.p, r->held.len);

			r->held.len = 0;
			return err ? err : script_buf__put(&r->held, p, n);
		}
		if (kernel_differs(r))
			return SCRIPT_AGAIN;
		r->hold = r->ahead = false;	/* answered: the same */
		if (write_out(r, r->held.p, r->held.len))
			return -EIO;
		r->held.len = 0;
	}
	return write_out(r, p, n);
}

/* The delivery is over: the held text written, or r->again where the copy read
 * ahead differs (also for the outputs written at the end). */
static int end_hold(struct run *r)
{
	if (r->ahead && kernel_differs(r))
		return SCRIPT_AGAIN;
	r->hold = false;
	if (write_out(r, r->held.p, r->held.len))
		return -EIO;
	r->held.len = 0;
	return 0;
}

/* pipeline sink: emit() - a chunk's text out, or its stacks into the folds */
static int sink_emit(void *ctx, void *chunk)
{
	struct run *r = ctx;
	struct script_chunk *c = chunk;
	int err = 0;

	for (size_t i = 0; i < c->nr_stacks && !err; i++) {
		const struct stack_entry *e = &c->stacks[i];
		const char *head = c->out.p + e->head_off;
		const struct script_fold_frame *f = c->frames + e->frame_start;

		err = fold_stack(r->fold, r->efold, c, e);
		if (!err && r->ss) {
			bool java;

			/* stackcollapse's naming rule for java processes, as in --folded */
			r->pname.len = 0;
			if ((err = script_fold__pname(&r->pname, head, e->head_len)))
				break;
			java = r->pname.len == 4 && !memcmp(r->pname.p, "java", 4);
			err = script_speedscope__add(r->ss, (unsigned)e->evsel_idx, e->event,
						     e->pid, e->comm, f, e->nr_frames, java);
		}
	}
	if (!err && !r->stacks && c->out.len)
		err = put_text(r, c->out.p, c->out.len);
	c->out.len = 0;
	c->nr_frames = 0;
	c->nr_stacks = 0;
	return err;
}

/* pipeline sink: record() - a pipe's tracepoint formats come in its stream */
static int sink_record(void *ctx, const struct record_ref *ref)
{
	struct run *r = ctx;
	int err;

	if (ref->type != REC_HEADER_TRACING_DATA || !r->trace)
		return 0;
	/* its check runs in a forked child: no job of ours may be running then */
	if ((err = pipeline__flush(r->pipe)))
		return err;
	err = trace_sort__load_record(r->trace, ref,
				      session__file_offset(r->s, ref->file, ref->offset), r->d);
	return err ? err : 1;
}

static int sink_thread_init(void *ctx, void *state)
{
	struct run *r = ctx;
	struct script_worker *w = state;

	w->want_fcache = !r->stacks;
	if (r->fold_workers && r->fold && script_fold__new(&w->fold))
		return -ENOMEM;
	if (r->fold_workers && r->efold) {
		if (!(w->efold = calloc(r->nr_efold, sizeof(*w->efold))))
			return -ENOMEM;
		for (size_t i = 0; i < r->nr_efold; i++) {
			if (script_fold__new(&w->efold[i]))
				return -ENOMEM;
			script_fold__annotate(w->efold[i]);
		}
	}
	if (!r->unwind)
		return 0;
	/* the first unwinder opens the files, the others share them */
	if ((r->uw_first ? unwinder__new_sibling(&w->uw, r->uw_first)
			 : unwinder__new(&w->uw, r->arch)) || srclines__new(&w->inl) ||
	    !(w->user_ips = calloc(r->max_stack + 1, sizeof(*w->user_ips))))
		return -ENOMEM;
	if (!r->uw_first)
		r->uw_first = w->uw;
	return 0;
}

static void sink_thread_exit(void *ctx, void *state)
{
	const struct run *r = ctx;
	struct script_worker *w = state;

	script_fold__delete(w->fold);
	for (size_t i = 0; w->efold && i < r->nr_efold; i++)
		script_fold__delete(w->efold[i]);
	free(w->efold);
	free(w->fcache);
	free(w->user_ips);
	unwinder__delete(w->uw);
	srclines__delete(w->inl);
	strtab__exit(&w->inl_names);
}

static void sink_chunk_exit(void *ctx, void *chunk)
{
	struct script_chunk *c = chunk;

	(void)ctx;
	script_buf__exit(&c->out);
	free(c->frames);
	free(c->stacks);
}

/* pipeline sink: batch() - the progress bar */
static void sink_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct run *r = ctx;

	for (size_t i = 0; i < n; i++)
		progress__add(&r->prog, recs[i]->disk_size);
}

static const struct pipeline_sink script_sink = {
	.record = sink_record,
	.batch = sink_batch,
	.select = sink_select,
	.prepare = sink_prepare,
	.thread_size = sizeof(struct script_worker),
	.thread_init = sink_thread_init,
	.thread_exit = sink_thread_exit,
	.chunk_size = sizeof(struct script_chunk),
	.chunk_exit = sink_chunk_exit,
	.sample = sink_sample,
	.emit = sink_emit,
};


int script__flame_path(char *buf, size_t len, const char *out, const char *event)
{
	size_t n = strlen(out), k;

	if (n >= 4 && !strcmp(out + n - 4, ".svg"))
		n -= 4;
	if ((size_t)snprintf(buf, len, "%.*s-%s.svg", (int)n, out, event) >= len)
		return -ENAMETOOLONG;
	for (k = n + 1; buf[k + 4]; k++) {
		char c = buf[k];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			buf[k] = '_';
	}
	return 0;
}

static int flame_add(void *ctx, const char *stack, size_t len, uint64_t count)
{
	return script_flame__add(ctx, stack, len, count);
}

/* One event's flame graph into path. */
static int write_flame(struct run *r, struct script_fold *fold, const struct evsel *ev,
		       const char *path)
{
	struct script_flame_svg_opts so = { .title = r->o->title, .inverted = r->o->inverted,
					    .min_percent = r->o->percent_limit };
	struct script_flame *f = NULL;
	char sub[512];
	int err = script_flame__new(&f);
	uint64_t n = script_fold__samples(fold);

	if (!err)
		err = script_fold__for_each(fold, flame_add, f);
	snprintf(sub, sizeof(sub), "%s: %llu sample%s", evsel__name(ev), (unsigned long long)n,
		 n == 1 ? "" : "s");
	so.subtitle = sub;
	if (!err)
		err = script_flame__write_svg(f, &so, path);
	script_flame__delete(f);
	return err;
}

/* An output file's error: one line, the errno's text (a full disk: "write: No space
 * left on device"; what creating it met, as it was). */
static int out_error(const char *path, int err, struct diag *d)
{
	if (err == -EINVAL)
		return diag__set(d, path, DIAG_NO_OFFSET, err,
				 "is the input: refusing to write over it");
	if (err == -EISDIR)
		return diag__set(d, path, DIAG_NO_OFFSET, err, "is a directory");
	if (err == -ENOSPC || err == -EDQUOT || err == -EFBIG || err == -EIO)
		return diag__set(d, path, DIAG_NO_OFFSET, err, "write: %s",
				 diag__code_str(err));
	return diag__set(d, path, DIAG_NO_OFFSET, err, NULL);	/* creating it */
}

/* --flamegraph's and --speedscope's files, once every sample is in. */
static int write_files(struct run *r, struct session *s, struct diag *d)
{
	struct evlist *el = session__evlist(s);
	const char *path = r->o->flamegraph;
	size_t first = 0;
	char buf[4096];
	int err = 0;

	/* the first event with samples goes to the path given (the first event when
	 * none has any), every other event with samples to its own file */
	while (first < r->nr_efold && !script_fold__samples(r->efold[first]))
		first++;
	if (first == r->nr_efold)
		first = 0;
	/* never over the recording (dirscript -i x.data --flamegraph x.data) */
	if (r->o->flamegraph && outpath__is_input(r->o->flamegraph, r->o->input ?
						   r->o->input : "perf.data"))
		return out_error(r->o->flamegraph, -EINVAL, d);
	if (r->o->speedscope && outpath__is_input(r->o->speedscope, r->o->input ?
						   r->o->input : "perf.data"))
		return out_error(r->o->speedscope, -EINVAL, d);
	for (size_t i = 0; i < r->nr_efold && !err; i++) {
		if (i != first && !script_fold__samples(r->efold[i]))
			continue;
		if (i != first && (err = script__flame_path(buf, sizeof(buf), r->o->flamegraph,
							     evsel__name(el->evsels[i]))))
			return diag__set(d, r->o->flamegraph, DIAG_NO_OFFSET, err, NULL);
		path = i == first ? r->o->flamegraph : buf;
		if (i != first && outpath__is_input(path, r->o->input ? r->o->input : "perf.data"))
			return out_error(path, -EINVAL, d);
		err = write_flame(r, r->efold[i], el->evsels[i], path);
	}
	if (err)
		return out_error(path, err, d);
	if (r->ss && (err = script_speedscope__write(r->ss, "dirscript " DIRREPORT_VERSION,
						     r->o->speedscope)))
		return out_error(r->o->speedscope, err, d);
	return 0;
}

static void add_counts(void *ctx, void *state)
{
	struct run *r = ctx;
	struct script_worker *w = state;

	if (w->uw && w->uw != r->uw_first)
		unwinder__add_counts(r->uw_first, w->uw);
}

/* run.fold_workers: a worker's sets merged into the run's (once, at the end). */
static void merge_folds(void *ctx, void *state)
{
	struct run *r = ctx;
	struct script_worker *w = state;

	if (!r->merge_err && w->fold)
		r->merge_err = script_fold__merge(r->fold, w->fold);
	for (size_t i = 0; !r->merge_err && w->efold && i < r->nr_efold; i++)
		r->merge_err = script_fold__merge(r->efold[i], w->efold[i]);
}

static int replay(struct run *r, struct session *s, struct diag *d)
{
	uint16_t bad_file = 0;
	uint64_t bad_offset = 0;
	bool bad = false;
	int err;

	progress__init(&r->prog, stderr, progress__session_bytes(s), r->o->progress);
	err = pipeline__new(&r->pipe, r->m, session__workqueue(s), &script_sink, r);
	if (!err)
		err = pipeline__deliver(r->pipe, s, 0);
	progress__exit(&r->prog);
	if (!err)
		err = end_hold(r);
	if (r->again)
		return SCRIPT_AGAIN;
	if (r->pipe)
		bad = pipeline__bad(r->pipe, &bad_file, &bad_offset);
	if (!err && r->fold_workers) {
		pipeline__for_each_state(r->pipe, merge_folds, r);
		err = r->merge_err;
	}

	if (!err && r->fold && script_fold__write(r->fold, r->fp))
		err = -EIO;
	if (!err && (err = write_files(r, s, d)))
		return err;
	if (err == -EIO || r->write_failed)
		return diag__set(d, "standard output", DIAG_NO_OFFSET, -EIO, "write error");
	if (err && bad && d->code)
		return err;	/* said already, with the file and offset */
	if (err && session__deliver_error(s, d))
		return err;	/* a damaged record the reader found */
	if (err && bad)
		return session__record_diag(s, bad_file, bad_offset, d, err, NULL);
	if (err)
		return diag__set(d, session__path(s), DIAG_NO_OFFSET, err, NULL);
	if (r->uw_first)
		pipeline__for_each_state(r->pipe, add_counts, r);
	return 0;
}

/* --flamegraph's sets of stacks, one per event, annotated with kinds. */
static int new_efolds(struct run *r, size_t n)
{
	r->efold = calloc(n ? n : 1, sizeof(*r->efold));
	if (!r->efold)
		return -ENOMEM;
	for (; r->nr_efold < n; r->nr_efold++) {
		if (script_fold__new(&r->efold[r->nr_efold]))
			return -ENOMEM;
		script_fold__annotate(r->efold[r->nr_efold]);
	}
	return 0;
}

/* One run; `ahead`: the kernel's symbols may be read ahead from the build-id cache's
 * copy (SCRIPT_AGAIN where it differs: nothing written); the warnings past
 * *warned printed (*warned updated). */
static int run_once(const struct script_opts *o, FILE *out, struct diag *d, bool ahead,
		    size_t *warned)
{
	struct session_opts so = { .path = o->input, .jobs = o->jobs, .use_index = true };
	struct session_time_range keep[TIME_RANGES_MAX];
	struct dsos_opts dopts = { .kallsyms = o->kallsyms, .buildid_dir = o->buildid_dir };
	const char *path = o->input ? o->input : "perf.data";
	struct run r = { .o = o, .fp = out, .d = d };
	struct session *s = NULL;
	struct evlist *el;
	size_t nr_warned = 0;
	int err;

	/* perf script takes any depth (PERF_MAX_STACK_DEPTH is only the default) */
	r.max_stack = o->max_stack < 0 ? SCRIPT_MAX_STACK :
		      (unsigned)o->max_stack > SCRIPT_MAX_STACK_LIMIT ? SCRIPT_MAX_STACK_LIMIT :
		      (unsigned)o->max_stack;
	err = session__open(&s, &so, d);
	r.s = s;
	/* the copy read ahead where the run can be made again (the records read a
	 * second time: not from a pipe); with tracepoints its check starts at the
	 * first kernel lookup, after the tracing data's forked check */
	r.ahead = dopts.kallsyms_ahead = ahead && !err && !session__is_pipe(s) &&
					 session__can_read_again(s);
	dopts.kallsyms_check_at_take = !err && trace_sort__has_tracepoints(session__evlist(s));
	if (!err)
		err = machine__new_opts(&r.m, &dopts);
	if (!err && !session__is_pipe(s))
		err = machine__apply_build_ids(r.m, session__features(s));
	/* the kernel's symbols are read on a worker while the files are scanned (a
	 * pipe's build-ids come with its records: read at the first kernel sample) */
	if (!err && !session__is_pipe(s) && !evlist__excludes_kernel(session__evlist(s)))
		err = machine__preload_kernel(r.m, session__workqueue(s));
	if (!err)
		err = session__load(s, d);
	phases__mark("load");
	if (s) {	/* the preload finishes before any record is replayed (its
			 * parsing helped with here, the scan done) */
		machine__wait_preload(r.m);
		workqueue__flush(session__workqueue(s));
		phases__mark("kernel symbols wait");
	}
	if (!err && session__is_pipe(s))
		err = machine__apply_build_ids(r.m, session__features(s));
	if (err) {
		if (d->code == 0)
			diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
		goto out;
	}
	nr_warned = session__nr_warnings(s);
	for (size_t i = *warned; o->warn && i < nr_warned; i++)
		o->warn(o->warn_ctx, session__warning(s, i));
	if (nr_warned > *warned)
		*warned = nr_warned;
	el = session__evlist(s);
	r.cfg = calloc(el->nr ? el->nr : 1, sizeof(*r.cfg));
	r.stacks = o->folded || o->flamegraph || o->speedscope;
	r.hold = r.ahead && !r.stacks;
	/* the folded sets do not depend on the order of their samples (they are
	 * sorted when written); speedscope's list of samples does */
	r.fold_workers = (o->folded || o->flamegraph) && !o->speedscope;
	if (!r.cfg || (o->folded && script_fold__new(&r.fold)) ||
	    (o->flamegraph && new_efolds(&r, el->nr)) ||
	    (o->speedscope && script_speedscope__new(&r.ss, path)) ||
	    sample_filter__init(&r.filter, &(struct sample_filter_opts){
			.comms = o->comms, .pids = o->pids, .tids = o->tids, .dsos = o->dsos,
			.cpus = o->cpus })) {
		err = diag__set(d, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
		goto out;
	}
	if ((err = check_fields(&r, el, path, session__is_pipe(s), d)))
		goto out;
	r.unwind = unwind__wanted(el);
	r.arch = session__features(s)->arch;
	/* tracepoint formats: a file's TRACING_DATA feature now (checked against the
	 * events), a pipe's record when it comes */
	if ((err = trace_sort__open(&r.trace, el, session__features(s), session__is_pipe(s),
				    r.m, false, path, d)))
		goto out;
	if (o->time_str) {
		const struct features *f = session__features(s);

		if (time_ranges__is_percent(o->time_str) && !f->first_sample_ns &&
		    !f->last_sample_ns) {
			err = diag__set(d, path, DIAG_NO_OFFSET, -EINVAL, "--time: percentages "
					"need the first and last sample times, which the "
					"recording does not have");
			goto out;
		}
		if (time_ranges__parse(&r.time, o->time_str, f->first_sample_ns,
				       f->last_sample_ns)) {
			err = diag__set(d, path, DIAG_NO_OFFSET, -EINVAL,
					"--time: invalid time string");
			goto out;
		}
		/* on_sample() drops samples outside the ranges before anything else */
		for (int i = 0; i < r.time.nr; i++)
			keep[i] = (struct session_time_range){ r.time.r[i].start,
							       r.time.r[i].end };
		session__keep_samples(s, keep, (size_t)r.time.nr);
	}
	if (o->cpus) {
		bool any = false;

		for (size_t i = 0; i < el->nr; i++)
			any |= !!(el->evsels[i]->attr.sample_type & SAMPLE_CPU);
		if (!any) {
			err = diag__set(d, path, DIAG_NO_OFFSET, -EINVAL, "File does not "
					"contain CPU events. Remove -C option to proceed.");
			goto out;
		}
	}
	err = replay(&r, s, d);
	phases__mark("delivery");
	if (!err && r.uw_first) {
		char msg[256];

		if (unwinder__warning(r.uw_first, r.arch, msg, sizeof(msg)) &&
		    session__warn(s, "%s", msg))
			err = diag__set(d, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
	}
	/* and what the delivery found to warn of */
	for (size_t i = *warned > nr_warned ? *warned : nr_warned;
	     !r.again && o->warn && i < session__nr_warnings(s); i++)
		o->warn(o->warn_ctx, session__warning(s, i));
	if (!r.again && session__nr_warnings(s) > *warned)
		*warned = session__nr_warnings(s);
out:
	pipeline__delete(r.pipe);
	script_buf__exit(&r.scratch);
	script_buf__exit(&r.pname);
	script_buf__exit(&r.held);
	script_fold__delete(r.fold);
	for (size_t i = 0; i < r.nr_efold; i++)
		script_fold__delete(r.efold[i]);
	free(r.efold);
	script_speedscope__delete(r.ss);
	sample_filter__exit(&r.filter);
	free(r.cfg);
	trace_sort__delete(r.trace);
	machine__delete(r.m);
	session__close(s);
	return err;
}

int script__run(const struct script_opts *o, FILE *out, struct diag *d)
{
	size_t warned = 0;
	int err = run_once(o, out, d, true, &warned);

	/* the kernel's symbols read ahead were not the running kernel's: nothing was
	 * written; all again from /proc/kallsyms */
	if (err == SCRIPT_AGAIN)
		err = run_once(o, out, d, false, &warned);
	return err;
}
