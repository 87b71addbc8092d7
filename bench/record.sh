#!/usr/bin/env bash
# bench/record.sh - dirrecord beside perf record 6.1 on the bench workload.
#
#   bench/record.sh [-n RUNS] [-s SECONDS] [-k] [-b BASE_BUILD]
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
# perf's, the workload's time no worse than under perf.  B/smp is the recording's bytes
# per sample (two recordings' sizes differ also by the samples they hold: the workload
# and the recorders share the cpus), its ratio the size's at equal samples; ratio is
# -z's compression ratio from the recorder's closing line (what it holds differs from
# run to run with the rest of the machine's load: the idle cpus' samples compress best).
# "dirrecord record --aio" is dirrecord with asynchronous writes (io_uring, one write in
# flight per file).  -b BASE_BUILD adds the lines of BASE_BUILD/dirrecord ("dirrecord
# base": another build, such as the one before a change) to the same run.  The runs go
# round the recorders (one run of each, then the next), so that the load of the rest of
# the machine weighs on every recorder alike.
#
# Needs root (system-wide recording), perf 6.1 and $BUILD/dirrecord,
# dirreport (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=3 secs=10 keep='' base=''

base_opt() { case $1 in -b) base=${2:?}/dirrecord; took=2 ;; esac; }
bench_opts base_opt "$@"
[ "${#bench_args[@]}" -eq 0 ] || usage
bench_init dirrecord
rep=$BUILD/dirreport
[ -z "$base" ] || [ -x "$base" ] || { echo "bench: $base not found" >&2; exit 1; }

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

# one run: the recorder's CPU (s), the workload's wall time (s), samples, lost, bytes,
# the compression ratio of its closing line (-z: "ratio is R", perf's and dirrecord's
# alike: bytes of records compressed / bytes of COMPRESSED records; else 0)
run_one() {
	local out=$tmp/rec.data
	rm -rf "$out"
	# bash's time (milliseconds; GNU time's hundredths are a tenth of 0.1 s of CPU)
	(
		TIMEFORMAT='%3U %3S'
		time "$@" -o "$out" -- sleep $((secs + 1)) >/dev/null 2>"$tmp/rec.err"
	) 2>"$tmp/cpu" &
	local pid=$! t0 t1 i
	sleep 0.5
	t0=$(date +%s.%N)
	for ((i = 0; i < rounds; i++)); do round; done
	t1=$(date +%s.%N)
	wait "$pid" || { echo "bench: $* failed:" >&2; head -n 3 "$tmp/rec.err" >&2; }
	"$rep" --stats -i "$out" >"$tmp/stats" 2>/dev/null || true
	printf '%s %s %s %s %s %s\n' \
		"$(awk '{ print $1 + $2 }' "$tmp/cpu" | tail -n 1)" \
		"$(echo "$t1 - $t0" | bc)" \
		"$(awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }' "$tmp/stats")" \
		"$(awk '$1 == "LOST" && $2 == "events:" { print $3; exit }' "$tmp/stats")" \
		"$(du -sb "$out" | cut -f1)" \
		"$(sed -n 's/.*, ratio is \([0-9.]*\)).*/\1/p' "$tmp/rec.err" | tail -n 1 |
			grep . || echo 0)"
}

: >"$tmp/results"
recorders="perf dirrecord aio${base:+ base}"
# the recorder of a line: its command in cmd, its name in name
recorder() {
	case $1 in
	perf) cmd=(perf record) name="perf record" ;;
	dirrecord) cmd=("$bin") name="dirrecord record" ;;
	aio) cmd=("$bin" --aio) name="dirrecord record --aio" ;;
	base) cmd=("$base") name="dirrecord base" ;;
	esac
}
for z in "" "-z"; do
	# run r of every recorder, then run r + 1 of every one: the machine's other load
	# drifts over a block, not from one recorder's runs to the next one's
	for who in $recorders; do : >"$tmp/runs.$who"; done
	for ((r = 0; r < runs; r++)); do
		for who in $recorders; do
			recorder "$who"
			# shellcheck disable=SC2086 # $z: one word or none
			run_one "${cmd[@]}" --threads -a -g -F 25000 $z >>"$tmp/runs.$who"
		done
	done
	for who in $recorders; do
		recorder "$who"
		printf '%s' "$name${z:+ $z}" >>"$tmp/results"
		for c in 1 2 3 4 5 6; do
			printf '\t%s' "$(cut -d' ' -f$c "$tmp/runs.$who" | sed 's/^$/0/' | median)" \
				>>"$tmp/results"
		done
		# bytes per sample: the median of the runs' own ratios (fields split at each
		# space: no LOST record leaves the 4th empty)
		printf '\t%s' "$(awk -F'[ ]' '{ print $3 ? $5 / $3 : 0 }' "$tmp/runs.$who" |
			median)" >>"$tmp/results"
		echo >>"$tmp/results"
	done
	echo "  ${z:-no -z} done" >&2
done

awk -F'\t' '
	BEGIN { printf "%-26s %6s %10s %8s %6s %6s %6s %6s %8s %9s %9s %9s\n", "recorder",
		"CPU s", "workload s", "samples", "lost", "MB", "B/smp", "ratio", "CPU/perf",
		"work/perf", "size/perf", "B/smp/perf" }
	$1 ~ /^perf / { pc = $2; pw = $3; ps = $6; pb = $8 }
	{
		p = $1 ~ /^perf /
		printf "%-26s %6.3f %10.2f %8d %6d %6.1f %6.2f %6.2f %8s %9s %9s %9s\n", $1, $2,
			$3, $4, $5, $6 / 1048576, $8, $7,
			p ? "-" : sprintf("%.2f", $2 / pc),
			p ? "-" : sprintf("%.2f", $3 / pw),
			p ? "-" : sprintf("%.2f", $6 / ps),
			p ? "-" : sprintf("%.2f", $8 / pb)
	}' "$tmp/results"
