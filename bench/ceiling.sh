#!/usr/bin/env bash
# bench/ceiling.sh - how much a second core can give on this machine, beside what -j gives.
#
#   bench/ceiling.sh [-n RUNS] [-s SECONDS] [-k] [DATA [-- DIRREPORT_ARGS...]]
#
# The -j targets of the parallel issues compare `-j 2` with `-j 1` on the same machine.
# This script measures the best any program could do there: the same `dirreport -j 1`
# command run alone, and two copies of it started together (independent processes:
# nothing shared, no locks, no hand-over between threads).  Two copies finishing in
# T_pair against T_alone for one give a throughput of 2 * T_alone / T_pair: the speedup a
# perfect `-j 2` (no serial part, no overhead) could reach on this machine for this work.
# Below 2 it measures what the cores share (caches, memory bandwidth, the hypervisor's
# page-fault path on a virtual machine, other tenants), not our code.  The same is
# measured for a compute-only control (an awk loop), and the real `-j 2` run beside.
#
# DATA: a recording (default: a SECONDS-long, default 10, ../shared/bench/make-data.sh
# directory, recorded into a temporary directory removed at the end unless -k).
# DIRREPORT_ARGS: the report's options (default: --stdio).  Medians of RUNS (default 5)
# interleaved rounds.  Needs $BUILD/dirreport (default build/); root for the recording.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=5 secs=10 keep=''

opt() { :; }
bench_dashdash "$@"
set -- "${bench_pre[@]}"
args=("${bench_post[@]}")
bench_data_arg opt "$@"
bench_init dirreport
bench_data

now() { date +%s.%N; }

# one run of "$@", its wall seconds
one() {
	local t0
	t0=$(now)
	"$@" >/dev/null 2>&1 || true
	echo "$(now) $t0" | awk '{ printf "%.4f\n", $1 - $2 }'
}

# two copies of "$@" started together, the wall seconds until both ended
pair() {
	local t0 a b
	t0=$(now)
	"$@" >/dev/null 2>&1 &
	a=$!
	"$@" >/dev/null 2>&1 &
	b=$!
	wait "$a" "$b" || true
	echo "$(now) $t0" | awk '{ printf "%.4f\n", $1 - $2 }'
}

# the compute-only control: no memory to speak of, no system calls
loop() { awk 'BEGIN { for (i = 0; i < 20000000; i++) s += i * i }'; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

report=("$bin" -i "$data" "${args[@]}")
one "$bin" -j 1 -i "$data" "${args[@]}" >/dev/null	# page cache, kallsyms
: >"$tmp/alone"; : >"$tmp/pair"; : >"$tmp/j2"; : >"$tmp/loop1"; : >"$tmp/loop2"
for _ in $(seq "$runs"); do
	one "${report[@]}" -j 1 >>"$tmp/alone"
	pair "${report[@]}" -j 1 >>"$tmp/pair"
	one "${report[@]}" -j 2 >>"$tmp/j2"
	one loop >>"$tmp/loop1"
	pair loop >>"$tmp/loop2"
done

alone=$(median <"$tmp/alone"); two=$(median <"$tmp/pair"); j2=$(median <"$tmp/j2")
l1=$(median <"$tmp/loop1"); l2=$(median <"$tmp/loop2")
echo "bench: $(nproc) CPUs; dirreport ${args[*]}; medians of $runs interleaved rounds"
printf '%-44s %8s %10s\n' "run" "wall s" "speedup"
awk -v a="$alone" -v p="$two" -v j="$j2" -v l1="$l1" -v l2="$l2" 'BEGIN {
	printf "%-44s %8.3f %10s\n", "dirreport -j 1, alone", a, "1.00x"
	printf "%-44s %8.3f %9.2fx\n", "two dirreport -j 1 at once (ceiling)", p, 2 * a / p
	printf "%-44s %8.3f %9.2fx\n", "dirreport -j 2", j, a / j
	printf "%-44s %8.3f %10s\n", "compute-only control (awk), alone", l1, "1.00x"
	printf "%-44s %8.3f %9.2fx\n", "two compute-only controls at once", l2, 2 * l1 / l2
}'
