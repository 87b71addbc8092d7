#!/usr/bin/env bash
# bench/serial.sh - the serial part of a dirreport run, measured: the calling thread's CPU outside the parallel passes.
#
#   bench/serial.sh [-n RUNS] [-s SECONDS] [-k] [-j N] [DATA [-- DIRREPORT_ARGS...]]
#
# bench/scaling.sh bounds the serial fraction from above by the calling thread's share
# of the CPU samples; but the calling thread also takes its part of every parallel
# pass (parallel_for() runs jobs on the caller too), so that share stays high on a
# machine with few workers however much work moved to them.  This script counts only
# what the calling thread does outside them: `perf record --call-graph dwarf -e
# task-clock` of a frame-pointer build of dirreport ($BUILD_FP, default build-fp, made again when the
# sources changed, with OPT="-O2 -g -fno-omit-frame-pointer"), each sample of the calling thread whose
# call chain holds no parallel_for() and no workqueue__group_wait() is serial, and so
# is one in a job no other thread ran (a pass of one job, such as the scan of a
# single file).
# Printed per run: that serial CPU, the calling thread's CPU, all CPU (ms), and the
# serial share of all CPU with the speedup it predicts on 16 and 64 cores
# (Amdahl, 1 / (s + (1 - s) / P)).  The producer, counter and replayer threads are
# single threads too (their samples in jobs of a parallel pass do not count: the
# counter hands its batches' counting to the workers and runs jobs itself), but they
# run beside the calling thread (a pipeline: each works on another batch), so they do
# not add to it; nor does the kallsyms check
# (dr-kallsyms: the kernel formatting /proc/kallsyms as one thread reads it), which
# the report waits for only before printing.  A second line gives each one's CPU,
# and the share and prediction of the longest of the five serial parts (the calling
# thread's and these), the bound a pipeline meets when one stage is the slowest.
#
# DATA: a recording (default: a SECONDS-long, default 10, ../shared/bench/make-data.sh
# directory, into a temporary directory removed at the end unless -k).
# DIRREPORT_ARGS: default --stdio.  -j: workers as dirreport's -j (default 2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' jobs=2
BUILD_FP=${BUILD_FP:-build-fp}

bench_dashdash "$@"
set -- "${bench_pre[@]}"
args=("${bench_post[@]}")
bench_data_arg jobs_opt "$@"
# made again whenever the sources changed (a stale binary measured old code before)
echo "bench: making $BUILD_FP/dirreport with frame pointers" >&2
make -s BUILD="$BUILD_FP" OPT="-O2 -g -fno-omit-frame-pointer" "$BUILD_FP/dirreport" >/dev/null
BUILD=$BUILD_FP bench_init dirreport
bench_data

echo "bench: $(nproc) CPUs; $bin -j $jobs ${args[*]}"
for _ in $(seq "$runs"); do
	# DWARF call chains: a frame-pointer chain loses the callers of a libc
	# function built without frame pointers (qsort, the futex and munmap
	# wrappers), whose samples then looked serial (the directory's flat report:
	# 20-25 % where the unwound chains give 5-6 %)
	perf record -q -e task-clock -c 250000 --call-graph dwarf,16384 -o "$tmp/serial.data" \
		"$bin" -j "$jobs" -i "$data" "${args[@]}" >/dev/null 2>&1
	# samples of 0.25 ms; a sample is "pid/tid" then its call chain, one frame a line
	perf script -i "$tmp/serial.data" -F tid,pid,ip,sym 2>/dev/null | awk '
	# a sample: "pid/tid", then its call chain, callee first, one frame a line.
	# A job of a parallel pass is the frame called by parallel_for() or
	# workqueue__group_wait() on the calling thread, and by pfor_run() or worker()
	# on the others; the calling thread running jobs no other thread ran (a pass of
	# one job: the scan of a single file) is serial too.
	function flush() {
		if (n) {
			t++
			if (main) {
				m++
				if (!job)
					s++
				else
					mjob[job]++
			} else if (job) {
				other[job] = 1
			}
		}
		# the own work of a single thread: not the jobs it runs of a parallel pass
		# (the counter hands the counting of its batches to the workers and takes
		# jobs too)
		if (st != "" && !par)
			stage[st]++
		n = 0; job = ""; prev = ""; prev2 = ""; st = ""; par = 0
	}
	/^ *[0-9]+\/[0-9]+/ {
		flush(); split($1, a, "/"); main = a[1] == a[2]; n = 1; next
	}
	{
		f = $2
		# a clone gcc made (workqueue__group_wait.part.0) counts as its function
		sub(/\.(part|isra|constprop|cold)\.[0-9.]*$/, "", f)
		if (f == "producer_main" || f == "counter_main" || f == "replayer_main" ||
		    f == "check_main")
			st = f
		if (f == "parallel_for" || f == "workqueue__group_wait" || f == "pfor_run")
			par = 1
		# (the calling thread runs its share of a parallel_for() in pfor_run(),
		# a frame of its own where DWARF shows inlined calls: the job is the
		# frame it calls, as on the workers)
		if (!job && main && (f == "parallel_for" || f == "workqueue__group_wait"))
			job = prev == "pfor_run" && prev2 != "" ? prev2 : prev != "" ? prev : f
		if (!job && !main && f == "worker")
			job = prev == "pfor_run" && prev2 != "" ? prev2 : prev != "" ? prev : f
		prev2 = prev; prev = f
	}
	END {
		flush()
		for (j in mjob)
			if (!(j in other))
				s += mjob[j]
		f = t ? s / t : 0
		printf "serial %5.0f ms  calling thread %5.0f ms  all %5.0f ms  serial %4.1f %%  " \
		       "predicts %4.1fx on 16 cores, %4.1fx on 64\n", s / 4, m / 4, t / 4, 100 * f,
		       1 / (f + (1 - f) / 16), 1 / (f + (1 - f) / 64)
		longest = s
		for (k in stage)
			if (stage[k] > longest)
				longest = stage[k]
		f = t ? longest / t : 0
		printf "  producer %5.0f ms  counter %5.0f ms  replayer %5.0f ms  kallsyms " \
		       "check %5.0f ms  longest serial part %4.1f %%  predicts %4.1fx on 16 " \
		       "cores, %4.1fx on 64\n",
		       stage["producer_main"] / 4, stage["counter_main"] / 4,
		       stage["replayer_main"] / 4, stage["check_main"] / 4, 100 * f,
		       1 / (f + (1 - f) / 16), 1 / (f + (1 - f) / 64)
	}'
done
