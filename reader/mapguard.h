#ifndef DIRREPORT_READER_MAPGUARD_H
#define DIRREPORT_READER_MAPGUARD_H
/*
 * mapguard - mapped input files that may shrink while they are read.
 *
 * A page of a file mapping past the file's end raises SIGBUS when it is touched: a
 * recording cut (truncate, a copy over it) between the scan pass and the delivery
 * pass, which reads the mapping, killed the program.  A file mapping registered here
 * is guarded: a SIGBUS inside it replaces the pages from the faulting one to the
 * mapping's end by zero pages (mmap MAP_FIXED), records the lowest faulting offset
 * and lets the read go on; the reader, at its next fill, and the session, at the end
 * of a delivery, turn that into one error (DIAG_CHANGED).  A SIGBUS anywhere else
 * gets the action that was installed before (by default: the program dies of it).
 *
 * The registry is a fixed array of MAPGUARD_SLOTS slots written with atomics: the
 * signal handler reads it without locks.  A mapping registered when every slot is
 * taken is not guarded.
 *
 * Thread safety: every function may be called from any thread (rule 16c: atomics).
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

/** Slots of the registry: mappings guarded at once (a directory's data files). */
#define MAPGUARD_SLOTS 4096

/**
 * @brief Guard the file mapping [base, base + len) (installs the SIGBUS handler the
 *        first time).
 * @param base, len  a whole mapping made with mmap() (len in bytes, > 0)
 * @return the slot (>= 0, for the other calls), or -1 when every slot is taken or
 *         the handler could not be installed (the mapping is then not guarded).
 * Thread safety: any thread.  Format: none.
 */
int mapguard__add(const void *base, size_t len);

/**
 * @brief Stop guarding slot @p slot (before its mapping is unmapped); -1 is a no-op.
 * Thread safety: any thread.  Format: none.
 */
void mapguard__remove(int slot);

/**
 * @brief Whether a page of slot @p slot's mapping was past its file's end.
 * @param slot    from mapguard__add(), or -1 (never faulted)
 * @param offset  when faulted: the lowest offset in the mapping (bytes) read past
 *                the file's end
 * @return true when it was; the mapping then reads zeros from that page on.
 * Thread safety: any thread.  Format: none.
 */
bool mapguard__faulted(int slot, uint64_t *offset);

#endif
