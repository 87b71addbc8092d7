#!/bin/sh
# tests/json/update.sh - regenerate tests/json/golden/ from perf 6.1's own
# `perf data convert --to-json` of the bundled and external recordings.
#
#   sh tests/json/update.sh          (from anywhere; perf 6.1, jq, xz; dirreport built
#                                     in $BUILD, default build/, to read headers)
#
# For each recording perf converts (it crashes on every pipe-format input), writes
# tests/json/golden/<name>.json.xz: perf's JSON, sorted and compacted with `jq -S -c`,
# without headers."captured-on" (the input's mtime: a checkout's, tested against the
# file instead), and without headers.cpuid when the recording has no CPUID feature
# (perf 6.1 then writes the cpuid of the machine it runs on).  tests/json/cases lists
# name, input and dirconvert's extra arguments (kernel symbols), one per line.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/json-update.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -f samples/buildid-cache/.unpacked ] || make -s buildid-cache
mkdir -p "$tmp/home"
cp -R samples/buildid-cache "$tmp/home/.debug"
rm -f tests/json/golden/*.json.xz
: >tests/json/cases.tmp
for f in samples/*.data tests/external/perf.data.*; do
	name=$(basename "$f")
	name=${name%.data}
	extra=
	case $f in tests/external/*) extra="--kallsyms tests/external/empty.kallsyms" ;; esac
	# a recording whose header names no kernel build-id: its kernel symbols as its
	# report goldens get them (perf finds the same copy in the cache)
	[ -e "$f.kallsyms" ] && extra="--kallsyms $f.kallsyms"
	if ! HOME=$tmp/home perf data convert -i "$f" --to-json "$tmp/out.json" -f \
		>"$tmp/log" 2>&1; then
		echo "update.sh: $f: perf fails ($(tail -n 1 "$tmp/log")), skipped"
		continue
	fi
	filter='del(.headers."captured-on")'
	"$BUILD/dirreport" -i "$f" --header-only 2>/dev/null | grep -q '^# cpuid' ||
		filter="$filter | del(.headers.cpuid)"
	jq -S -c "$filter" "$tmp/out.json" | xz -9 >"tests/json/golden/$name.json.xz"
	printf '%s %s%s\n' "$name" "$f" "${extra:+ $extra}" >>tests/json/cases.tmp
	echo "update.sh: $name"
done
mv tests/json/cases.tmp tests/json/cases
