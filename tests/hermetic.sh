#!/bin/sh
# tests/hermetic.sh - run a command where this machine's user-space files are not the ones
# the samples were recorded with.
#
#   sh tests/hermetic.sh [COMMAND [ARG...]]      (default: make check; needs root)
#
# COMMAND runs in a private mount namespace (unshare -m) where /usr/bin/perl is another
# program (a copy of /usr/bin/true: an ELF file with another build-id, as a Debian point
# release of perl would be) and /usr/lib/debug is an empty directory (no libc6-dbg
# symbols).  perf itself still runs there.  The goldens hold only if perf and dirreport
# resolve the samples' user space through the build-id cache the samples carry
# (samples/buildid-cache.tar.xz, tests/README.md): `sh tests/hermetic.sh` must pass as
# `make check` does.  CI runs its `make check` this way.
set -eu
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
	echo "hermetic.sh: needs root (a mount namespace with bind mounts)" >&2
	exit 1
fi
command -v unshare >/dev/null 2>&1 || {
	echo "hermetic.sh: needs unshare (util-linux)" >&2
	exit 1
}
[ $# -gt 0 ] || set -- make check
# HERMETIC_REPLACE: more programs to replace the same way, ':'-separated (a golden case
# of a stripped interpreter other than perl names it in its `hermetic` file: replacing
# python3.11 for the whole of make check would take the tests' own python away)
extra=${HERMETIC_REPLACE:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hermetic.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
cp /usr/bin/true "$tmp/perl"
mkdir "$tmp/debug"

# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m sh -c '
	set -e
	mount --make-rprivate /
	[ -e /usr/bin/perl ] && mount --bind "$1" /usr/bin/perl
	[ -d /usr/lib/debug ] && mount --bind "$2" /usr/lib/debug
	cmp -s "$1" /usr/bin/perl || [ ! -e /usr/bin/perl ] ||
		{ echo "hermetic.sh: /usr/bin/perl was not replaced" >&2; exit 1; }
	[ -z "$(ls -A /usr/lib/debug 2>/dev/null)" ] ||
		{ echo "hermetic.sh: /usr/lib/debug is not empty" >&2; exit 1; }
	for p in $(echo "$3" | tr ":" " "); do
		[ -e "$p" ] && mount --bind "$1" "$p"
	done
	shift 3
	exec "$@"
' sh "$tmp/perl" "$tmp/debug" "$extra" "$@"
