#!/usr/bin/env bash
# bench/record.sh - dirrecord beside perf record 6.1 on the bench workload.
#
#   bench/record.sh [-n RUNS] [-s SECONDS] [-k]
#
# Each recorder records the whole system (`--threads -a -g -F 25000`, the options of
# ../shared/bench/make-data.sh; then the same with -z) for SECONDS (default 10) plus
# one, while a fixed amount of the bench workload runs beside it (ROUNDS of
# make-data.sh's loop body: dd | gzip | sha256sum, seq | sort | md5sum, a perl and a python
# recursion; about 60 % of SECONDS alone, so that it ends inside the recording).  Per
# line, the medians of RUNS (default 3) runs: the recorder's own CPU time (user + system
# of the recorder, which waits for nothing but `sleep`), the workload's wall time under
# it, the samples and lost samples of the recording (`dirreport --stats`: SAMPLE events,
# LOST records' counts), the recording's size, and the ratios to perf's line of the same
# options.  The issue's targets: lost <= perf's, CPU <= 1/2 of perf's, size with -z <=
# perf's, the workload's time no worse than under perf.
#
# Needs root (system-wide recording), perf 6.1, GNU time and $BUILD/dirrecord,
# dirreport (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep=''

bench_opts '' "$@"
[ "${#bench_args[@]}" -eq 0 ] || usage
bench_init dirrecord
rep=$BUILD/dirreport

# the workload: ROUNDS rounds of make-data.sh's loop body, about 1 s of cpu each here
round() {
	dd if=/dev/zero bs=64k count=2000 2>/dev/null | gzip -1 | sha256sum >/dev/null
	seq 1 200000 | sort -r | md5sum >/dev/null
	perl -e 'sub f { my $n = shift; $n < 2 ? $n : f($n-1) + f($n-2) } f(24)'
	python3 -c 'f = lambda n: n if n < 2 else f(n-1) + f(n-2); f(23)'
}
t0=$(date +%s.%N)
round
one=$(echo "$(date +%s.%N) - $t0" | bc)
# rounds that take about 60 % of the recording alone: under a recorder they end before it
rounds=$(echo "$secs * 0.6 / $one" | bc)
[ "$rounds" -ge 1 ] || rounds=1
echo "bench: $(nproc) CPUs; $rounds rounds of the workload (${one}s each alone)," \
	"recorded for $((secs + 1))s, median of $runs runs"

# one run: the recorder's CPU (s), the workload's wall time (s), samples, lost, bytes
run_one() {
	local out=$tmp/rec.data
	rm -rf "$out"
	/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$@" -o "$out" -- sleep $((secs + 1)) \
		>/dev/null 2>"$tmp/rec.err" &
	local pid=$! t0 t1 i
	sleep 0.5
	t0=$(date +%s.%N)
	for ((i = 0; i < rounds; i++)); do round; done
	t1=$(date +%s.%N)
	wait "$pid" || { echo "bench: $* failed:" >&2; head -n 3 "$tmp/rec.err" >&2; }
	"$rep" --stats -i "$out" >"$tmp/stats" 2>/dev/null || true
	printf '%s %s %s %s %s\n' \
		"$(awk '{ print $1 + $2 }' "$tmp/cpu" | tail -n 1)" \
		"$(echo "$t1 - $t0" | bc)" \
		"$(awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }' "$tmp/stats")" \
		"$(awk '$1 == "LOST" && $2 == "events:" { print $3; exit }' "$tmp/stats")" \
		"$(du -sb "$out" | cut -f1)"
}

: >"$tmp/results"
for z in "" "-z"; do
	for who in perf dirrecord; do
		if [ "$who" = perf ]; then cmd=(perf record -q); else cmd=("$bin" -q); fi
		name="$who record${z:+ $z}"
		: >"$tmp/runs"
		for ((r = 0; r < runs; r++)); do
			# shellcheck disable=SC2086 # $z: one word or none
			run_one "${cmd[@]}" --threads -a -g -F 25000 $z >>"$tmp/runs"
		done
		printf '%s' "$name" >>"$tmp/results"
		for c in 1 2 3 4 5; do
			printf '\t%s' "$(cut -d' ' -f$c "$tmp/runs" | sed 's/^$/0/' | median)" \
				>>"$tmp/results"
		done
		echo >>"$tmp/results"
		echo "  $name done" >&2
	done
done

awk -F'\t' '
	BEGIN { printf "%-22s %9s %10s %9s %8s %9s %10s %10s %10s\n", "recorder", "CPU s",
		"workload s", "samples", "lost", "MB", "CPU/perf", "work/perf", "size/perf" }
	$1 ~ /^perf / { pc = $2; pw = $3; ps = $6 }
	{
		r = $1 ~ /^perf / ? "-" : "x"
		printf "%-22s %9.2f %10.2f %9d %8d %9.1f %10s %10s %10s\n", $1, $2, $3, $4, $5,
			$6 / 1048576,
			r == "-" ? "-" : sprintf("%.2f", $2 / pc),
			r == "-" ? "-" : sprintf("%.2f", $3 / pw),
			r == "-" ? "-" : sprintf("%.2f", $6 / ps)
	}' "$tmp/results"
