#include "report/branch.h"

#include "format/attr.h"
#include "format/evlist.h"
#include "format/header.h"
#include "format/record.h"	/* MISC_* */
#include "machine/machine.h"
#include "reader/session.h"
#include "report/cmd.h"
#include "banned.h"

static uint64_t combined_sample_type(struct session *s)
{
	const struct evlist *el = session__evlist(s);
	uint64_t t = 0;

	for (size_t i = 0; i < el->nr; i++)
		t |= el->evsels[i]->attr.sample_type;
	return t;
}

bool branch_mode__on(struct session *s, int opt)
{
	/* perf: "has_br_stack" is the feature bit, cleared when an event samples the
	 * user stack; -b asks for the view whatever the recording has */
	bool has = !session__is_pipe(s) &&
		   file_header__has_feat(session__header(s), FEAT_BRANCH_STACK) &&
		   !(combined_sample_type(s) & SAMPLE_STACK_USER);

	return opt > 0 || (!opt && has);
}

bool branch_mode__has_stacks(struct session *s)
{
	return (combined_sample_type(s) & SAMPLE_BRANCH_STACK) != 0;
}

int branch_mode__check(struct session *s, const struct report_opts *o, FILE *out)
{
	if (o->mem_mode && branch_mode__on(s, o->branch_stack)) {
		fputs("dirreport: --mem-mode: the recording has branch stacks, and the "
		      "branch view and --mem-mode are incompatible (add "
		      "--no-branch-stack)\n", stderr);
		return CMD_ERR_REPORTED;
	}
	/* a pipe's events are not known when perf checks */
	if (o->branch_stack > 0 && !session__is_pipe(s) && !branch_mode__has_stacks(s)) {
		if (!o->header && !o->quiet)
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n", out);
		fputs("dirreport: -b: the recording has no branch stacks (perf record -b)\n",
		      stderr);
		return CMD_ERR_REPORTED;
	}
	return 0;
}

void branch_end__resolve_map(struct machine *m, struct thread *t, uint64_t ip,
			     struct addr_location *al)
{
	machine__resolve_map(m, t, MISC_USER, ip, al);
	if (!al->map)
		machine__resolve_map(m, t, MISC_KERNEL, ip, al);
	if (!al->map)	/* perf's guest tries: host-only, so 'H' and no map */
		machine__resolve_map(m, t, MISC_GUEST_KERNEL, ip, al);
}
