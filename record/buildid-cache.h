#ifndef DIRREPORT_RECORD_BUILDID_CACHE_H
#define DIRREPORT_RECORD_BUILDID_CACHE_H
/*
 * buildid-cache - the build-id cache entries perf record 6.1 leaves for a recording, so
 * that it is reported elsewhere, or after the files or the kernel changed, with the
 * symbols it was made with (dirreport reads them first, as perf does).  The layout is
 * perf's (seen in its caches, e.g. samples/buildid-cache.tar.xz):
 *
 *   DIR/[kernel.kallsyms]/<build-id>/kallsyms   a copy of /proc/kallsyms, mode 0444
 *   DIR/<path>/<build-id>/elf                   the file (a hard link where DIR is on
 *                                               its file system, else a copy with its
 *                                               mode)
 *   DIR/<path>/<build-id>/probes                empty, mode 0644
 *   DIR/.build-id/<2 hex>/<38 hex>              a symbolic link to
 *                                               ../../<path>/<build-id>
 *
 * <build-id> is the build-id in lower-case hex, <path> the file's absolute path
 * without its leading '/' ("[kernel.kallsyms]" for the kernel).  Directories are made
 * with mode 0755.  An entry already there is kept as it is; a new file is written
 * under a temporary name and renamed, so a reader never sees part of one.
 *
 * Thread safety: the caller's thread.
 */
#include <stddef.h>

struct feat_build_id;

/**
 * @brief Add the cache entries of @p nr build-ids (those of the recording's BUILD_ID
 *        feature: the kernel's as "[kernel.kallsyms]", files by absolute path).
 * @param dir  the cache (perf's ~/.debug); made where missing
 * @return 0; the first -errno of an entry that could not be added (the others are
 *         added all the same); an entry whose file is gone is skipped.
 */
int record_buildid_cache__add(const char *dir, const struct feat_build_id *ids, size_t nr);

#endif
