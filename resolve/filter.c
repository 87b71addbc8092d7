/* filter - perf's sample filters (see filter.h). */
#include "resolve/filter.h"

#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, strtol, strtoul */
#include <string.h>	/* memcmp, strchr, strcmp, strlen */

#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/symbol.h"
#include "banned.h"

/* perf's strlist__has_entry(): an item of the comma-separated list equal to name. */
static bool str_listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	while (list) {
		const char *comma = strchr(list, ',');
		size_t n = comma ? (size_t)(comma - list) : strlen(list);

		if (n == len && !memcmp(list, name, n))
			return true;
		list = comma ? comma + 1 : NULL;
	}
	return false;
}

/* perf's intlist__has_entry(): an empty item is 0, as perf's strtol makes it. */
static bool int_listed(const char *list, long v)
{
	while (list) {
		char *end;

		if (strtol(list, &end, 10) == v)
			return true;
		list = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

int sample_filter__init(struct sample_filter *f, const struct sample_filter_opts *o)
{
	size_t bits = 0;

	*f = (struct sample_filter){ .o = *o };
	if (!o->cpus)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (const char *p = o->cpus; *p;) {
			char *end;
			unsigned long a = strtoul(p, &end, 10), b = a;

			if (end == p)
				goto bad;
			p = end;
			if (*p == '-') {
				b = strtoul(p + 1, &end, 10);
				if (end == p + 1 || b < a)
					goto bad;
				p = end;
			}
			if (b >= 4096)
				goto bad;
			if (pass == 0 && b + 1 > bits)
				bits = b + 1;
			for (unsigned long c = a; pass == 1 && c <= b; c++)
				f->cpus[c / 64] |= 1ULL << (c % 64);
			if (*p == ',')
				p++;
			else if (*p)
				goto bad;
		}
		if (pass == 0) {
			f->cpus = calloc((bits + 63) / 64 + 1, sizeof(uint64_t));
			if (!f->cpus)
				return -ENOMEM;
			f->nr_cpu_bits = bits;
		}
	}
	return 0;
bad:
	free(f->cpus);
	f->cpus = NULL;
	return -EINVAL;
}

void sample_filter__exit(struct sample_filter *f)
{
	free(f->cpus);
	f->cpus = NULL;
}

bool sample_filter__cpu(const struct sample_filter *f, int32_t cpu)
{
	return !f->cpus || (cpu >= 0 && (size_t)cpu < f->nr_cpu_bits &&
			    (f->cpus[cpu / 64] >> (cpu % 64) & 1));
}

bool sample_filter__thread(const struct sample_filter *f, const struct thread *t,
			   const char *comm)
{
	return (f->o.comms && !str_listed(f->o.comms, comm)) ||
	       (f->o.pids && !int_listed(f->o.pids, t->pid)) ||
	       (f->o.tids && !int_listed(f->o.tids, t->tid));
}

bool sample_filter__dso(const struct sample_filter *f, const struct dso *dso)
{
	return f->o.dsos &&
	       (!dso || !(str_listed(f->o.dsos, dso__short_name(dso)) ||
			  (strcmp(dso__short_name(dso), dso__long_name(dso)) &&
			   str_listed(f->o.dsos, dso__long_name(dso)))));
}

bool sample_filter__symbol(const struct sample_filter *f, const struct addr_location *al,
			   uint64_t ip)
{
	char addr[32];

	if (!f->o.symbols)
		return false;
	if (al->sym) {
		if (str_listed(f->o.symbols, al->sym->name))
			return false;
		snprintf(addr, sizeof(addr), "0x%" PRIx64, ip);
		if (str_listed(f->o.symbols, addr))
			return false;
	}
	return true;
}
