#include "format/diag.h"

#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf, vsnprintf */
#include <string.h>	/* strerror */

#include "banned.h"

static const char *const diag_msgs[] = {
#define DIAG_MSG_(name, msg) msg,
	DIAG_CODES(DIAG_MSG_)
#undef DIAG_MSG_
};

const char *diag__code_str(int code)
{
	int c = code < 0 ? -code : code;

	if (c > DIAG__FIRST && c < DIAG__LAST)
		return diag_msgs[c - DIAG__FIRST - 1];
	if (c > 0 && c < DIAG__FIRST)
		return strerror(c);
	return "unknown error";
}

int diag__set(struct diag *d, const char *path, uint64_t offset, int code,
	      const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return code;
	snprintf(d->path, sizeof(d->path), "%s", path ? path : "");
	d->offset = offset;
	d->code = code;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
		va_end(ap);
	} else {
		snprintf(d->msg, sizeof(d->msg), "%s", diag__code_str(code));
	}
	return code;
}

char *diag__format(const struct diag *d, char *buf, size_t len)
{
	if (d->offset == DIAG_NO_OFFSET)
		snprintf(buf, len, "%s: %s", d->path, d->msg);
	else
		snprintf(buf, len, "%s: offset %#llx: %s", d->path,
			 (unsigned long long)d->offset, d->msg);
	return buf;
}
