#ifndef DIRREPORT_RECORD_THREADS_H
#define DIRREPORT_RECORD_THREADS_H
/*
 * threads - perf record 6.1's --threads[=SPEC]: which reader thread reads which cpu's
 * ring buffer, and where each thread may run.
 *
 * SPEC (perf record --help, 6.1): `cpu` (the default: a thread per cpu), `core` (per
 * core: the cpus of /sys/devices/system/cpu/cpuN/topology/core_cpus_list), `package`
 * (package_cpus_list), `numa` (the cpus of each /sys/devices/system/node/nodeK), or
 * masks `CPUS/AFFINITY:CPUS/AFFINITY:...` (cpu lists as -C takes them; a thread
 * monitors CPUS and runs on AFFINITY; `/AFFINITY` left out: on CPUS). The named
 * specs' affinity is the mask itself. Cpus of a mask that are not recorded are
 * ignored; a mask with none of them, masks that overlap, and a recorded cpu in no mask
 * are refused.
 *
 * Thread safety: any thread (reads /sys).
 */
#include <sched.h>	/* cpu_set_t */
#include <stddef.h>

/**
 * @brief The reader threads of SPEC for the recorded cpus.
 * @param spec       NULL or "" for `cpu`; see the file comment
 * @param cpus, nr_cpus  the recorded cpus, ascending
 * @param thread_of  receives per cpu (index into cpus) its thread's number
 *                   (malloc()ed; the caller frees); threads numbered by first cpu
 * @param affinity   receives per thread its affinity (malloc()ed; the caller frees)
 * @param nr_threads receives the number of threads (>= 1)
 * @param err, len   on -EINVAL: what is wrong, for the usage line
 * @return 0; -EINVAL (a bad SPEC); -ENOMEM.
 * Format: none (the layout of the data directory is record/recorder.h's).
 */
int record_threads__masks(const char *spec, const int *cpus, size_t nr_cpus,
			  unsigned **thread_of, cpu_set_t **affinity, size_t *nr_threads,
			  char *err, size_t len);

#endif
