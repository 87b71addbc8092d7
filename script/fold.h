#ifndef DIRREPORT_SCRIPT_FOLD_H
#define DIRREPORT_SCRIPT_FOLD_H
/*
 * fold - folded stacks: what FlameGraph's stackcollapse-perf.pl (default options)
 * writes from `perf script` output, made directly from the resolved samples.
 *
 * One line per distinct stack, `PNAME;ROOT;...;LEAF COUNT`, sorted by bytes (Perl's
 * `sort { $a cmp $b }`), COUNT the number of samples with that stack.  The rules
 * reproduced (stackcollapse-perf.pl, read, not copied):
 *   - PNAME is the comm as the script's header-line pattern
 *     `^(\S.+?)\s+(\d+)[/]*(\d+)*\s+` (its slash written [/] here) captures it
 *     from `COMM TID ...`, spaces turned into '_'; empty when it does not match;
 *   - each frame is its symbol name without the +0xOFF; `[unknown]` in a known dso
 *     becomes `[DSO-BASENAME]`; a name starting with '(' is skipped; a name is split
 *     at "->" (parts after the first get `_[i]`); then ';' becomes ':', everything
 *     from the first '(' not opening "(anonymous namespace)" is cut (unless the name
 *     looks like a Go method, `.(...).`), quotes are deleted; for PNAME "java" a
 *     leading 'L' is dropped from names containing '/';
 *   - no `_[k]` suffix (stackcollapse's --kernel is off by default).
 *
 * Thread safety: an object belongs to one thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */

#include "script/format.h"

struct script_fold;

/** One frame as perf script prints it. */
struct script_fold_frame {
	const char *sym;	/* symbol name, NULL for [unknown]; borrowed */
	const char *dso;	/* dso name, NULL for [unknown]; borrowed */
};

/** @brief A new, empty set of stacks. @return 0 or -ENOMEM. Ownership: the caller
 *  frees it with script_fold__delete().  Thread safety: any.  Format: none. */
int script_fold__new(struct script_fold **out);

/** @brief Free everything; NULL is a no-op. */
void script_fold__delete(struct script_fold *f);

/**
 * @brief Count one sample's stack.
 * @param header  the sample's header line as perf prints it with an unpadded comm
 *                (`COMM TID ...`), @p header_len bytes: PNAME is taken from it
 * @param frames  the frames in perf script's order (innermost first), @p nr of them
 * @return 0 or -ENOMEM.
 * Thread safety: the object's thread.  Format: stackcollapse-perf.pl's input rules.
 */
int script_fold__add(struct script_fold *f, const char *header, size_t header_len,
		     const struct script_fold_frame *frames, size_t nr);

/**
 * @brief The stacks, sorted, one `STACK COUNT` line each.
 * @return 0, -ENOMEM, or -EIO when writing fails (errno set by stdio).
 * Thread safety: the object's thread.  Format: stackcollapse-perf.pl's output.
 */
int script_fold__write(struct script_fold *f, FILE *out);

/** @brief Number of samples counted so far. */
uint64_t script_fold__samples(const struct script_fold *f);

/**
 * @brief stackcollapse-perf.pl's process name of a header line (see above).
 * @return 0 or -ENOMEM; appends to @p b.
 * Thread safety: the buffer's thread.  Format: as above.
 */
int script_fold__pname(struct script_buf *b, const char *header, size_t len);

/**
 * @brief Append the folded names of one frame (joined by ';', none when the frame
 *        is skipped) to @p b; *@p nparts receives their number.
 * @param sym, dso  as in struct script_fold_frame
 * @param java      the process name is "java"
 * @return 0 or -ENOMEM.
 * Thread safety: the buffer's thread.  Format: as above.
 */
int script_fold__frame(struct script_buf *b, const char *sym, const char *dso, bool java,
		       size_t *nparts);

#endif
