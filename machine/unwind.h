#ifndef DIRREPORT_MACHINE_UNWIND_H
#define DIRREPORT_MACHINE_UNWIND_H
/*
 * unwind - the user-space call chain of a `perf record --call-graph dwarf` sample,
 * unwound from the registers and the copy of the stack the sample carries
 * (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER) with the CFI (.eh_frame) of the
 * files the process had mapped at the time of the sample.
 *
 * perf 6.1 unwinds with libunwind; its answers are the contract, quirks included
 * (observed on real recordings, facts from perf's and libunwind's documentation):
 *  - the first address is the user IP register as is; every further one is a
 *    return address minus one, except in signal frames;
 *  - registers are kept as locations and read only when a rule needs them
 *    (libunwind's lazy cursor); RSP's value is the CFA;
 *  - memory is read from the stack copy when the 8 bytes lie inside
 *    [SP, SP + dynamic size - 8) (perf's bound leaves the last word out), else
 *    from the file mapped at the address (file offset addr - map start + pgoff);
 *    what cannot be read reads as 0 for the return address (perf's access_mem()
 *    answers 0), and fails the step elsewhere;
 *  - perf looks a file's CFI table up relative to the lowest address any map of
 *    that file has in the process, less the file's first PT_LOAD address: when a
 *    process that exec'd keeps a stale copy of a library lower down (its parent's
 *    maps), no CFI is found there;
 *  - without CFI, libunwind's x86_64 fallbacks: a PLT entry, else the frame
 *    pointer (RBP), checked to lie a little above the CFA; an RBP of 0 ends the
 *    chain, and a frame whose return address reads 0 is still kept (as -1);
 *  - an undefined RBP or return address after a CFI step ends the chain.
 *  The CFI rules come from libdw (dwarf_getcfi_elf(), dwarf_cfi_addrframe()); the
 *  files are the dsos' data files (the build-id cache's copy, else the path under
 *  --symfs), each opened and its .eh_frame read once per unwinder and kept for every
 *  process that maps it (where a file sits comes from each sample's maps).
 *  Registers are mapped per architecture in one table (x86_64 only so far: perf's
 *  PERF_REG_X86_* order to DWARF numbers); samples of other architectures or ABIs
 *  get their IP alone.
 *
 * Thread safety: a struct unwinder is used by one thread at a time (its files and
 * their libdw state are its own); unwinders used at once by several threads share
 * nothing but the dsos, which they only read, and the maps they are given, which
 * must not change during a call.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evlist;
struct machine;
struct maps;
struct sample;
struct unwinder;

/**
 * @brief Create an unwinder for the recording of architecture @p arch (the ARCH
 *        feature, e.g. "x86_64"; NULL: the machine this runs on).
 * @return 0 or -ENOMEM.  Ownership: *out is the caller's (unwinder__delete()).
 */
int unwinder__new(struct unwinder **out, const char *arch);

/**
 * @brief Create an unwinder for another thread that shares @p first's open files
 *        (one file descriptor per file, whatever the number of unwinders) and its
 *        architecture.  Each keeps its own libdw state.
 * @return 0 or -ENOMEM.  Ownership: *out is the caller's (unwinder__delete(), in any
 *         order with @p first).
 * Thread safety: the unwinders may be used at once by different threads.
 */
int unwinder__new_sibling(struct unwinder **out, struct unwinder *first);

/** @brief Free an unwinder and what it keeps (NULL is a no-op). */
void unwinder__delete(struct unwinder *u);

/**
 * @brief Unwind one sample's user stack in callee order (the sample's own user
 *        address first).
 * @param mp   the maps of the sample's process at the sample's time (a thread's
 *             maps, or a copy of them taken then: their array must stay as it was
 *             during the call); NULL: no process, the sample gets its IP alone
 * @param s    the parsed sample; only its user_regs_abi, user_regs_mask, user_regs,
 *             user_stack_size, user_stack_dyn_size and user_stack are read (a
 *             caller may fill those alone)
 * @param ips  receives at most @p max addresses (virtual addresses of the process)
 * @param nr   receives their number: 0 when the sample carries no user registers or
 *             no stack (perf then unwinds nothing), 1 when nothing could be
 *             unwound beyond the IP
 * @return 0, or -ENOMEM.  A stack that cannot be unwound is not an error.
 */
int unwinder__unwind(struct unwinder *u, const struct maps *mp, const struct sample *s,
		     uint64_t *ips, size_t max, size_t *nr);

/**
 * @brief Whether perf unwinds user stacks in this recording: some event samples
 *        both the user registers and the user stack (perf's
 *        thread__resolve_callchain_unwind()).
 */
bool unwind__wanted(const struct evlist *el);

/**
 * @brief When no user stack given so far could be unwound (the recording's
 *        architecture is not supported, or the files its processes ran are not
 *        here), the warning that says so, for the front end to add to the
 *        session's (session__warn()).
 * @param arch  the recording's architecture (ARCH feature), or NULL
 * @param buf, len  receives the warning's text (NUL-terminated, cut to @p len)
 * @return true when there is a warning (in @p buf), false when not.
 * Thread safety: reads @p u only.
 */
bool unwinder__warning(const struct unwinder *u, const char *arch, char *buf,
		       size_t len);

/**
 * @brief Add @p from's counts of stacks tried and unwound to @p u's, so that
 *        unwinder__warning() on @p u speaks for both (unwinders of several threads).
 * Thread safety: neither is in use by another thread.
 */
void unwinder__add_counts(struct unwinder *u, const struct unwinder *from);

#endif
