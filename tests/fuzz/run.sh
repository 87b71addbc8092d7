#!/bin/sh
# tests/fuzz/run.sh BUILD SECONDS TARGET... - run each libFuzzer target for SECONDS, one
# after the other (a single fuzzing process at a time), from the repository root.
# Called by `make fuzz`. Per target: seeds from tests/fuzz/corpus/TARGET (read only), new
# inputs to BUILD/corpus/TARGET, crash/leak/timeout/oom inputs to tests/fuzz/crashers/TARGET,
# the log to BUILD/TARGET.log; the final statistics line is echoed. Exit 1 if any target
# stopped on a finding (the remaining targets still run).
# Extra libFuzzer flags: FUZZ_FLAGS in the environment.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:?usage: run.sh BUILD SECONDS TARGET...}
secs=${2:?usage: run.sh BUILD SECONDS TARGET...}
shift 2
status=0
for t in "$@"; do
	mkdir -p "$build/corpus/$t" "tests/fuzz/corpus/$t" "tests/fuzz/crashers/$t"
	# No input of these targets justifies a single allocation above malloc_limit_mb
	# (zstd's decoder may take a 128 MiB window, as any -z level allows).
	case $t in
	fuzz_zstd|fuzz_session|fuzz_index) mlimit=200 ;;
	*) mlimit=64 ;;
	esac
	echo "== $t: ${secs}s (log: $build/$t.log)"
	# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
	"$build/bin/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-malloc_limit_mb=$mlimit -max_len=65536 -print_final_stats=1 \
		-dict=tests/fuzz/perf.dict -artifact_prefix="tests/fuzz/crashers/$t/" \
		${FUZZ_FLAGS:-} "$build/corpus/$t" "tests/fuzz/corpus/$t" >"$build/$t.log" 2>&1
	rc=$?
	grep -E '^#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss' \
		"$build/$t.log" | tail -n 4
	if [ $rc -ne 0 ]; then
		echo "== $t: FINDING (exit $rc): $(grep -m1 -E 'ERROR|SUMMARY|runtime error' \
			"$build/$t.log")"
		status=1
	fi
done
exit $status
