#!/bin/sh
# tests/cli/run.sh - what the three front ends (dirreport, dirscript, dirconvert) do
# alike at the command line: the make goals that build them, usage errors, the pager,
# the progress bar.
#
#   BUILD=build sh tests/cli/run.sh         standalone: PASS/FAIL/SKIP lines, then
#                                           "N passed, N failed[, N skipped]"
#   . tests/cli/run.sh                      from tests/run-cli-tests.sh: uses its
#                                           helpers and counters, prints no summary
#
# make       `make -n` and `make -n demo` (into a scratch BUILD) link all three
#            programs.
# usage      a bad command line (unknown option, ambiguous abbreviation, missing or
#            refused argument, bad value, stray argument): exit 2, nothing on stdout,
#            one stderr line "PROG: WHAT; see 'PROG --help'"; --help and -h: the usage
#            on stdout, nothing on stderr, exit 0.  The validators dirreport and
#            dirscript share (--pid, --tid, --comms, --dsos, --max-stack, -C, --time):
#            the same refusals, perf 6.1's, and what perf takes taken; every option
#            of --help in the manual.
# pager      on a terminal (util-linux script(1) gives the program one) the report
#            (dirreport: --stdio, -D, --header-only) and dirscript's text go through
#            $DIRREPORT_PAGER, else $PAGER, run with LESS=FRX where LESS is unset: a
#            test pager records that it ran, what it read (exactly what the program
#            prints to a file), and that the program waited for it; --no-pager, a
#            pager "cat", stdout not a terminal, `-i -` (dirreport, as perf report),
#            and dirscript --flamegraph alone: no pager; a pager that quits early:
#            exit 0, nothing on stderr.
# progress   standard error a terminal and standard output a file (dirscript), or
#            dirconvert --to-json and --to-sqlite: a progress bar (drawn at once with
#            DIRREPORT_PROGRESS_DELAY=0), erased at the end; none with stderr a file,
#            with --no-progress, or with dirscript's stdout the terminal.

cl_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$cl_root/tests/cli/run.sh" ] || cl_root=$(pwd)

cl_standalone=
if ! command -v pass >/dev/null 2>&1; then
	cl_standalone=1
	cd "$cl_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, on_tty, crashed, suite_standalone
	suite_standalone cli
fi

echo "-- the command line (tests/cli)"
cl_build=$(cd "$cl_root/$BUILD" 2>/dev/null && pwd)
cl_tmp=$tmp/cli
rm -rf "$cl_tmp"
mkdir -p "$cl_tmp"
cl_plain=$cl_root/samples/plain.data
cl_chain=$cl_root/samples/callchain.data

# --- make and make demo build every program ---------------------------------------------
for cl_goal in all demo; do
	# shellcheck disable=SC2086
	if make -C "$cl_root" -n ${cl_goal#all} BUILD="$cl_tmp/mk" V=1 >"$cl_tmp/make.out" 2>&1; then
		cl_missing=
		for cl_p in dirreport dirscript dirconvert; do
			grep -q -- "-o $cl_tmp/mk/$cl_p\( \|\$\)" "$cl_tmp/make.out" ||
				cl_missing="$cl_missing $cl_p"
		done
		if [ -z "$cl_missing" ]; then
			pass "make:$cl_goal-builds-every-program"
		else
			fail "make:$cl_goal-builds-every-program" "not linked:$cl_missing"
		fi
	else
		fail "make:$cl_goal-builds-every-program" "make -n failed: $(tail -n 1 "$cl_tmp/make.out")"
	fi
done

# --- usage errors: one line, exit 2 -------------------------------------------------------
# cl_usage PROG 'ARGS' 'EXPECTED MESSAGE': PROG ARGS must exit 2, print nothing on stdout
# and "PROG: EXPECTED MESSAGE; see 'PROG --help'" alone on stderr.
cl_usage() {
	_p=$1 _a=$2 _n="usage:$1:$(echo "$2" | sed "s|$cl_root/||g")"
	# shellcheck disable=SC2086
	run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$_p" $_a
	crashed "$_n" "$cl_tmp/err" && return
	printf "%s: %s; see '%s --help'\n" "$_p" "$3" "$_p" >"$cl_tmp/want"
	if [ "$rc" -ne 2 ]; then
		fail "$_n" "exit status $rc, expected 2"
	elif [ -s "$cl_tmp/out" ]; then
		fail "$_n" "something on stdout"
	elif ! cmp -s "$cl_tmp/want" "$cl_tmp/err"; then
		fail "$_n" "stderr is not the one line" "$cl_tmp/want" "$cl_tmp/err"
	else
		pass "$_n"
	fi
}
cl_usage dirreport "--stdoi" "unknown option '--stdoi'"
cl_usage dirreport "--stdio --bogus=3" "unknown option '--bogus'"
cl_usage dirreport "-i $cl_plain -Z" "unknown option '-Z'"
cl_usage dirreport "-qZ" "unknown option '-Z'"
cl_usage dirreport "--stdio -i" "option '-i' needs an argument"
cl_usage dirreport "--stdio --input" "option '--input' needs an argument"
cl_usage dirreport "--stdio=yes" "option '--stdio' takes no argument"
cl_usage dirreport "--gro" "ambiguous option '--gro' (--group, --group-sort-idx)"
cl_usage dirreport "-j 0" "-j takes a number from 1 to 1024"
cl_usage dirreport "--percentage half" "--percentage takes relative or absolute"
cl_usage dirreport "--stdio stray" "unexpected argument 'stray'"
cl_usage dirreport "--stats -D" "--stats and -D cannot be combined"
cl_usage dirscript "--folded --bogus" "unknown option '--bogus'"
cl_usage dirscript "-F" "option '-F' needs an argument"
cl_usage dirscript "--max-stack x" "--max-stack takes a number"
cl_usage dirscript "--folded -F comm" "--folded and -F do not go together"
cl_usage dirconvert "--to-sqlite" "option '--to-sqlite' needs an argument"
cl_usage dirconvert "--to-json x.json --bogus" "unknown option '--bogus'"
cl_usage dirconvert "-z30 --to-file x" "-z takes a level from 1 to 22"
cl_usage dirconvert "-i $cl_plain" "--to-sqlite OUT.db, --to-postgresql CONNINFO, --to-json OUT.json, --to-file OUT or --to-dir OUT is required"

# The options dirreport and dirscript share have one validator each (cli/options.h),
# perf 6.1's: perf report and perf script both refuse a number or an item listed
# twice in --pid, --tid, --comms, --dsos ("problems parsing pid list"), and neither
# caps --max-stack (500 is taken); perf script refuses a negative --max-stack.
for cl_p in dirreport dirscript; do
	cl_usage $cl_p "-i $cl_plain --pid 1,1" "--pid takes distinct numbers, comma-separated"
	cl_usage $cl_p "-i $cl_plain --tid 7,,7" "--tid takes distinct numbers, comma-separated"
	cl_usage $cl_p "-i $cl_plain --pid 1x" "--pid takes distinct numbers, comma-separated"
	cl_usage $cl_p "-i $cl_plain --comms perl,perl" "--comms: a command is listed twice"
	cl_usage $cl_p "-i $cl_plain --dsos a,,a" "--dsos: a dso is listed twice"
	cl_usage $cl_p "-i $cl_plain --max-stack -1" "--max-stack takes a number"
	cl_usage $cl_p "-i $cl_plain --max-stack 5x" "--max-stack takes a number"
	cl_usage $cl_p "-i $cl_plain -C +1" "-C takes a cpu list like 0-2,5"
	cl_usage $cl_p "-i $cl_plain --time x" "--time: invalid time string"
	# what perf takes: no usage error (the run goes on: exit 0 or 1, not 2)
	for cl_a in "--max-stack 500" "--max-stack +5" "--pid 1,,2" "--tid 1," "--comms a,"; do
		cl_n="usage-taken:$cl_p:$cl_a"
		# shellcheck disable=SC2086
		run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$cl_p" -i "$cl_plain" $cl_a
		if crashed "$cl_n" "$cl_tmp/err"; then
			:
		elif [ "$rc" -eq 2 ] || grep -q "see '$cl_p --help'" "$cl_tmp/err"; then
			fail "$cl_n" "a usage error: $(head -n 1 "$cl_tmp/err")"
		else
			pass "$cl_n"
		fi
	done
	# -C '': perf takes the empty list (no cpu: no sample)
	run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$cl_p" -i "$cl_root/samples/system-g.data" -C ''
	if [ "$rc" -eq 2 ] || grep -q "see '$cl_p --help'" "$cl_tmp/err"; then
		fail "usage-taken:$cl_p:-C ''" "a usage error: $(head -n 1 "$cl_tmp/err")"
	else
		pass "usage-taken:$cl_p:-C ''"
	fi
done

# One option table per program: every option --help lists is in the manual
# (docs/PROG.1.md), its letter too.
for cl_p in dirreport dirscript dirconvert dirrecord; do
	run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$cl_p" --help
	cl_missing=
	for cl_o in $(sed -n 's/^    \(-[A-Za-z]\), \(--[a-z-]*\).*/\1 \2/p; s/^        \(--[a-z-]*\).*/\1/p' \
		      "$cl_tmp/out"); do
		grep -q -e "$cl_o\b" -e "$cl_o," "$cl_root/docs/$cl_p.1.md" ||
			cl_missing="$cl_missing $cl_o"
	done
	cl_n=$(grep -c '^    -[A-Za-z], --\|^        --' "$cl_tmp/out")
	if [ "$rc" -ne 0 ] || [ "$cl_n" -lt 10 ]; then
		fail "usage:options-in-manual:$cl_p" "exit status $rc, $cl_n options in --help"
	elif [ -n "$cl_missing" ]; then
		fail "usage:options-in-manual:$cl_p" "not in docs/$cl_p.1.md:$cl_missing"
	else
		pass "usage:options-in-manual:$cl_p"
	fi
done

for cl_p in dirreport dirscript dirconvert dirrecord; do
	for cl_h in --help -h; do
		run "$cl_tmp/out" "$cl_tmp/err" "$cl_build/$cl_p" $cl_h
		if [ "$rc" -eq 0 ] && [ ! -s "$cl_tmp/err" ] &&
		   head -n 1 "$cl_tmp/out" | grep -q "^usage: $cl_p " &&
		   [ "$(wc -l <"$cl_tmp/out")" -gt 10 ]; then
			pass "usage:$cl_p:$cl_h"
		else
			fail "usage:$cl_p:$cl_h" "exit status $rc; $(head -n 1 "$cl_tmp/out")"
		fi
	done
done

# --- the pager ------------------------------------------------------------------------------
if ! command -v script >/dev/null 2>&1; then
	skip "pager" "script(1) (util-linux, Debian package bsdutils) is not installed"
	skip "progress" "script(1) (util-linux, Debian package bsdutils) is not installed"
else
	# The test pager: records that it ran and its LESS, copies what it reads, and
	# takes a moment before it ends (the program must wait for it).
	cl_pager=$cl_tmp/pager.sh
	cat >"$cl_pager" <<'EOF'
#!/bin/sh
echo "LESS=${LESS-unset}" >"$1.ran"
cat >"$1.out"
sleep 0.3
echo ended >"$1.ended"
EOF
	chmod +x "$cl_pager"

	# cl_paged NAME 'CMD': CMD (a shell command line) on a terminal, PAGER the test
	# pager, LESS unset: the pager must get what CMD prints to a file, with LESS=FRX,
	# and end before CMD does.
	cl_paged() {
		rm -f "$cl_tmp/pg".*
		# shellcheck disable=SC2086
		(cd "$cl_root" && eval "$2" >"$cl_tmp/want" 2>/dev/null)
		on_tty "$cl_tmp/tty" "cd '$cl_root' && unset LESS DIRREPORT_PAGER && \
PAGER='$cl_pager $cl_tmp/pg' $2; echo \"status \$?\" >'$cl_tmp/status'; \
cat '$cl_tmp/pg.ended' >'$cl_tmp/waited' 2>/dev/null"
		if [ ! -f "$cl_tmp/pg.ran" ]; then
			fail "pager:$1" "the pager did not run (status $(cat "$cl_tmp/status" 2>/dev/null))"
		elif [ "$(cat "$cl_tmp/pg.ran")" != "LESS=FRX" ]; then
			fail "pager:$1" "pager's environment: $(cat "$cl_tmp/pg.ran")"
		elif [ "$(cat "$cl_tmp/status")" != "status 0" ]; then
			fail "pager:$1" "$(cat "$cl_tmp/status")"
		elif ! [ -s "$cl_tmp/want" ] || ! cmp -s "$cl_tmp/want" "$cl_tmp/pg.out"; then
			fail "pager:$1" "the pager did not get the output" "$cl_tmp/want" "$cl_tmp/pg.out"
		elif [ "$(cat "$cl_tmp/waited" 2>/dev/null)" != ended ]; then
			fail "pager:$1" "the program ended before its pager"
		else
			pass "pager:$1"
		fi
	}
	cl_paged report-stdio "$cl_build/dirreport -i $cl_chain --stdio"
	cl_paged report-dump "$cl_build/dirreport -i $cl_plain -D"
	cl_paged report-header-only "$cl_build/dirreport -i $cl_plain --header-only"
	cl_paged script "$cl_build/dirscript -i $cl_chain"
	cl_paged script-folded "$cl_build/dirscript -i $cl_chain --folded --flamegraph $cl_tmp/f.svg"

	# cl_unpaged NAME 'ENV' 'CMD': with the test pager as PAGER (and ENV), CMD must
	# not start it; its output must reach the terminal (or its file).
	cl_unpaged() {
		rm -f "$cl_tmp/pg".*
		on_tty "$cl_tmp/tty" "cd '$cl_root' && unset DIRREPORT_PAGER && \
PAGER='$cl_pager $cl_tmp/pg' $2 $3; echo \"status \$?\" >'$cl_tmp/status'"
		if [ -f "$cl_tmp/pg.ran" ]; then
			fail "pager:$1" "the pager ran"
		elif [ "$(cat "$cl_tmp/status" 2>/dev/null)" != "status 0" ]; then
			fail "pager:$1" "$(cat "$cl_tmp/status" 2>/dev/null)"
		elif ! grep -q "${4:-Samples}" "${5:-$cl_tmp/tty}"; then
			fail "pager:$1" "the output is not on the terminal"
		else
			pass "pager:$1"
		fi
	}
	cl_unpaged no-pager "" "$cl_build/dirreport -i $cl_plain --stdio --no-pager"
	cl_unpaged script-no-pager "" "$cl_build/dirscript -i $cl_plain --no-pager" "cpu-clock"
	cl_unpaged cat "DIRREPORT_PAGER=cat" "$cl_build/dirreport -i $cl_plain --stdio"
	cl_unpaged empty "DIRREPORT_PAGER=" "$cl_build/dirreport -i $cl_plain --stdio"
	cl_unpaged stdin "" "$cl_build/dirreport -i - --stdio <$cl_root/samples/pipe.data"
	cl_unpaged not-a-terminal "" "$cl_build/dirreport -i $cl_plain --stdio >$cl_tmp/file" \
		Samples "$cl_tmp/file"
	cl_unpaged flamegraph-alone "" "$cl_build/dirscript -i $cl_chain --flamegraph $cl_tmp/f.svg" \
		'<svg' "$cl_tmp/f.svg"

	# DIRREPORT_PAGER before PAGER
	rm -f "$cl_tmp/pg".*
	on_tty "$cl_tmp/tty" "cd '$cl_root' && PAGER=false DIRREPORT_PAGER='$cl_pager $cl_tmp/pg' \
LESS=kept $cl_build/dirreport -i $cl_plain --stdio"
	if [ "$rc" -eq 0 ] && [ "$(cat "$cl_tmp/pg.ran" 2>/dev/null)" = "LESS=kept" ]; then
		pass "pager:dirreport-pager-first"
	else
		fail "pager:dirreport-pager-first" "exit status $rc; pager: $(cat "$cl_tmp/pg.ran" 2>/dev/null)"
	fi

	# A pager that quits before the end (200 KB of -D, more than a pipe holds): the
	# program ends at once, status 0, no message.
	for cl_cmd in "dirreport -i $cl_chain -D" "dirscript -i $cl_chain"; do
		cl_n="pager:quit-early:${cl_cmd%% *}"
		on_tty "$cl_tmp/tty" "cd '$cl_root' && PAGER='head -c 100 >/dev/null' $cl_build/$cl_cmd"
		if crashed "$cl_n" "$cl_tmp/tty"; then
			:
		elif [ "$rc" -ne 0 ]; then
			fail "$cl_n" "exit status $rc"
		elif [ -s "$cl_tmp/tty" ]; then
			fail "$cl_n" "on the terminal: $(head -n 1 "$cl_tmp/tty")"
		else
			pass "$cl_n"
		fi
	done

	# --- the progress bar ----------------------------------------------------------------
	# the bar: "[####....]  42%  ..." or, without a total (standard input), "12.3 KB
	# 4.5 MB/s"
	cl_bar='\[[#.]*\] *[0-9]*%  \|[0-9] [KMGT]*B/s'
	# cl_progress NAME yes|no 'CMD': CMD on a terminal with DIRREPORT_PROGRESS_DELAY=0
	# must (yes) or must not (no) draw the bar; it exits 0.
	cl_progress() {
		on_tty "$cl_tmp/tty" "cd '$cl_root' && DIRREPORT_PROGRESS_DELAY=0 $3"
		if crashed "progress:$1" "$cl_tmp/tty"; then
			return
		elif [ "$rc" -ne 0 ]; then
			fail "progress:$1" "exit status $rc: $(head -n 1 "$cl_tmp/tty")"
		elif [ "$2" = yes ] && ! grep -q "$cl_bar" "$cl_tmp/tty"; then
			fail "progress:$1" "no progress bar: $(head -c 200 "$cl_tmp/tty")"
		elif [ "$2" = no ] && grep -q "$cl_bar" "$cl_tmp/tty"; then
			fail "progress:$1" "a progress bar"
		else
			pass "progress:$1"
		fi
	}
	cl_progress script-to-file yes "$cl_build/dirscript -i $cl_chain >$cl_tmp/script.out"
	if cl_progress_out=$("$cl_build/dirscript" -i "$cl_chain" 2>&1) &&
	   [ "$cl_progress_out" = "$(cat "$cl_tmp/script.out")" ]; then
		pass "progress:script-output-intact"
	else
		fail "progress:script-output-intact" "dirscript's output on a file differs from its output elsewhere"
	fi
	cl_progress script-flamegraph yes "$cl_build/dirscript -i $cl_chain --flamegraph $cl_tmp/f.svg"
	cl_progress script-stderr-file no "$cl_build/dirscript -i $cl_chain >$cl_tmp/script.out 2>$cl_tmp/err"
	if [ -s "$cl_tmp/err" ]; then
		fail "progress:script-stderr-file-empty" "stderr: $(head -c 200 "$cl_tmp/err")"
	else
		pass "progress:script-stderr-file-empty"
	fi
	cl_progress script-no-progress no "$cl_build/dirscript -i $cl_chain --no-progress >$cl_tmp/script.out"
	cl_progress script-stdout-terminal no "$cl_build/dirscript -i $cl_chain --no-pager"
	cl_progress json yes "$cl_build/dirconvert -i $cl_chain --to-json $cl_tmp/o.json -f"
	cl_progress json-stdin yes "$cl_build/dirconvert -i - --to-json $cl_tmp/o.json -f <$cl_root/samples/pipe.data"
	cl_progress json-stderr-file no "$cl_build/dirconvert -i $cl_chain --to-json $cl_tmp/o.json -f 2>$cl_tmp/err"
	cl_progress json-no-progress no "$cl_build/dirconvert -i $cl_chain --to-json $cl_tmp/o.json -f --no-progress"
	cl_progress sqlite yes "$cl_build/dirconvert -i $cl_chain --to-sqlite $cl_tmp/o.db -f"
fi

if [ -n "$cl_standalone" ]; then
	suite_summary
fi
