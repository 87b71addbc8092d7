/*
 * recorder - the events opened, their ring buffers read into one perf.data file
 * (record/recorder.h).
 */
#include "record/recorder.h"

#include <errno.h>
#include <sys/time.h>	/* gettimeofday */
#include <time.h>	/* clock_gettime */
#include <fcntl.h>
#include <linux/perf_event.h>	/* struct perf_event_attr, PERF_EVENT_IOC_* */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "format/attr.h"
#include "format/bytes.h"
#include "format/diag.h"
#include "format/event.h"
#include "format/feature.h"
#include "format/record.h"
#include "format/sample.h"
#include "format/writer.h"
#include "record/buildid-cache.h"
#include "record/sysfile.h"
#include "record/dsos.h"
#include "record/features.h"
#include "record/recorder-internal.h"
#include "record/ring.h"
#include "record/synth.h"
#include "record/target.h"
#include "reader/session.h"	/* session__build_index() */

#include "banned.h"

/* Bytes reserved past a directory's `data` file for its closing records and features
 * (writer__reserve()): LOST_SAMPLES records, BUILD_ID and EVENT_DESC of a large
 * system take tens of KiB. */
#define CLOSING_RESERVE ((size_t)256 << 10)

#define PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int paranoid_level(void)
{
	char buf[32];

	return sysfile__line(buf, sizeof(buf), "%s", PARANOID_PATH) ? 2 : atoi(buf);
}

/* the one line for perf_event_open's errno e on event ev */
static int open_error(const struct record_event *ev, int e, struct diag *d)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return diag__set(d, ev->name, DIAG_NO_OFFSET, -e,
				 "no permission to record (%s is %d; run as root or lower it)",
				 PARANOID_PATH, paranoid_level());
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (ev->attr.type == ATTR_TYPE_HARDWARE || ev->attr.type == ATTR_TYPE_HW_CACHE)
			return diag__set(d, ev->name, DIAG_NO_OFFSET, -e,
					 "hardware event not supported: this cpu has no "
					 "performance monitoring unit the kernel drives "
					 "(a virtual machine?); try -e cpu-clock");
		break;
	case EMFILE:
		return diag__set(d, ev->name, DIAG_NO_OFFSET, -e,
				 "too many open files (one per event, cpu and thread; "
				 "ulimit -n)");
	default:
		break;
	}
	return diag__set(d, ev->name, DIAG_NO_OFFSET, -e, "cannot open the event: %s",
			 strerror(e));
}

/* the kernel's struct perf_event_attr of ours (same bytes, host order) */
static void kernel_attr(const struct event_attr *a, struct perf_event_attr *k)
{
	unsigned char buf[ATTR_SIZE_VER7];
	struct event_attr c = *a;

	c.size = ATTR_SIZE_VER7;
	attr__encode(&c, buf, sizeof(buf));
	memset(k, 0, sizeof(*k));
	memcpy(k, buf, sizeof(*k) < sizeof(buf) ? sizeof(*k) : sizeof(buf));
	k->size = sizeof(*k) < sizeof(buf) ? (uint32_t)sizeof(*k) : ATTR_SIZE_VER7;
}

static void close_all(struct recorder *r)
{
	for (size_t i = 0; i < r->nr_rings; i++) {
		ring__exit(&r->rings[i].ring);
		snapshot__exit(&r->rings[i].snap);
		if (r->rings[i].base)
			munmap(r->rings[i].base, r->rings[i].len);
		r->rings[i] = (struct rring){ 0 };
		r->pfds[i].fd = -1;
	}
	r->nr_rings = 0;
	for (size_t i = 0; i < r->nr_fds; i++)
		close(r->fds[i].fd);
	r->nr_fds = 0;
}

static int map_ring(struct recorder *r, size_t ci, int fd, struct diag *d)
{
	struct rring *rr = &r->rings[ci];
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pc;
	int err;

	rr->len = (size_t)page * (1 + (size_t)r->o.mmap_pages);
	rr->fd = fd;
	snprintf(rr->label, sizeof(rr->label), "cpu %d", r->cpus[ci]);
	rr->base = mmap(NULL, rr->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rr->base == MAP_FAILED) {
		err = -errno;
		rr->base = NULL;
		return diag__set(d, rr->label, DIAG_NO_OFFSET, err,
				 "cannot map a ring buffer of %u pages: %s%s", r->o.mmap_pages,
				 strerror(-err), err == -EPERM || err == -ENOMEM ?
				 " (locked memory: try a smaller -m)" : "");
	}
	pc = rr->base;
	err = ring__init(&rr->ring, rr->base, pc->data_offset ? pc->data_offset :
			 (uint64_t)page, pc->data_size ? pc->data_size :
			 rr->len - (size_t)page, rr->label);
	if (err)
		return diag__set(d, rr->label, DIAG_NO_OFFSET, err, "bad ring buffer");
	rr->em = (struct emitter){ .r = r, .stream = r->o.dir ? 1 + (unsigned)ci : 0 };
	if (r->o.snapshot_size) {
		err = snapshot__init(&rr->snap, r->o.snapshot_size);
		if (err)
			return diag__set(d, rr->label, DIAG_NO_OFFSET, err,
					 "cannot keep a snapshot of %zu bytes",
					 r->o.snapshot_size);
		rr->em.snap = &rr->snap;
	}
	r->pfds[ci] = (struct pollfd){ .fd = fd, .events = POLLIN };
	r->nr_rings = ci + 1 > r->nr_rings ? ci + 1 : r->nr_rings;
	return 0;
}

/* every fd of every cpu, thread and event. A thread that is gone (-ESRCH for its
 * first event) is skipped; -ESRCH when all are. perf_event_open()'s own errors are
 * returned with d empty and failed_ev set; the others fill d. */
static int open_all(struct recorder *r, struct diag *d)
{
	size_t nr_threads = r->o.target == RECORDER_SYSTEM ? 1 : r->o.nr_tids;
	size_t alive = 0;
	int err = 0;

	for (size_t ci = 0; ci < r->o.nr_cpus; ci++) {
		int ring_fd = -1;

		for (size_t ti = 0; ti < nr_threads; ti++) {
			pid_t tid = r->o.target == RECORDER_SYSTEM ? -1 : r->tids[ti];
			size_t first = r->nr_fds;

			for (size_t e = 0; e < r->o.nr_events; e++) {
				struct perf_event_attr ka;
				struct evfd *f = &r->fds[r->nr_fds];
				int group = -1, fd;

				if (r->ev[e].leader != e)
					group = r->fds[first + (r->ev[e].leader)].fd;
				kernel_attr(&r->ev[e].attr, &ka);
				fd = sys_perf_event_open(&ka, tid, r->cpus[ci], group,
							 PERF_FLAG_FD_CLOEXEC);
				if (fd < 0) {
					err = errno;
					if (err == ESRCH && r->o.target != RECORDER_SYSTEM &&
					    e == 0)
						break;	/* the thread is gone */
					r->failed_ev = e;
					return -err;	/* open_error() by the caller */
				}
				*f = (struct evfd){ .fd = fd, .ev = e, .cpu = ci,
						    .tid = (int32_t)tid };
				r->nr_fds++;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &f->id) < 0)
					return diag__set(d, r->ev[e].name, DIAG_NO_OFFSET,
							 -errno, "cannot read the event's id: %s",
							 strerror(errno));
				if (ring_fd < 0) {
					err = map_ring(r, ci, fd, d);
					if (err)
						return err;
					ring_fd = fd;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) < 0) {
					return diag__set(d, r->ev[e].name, DIAG_NO_OFFSET,
							 -errno, "cannot share cpu %d's ring "
							 "buffer: %s", r->cpus[ci],
							 strerror(errno));
				}
				if (e == 0)
					alive++;
			}
		}
	}
	return alive ? 0 : -ESRCH;
}

static int add_events(struct recorder *r)
{
	uint64_t *ids = malloc((r->nr_fds ? r->nr_fds : 1) * sizeof(*ids));
	int err = 0;

	if (!ids)
		return -ENOMEM;
	for (size_t e = 0; !err && e < r->o.nr_events; e++) {
		size_t n = 0;

		for (size_t i = 0; i < r->nr_fds; i++)
			if (r->fds[i].ev == e)
				ids[n++] = r->fds[i].id;
		err = writer__add_event(r->w, &r->ev[e].attr, ids, n);
	}
	free(ids);
	return err;
}

static int copy_opts(struct recorder *r, const struct recorder_opts *o)
{
	r->o = *o;
	r->ev = calloc(o->nr_events, sizeof(*r->ev));
	atomic_init(&r->maps_gen, 0);
	r->cpus = malloc(o->nr_cpus * sizeof(*r->cpus));
	r->tids = malloc((o->nr_tids ? o->nr_tids : 1) * sizeof(*r->tids));
	r->rings = calloc(o->nr_cpus, sizeof(*r->rings));
	r->pfds = calloc(o->nr_cpus, sizeof(*r->pfds));
	r->fds = calloc(o->nr_cpus * (o->nr_tids ? o->nr_tids : 1) * o->nr_events,
			sizeof(*r->fds));
	if (!r->ev || !r->cpus || !r->tids || !r->rings || !r->pfds || !r->fds)
		return -ENOMEM;
	if (o->dir && o->nr_threads) {
		r->threads = calloc(o->nr_threads, sizeof(*r->threads));
		if (!r->threads || pthread_mutex_init(&r->dsos_lock, NULL)) {
			r->o.nr_threads = 0;
			return -ENOMEM;
		}
		r->nr_threads = o->nr_threads;
		for (size_t t = 0; t < o->nr_threads; t++) {
			struct rthread *th = &r->threads[t];

			th->r = r;
			th->rings = calloc(o->nr_cpus, sizeof(*th->rings));
			th->pfds = calloc(o->nr_cpus, sizeof(*th->pfds));
			if (!th->rings || !th->pfds)
				return -ENOMEM;
			for (size_t ci = 0; ci < o->nr_cpus; ci++)
				if (o->thread_of[ci] == t)
					th->rings[th->nr_rings++] = ci;
			if (o->affinity) {
				th->affinity = o->affinity[t];
				th->has_affinity = true;
			}
		}
	} else {
		r->o.nr_threads = 0;
	}
	memcpy(r->cpus, o->cpus, o->nr_cpus * sizeof(*r->cpus));
	for (size_t i = 0; i < o->nr_cpus; i++)
		r->pfds[i].fd = -1;	/* a cpu without a ring (its threads gone) */
	if (o->nr_tids)
		memcpy(r->tids, o->tids, o->nr_tids * sizeof(*r->tids));
	for (size_t e = 0; e < o->nr_events; e++) {
		r->ev[e] = o->events[e];
		r->ev[e].group = NULL;
		r->ev[e].name = strdup(o->events[e].name);
		if (!r->ev[e].name)
			return -ENOMEM;
		if (o->events[e].group && !(r->ev[e].group = strdup(o->events[e].group)))
			return -ENOMEM;
	}
	return 0;
}

static void exclude_kernel(struct recorder *r)
{
	for (size_t e = 0; e < r->o.nr_events; e++)
		r->ev[e].attr.flags |= 1ULL << ATTR_EXCLUDE_KERNEL | 1ULL << ATTR_EXCLUDE_HV;
	r->exclude_kernel = true;
	r->st.kernel_excluded = true;
}

int recorder__open(struct recorder **out, const struct recorder_opts *o, struct diag *d)
{
	struct writer_opts wo = { 0 };
	struct recorder *r = calloc(1, sizeof(*r));
	int err;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	/* perf record's reference pair for -k (record__init_clock()) */
	if (o->nr_events && (o->events[0].attr.flags & (1ULL << ATTR_USE_CLOCKID))) {
		struct timeval tv;
		struct timespec ts;

		if (!gettimeofday(&tv, NULL) &&
		    !clock_gettime(o->events[0].attr.clockid, &ts)) {
			r->ref_tod_ns = (uint64_t)tv.tv_sec * 1000000000ULL +
					(uint64_t)tv.tv_usec * 1000;
			r->ref_clock_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
					  (uint64_t)ts.tv_nsec;
		}
	}
	if (!o->nr_events || !o->nr_cpus ||
	    (o->target != RECORDER_SYSTEM && !o->nr_tids)) {
		free(r);
		return -EINVAL;
	}
	err = copy_opts(r, o);
	if (!err)
		err = record_dsos__new(&r->dsos);
	if (err) {
		recorder__delete(r);
		return err;
	}
	r->exclude_kernel = attr__flag(&r->ev[0].attr, ATTR_EXCLUDE_KERNEL);
	err = open_all(r, d);
	if ((err == -EACCES || err == -EPERM) && !d->msg[0] && !r->exclude_kernel &&
	    o->target != RECORDER_SYSTEM) {
		/* perf_event_paranoid 2: a user may record user space of its own tasks */
		close_all(r);
		exclude_kernel(r);
		err = open_all(r, d);
	}
	if (err < 0 && err != -ESRCH && !d->msg[0]) {
		err = open_error(&r->ev[r->failed_ev], -err, d);
	} else if (err == -ESRCH) {
		err = diag__set(d, "", DIAG_NO_OFFSET, -ESRCH,
				"the threads to record are gone");
	}
	if (!err) {
		uint64_t st = r->ev[0].attr.sample_type;
		size_t off = RECORD_HEADER_SIZE;

		r->id_hdr_size = attr__id_hdr_size(&r->ev[0].attr);
		/* a sample's first fields (perf_event.h's order): IDENTIFIER, IP, TID,
		 * TIME, each 8 bytes */
		off += st & SAMPLE_IDENTIFIER ? 8 : 0;
		r->s_ip_off = st & SAMPLE_IP ? off : 0;
		off += st & SAMPLE_IP ? 8 : 0;
		r->s_pid_off = st & SAMPLE_TID ? off : 0;
		off += st & SAMPLE_TID ? 8 : 0;
		r->s_time_off = st & SAMPLE_TIME ? off : 0;
		off += st & SAMPLE_TIME ? 8 : 0;
		r->s_fixed = off;
		wo.rounds = false;
		wo.dir = o->dir;
		wo.nr_data_files = (unsigned)o->nr_cpus;
		wo.comp_level = o->comp_level;
		wo.comp_stream = true;	/* perf record -z's one zstd stream per file */
		wo.nr_cblocks = o->nr_cblocks;
		r->main_em = (struct emitter){ .r = r, .wflags = WRITER_PLAIN };
		err = writer__open(&r->w, o->path, &wo, d);
	}
	if (!err)
		err = add_events(r);
	if (err) {
		if (!d->msg[0])
			diag__set(d, o->path, DIAG_NO_OFFSET, err, "%s", strerror(-err));
		recorder__delete(r);
		return err;
	}
	*out = r;
	return 0;
}

/* a record that is not a sample: the maps it tells of, for the build-ids */
static int track(struct recorder *r, struct rstats *st, const struct record_header *h,
		 const void *rec, size_t size)
{
	switch (h->type) {
	case REC_MMAP: {
		struct event_mmap m;

		if (!event_mmap__decode(rec, size, &m) && m.filename.s)
			return record_dsos__mmap(r->dsos, (int32_t)m.pid, m.start, m.len,
						 m.filename.s, m.filename.len);
		break;
	}
	case REC_MMAP2: {
		struct event_mmap2 m;

		if (!event_mmap2__decode(rec, size, &m) && m.filename.s)
			return record_dsos__mmap(r->dsos, (int32_t)m.pid, m.start, m.len,
						 m.filename.s, m.filename.len);
		break;
	}
	case REC_COMM: {
		struct event_comm c;

		if (!event_comm__decode(rec, size, &c) && (c.misc & MISC_COMM_EXEC) &&
		    c.pid == c.tid)
			record_dsos__exec(r->dsos, (int32_t)c.pid);
		break;
	}
	case REC_FORK: {
		struct event_fork f;

		if (!event_fork__decode(rec, size, &f) && f.pid != f.ppid)
			return record_dsos__fork(r->dsos, (int32_t)f.pid, (int32_t)f.ppid);
		break;
	}
	case REC_LOST: {
		struct event_lost l;

		if (!event_lost__decode(rec, size, &l))
			st->nr_lost += l.lost;
		break;
	}
	default:
		break;
	}
	return 0;
}

static void dsos_lock(struct recorder *r)
{
	if (r->threaded)
		pthread_mutex_lock(&r->dsos_lock);
}

static void dsos_unlock(struct recorder *r)
{
	if (r->threaded)
		pthread_mutex_unlock(&r->dsos_lock);
}

/* A sample's ip, pid and time (0 where its layout has none): read in place from one
 * at least r->s_fixed bytes long (the kernel's, from a ring), else through
 * sample__parse(); false when it does not parse. */
static bool sample_fields(const struct recorder *r, const unsigned char *rec, size_t size,
			  uint64_t *ip, uint32_t *pid, uint64_t *time)
{
	struct sample s;

	if (size >= r->s_fixed) {
		*ip = r->s_ip_off ? bytes__u64(rec + r->s_ip_off) : 0;
		*pid = r->s_pid_off ? bytes__u32(rec + r->s_pid_off) : 0;
		*time = r->s_time_off ? bytes__u64(rec + r->s_time_off) : 0;
		return true;
	}
	if (sample__parse(&s, &r->ev[0].attr, rec, size))
		return false;
	*ip = s.ip;
	*pid = s.pid;
	*time = s.time;
	return true;
}

int recorder__emit_now(void *ctx, const void *rec, size_t size)
{
	struct emitter *em = ctx;
	struct recorder *r = em->r;
	struct record_header h;
	uint64_t time = 0;
	int err = 0;

	record_header__get(&h, rec);
	if (h.type == REC_SAMPLE) {
		uint64_t ip, stime;
		uint32_t spid;

		em->st.nr_samples++;
		if (sample_fields(r, rec, size, &ip, &spid, &stime)) {
			if (r->s_time_off) {
				time = stime;
				if (!em->st.first_ns || time < em->st.first_ns)
					em->st.first_ns = time;
				if (time > em->st.last_ns)
					em->st.last_ns = time;
			}
			bool kernel = (h.misc & MISC_CPUMODE_MASK) == MISC_KERNEL;
			int32_t pid = kernel ? -1 : (int32_t)spid;
			struct emitter_hit *hc = &em->hit[kernel];

			/* most samples fall in the map of the last one of their mode: no
			 * lock then */
			if (!hc->valid || hc->pid != pid || ip < hc->start || ip >= hc->end ||
			    hc->gen != atomic_load_explicit(&r->maps_gen,
							    memory_order_acquire)) {
				dsos_lock(r);
				hc->valid = record_dsos__hit(r->dsos, pid, ip, kernel,
							     &hc->start, &hc->end);
				hc->gen = atomic_load_explicit(&r->maps_gen,
							       memory_order_relaxed);
				dsos_unlock(r);
				hc->pid = pid;
			}
		}
	} else {
		dsos_lock(r);
		err = track(r, &em->st, &h, rec, size);
		atomic_fetch_add_explicit(&r->maps_gen, 1, memory_order_release);
		dsos_unlock(r);
		if (err)
			return err;
	}
	if (em->direct) {
		/* written with the others from the ring (write_span()) */
		em->d_nr++;
		if (time && (!em->d_first || time < em->d_first))
			em->d_first = time;
		if (time > em->d_last)
			em->d_last = time;
		em->st.bytes += size;
		return 0;
	}
	err = writer__write(r->w, em->stream, rec, size, time, em->wflags);
	if (!err)
		em->st.bytes += size;
	return err;
}

/* ring_span_fn: a ring's records just read through a direct emitter, written from the
 * ring */
static int write_span(void *ctx, const void *p1, size_t n1, const void *p2, size_t n2)
{
	struct emitter *em = ctx;
	int err = writer__write_direct(em->r->w, em->stream, p1, n1, p2, n2, em->d_nr,
				       em->d_first, em->d_last);

	em->d_nr = em->d_first = em->d_last = 0;
	return err;
}

/* one record: into the file (a sample in snapshot mode: into the ring's snapshot), and
 * into the tracking */
int recorder__emit(void *ctx, const void *rec, size_t size)
{
	struct emitter *em = ctx;
	struct record_header h;

	record_header__get(&h, rec);
	if (em->snap && h.type == REC_SAMPLE)
		return snapshot__add(em->snap, rec, size);
	return recorder__emit_now(ctx, rec, size);
}

/* d for err where nothing filled it: the writer's diagnostic (a write error names the
 * file and offset), else the output and the code's text */
void recorder__writer_error(struct recorder *r, unsigned stream, int err,
			    struct diag *d)
{
	const struct diag *wd = !r->w ? NULL : stream == RECORDER_ANY_STREAM ?
				writer__diag(r->w) : writer__stream_diag(r->w, stream);

	if (d->msg[0])
		return;
	if (wd && wd->msg[0])
		*d = *wd;
	else
		diag__set(d, r->o.path, DIAG_NO_OFFSET, err, "%s", diag__code_str(err));
}

/* -p: each process of the threads once (its threads' COMMs, its maps); -t: each
 * thread's COMM, the maps of its process once */
static int synth_threads(struct recorder *r, struct synth *s)
{
	pid_t *done = calloc(r->o.nr_tids, sizeof(*done));
	size_t nr_done = 0;
	int err = 0;

	if (!done)
		return -ENOMEM;
	for (size_t i = 0; !err && i < r->o.nr_tids; i++) {
		pid_t tgid = record_target__tgid(r->tids[i]);
		bool seen = false;

		if (tgid < 0)
			continue;	/* gone */
		for (size_t j = 0; j < nr_done; j++)
			seen |= done[j] == tgid;
		if (r->o.target == RECORDER_PID && seen)
			continue;
		err = synth__process(s, tgid, r->o.target == RECORDER_PID ? -1 : r->tids[i],
				     seen);
		if (!seen)
			done[nr_done++] = tgid;
	}
	free(done);
	return err;
}

int recorder__synthesize(struct recorder *r, struct diag *d)
{
	struct synth s = { .id_hdr_size = r->id_hdr_size, .mmap_data = r->o.mmap_data,
			   .emit = recorder__emit_now, .ctx = &r->main_em,
			   .buildid_dir = r->o.buildid_dir };
	struct synth_id *ids = calloc(r->nr_fds ? r->nr_fds : 1, sizeof(*ids));
	int err;

	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_fds; i++)
		ids[i] = (struct synth_id){ .id = r->fds[i].id, .idx = r->fds[i].cpu,
					    .cpu = (uint64_t)r->cpus[r->fds[i].cpu],
					    .tid = (uint64_t)(int64_t)r->fds[i].tid };
	err = synth__id_index(&s, ids, r->nr_fds);
	free(ids);
	if (!err && !r->exclude_kernel) {
		err = synth__kernel(&s, d);
		if (err == -ENOENT) {
			/* addresses hidden (kptr_restrict): perf goes on without the map */
			r->st.no_kernel_map = true;
			*d = (struct diag){ .offset = DIAG_NO_OFFSET };
			err = 0;
		} else if (!err) {
			err = synth__modules(&s);
		}
	}
	if (!err)
		err = synth__thread_map(&s, r->tids,
					r->o.target == RECORDER_SYSTEM ? 0 : r->o.nr_tids);
	if (!err)
		err = synth__cpu_map(&s, r->cpus, r->o.nr_cpus);
	if (!err) {
		switch (r->o.target) {
		case RECORDER_SYSTEM:
			err = synth__all_processes(&s);
			break;
		case RECORDER_COMMAND:
			err = synth__process(&s, r->tids[0], -1, true);
			break;
		case RECORDER_PID:
		case RECORDER_TID:
			err = synth_threads(r, &s);
			break;
		}
	}
	if (!err)
		err = synth__finished_init(&s);
	/* the header, attrs and what was synthesized on disk before the rings fill it:
	 * a full disk later keeps them (writer__salvage()) */
	if (!err)
		err = writer__flush(r->w, 0);
	/* and room for a directory's closing records and features (its rings write
	 * elsewhere); where the file system cannot reserve, none */
	if (!err && r->o.dir)
		(void)writer__reserve(r->w, 0, CLOSING_RESERVE);
	if (err)
		recorder__writer_error(r, RECORDER_ANY_STREAM, err, d);
	return err;
}

static int ioctl_leaders(struct recorder *r, unsigned long req)
{
	for (size_t i = 0; i < r->nr_fds; i++)
		if (r->ev[r->fds[i].ev].leader == r->fds[i].ev &&
		    ioctl(r->fds[i].fd, req, 0) < 0)
			return -errno;
	return 0;
}

int recorder__enable(struct recorder *r)
{
	return ioctl_leaders(r, PERF_EVENT_IOC_ENABLE);
}

int recorder__read_rings(struct recorder *r, const size_t *rings, size_t nr,
			 uint64_t *bytes, struct diag *d)
{
	int err = 0;

	*bytes = 0;
	for (size_t k = 0; !err && k < nr; k++) {
		struct rring *rr = &r->rings[rings ? rings[k] : k];
		uint64_t n = 0;

		if (!rr->base)
			continue;
		/* a directory's data.N: from the ring to the file (snapshot mode keeps
		 * the samples; the side-band it writes at once is little) */
		rr->em.direct = r->o.dir && !rr->em.snap && rr->em.stream &&
				writer__direct(r->w, rr->em.stream);
		if (rr->em.direct)
			err = ring__read_span(&rr->ring, recorder__emit, &rr->em, write_span,
					      &rr->em, &n, d);
		else
			err = ring__read(&rr->ring, recorder__emit, &rr->em, &n, d);
		rr->em.direct = false;
		*bytes += n;
		if (n)
			rr->em.st.nr_wakeups++;
		if (err)
			recorder__writer_error(r, rr->em.stream, err, d);
	}
	return err;
}

int recorder__read(struct recorder *r, bool *wrote, struct diag *d)
{
	uint64_t total;
	int err;

	*wrote = false;
	if (r->threaded) {
		/* the threads read; a thread's error ends the recording */
		return atomic_load(&r->failed) ? recorder__threads_stop(r, d) : 0;
	}
	err = recorder__read_rings(r, NULL, r->nr_rings, &total, d);
	if (err)
		return err;
	if (total) {
		*wrote = true;
		r->st.nr_wakeups++;
		/* rounds in a single time-ordered file; none in a directory (as perf) nor
		 * in snapshot mode, whose kept samples come later than the side-band
		 * written meanwhile: the reader sorts the whole file */
		if (!r->o.dir && !r->o.snapshot_size) {
			err = writer__round(r->w, 0);
			if (err)
				recorder__writer_error(r, RECORDER_ANY_STREAM, err, d);
		}
	}
	return err;
}

int recorder__wait(struct recorder *r, int timeout_ms)
{
	size_t hup = 0, n = 0;
	int rc;

	if (r->threaded) {
		/* the threads poll their rings; the main thread waits for signals */
		if (poll(NULL, 0, timeout_ms) < 0 && errno != EINTR)
			return -errno;
		return atomic_load(&r->nr_hup) == r->nr_threads ? 1 : 0;
	}
	rc = poll(r->pfds, r->nr_rings, timeout_ms);

	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	for (size_t i = 0; i < r->nr_rings; i++) {
		if (r->pfds[i].fd < 0)
			continue;
		n++;
		if (r->pfds[i].revents & (POLLHUP | POLLERR))
			hup++;
	}
	return n && hup == n ? 1 : 0;
}

/* the sample_id trailer of a record of fd f's event: its id where the layout has ID
 * or IDENTIFIER, zeros elsewhere (perf's perf_event__synthesize_id_sample() of a
 * sample with only the id set); returns its size */
static size_t id_trailer(const struct recorder *r, const struct evfd *f, unsigned char *out)
{
	uint64_t st = r->ev[f->ev].attr.sample_type;
	static const uint64_t order[] = { SAMPLE_TID, SAMPLE_TIME, SAMPLE_ID, SAMPLE_STREAM_ID,
					  SAMPLE_CPU, SAMPLE_IDENTIFIER };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint64_t v = order[i] == SAMPLE_ID || order[i] == SAMPLE_IDENTIFIER ? f->id : 0;

		if (!(st & order[i]))
			continue;
		memcpy(out + n, &v, 8);
		n += 8;
	}
	return n;
}

/* perf record 6.1's closing LOST_SAMPLES records: one per fd whose event counted
 * samples lost (read_format LOST), with the event's id in its trailer */
static int write_lost_samples(struct recorder *r, struct diag *d)
{
	for (size_t i = 0; i < r->nr_fds; i++) {
		uint64_t v[3];	/* read_format ID|LOST: value, id, lost */
		unsigned char rec[16 + 48];
		size_t size;
		int err;

		if (read(r->fds[i].fd, v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
			continue;
		memset(rec, 0, 16);
		bytes__put_u32(rec, REC_LOST_SAMPLES);
		bytes__put_u64(rec + 8, v[2]);
		size = 16 + id_trailer(r, &r->fds[i], rec + 16);
		bytes__put_u16(rec + 6, (uint16_t)size);
		err = writer__write(r->w, 0, rec, size, 0, WRITER_PLAIN);
		if (err) {
			recorder__writer_error(r, RECORDER_ANY_STREAM, err, d);
			return err;
		}
		r->main_em.st.bytes += size;
	}
	return 0;
}

/* the rings' stats into the main emitter's (its times: the recording's) and r->st */
static void sum_stats(struct recorder *r, bool threads)
{
	struct rstats *m = &r->main_em.st;

	for (size_t i = 0; i < r->nr_rings; i++) {
		const struct rstats *s = &r->rings[i].em.st;

		m->nr_samples += s->nr_samples;
		m->nr_lost += s->nr_lost;
		m->bytes += s->bytes;
		if (threads)
			m->nr_wakeups += s->nr_wakeups;
		if (s->first_ns && (!m->first_ns || s->first_ns < m->first_ns))
			m->first_ns = s->first_ns;
		if (s->last_ns > m->last_ns)
			m->last_ns = s->last_ns;
		r->rings[i].em.st = (struct rstats){ 0 };
	}
	r->st.nr_samples = m->nr_samples;
	r->st.nr_lost = m->nr_lost;
	r->st.bytes = m->bytes;
	if (threads)
		r->st.nr_wakeups = m->nr_wakeups;
}

/* The header's features (record/features.h: the events with their ids, the build-ids
 * of the files hit, the sample times; GROUP_DESC) set on the writer; *bids receives the
 * build-ids (record_dsos__free_build_ids() frees them). */
static int set_features(struct recorder *r, bool threads, struct feat_build_id **bids,
			size_t *nr_bids)
{
	struct record_features f = { .argv = r->o.argv, .argc = r->o.argc };
	struct feat_event *fev = calloc(r->o.nr_events ? r->o.nr_events : 1, sizeof(*fev));
	uint64_t *ids = calloc(r->nr_fds ? r->nr_fds : 1, sizeof(*ids));
	struct feat_group *groups = calloc(r->o.nr_events ? r->o.nr_events : 1,
					   sizeof(*groups));
	size_t at = 0, nr_groups = 0;
	int err = fev && ids && groups ? 0 : -ENOMEM;

	*bids = NULL;
	*nr_bids = 0;
	/* the groups of more than one event, as perf record describes them */
	for (size_t e = 0; !err && e < r->o.nr_events; e++)
		if (r->ev[e].leader == e && r->ev[e].nr_members > 1)
			groups[nr_groups++] = (struct feat_group){
				.name = r->ev[e].group ? r->ev[e].group : "{anon_group}",
				.leader_idx = (uint32_t)e,
				.nr_members = (uint32_t)r->ev[e].nr_members };
	for (size_t e = 0; !err && e < r->o.nr_events; e++) {
		fev[e].attr = r->ev[e].attr;
		fev[e].name = r->ev[e].name;
		fev[e].ids = ids + at;
		for (size_t i = 0; i < r->nr_fds; i++)
			if (r->fds[i].ev == e)
				ids[at++] = r->fds[i].id;
		fev[e].nr_ids = (uint32_t)(ids + at - fev[e].ids);
	}
	if (!err)
		err = record_dsos__build_ids(r->dsos, bids, nr_bids);
	if (!err) {
		f.events = fev;
		f.nr_events = r->o.nr_events;
		f.build_ids = *bids;
		f.nr_build_ids = *nr_bids;
		sum_stats(r, threads);
		f.first_sample_ns = r->main_em.st.first_ns;
		f.last_sample_ns = r->main_em.st.last_ns;
		if (r->ev[0].attr.flags & (1ULL << ATTR_USE_CLOCKID)) {
			f.use_clockid = true;
			f.clockid = r->ev[0].attr.clockid;
			f.ref_tod_ns = r->ref_tod_ns;
			f.ref_clock_ns = r->ref_clock_ns;
		}
		err = record_features__write(r->w, &f);
		if (!err && nr_groups)
			err = writer__set_group_desc(r->w, groups, nr_groups);
	}
	free(groups);
	free(fev);
	free(ids);
	return err;
}

int recorder__finish(struct recorder *r, struct recorder_stats *stats, struct diag *d)
{
	struct feat_build_id *bids = NULL;
	size_t nr_bids = 0;
	bool threads = r->nr_threads > 0, wrote;
	int err;

	err = recorder__threads_stop(r, d);
	ioctl_leaders(r, PERF_EVENT_IOC_DISABLE);
	while (!err) {
		err = recorder__read(r, &wrote, d);
		if (!wrote)
			break;
	}
	if (!err)
		err = write_lost_samples(r, d);
	if (!err) {
		err = set_features(r, threads, &bids, &nr_bids);
		if (err)
			diag__set(d, r->o.path, DIAG_NO_OFFSET, err, "%s", diag__code_str(err));
	}
	if (!err) {
		struct writer *w = r->w;

		r->w = NULL;
		writer__comp_bytes(w, &r->st.comp_in, &r->st.comp_out);
		err = writer__close(w, d);
	}
	if (!err)
		err = session__build_index(r->o.path, 0, 0, d);
	if (!err && r->o.buildid_dir)
		r->st.buildid_cache_err = record_buildid_cache__add(r->o.buildid_dir, bids,
								    nr_bids);
	record_dsos__free_build_ids(bids, nr_bids);
	if (stats)
		*stats = r->st;
	return err;
}

int recorder__aio_fallback(const struct recorder *r)
{
	return r->w ? writer__aio_fallback(r->w) : 0;
}

int recorder__salvage(struct recorder *r)
{
	struct diag d = { .offset = DIAG_NO_OFFSET };
	struct feat_build_id *bids = NULL;
	bool threads = r->nr_threads > 0;
	struct writer *w = r->w;
	size_t nr_bids = 0;

	(void)recorder__threads_stop(r, &d);
	ioctl_leaders(r, PERF_EVENT_IOC_DISABLE);
	if (!w)
		return -EINVAL;
	/* the features too, where memory allows (written where the disk does) */
	(void)set_features(r, threads, &bids, &nr_bids);
	record_dsos__free_build_ids(bids, nr_bids);
	r->w = NULL;
	return writer__salvage(w, &d);
}

void recorder__delete(struct recorder *r)
{
	if (!r)
		return;
	recorder__threads_stop(r, NULL);
	for (size_t i = 0; i < r->nr_threads; i++) {
		free(r->threads[i].rings);
		free(r->threads[i].pfds);
	}
	free(r->threads);
	if (r->o.nr_threads)
		pthread_mutex_destroy(&r->dsos_lock);
	close_all(r);
	writer__delete(r->w);
	record_dsos__delete(r->dsos);
	for (size_t e = 0; r->ev && e < r->o.nr_events; e++) {
		free(r->ev[e].name);
		free(r->ev[e].group);
	}
	free(r->ev);
	free(r->cpus);
	free(r->tids);
	free(r->rings);
	free(r->pfds);
	free(r->fds);
	free(r);
}
