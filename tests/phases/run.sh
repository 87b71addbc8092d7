#!/bin/sh
# tests/phases/run.sh - the per-stage timings (util/phase.h, DIRREPORT_PHASES) that
# bench/phases.sh reads.
#
#   BUILD=build sh tests/phases/run.sh       standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/phases/run.sh                    from tests/run-cli-tests.sh
#
# For dirreport --stdio, --stdio --no-children -g none and -D, and dirconvert
# --to-sqlite, on a bundled recording at -j 1 and -j 2:
# same       with DIRREPORT_PHASES set, stdout (the database: its dump) is what it is
#            without, and stderr has nothing but the phase lines
# lines      the stages each command names, in order (load, ..., delivery, ...,
#            total), each line "PROG: phase NAME: W ms wall, C ms CPU, B busy"
# sums       the total line's wall and CPU are the sums of the stages' (to the
#            rounding of each line: 0.05 ms a stage)
# off        without DIRREPORT_PHASES, no phase line

ph_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$ph_root/tests/phases/run.sh" ] || ph_root=$(pwd)

ph_standalone=
if ! command -v pass >/dev/null 2>&1; then
	ph_standalone=1
	cd "$ph_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, suite_standalone
	suite_standalone phases
fi

echo "-- phases (tests/phases)"
ph_tmp=$tmp/phases
rm -rf "$ph_tmp"
mkdir -p "$ph_tmp"
ph_rec=samples/callchain.data

# ph_stages ERR: the stage names of ERR's phase lines, one line, space separated
ph_stages() {
	sed -n 's/^[a-z]*: phase \([^:]*\):.*/\1/p' "$1" | tr ' ' '_' | tr '\n' ' ' |
		sed 's/ $//'
}

# ph_check NAME PROG WANT_STAGES CMD...: the checks above for one command
ph_check() {
	_n=$1 _p=$2 _want=$3
	shift 3
	run "$ph_tmp/plain" "$ph_tmp/plain.err" "$@"
	crashed "$_n:off" "$ph_tmp/plain.err" && return
	if [ "$rc" -ne 0 ]; then
		fail "$_n:off" "exit $rc: $(head -n 1 "$ph_tmp/plain.err")"
		return
	fi
	if grep -q ': phase ' "$ph_tmp/plain.err"; then
		fail "$_n:off" "phase lines without DIRREPORT_PHASES"
	else
		pass "$_n:off"
	fi
	[ "$_p" = dirconvert ] && sqlite3 "$ph_tmp/x.db" .dump >"$ph_tmp/plain" && rm -f "$ph_tmp/x.db"
	run "$ph_tmp/out" "$ph_tmp/err" env DIRREPORT_PHASES=1 "$@"
	crashed "$_n" "$ph_tmp/err" && return
	[ "$_p" = dirconvert ] && sqlite3 "$ph_tmp/x.db" .dump >"$ph_tmp/out" && rm -f "$ph_tmp/x.db"
	if [ "$rc" -ne 0 ]; then
		fail "$_n:same" "exit $rc: $(head -n 1 "$ph_tmp/err")"
	elif ! cmp -s "$ph_tmp/plain" "$ph_tmp/out"; then
		fail "$_n:same" "output differs with DIRREPORT_PHASES" "$ph_tmp/plain" "$ph_tmp/out"
	elif grep -v "^$_p: phase " "$ph_tmp/err" | grep -q .; then
		fail "$_n:same" "stderr: $(grep -v "^$_p: phase " "$ph_tmp/err" | head -n 1)"
	else
		pass "$_n:same"
	fi
	_got=$(ph_stages "$ph_tmp/err")
	if [ "$_got" != "$_want" ]; then
		fail "$_n:lines" "stages '$_got', want '$_want'"
	elif grep "^$_p: phase " "$ph_tmp/err" | grep -qv \
		"^$_p: phase [^:]*: [0-9]*\.[0-9] ms wall, [0-9]*\.[0-9] ms CPU, \([0-9]*\.[0-9][0-9]\|-\) busy$"; then
		fail "$_n:lines" "a malformed line: $(grep "^$_p: phase " "$ph_tmp/err" |
			grep -v ' busy$' | head -n 1)"
	else
		pass "$_n:lines"
	fi
	if awk -F': ' '
		$2 ~ /^phase / {
			split($3, f, /[ ,]+/)
			if ($2 == "phase total") { tw = f[1]; tc = f[4]; next }
			w += f[1]; c += f[4]; n++
		}
		END {
			d = w - tw; if (d < 0) d = -d
			e = c - tc; if (e < 0) e = -e
			exit !(n > 0 && d <= 0.05 * n + 0.01 && e <= 0.05 * n + 0.01)
		}' "$ph_tmp/err"; then
		pass "$_n:sums"
	else
		fail "$_n:sums" "the stages do not add up to the total"
		sed 's/^/    /' "$ph_tmp/err"
	fi
}

ph_rep=$BUILD/dirreport
ph_conv=$BUILD/dirconvert
# the report waits for the kernel's symbols after its first batch's pass 0 (at -j 1
# they were read during the load: it waits for nothing), the dump before delivery
ph_rs="load first_batch's_pass_0 kernel_symbols_wait delivery last_batch_counted output total"
ph_ds="load kernel_symbols_wait delivery total"
for _j in 1 2; do
	ph_check "phases:report:-j$_j" dirreport "$ph_rs" \
		"$ph_rep" -j "$_j" -i "$ph_rec" --stdio
	ph_check "phases:flat:-j$_j" dirreport "$ph_rs" \
		"$ph_rep" -j "$_j" -i "$ph_rec" --stdio --no-children -g none
	ph_check "phases:dump:-j$_j" dirreport "$ph_ds" "$ph_rep" -j "$_j" -i "$ph_rec" -D
	ph_check "phases:sqlite:-j$_j" dirconvert \
		"load delivery commit total" \
		"$ph_conv" -j "$_j" -i "$ph_rec" --to-sqlite "$ph_tmp/x.db"
done

if [ -n "$ph_standalone" ]; then
	suite_summary
fi
