#!/bin/sh
# tests/convert/update.sh - regenerate tests/convert/golden/ from perf 6.1's own
# database export of the recordings in samples/.
#
#   sh tests/convert/update.sh          (from anywhere; needs root for kallsyms)
#
# For each golden case, tests/convert/golden/<case>/ holds:
#   cmd            dirconvert's arguments, one line (run from the repository root,
#                  `--to-sqlite OUT` is added by run.sh)
#   perf-cmd       the perf command that made the expected database
#   *.txt          the database as tests/convert/dump.sh prints it
#
# perf's script needs PySide2's QtSql: on Debian `apt-get install python3-pyside2.qtsql`.
# perf 6.1's "callchains" mode dies at start (NameError: call_query: it writes the
# placeholder row of the calls table, which only "calls" mode creates); the callchain
# case runs a copy of the script with that one line made conditional, changed at run
# time with sed; nothing of perf's script is stored here.
set -eu
cd "$(dirname "$0")/../.."
script=$(perf --exec-path)/scripts/python/export-to-sqlite.py
[ -f "$script" ] || { echo "update.sh: $script not found" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/convert-update.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# perf's build-id cache is the one the samples carry, as in the tests (tests/README.md)
[ -f samples/buildid-cache/.unpacked ] || make -s buildid-cache
mkdir -p "$tmp/home"
cp -R samples/buildid-cache "$tmp/home/.debug"
HOME=$tmp/home
export HOME
# the callchains fix: write the calls placeholder only when the calls table exists
sed 's/^\([[:space:]]*\)call_return_table(0, /\1if perf_db_export_calls: call_return_table(0, /' \
	"$script" >"$tmp/export-callchains.py"

make_case() {
	name=$1 args=$2 perfscript=$3 perfargs=$4
	dir=tests/convert/golden/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	set -f
	# shellcheck disable=SC2086 # word splitting of the argument lists is intended
	perf script $args -s "$perfscript" "$tmp/$name.db" $perfargs >"$tmp/$name.log" 2>&1 ||
		{ cat "$tmp/$name.log" >&2; exit 1; }
	set +f
	echo "$args${5:+ $5}" >"$dir/cmd"
	echo "perf script $args -s export-to-sqlite.py OUT.db${perfargs:+ $perfargs}" >"$dir/perf-cmd"
	sh tests/convert/dump.sh "$tmp/$name.db" "$dir"
	echo "update.sh: $dir"
}

for name in plain threads threads-z callchain pipe; do
	s=samples/$name.data
	# a pipe recording names no build-id: its kernel symbols are given
	ks=
	[ -e "$s.kallsyms" ] && ks=" --kallsyms $s.kallsyms"
	make_case "$name" "-i $s$ks" "$script" ""
done
make_case callchain-callchains "-i samples/callchain.data" "$tmp/export-callchains.py" \
	"all callchains" "--callchains"
# --call-graph dwarf: the unwound user stacks in the call paths, with perf's inlined
# functions (their own symbols), in a shell that forks and execs and in python3
make_case dwarf-callchains "-i samples/dwarf.data" "$tmp/export-callchains.py" \
	"all callchains" "--callchains"
make_case dwarf-python-callchains "-i samples/dwarf-python.data --kallsyms \
samples/dwarf-python.data.kallsyms" "$tmp/export-callchains.py" "all callchains" "--callchains"
# kernel modules of a recording made elsewhere, with symbols from a synthetic kallsyms
# (tests/external/kallsyms/make.py): [module] short names, module-relative symbols
make_case ext-kmod-forkexit "-i tests/external/perf.data.forkexit-3.8 --kallsyms \
tests/external/kallsyms/forkexit-3.8" "$script" ""
# branch stacks (perf record -b): perf 6.1's export does not export the branch stack;
# the samples' branch columns (to_ip, to_symbol_id, to_dso_id, branch_type, in_tx)
# stay 0 there, as for any sample without an address
make_case ext-branch "-i tests/external/perf.data.branch-4.14 --kallsyms \
tests/external/empty.kallsyms" "$script" ""
