#!/bin/sh
# tests/golden/update.sh - regenerate the golden outputs from perf 6.1.
#
#   sh tests/golden/update.sh [CASE...]               regenerate all (or the named) cases
#   sh tests/golden/update.sh --add-default-cases     create <sample>-{stdio,dump,header}
#                                                     for every samples/*.data, then update
#
# A case is a directory tests/golden/<case>/ whose `cmd` holds one line of arguments,
# whitespace separated, no quoting, paths relative to the repository root; they are
# perf's arguments and dirreport's alike (e.g. `-i samples/plain.data --stdio`).
# For each case this runs `perf report ARGS` from the repository root and writes:
#   expected.stdout  perf's stdout; for --stdio without the closing tip block
#                    ("#", "# (Tip: ...)", "#"): perf picks the tip at random, so it is not
#                    part of the contract (tests/run-cli-tests.sh strips it from
#                    dirreport's output as well, so dirreport may print one or not);
#                    over 256 KiB it is stored xz-compressed as expected.stdout.xz;
#   expected.exit    perf's exit status, only when it is not 0.
# perf runs with a HOME whose ~/.debug is a copy of the build-id cache the samples carry
# (samples/buildid-cache: the kernel symbols and vdso images they were recorded with), as
# tests/run-cli-tests.sh runs dirreport: the goldens do not depend on the running kernel.
# expected.stderr is never written: perf's warnings are not dirreport's contract; a case
# that needs one keeps it (write it from perf's stderr, not by hand).
# A pipe recording names no build-id: its cases pass --kallsyms samples/NAME.data.kallsyms
# (--add-default-cases writes that).
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
		for m in stdio:--stdio dump:-D header:--header-only; do
			c=tests/golden/$b-${m%%:*}
			[ -f "$c/cmd" ] && continue
			mkdir -p "$c"
			ks=
			[ -e "$s.kallsyms" ] && [ "${m#*:}" != --header-only ] &&
				ks=" --kallsyms $s.kallsyms"
			echo "-i $s$ks ${m#*:}" >"$c/cmd"
			echo "new case $c: $(cat "$c/cmd")"
		done
	done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden-update.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# perf's ~/.debug is a copy of the samples' build-id cache and nothing else, as in the
# tests: not this machine's own cache (-v prints where symbols came from)
[ -f samples/buildid-cache/.unpacked ] || make -s buildid-cache
mkdir -p "$tmp/home"
cp -R samples/buildid-cache "$tmp/home/.debug"
HOME=$tmp/home
export HOME

if [ $# -eq 0 ]; then
	# the --header-only outputs tests/unit/check_feature.c compares with
	sh tests/golden/header/update.sh
	set -- tests/golden/*/
fi
for c; do
	case $c in */*) ;; *) c=tests/golden/$c ;; esac
	c=${c%/}
	[ -f "$c/cmd" ] || { echo "skip $c: no cmd"; continue; }
	args=$(cat "$c/cmd")
	set -f
	# shellcheck disable=SC2086
	set -- $args
	set +f
	mode=stdio
	for a; do
		case $a in
		-D | --dump-raw-trace) mode=dump ;;
		--header-only) mode=header ;;
		esac
	done
	rc=0
	$(hermetic_prefix "$c") perf report "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	if [ "$mode" = stdio ]; then
		sh tests/run-cli-tests.sh --strip-tip "$tmp/out" "$c/expected.stdout"
	else
		# perf names a [vdso] without a build-id after a temporary copy of its own
		# process's vdso, a new name each run (README.md, Known differences)
		sed 's|/tmp/perf-vdso\.so-[A-Za-z0-9]\{6\}|[vdso]|g' "$tmp/out" >"$c/expected.stdout"
	fi
	# outputs over 256 KiB are kept xz-compressed (expected.stdout.xz)
	rm -f "$c/expected.stdout.xz"
	if [ "$(wc -c <"$c/expected.stdout")" -gt 262144 ]; then
		xz -9 -c "$c/expected.stdout" >"$c/expected.stdout.xz"
		lines=$(wc -l <"$c/expected.stdout")
		rm -f "$c/expected.stdout"
	else
		lines=$(wc -l <"$c/expected.stdout")
	fi
	if [ "$rc" -ne 0 ]; then
		echo "$rc" >"$c/expected.exit"
	else
		rm -f "$c/expected.exit"
	fi
	echo "updated $c: perf report $args (exit $rc, $lines lines)"
	if [ -s "$tmp/err" ]; then
		echo "  perf wrote to stderr (not stored):"
		head -n 5 "$tmp/err" | sed 's/^/    /'
	fi
done
