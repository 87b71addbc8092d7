/* TEMPORARY ordering check; replaced by the full -D formatter. */
#include "report/cmd.h"

#include "format/record.h"
#include "reader/session.h"
#include "banned.h"

struct dctx { struct session *s; FILE *out; };

static int on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct dctx *c = p;

	for (size_t i = 0; i < n; i++) {
		const struct record_ref *r = recs[i];
		if (r->flags & RECORD_REF_CONTAINER)
			continue;
		fprintf(c->out, "%#llx@%s [%#x]: event: %u\n", (unsigned long long)r->offset,
			session__file_label(c->s, r->file), r->size, r->type);
	}
	return 0;
}

int cmd_dump(struct session *s, const struct report_opts *o, FILE *out)
{
	struct dctx c = { s, out };
	(void)o;
	return session__deliver(s, on_batch, &c, 0);
}


int cmd_header(struct session *s, const struct report_opts *o, FILE *out)
{
	(void)s; (void)o; (void)out;
	return 0;
}
