#!/bin/sh
# tests/script/run.sh - tests of dirscript: golden (perf 6.1's `perf script` on
# samples/), folded stacks, damaged input, usage errors.
#
#   BUILD=build sh tests/script/run.sh      standalone: PASS/FAIL/SKIP lines, then
#                                           "N passed, N failed[, N skipped]"
#   . tests/script/run.sh                   from tests/run-cli-tests.sh: uses its
#                                           helpers and counters, prints no summary
#
# golden     tests/script/golden/<case>/ (made by update.sh from perf script):
#            `dirscript $(cat cmd)` must print expected.stdout (or the xz-compressed
#            expected.stdout.xz) byte for byte and exit with expected.exit (default 0);
#            also with -j 1 and -j 4, and the pipe sample from standard input.  Kernel symbols
#            come from the build-id cache the samples carry (this run's ~/.debug).
# folded     for every default case (<sample>-script): `dirscript --folded` lines are
#            `STACK COUNT`, sorted by bytes, each stack once, and the counts add up to
#            the number of samples perf script printed (golden lines that are neither
#            empty nor callchain entries).
# bad input  every damaged input of tests/malformed/make.sh, read by dirreport --stdio
#            and by dirscript: the same reader, so the same exit status and the same
#            one-line message (with dirscript's name); nothing on stdout on errors.
#            Tracepoint recordings without -F: exit 1, one line, nothing on stdout
#            (not implemented).  Usage errors: exit 2, one stderr line ending
#            "; see 'dirscript --help'"; --help's synopsis is the manual's.

sc_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$sc_root/tests/script/update.sh" ] || sc_root=$(pwd)

sc_standalone=
if ! command -v pass >/dev/null 2>&1; then
	sc_standalone=1
	cd "$sc_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone script
fi

echo "-- dirscript (tests/script)"
sc_bin=$(cd "$sc_root/$BUILD" 2>/dev/null && pwd)/dirscript
sc_tmp=$tmp/script
rm -rf "$sc_tmp"
mkdir -p "$sc_tmp"

# sc_want DIR OUT: the case's expected stdout into OUT.
sc_want() {
	if [ -f "$1/expected.stdout.xz" ]; then
		xz -dc "$1/expected.stdout.xz" >"$2"
	else
		cp "$1/expected.stdout" "$2"
	fi
}

# sc_check NAME DIR: compare the last run with the case DIR.
sc_check() {
	crashed "$1" "$sc_tmp/err" && return
	_want_rc=0
	[ -f "$2/expected.exit" ] && _want_rc=$(cat "$2/expected.exit")
	if [ "$rc" -ne "$_want_rc" ]; then
		fail "$1" "exit status $rc, perf's $_want_rc"
		head -n 2 "$sc_tmp/err" | sed 's/^/    /'
	elif ! cmp -s "$sc_tmp/want" "$sc_tmp/out"; then
		fail "$1" "stdout differs from perf script's" "$sc_tmp/want" "$sc_tmp/out"
	else
		pass "$1"
	fi
}

if [ ! -x "$sc_bin" ]; then
	fail "dirscript binary" "$BUILD/dirscript missing or not executable"
else
	# --- golden and folded ----------------------------------------------------------
	for sc_dir in "$sc_root"/tests/script/golden/*/; do
		sc_dir=${sc_dir%/}
		sc_case=$(basename "$sc_dir")
		[ -f "$sc_dir/cmd" ] || continue
		sc_want "$sc_dir" "$sc_tmp/want"
		set -f
		# shellcheck disable=SC2046 # the arguments are whitespace-separated words
		set -- $(cat "$sc_dir/cmd")
		set +f
		for sc_j in "" 1 4; do
			# shellcheck disable=SC2046 # the prefix's words
			run "$sc_tmp/out" "$sc_tmp/err" $(hermetic_prefix "$sc_dir") \
				"$sc_bin" ${sc_j:+-j $sc_j} "$@"
			sc_check "script-golden:$sc_case${sc_j:+:-j$sc_j}" "$sc_dir"
		done
		case $sc_case in *-script) ;; *) continue ;; esac
		sc_n=script-folded:$sc_case
		run "$sc_tmp/out" "$sc_tmp/err" "$sc_bin" --folded "$@"
		crashed "$sc_n" "$sc_tmp/err" && continue
		sc_samples=$(grep -c -v -e '^$' -e '^	' "$sc_tmp/want")
		sc_sum=$(awk '{ s += $NF } END { print s + 0 }' "$sc_tmp/out")
		sc_bad=$(awk '$NF !~ /^[1-9][0-9]*$/ || NF < 2 { n++ } END { print n + 0 }' \
			"$sc_tmp/out")
		sed 's/ [0-9]*$//' "$sc_tmp/out" >"$sc_tmp/stacks"
		if [ "$rc" -ne 0 ]; then
			fail "$sc_n" "exit status $rc"
		elif [ "$sc_bad" -ne 0 ]; then
			fail "$sc_n" "$sc_bad lines are not 'STACK COUNT'"
		elif [ "$sc_sum" -ne "$sc_samples" ]; then
			fail "$sc_n" "counts add up to $sc_sum, perf script printed $sc_samples samples"
		elif ! LC_ALL=C sort -c "$sc_tmp/stacks" 2>/dev/null ||
		     [ -n "$(LC_ALL=C uniq -d "$sc_tmp/stacks")" ]; then
			fail "$sc_n" "stacks not sorted by bytes, or repeated"
		else
			pass "$sc_n" "$sc_samples samples"
		fi
	done
	# the pipe sample from standard input
	sc_dir=$sc_root/tests/script/golden/pipe-script
	if [ -f "$sc_dir/cmd" ]; then
		sc_want "$sc_dir" "$sc_tmp/want"
		timeout "$TIMEOUT" "$sc_bin" -i - --kallsyms "$sc_root/samples/pipe.data.kallsyms" \
			<"$sc_root/samples/pipe.data" >"$sc_tmp/out" 2>"$sc_tmp/err"
		rc=$?
		sc_check script-golden:pipe-script:stdin "$sc_dir"
	fi

	# --- kernel symbols read ahead --------------------------------------------------
	# At -j 2 a recording of the running kernel is printed with the build-id cache's
	# copy of its kallsyms, the text held back until /proc/kallsyms is checked against
	# the copy (a thread of its own); where they differ nothing is printed and all is
	# made again from /proc/kallsyms.  Each case's stdout equals the one made from
	# /proc/kallsyms; the phase lines say which way it went.
	if ahead_begin "$sc_tmp" -e cpu-clock -F 2000 -g; then
		# sc_ahead NAME WANT_PHASE J COPY_SOURCE [OPTION]: stdout as with
		# --kallsyms /proc/kallsyms, the phase line WANT_PHASE ("checked", "differ"
		# or "" for none)
		sc_ahead() {
			run "$sc_tmp/want" "$sc_tmp/err" "$sc_bin" -j 2 ${5:-} \
				--kallsyms /proc/kallsyms -i "$sc_tmp/ka.data"
			cp "$4" "$ahead_copy"
			run "$sc_tmp/out" "$sc_tmp/err" "$sc_bin" -j "$3" ${5:-} -i "$sc_tmp/ka.data"
			crashed "$1" "$sc_tmp/err" && return
			if [ "$rc" -ne 0 ]; then
				fail "$1" "exit status $rc: $(head -n 1 "$sc_tmp/err")"
			elif ! ahead_verdict "$1" dirscript "$sc_tmp/err" "$2"; then
				:
			elif ! cmp -s "$sc_tmp/want" "$sc_tmp/out"; then
				fail "$1" "stdout differs from the one made from /proc/kallsyms" \
					"$sc_tmp/want" "$sc_tmp/out"
			elif [ "$2" = differ ] &&
			     [ "$(grep -c '^dirscript: phase load:' "$sc_tmp/err")" -ne 2 ]; then
				fail "$1" "the output was not made twice"
			else
				pass "$1"
			fi
		}
		sc_ahead script-ahead:same checked 2 "$sc_tmp/kallsyms.same"
		ahead_forget
		sc_ahead script-ahead:differ differ 2 "$sc_tmp/kallsyms.changed"
		ahead_forget
		sc_ahead script-ahead:folded-differ differ 2 "$sc_tmp/kallsyms.changed" --folded
		ahead_forget
		sc_ahead script-ahead:-j1 "" 1 "$sc_tmp/kallsyms.changed"
		# the changed copy read as it is names other symbols: the cases above could
		# tell
		run "$sc_tmp/out" "$sc_tmp/err" "$sc_bin" -j 2 --kallsyms "$sc_tmp/kallsyms.changed" \
			-i "$sc_tmp/ka.data"
		ahead_renamed script-ahead:changed-copy-differs "$sc_tmp/out"
		ahead_end
	else
		skip "script-ahead" "$ahead_why"
	fi

	# --- bad input ------------------------------------------------------------------
	sc_gen=$sc_tmp/malformed
	sc_report=$(dirname "$sc_bin")/dirreport
	if ! sh "$sc_root/tests/malformed/make.sh" "$sc_gen" >"$sc_tmp/gen.log" 2>&1; then
		fail "script-bad:generator" "tests/malformed/make.sh failed"
	elif [ ! -x "$sc_report" ]; then
		skip "script-bad" "$sc_report missing"
	else
		for sc_dir in "$sc_root"/tests/malformed/*/; do
			sc_dir=${sc_dir%/}
			sc_case=$(basename "$sc_dir")
			[ -d "$sc_gen/$sc_case" ] || continue
			sc_name=script-bad:$sc_case
			sc_here=$(pwd)
			cd "$sc_gen/$sc_case" || continue
			# dirscript prints a tracepoint sample's trace by default: the case
			# that breaks it runs dirreport with the trace key (its cmd)
			sc_key=
			case " $(cat "$sc_dir/cmd") " in *" -s trace "*) sc_key="-s trace" ;; esac
			# shellcheck disable=SC2086 # two words or none
			run "$sc_tmp/rout" "$sc_tmp/rerr" "$sc_report" -i input --stdio $sc_key
			sc_rrc=$rc
			run "$sc_tmp/out" "$sc_tmp/err" "$sc_bin" -i input
			cd "$sc_here" || exit 2
			crashed "$sc_name" "$sc_tmp/err" && continue
			sed 's/^dirreport: /dirscript: /' "$sc_tmp/rerr" >"$sc_tmp/want.err"
			if [ "$rc" -ne "$sc_rrc" ]; then
				fail "$sc_name" "exit status $rc, dirreport's $sc_rrc"
				head -n 2 "$sc_tmp/err" | sed 's/^/    /'
			elif [ "$rc" -ne 0 ] && [ -s "$sc_tmp/out" ]; then
				fail "$sc_name" "output on stdout"
			elif ! cmp -s "$sc_tmp/want.err" "$sc_tmp/err"; then
				fail "$sc_name" "stderr differs from dirreport's" "$sc_tmp/want.err" "$sc_tmp/err"
			else
				pass "$sc_name" "exit $rc"
			fi
		done
	fi

	# --- the usage's synopsis is docs/dirscript.1.md's ---------------------------------
	sed -n '/^## SYNOPSIS/,/^## DESCRIPTION/s/^    //p' "$sc_root/docs/dirscript.1.md" \
		>"$sc_tmp/synopsis"
	run "$sc_tmp/help" "$sc_tmp/err" "$sc_bin" --help
	sed '/^$/q' "$sc_tmp/help" | sed '$d' >"$sc_tmp/help.synopsis"
	if [ "$rc" -eq 0 ] && cmp -s "$sc_tmp/synopsis" "$sc_tmp/help.synopsis"; then
		pass script-usage:help-synopsis
	else
		fail script-usage:help-synopsis "dirscript --help differs from the SYNOPSIS of \
docs/dirscript.1.md" "$sc_tmp/synopsis" "$sc_tmp/help.synopsis"
	fi

	# --- usage errors: exit 2, nothing on stdout, one line on stderr -----------------
	sc_in=$sc_root/samples/plain.data
	for sc_args in "-j 0" "-F comm,bogus" "--folded -F comm" "--pid x" "-C 1-0" \
		       "--bogus" "extra-argument"; do
		# shellcheck disable=SC2086
		run "$sc_tmp/out" "$sc_tmp/err" "$sc_bin" -i "$sc_in" $sc_args
		sc_n="script-usage:$sc_args"
		if [ "$rc" -eq 2 ] && [ ! -s "$sc_tmp/out" ] &&
		   [ "$(wc -l <"$sc_tmp/err")" -eq 1 ] &&
		   grep -q "^dirscript: .*; see 'dirscript --help'\$" "$sc_tmp/err"; then
			pass "$sc_n"
		else
			fail "$sc_n" "exit $rc, expected 2 and one line: $(head -n 1 "$sc_tmp/err")"
		fi
	done
fi

if [ -n "$sc_standalone" ]; then
	suite_summary
fi
