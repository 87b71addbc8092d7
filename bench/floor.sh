#!/usr/bin/env bash
# bench/floor.sh - how close dirconvert --to-sqlite comes to its floor, the SQLite writer thread.
#
#   bench/floor.sh [-n RUNS] [-s SECONDS] [-k] [-j N] [DATA]
#
# dirconvert hands every row to one thread that writes it through SQLite's API
# (convert/db-writer.c, the thread named dr-sqlite); the rest of the run - decoding,
# ordering, resolving - can at best hide behind it, so the writer's CPU time is the
# wall time the command cannot go below: its floor.  Per run, two runs of
# `dirconvert -j N --to-sqlite` (default -j 2):
#   - one under GNU time: wall seconds and all CPU (user + system);
#   - one under `perf record -e task-clock -c 250000` (0.25 ms samples): each
#     thread's share of the CPU samples, by thread name (the threads carry their role:
#     dr-sqlite, dr-producer, dr-worker; the calling thread is `dirconvert`).
# Printed per run: wall, all CPU, the writer's CPU (its share times the first run's
# CPU: perf's sampling slows every thread alike, so shares carry over better than
# times), the calling thread's CPU, and wall / writer CPU: 1.00 is the floor, the
# issue's target is at most 1.15.  The last line gives the medians.
#
# DATA: a recording (default: a SECONDS-long, default 10, ../shared/bench/make-data.sh
# directory, into a temporary directory removed at the end unless -k).
# Needs perf 6.1, GNU time and $BUILD/dirconvert (default build/).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
# shellcheck disable=SC2034 # secs and keep: read by bench/lib.sh
runs=3 secs=10 keep='' jobs=2

bench_data_arg jobs_opt "$@"
bench_init dirconvert
bench_data

echo "bench: $(nproc) CPUs; $bin -j $jobs --to-sqlite"
db=$tmp/floor.db
: >"$tmp/floor"
for _ in $(seq "$runs"); do
	rm -f "$db"
	/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$bin" -j "$jobs" -i "$data" \
		--to-sqlite "$db" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	read -r wall user sys <"$tmp/t"
	rm -f "$db"
	perf record -q -e task-clock -c 250000 -o "$tmp/floor.data" \
		"$bin" -j "$jobs" -i "$data" --to-sqlite "$db" >/dev/null 2>&1
	# "share% comm" lines, e.g. "38.96%  dr-sqlite"
	perf report -i "$tmp/floor.data" --stdio --sort comm 2>/dev/null |
		awk -v wall="$wall" -v cpu="$(echo "$user $sys" | awk '{ print $1 + $2 }')" '
		/^ *[0-9.]+%/ { sub(/%/, "", $1); share[$2] = $1 / 100 }
		END {
			w = share["dr-sqlite"] * cpu; m = share["dirconvert"] * cpu
			printf "wall %5.2f s  all CPU %5.2f s  writer %5.2f s  calling thread " \
			       "%5.2f s  wall / writer %5.2f\n", wall, cpu, w, m, w ? wall / w : 0
		}' | tee -a "$tmp/floor"
done
printf 'median: wall %s s  writer %s s  wall / writer %s\n' \
	"$(awk '{ print $2 }' "$tmp/floor" | median)" \
	"$(awk '{ print $9 }' "$tmp/floor" | median)" \
	"$(awk '{ print $NF }' "$tmp/floor" | median)"
