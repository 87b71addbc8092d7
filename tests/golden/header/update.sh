#!/bin/sh
# Regenerate the expected `perf report --header-only [-I]` outputs of the bundled samples
# used by tests/unit/check_feature.c. Run from the repository root after samples/record.sh.
set -eu
cd "$(dirname "$0")/../../.."
for s in plain pipe threads threads-z callchain; do
	perf report --header-only -i "samples/$s.data" >"tests/golden/header/$s.txt" 2>/dev/null
	perf report --header-only -I -i "samples/$s.data" >"tests/golden/header/$s-I.txt" 2>/dev/null
done
