/*
 * `dirconvert --index PATH`: the per-file index of a recording
 * (reader/session.h session__build_index()).
 */
#include "convert/cmd.h"

#include "reader/session.h"
#include "banned.h"

int cmd_index(const struct convert_opts *o, struct diag *d)
{
	return session__build_index(o->index, o->jobs, o->index_interval, d);
}
