#include "record/events.h"

#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* strlen, strncmp, strndup */
#include <strings.h>	/* strcasecmp, strncasecmp */
#include <time.h>	/* CLOCK_* */

#include "record/tracefs.h"
#include "banned.h"

/* perf's names of the generic events (tools/perf/util/parse-events.c's tables) and
 * their configs (include/uapi/linux/perf_event.h: perf_sw_ids, perf_hw_id). */
static const struct event_name {
	const char *name;
	uint32_t type;
	uint64_t config;
} event_names[] = {
	{ "cpu-clock", ATTR_TYPE_SOFTWARE, 0 },
	{ "task-clock", ATTR_TYPE_SOFTWARE, 1 },
	{ "page-faults", ATTR_TYPE_SOFTWARE, 2 },
	{ "faults", ATTR_TYPE_SOFTWARE, 2 },
	{ "context-switches", ATTR_TYPE_SOFTWARE, 3 },
	{ "cs", ATTR_TYPE_SOFTWARE, 3 },
	{ "cpu-migrations", ATTR_TYPE_SOFTWARE, 4 },
	{ "migrations", ATTR_TYPE_SOFTWARE, 4 },
	{ "minor-faults", ATTR_TYPE_SOFTWARE, 5 },
	{ "major-faults", ATTR_TYPE_SOFTWARE, 6 },
	{ "alignment-faults", ATTR_TYPE_SOFTWARE, 7 },
	{ "emulation-faults", ATTR_TYPE_SOFTWARE, 8 },
	{ "dummy", ATTR_TYPE_SOFTWARE, 9 },
	{ "bpf-output", ATTR_TYPE_SOFTWARE, 10 },
	{ "cgroup-switches", ATTR_TYPE_SOFTWARE, 11 },
	{ "cpu-cycles", ATTR_TYPE_HARDWARE, 0 },
	{ "cycles", ATTR_TYPE_HARDWARE, 0 },
	{ "instructions", ATTR_TYPE_HARDWARE, 1 },
	{ "cache-references", ATTR_TYPE_HARDWARE, 2 },
	{ "cache-misses", ATTR_TYPE_HARDWARE, 3 },
	{ "branch-instructions", ATTR_TYPE_HARDWARE, 4 },
	{ "branches", ATTR_TYPE_HARDWARE, 4 },
	{ "branch-misses", ATTR_TYPE_HARDWARE, 5 },
	{ "bus-cycles", ATTR_TYPE_HARDWARE, 6 },
	{ "stalled-cycles-frontend", ATTR_TYPE_HARDWARE, 7 },
	{ "idle-cycles-frontend", ATTR_TYPE_HARDWARE, 7 },
	{ "stalled-cycles-backend", ATTR_TYPE_HARDWARE, 8 },
	{ "idle-cycles-backend", ATTR_TYPE_HARDWARE, 8 },
	{ "ref-cycles", ATTR_TYPE_HARDWARE, 9 },
};

/* x86-64's user registers perf samples for DWARF unwinding (PERF_REGS_MASK: every
 * register of arch/x86/include/uapi/asm/perf_regs.h but DS, ES, FS, GS) */
#define DWARF_REGS_USER_X86_64 0xff0fffULL
/* perf's largest --call-graph dwarf stack dump: USHRT_MAX rounded down to 8 */
#define DWARF_SIZE_MAX 65528u

void record_events__free(struct record_event *ev, size_t nr)
{
	for (size_t i = 0; ev && i < nr; i++) {
		free(ev[i].name);
		free(ev[i].group);
	}
	free(ev);
}

static int add_event(const char *name, size_t len, struct record_event **ev, size_t *nr,
		     size_t leader, char *err, size_t errlen)
{
	const struct event_name *n = NULL;
	struct record_event *grown;
	bool tracepoint = false;
	uint64_t tp_id = 0;

	for (size_t i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (strlen(event_names[i].name) == len &&
		    !strncmp(event_names[i].name, name, len)) {
			n = &event_names[i];
			break;
		}
	if (!n && len && memchr(name, ':', len)) {	/* a tracepoint SYS:NAME */
		size_t base = (size_t)((const char *)memchr(name, ':', len) - name);
		int rc = -EINVAL;

		/* an event of the table with a modifier (cycles:u) is not one */
		for (size_t i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
			if (strlen(event_names[i].name) == base &&
			    !strncmp(event_names[i].name, name, base))
				base = 0;
		if (base)
			rc = record_tracefs__id(name, len, &tp_id);
		if (rc == -ENOENT)
			snprintf(err, errlen, "unknown tracepoint '%.*s' (tracefs' events/SYS/NAME"
				 "; root mounts tracefs)", (int)len, name);
		else if (rc)
			snprintf(err, errlen, "'%.*s': event modifiers are not supported yet",
				 (int)len, name);
		if (rc)
			return -EINVAL;
		tracepoint = true;
	} else if (!n) {
		if (!len)
			snprintf(err, errlen, "empty event name");
		else
			snprintf(err, errlen, "unknown event '%.*s'", (int)len, name);
		return -EINVAL;
	}
	grown = realloc(*ev, (*nr + 1) * sizeof(**ev));
	if (!grown)
		return -ENOMEM;
	*ev = grown;
	grown[*nr] = (struct record_event){ .leader = leader == SIZE_MAX ? *nr : leader,
					    .nr_members = 1 };
	grown[*nr].attr.type = tracepoint ? ATTR_TYPE_TRACEPOINT : n->type;
	grown[*nr].attr.config = tracepoint ? tp_id : n->config;
	/* perf names an event by the name it was given (faults stays faults) */
	grown[*nr].name = strndup(name, len);
	if (!grown[*nr].name)
		return -ENOMEM;
	(*nr)++;
	return 0;
}

int record_events__parse(const char *spec, struct record_event **ev, size_t *nr,
			 char *err, size_t errlen)
{
	const char *p = spec;
	size_t leader = SIZE_MAX;	/* SIZE_MAX: outside a group */
	char *group = NULL;		/* the name of the group just opened */
	int rc;

	for (;;) {
		size_t len = strcspn(p, ",{}");

		if (p[len] == '{') {
			if (leader != SIZE_MAX) {
				snprintf(err, errlen, "'%s': groups cannot be nested", spec);
				return -EINVAL;
			}
			if (len && !(group = strndup(p, len)))
				return -ENOMEM;
			leader = *nr;
			p += len + 1;
			continue;
		}
		rc = add_event(p, len, ev, nr, leader, err, errlen);
		if (rc) {
			free(group);
			return rc;
		}
		if (group) {
			(*ev)[leader].group = group;
			group = NULL;
		}
		p += len;
		if (*p == '}') {
			if (leader == SIZE_MAX) {
				snprintf(err, errlen, "'%s': '}' without '{'", spec);
				return -EINVAL;
			}
			(*ev)[leader].nr_members = *nr - leader;
			leader = SIZE_MAX;
			p++;
			if (*p && *p != ',') {
				snprintf(err, errlen, "'%s': ',' expected after '}'", spec);
				return -EINVAL;
			}
		}
		if (!*p)
			break;
		p++;	/* ',' */
	}
	if (leader != SIZE_MAX) {
		snprintf(err, errlen, "'%s': group not closed", spec);
		return -EINVAL;
	}
	return 0;
}

static void set_flag(struct event_attr *a, enum attr_flag f)
{
	a->flags |= 1ULL << f;
}

int record_events__config(struct record_event *ev, size_t nr, const struct record_opts *o)
{
	bool freq = !o->period;
	bool dwarf = o->dwarf_size != 0;
	uint32_t dwarf_size = (o->dwarf_size + 7) & ~7u;

	if (!nr || (o->freq && o->period) || o->dwarf_size > DWARF_SIZE_MAX)
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		struct event_attr *a = &ev[i].attr;
		uint64_t st = SAMPLE_IP | SAMPLE_TID;

		*a = (struct event_attr){ .type = a->type, .config = a->config,
					  .size = ATTR_SIZE_VER7 };
		if (!o->per_thread || o->timestamp)
			st |= SAMPLE_TIME;
		if (a->type == ATTR_TYPE_TRACEPOINT) {
			/* perf's tracepoint evsel: every hit (or -c's period), with its
			 * RAW payload, cpu and period */
			st |= SAMPLE_RAW | SAMPLE_CPU | SAMPLE_PERIOD;
			a->sample_period = o->period ? o->period : 1;
		} else if (freq) {
			st |= SAMPLE_PERIOD;
			a->sample_period = o->freq ? o->freq : RECORD_DEFAULT_FREQ;
			set_flag(a, ATTR_FREQ);
		} else {
			a->sample_period = o->period;
		}
		if (nr > 1 || o->pipe)
			st |= SAMPLE_ID;
		if (o->callchain || dwarf)
			st |= SAMPLE_CALLCHAIN;
		if (o->sample_cpu)
			st |= SAMPLE_CPU;
		if (o->data_addr || dwarf)
			st |= SAMPLE_ADDR | SAMPLE_DATA_SRC;
		if (o->phys_data)
			st |= SAMPLE_PHYS_ADDR;
		if (o->data_page_size)
			st |= SAMPLE_DATA_PAGE_SIZE;
		if (o->code_page_size)
			st |= SAMPLE_CODE_PAGE_SIZE;
		if (o->weight)
			st |= SAMPLE_WEIGHT_STRUCT;
		if (o->all_cgroups)
			st |= SAMPLE_CGROUP;
		if (dwarf) {
			st |= SAMPLE_REGS_USER | SAMPLE_STACK_USER;
			a->sample_regs_user = DWARF_REGS_USER_X86_64;
			a->sample_stack_user = dwarf_size;
			set_flag(a, ATTR_EXCLUDE_CALLCHAIN_USER);
		}
		a->sample_type = st;
		a->read_format = FORMAT_ID | FORMAT_LOST;
		if (ev[i].leader == i) {
			set_flag(a, ATTR_DISABLED);
			set_flag(a, ATTR_ENABLE_ON_EXEC);
		}
		if (!o->per_thread)
			set_flag(a, ATTR_INHERIT);
		set_flag(a, ATTR_SAMPLE_ID_ALL);
		set_flag(a, ATTR_EXCLUDE_GUEST);
		if (o->use_clockid) {
			set_flag(a, ATTR_USE_CLOCKID);
			a->clockid = o->clockid;
		}
		if (i == 0) {
			set_flag(a, ATTR_MMAP);
			set_flag(a, ATTR_COMM);
			set_flag(a, ATTR_TASK);
			set_flag(a, ATTR_MMAP2);
			set_flag(a, ATTR_COMM_EXEC);
			set_flag(a, ATTR_KSYMBOL);
			set_flag(a, ATTR_BPF_EVENT);
			if (o->data_addr || dwarf)
				set_flag(a, ATTR_MMAP_DATA);
			if (o->namespaces)
				set_flag(a, ATTR_NAMESPACES);
			if (o->all_cgroups)
				set_flag(a, ATTR_CGROUP);
			if (o->buildid_mmap)
				set_flag(a, ATTR_BUILD_ID);
		}
	}
	return 0;
}

int record_events__add_tracking(struct record_event **ev, size_t *nr)
{
	static const enum attr_flag side_band[] = {
		ATTR_MMAP, ATTR_COMM, ATTR_TASK, ATTR_MMAP2, ATTR_COMM_EXEC, ATTR_KSYMBOL,
		ATTR_BPF_EVENT, ATTR_MMAP_DATA, ATTR_NAMESPACES, ATTR_CGROUP, ATTR_BUILD_ID,
	};
	struct record_event *grown, *d;
	uint64_t moved = 0;

	if (!*nr)
		return -EINVAL;
	grown = realloc(*ev, (*nr + 1) * sizeof(**ev));
	if (!grown)
		return -ENOMEM;
	*ev = grown;
	for (size_t i = 0; i < sizeof(side_band) / sizeof(side_band[0]); i++)
		moved |= 1ULL << side_band[i];
	d = &grown[*nr];
	*d = (struct record_event){ .attr = grown[0].attr, .leader = *nr, .nr_members = 1 };
	d->name = strdup("dummy:HG");
	if (!d->name)
		return -ENOMEM;
	d->attr.type = ATTR_TYPE_SOFTWARE;
	d->attr.config = 9;	/* PERF_COUNT_SW_DUMMY */
	d->attr.flags &= ~(1ULL << ATTR_DISABLED | 1ULL << ATTR_ENABLE_ON_EXEC |
			   1ULL << ATTR_EXCLUDE_GUEST);
	/* no tracepoint payload for the dummy, which samples nothing (RAW comes after
	 * the ID in a sample: the ID stays where the other events have it) */
	d->attr.sample_type &= ~SAMPLE_RAW;
	grown[0].attr.flags &= ~moved;
	(*nr)++;
	for (size_t i = 0; i < *nr; i++)
		grown[i].attr.sample_type |= SAMPLE_ID;
	return 0;
}

int record_events__clockid(const char *name)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	char *end;
	long n;

	if (!name || !*name)
		return -1;
	n = strtol(name, &end, 0);
	if (!*end)
		return n >= 0 && n <= INT32_MAX ? (int)n : -1;
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(name, clocks[i].name))
			return clocks[i].id;
	return -1;
}
