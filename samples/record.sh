#!/bin/sh
# samples/record.sh - record the bundled sample recordings with the installed perf.
#
# Run from the repository root: `sh samples/record.sh`.  Every path is relative so that
# perf's stored command line and the golden `-D` output never name a path of this machine.
# Workloads are programs of a stock Debian system only.  Needs perf and root (or
# kernel.perf_event_paranoid <= 1 for a task-bound cpu-clock recording).
#
# After recording, run `sh tests/golden/update.sh` to regenerate perf's golden outputs.
set -eu
cd "$(dirname "$0")/.."
PATH=/usr/bin:/bin; export PATH

work='dd if=/dev/zero bs=64k count=300 2>/dev/null | gzip -1 | sha256sum >/dev/null; seq 1 30000 | sort -r | md5sum >/dev/null'

rec() {
	out=$1; shift
	rm -rf "samples/$out"
	perf record -q --no-buildid-cache -o "samples/$out" "$@" >/dev/null 2>&1
}

# single regular file
rec plain.data -e cpu-clock -F 2000 -- sh -c "$work"
# perf record --threads: a data directory (data + data.N)
rec threads.data --threads -e cpu-clock -F 2000 -- sh -c "$work"
# --threads -z: every data.N is a zstd stream of COMPRESSED records
rec threads-z.data --threads -z -e cpu-clock -F 2000 -- sh -c "$work"
# -g: frame-pointer callchains
rec callchain.data -g -e cpu-clock -F 1000 -- sh -c "$work"
# pipe format written to a file
rm -f samples/pipe.data
perf record -q --no-buildid-cache -e cpu-clock -F 2000 -o - -- sh -c "$work" >samples/pipe.data 2>/dev/null

ls -l samples
