#!/bin/sh
# tests/script/update.sh - regenerate dirscript's golden outputs from perf 6.1's
# `perf script`.
#
#   sh tests/script/update.sh [CASE...]            regenerate all (or the named) cases
#   sh tests/script/update.sh --add-default-cases  create <sample>-script for every
#                                                  samples/*.data (pipes with their
#                                                  --kallsyms), then update
#
# A case is a directory tests/script/golden/<case>/ whose `cmd` holds one line of
# arguments, whitespace separated, no quoting, paths relative to the repository root;
# they are perf script's arguments and dirscript's alike.  For each case this runs
# `perf script ARGS` from the repository root, with a HOME whose ~/.debug is a copy of
# the samples' build-id cache (as tests/run-cli-tests.sh runs dirscript), and writes
#   expected.stdout  perf's stdout (over 256 KiB: xz-compressed, expected.stdout.xz);
#   expected.exit    perf's exit status, only when it is not 0.
# Tracepoint payloads (the trace field) are printed through libtraceevent by both.
set -eu
# hermetic_prefix CASE-DIR: "sh tests/hermetic.sh" for a case with a file `hermetic`
# (as root), made and run where /usr/bin/perl is another program (tests/run-cli-tests.sh)
hermetic_prefix() {
	[ -f "$1/hermetic" ] && [ "$(id -u)" -eq 0 ] &&
		echo "env HERMETIC_REPLACE=$(head -n 1 "$1/hermetic") sh tests/hermetic.sh"
	return 0
}
cd "$(dirname "$0")/../.."
PATH=/usr/bin:/bin:/usr/sbin:/sbin; export PATH

add=
while [ $# -gt 0 ]; do
	case $1 in
	--add-default-cases) add=1; shift ;;
	-*) echo "usage: $0 [--add-default-cases] [CASE...]" >&2; exit 2 ;;
	*) break ;;
	esac
done

perf version 2>/dev/null | grep -q '^perf version 6\.1\.' || {
	echo "update.sh: needs perf 6.1 (found: $(perf version 2>&1 | head -n 1))" >&2
	exit 1
}

if [ -n "$add" ]; then
	for s in samples/*.data; do
		[ -e "$s" ] || continue
		b=$(basename "$s" .data)
		c=tests/script/golden/$b-script
		[ -f "$c/cmd" ] && continue
		mkdir -p "$c"
		ks=
		[ -e "$s.kallsyms" ] && ks=" --kallsyms $s.kallsyms"
		echo "-i $s$ks" >"$c/cmd"
		echo "new case $c: $(cat "$c/cmd")"
	done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/script-update.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -f samples/buildid-cache/.unpacked ] || make -s buildid-cache
mkdir -p "$tmp/home"
cp -R samples/buildid-cache "$tmp/home/.debug"
HOME=$tmp/home
export HOME

[ $# -gt 0 ] || set -- tests/script/golden/*/
for c; do
	case $c in */*) ;; *) c=tests/script/golden/$c ;; esac
	c=${c%/}
	[ -f "$c/cmd" ] || { echo "skip $c: no cmd"; continue; }
	args=$(cat "$c/cmd")
	set -f
	# shellcheck disable=SC2086
	set -- $args
	set +f
	rc=0
	$(hermetic_prefix "$c") perf script "$@" >"$c/expected.stdout" 2>"$tmp/err" </dev/null || rc=$?
	rm -f "$c/expected.stdout.xz"
	lines=$(wc -l <"$c/expected.stdout")
	if [ "$(wc -c <"$c/expected.stdout")" -gt 262144 ]; then
		xz -9 -c "$c/expected.stdout" >"$c/expected.stdout.xz"
		rm -f "$c/expected.stdout"
	fi
	if [ "$rc" -ne 0 ]; then
		echo "$rc" >"$c/expected.exit"
	else
		rm -f "$c/expected.exit"
	fi
	echo "updated $c: perf script $args (exit $rc, $lines lines)"
	if [ -s "$tmp/err" ]; then
		echo "  perf wrote to stderr (not stored):"
		head -n 5 "$tmp/err" | sed 's/^/    /'
	fi
done
