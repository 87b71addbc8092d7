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
 *   - no `_[k]` suffix (stackcollapse's --kernel is off by default), unless the
 *     set annotates kinds (script_fold__annotate(), for the flame graph): then each
 *     frame part of a kernel frame ends in `_[k]` and of a JIT or unresolved frame
 *     in `_[j]` (stackcollapse-perf.pl's --kernel --jit suffixes), user frames and
 *     PNAME in none.
 *
 * Thread safety: an object belongs to one thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */

#include "script/format.h"

struct script_fold;

/** What a frame's code is: the flame graph's colours. */
enum script_frame_kind {
	SCRIPT_KIND_USER = 0,	/* a symbol of a user-space dso */
	SCRIPT_KIND_KERNEL,	/* a kernel cpumode (host or guest) */
	SCRIPT_KIND_OTHER,	/* JIT code (perf-PID.map, jitted-*.so, //anon) or no
				 * symbol at all ([unknown], [DSO]) */
};

/** One frame as perf script prints it. */
struct script_fold_frame {
	const char *sym;	/* symbol name, NULL for [unknown]; borrowed */
	const char *dso;	/* dso name, NULL for [unknown]; borrowed */
	enum script_frame_kind kind;	/* used by annotating sets only */
};

/** The suffixes of annotated frame parts (see above); 4 bytes each. */
#define SCRIPT_FOLD_KERNEL_SUFFIX "_[k]"
#define SCRIPT_FOLD_OTHER_SUFFIX "_[j]"

/** @brief A new, empty set of stacks. @return 0 or -ENOMEM. Ownership: the caller
 *  frees it with script_fold__delete().  Thread safety: any.  Format: none. */
int script_fold__new(struct script_fold **out);

/** @brief Free everything; NULL is a no-op. */
void script_fold__delete(struct script_fold *f);

/**
 * @brief Make the set annotate kinds (the `_[k]`/`_[j]` suffixes above) in the
 *        stacks added from now on; call it before the first script_fold__add().
 * Thread safety: the object's thread.  Format: stackcollapse-perf.pl --kernel --jit.
 */
void script_fold__annotate(struct script_fold *f);

/**
 * @brief The kind an annotated frame part's suffix says, and its length without it.
 * @param part  one frame part of an annotated stack, @p len bytes
 * @param bare  receives the length without the suffix (@p len when it has none)
 * @return the kind (SCRIPT_KIND_USER without a suffix).
 * Thread safety: pure.  Format: as above.
 */
enum script_frame_kind script_fold__part_kind(const char *part, size_t len, size_t *bare);

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
 * @brief Add every stack of @p src, with its count, to @p dst (the sets of several
 *        threads merged once: the stacks are sorted when written, so the result
 *        does not depend on which thread counted which sample).  Both sets must
 *        annotate alike.
 * @return 0 or -ENOMEM (@p dst then holds part of @p src).
 * Thread safety: @p dst's thread, @p src not changed meanwhile.  Format: none.
 */
int script_fold__merge(struct script_fold *dst, const struct script_fold *src);

/**
 * @brief The stacks, sorted, one `STACK COUNT` line each.
 * @return 0, -ENOMEM, or -EIO when writing fails (errno set by stdio).
 * Thread safety: the object's thread.  Format: stackcollapse-perf.pl's output.
 */
int script_fold__write(struct script_fold *f, FILE *out);

/**
 * @brief Call @p fn for every stack, in the order script_fold__write() prints them.
 * @param fn  gets the stack (@p len bytes, NUL-terminated, borrowed for the call)
 *            and its sample count; a non-zero return stops the walk
 * @return 0, -ENOMEM, or what @p fn returned.
 * Thread safety: the object's thread.  Format: stackcollapse-perf.pl's output.
 */
int script_fold__for_each(struct script_fold *f,
			  int (*fn)(void *ctx, const char *stack, size_t len, uint64_t count),
			  void *ctx);

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

/**
 * @brief As script_fold__frame(), each part followed by @p suffix (NULL: none).
 * @return 0 or -ENOMEM.
 * Thread safety: the buffer's thread.  Format: as above.
 */
int script_fold__frame_suffixed(struct script_buf *b, const char *sym, const char *dso,
				bool java, const char *suffix, size_t *nparts);

#endif
