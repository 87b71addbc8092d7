#ifndef DIRREPORT_RECORD_DSOS_H
#define DIRREPORT_RECORD_DSOS_H
/*
 * dsos - which mapped files the samples of a recording fell in, so that the header's
 * BUILD_ID table names those (perf record writes the build-ids of the dsos with
 * samples). The maps are followed as the records go by: MMAP and MMAP2 add a map to
 * their process (pid -1: the kernel's and the modules'), FORK of a new process copies
 * its parent's maps, an exec (COMM with COMM_EXEC) empties the process's; a sample's
 * address is looked up in its process's maps (a kernel-mode sample's in the kernel's),
 * the newest map that holds it first.
 *
 * Format: docs/perf-data-format.md §4.3 (MMAP, MMAP2, COMM, FORK; header.misc cpumode),
 * §2.3 BUILD_ID (entries: pid -1, misc the cpumode, the file name; the kernel's as
 * "[kernel.kallsyms]").
 *
 * Thread safety: one thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct feat_build_id;
struct record_dsos;

/** @brief An empty tracker. @return 0; -ENOMEM. */
int record_dsos__new(struct record_dsos **out);

/** @brief Free it. NULL is a no-op. */
void record_dsos__delete(struct record_dsos *t);

/**
 * @brief A map: [start, start + len) of process pid (-1: the kernel) is file name.
 * @return 0; -ENOMEM.
 */
int record_dsos__mmap(struct record_dsos *t, int32_t pid, uint64_t start, uint64_t len,
		      const char *name, size_t name_len);

/** @brief A new process child (FORK with pid != ppid): it has its parent's maps.
 *  @return 0; -ENOMEM. */
int record_dsos__fork(struct record_dsos *t, int32_t child, int32_t parent);

/** @brief Process pid exec()ed: its maps are gone. */
void record_dsos__exec(struct record_dsos *t, int32_t pid);

/** @brief A sample at ip of process pid; kernel: a kernel-mode sample.  Its map's
 *  file is marked hit; *start and *end receive the map's range (every ip in it hits
 *  the same file until the maps change).
 *  @return whether a map holds ip. */
bool record_dsos__hit(struct record_dsos *t, int32_t pid, uint64_t ip, bool kernel,
		      uint64_t *start, uint64_t *end);

/**
 * @brief The BUILD_ID entries: the kernel's ("[kernel.kallsyms]", always, from
 *        /sys/kernel/notes), then every file with samples whose ELF build-id can be
 *        read here (names in "[...]" and "//anon" are skipped), in the order they
 *        were first mapped.
 * @param out  receives a malloc()ed array; record_dsos__free_build_ids() frees it
 * @return 0; -ENOMEM.
 */
int record_dsos__build_ids(struct record_dsos *t, struct feat_build_id **out, size_t *nr);

/** @brief Free what record_dsos__build_ids() made. */
void record_dsos__free_build_ids(struct feat_build_id *ids, size_t nr);

#endif
