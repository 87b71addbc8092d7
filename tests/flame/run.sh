#!/bin/sh
# tests/flame/run.sh - tests of dirscript's --flamegraph and --speedscope.
#
#   BUILD=build sh tests/flame/run.sh       standalone: PASS/FAIL/SKIP lines, then
#                                           "N passed, N failed[, N skipped]"
#   . tests/flame/run.sh                    from tests/run-cli-tests.sh (after the
#                                           script suite): its helpers and counters
#
# Each check below on samples/callchain, threads, system-g, two-events (two events)
# and group-g (an event group) - tests/flame/check.py does the reading:
# svg        the SVGs (one per event: OUT.svg, OUT-EVENT.svg) are well-formed XML
#            (xmllint) and together hold exactly --folded's stacks and counts (each
#            frame's samples less its children's, summed per root-to-frame path)
# report     each SVG's samples are `dirreport --stdio --no-group`'s "# Samples" of
#            its event, its processes' samples are dirreport's per-comm samples
#            (-n -s comm), and with callchains its total is the sum of dirreport's
#            `-g folded,0,caller,count` lines for that event
# inverted   --inverted: the same frames, the root on top
# limit      --percent-limit 5: exactly the frames of at least 5% of the samples (and
#            whose ancestors are), as the full graph has them
# speedscope the file's structure, one profile per (event, pid, comm) that perf
#            script's lines show, and its stacks and weights are --folded's
# filters    --comms, --pid and -C: the graph holds what --folded holds with them
# errors     an unwritable path: exit 1, one line naming it, no file or .tmp left;
#            an existing OUT is replaced; usage errors: exit 2
# browser    tests/browser/ in headless Chromium (puppeteer-core, speedscope and ajv
#            from npm into $BUILD/node, as pinned by tests/browser/package-lock.json):
#            the flame graph loads, zooms, resets and searches; speedscope opens
#            the file.  The same on a `perf record -a -g` made during the run whose
#            graph is taller than the window (fl_deep_record below).  One SKIP line when chromium, node or npm are missing (as root
#            they are installed through tools/ensure-deps.sh unless
#            CONVERT_NO_INSTALL is set) or npm cannot install.  Screenshots:
#            $BUILD/browser/*.png.

fl_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$fl_root/tests/flame/check.py" ] || fl_root=$(pwd)

fl_standalone=
if ! command -v pass >/dev/null 2>&1; then
	fl_standalone=1
	cd "$fl_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone flame
fi

echo "-- dirscript --flamegraph, --speedscope (tests/flame)"
fl_build=$(cd "$fl_root/$BUILD" 2>/dev/null && pwd)
fl_bin=$fl_build/dirscript
fl_report=$fl_build/dirreport
fl_check="python3 $fl_root/tests/flame/check.py"
fl_tmp=$tmp/flame
rm -rf "$fl_tmp"
mkdir -p "$fl_tmp"

# fl_install PKG...: Debian packages, as root and unless CONVERT_NO_INSTALL is set.
fl_install() {
	[ -z "${CONVERT_NO_INSTALL:-}" ] && [ "$(id -u)" = 0 ] &&
		sh "$fl_root/tools/ensure-deps.sh" "$@" >"$fl_tmp/install.log" 2>&1
}

# fl_same NAME WANT GOT: pass when the files are equal.
fl_same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "differs" "$2" "$3"
	fi
}

# fl_report_check NAME SAMPLE CHAIN: the SVGs of $fl_tmp/$NAME*.svg against dirreport.
fl_report_check() {
	run "$fl_tmp/rep" "$fl_tmp/err" "$fl_report" --stdio --no-group --no-children -n \
		-s comm -g none -i "$2"
	# "EVENT N" per event, in the recording's order
	sed -n "s/^# Samples: \([0-9]*\)  *of events* '\(.*\)'$/\2 \1/p" "$fl_tmp/rep" \
		>"$fl_tmp/rep.totals"
	# per event, its processes: "EVENT COMM N"
	awk '/^# Samples:/ { ev = $0; sub(/^[^'"'"']*'"'"'/, "", ev); sub(/'"'"'$/, "", ev) }
	     /^ +[0-9.]+%/ { c = $3; for (i = 4; i <= NF; i++) c = c "_" $i;
			     print ev, c, $2 }' "$fl_tmp/rep" | sort >"$fl_tmp/rep.comms"
	: >"$fl_tmp/svg.comms"
	: >"$fl_tmp/svg.totals"
	for _s in "$fl_tmp/$1".svg "$fl_tmp/$1"-*.svg; do
		[ -f "$_s" ] || continue
		$fl_check totals "$_s" >"$fl_tmp/t" || return
		cat "$fl_tmp/t" >>"$fl_tmp/svg.totals"
		_ev=$(cut -d' ' -f1 "$fl_tmp/t")
		$fl_check roots "$_s" | sed "s/^/$_ev /" >>"$fl_tmp/svg.comms"
	done
	sort "$fl_tmp/svg.comms" -o "$fl_tmp/svg.comms"
	# events without samples have no graph, and dirreport prints none for them
	sort "$fl_tmp/rep.totals" -o "$fl_tmp/rep.totals"
	sort "$fl_tmp/svg.totals" -o "$fl_tmp/svg.totals"
	if [ "$rc" -ne 0 ]; then
		fail "flame-report:$1" "dirreport exit $rc"
	elif ! cmp -s "$fl_tmp/rep.totals" "$fl_tmp/svg.totals"; then
		fail "flame-report:$1" "samples per event differ from dirreport's" \
			"$fl_tmp/rep.totals" "$fl_tmp/svg.totals"
	elif ! cmp -s "$fl_tmp/rep.comms" "$fl_tmp/svg.comms"; then
		fail "flame-report:$1" "samples per process differ from dirreport's" \
			"$fl_tmp/rep.comms" "$fl_tmp/svg.comms"
	else
		pass "flame-report:$1" "$(tr '\n' ' ' <"$fl_tmp/svg.totals")"
	fi
	[ "$3" = chain ] || return
	run "$fl_tmp/rep" "$fl_tmp/err" "$fl_report" --stdio --no-group --no-children \
		-g folded,0,caller,count -i "$2"
	awk '/^# Samples:/ { if (ev != "") print ev, s; ev = $0; s = 0
			     sub(/^[^'"'"']*'"'"'/, "", ev); sub(/'"'"'$/, "", ev) }
	     /^[0-9]+ / { s += $1 }
	     END { if (ev != "") print ev, s }' "$fl_tmp/rep" | sort >"$fl_tmp/rep.folded"
	if [ "$rc" -eq 0 ] && cmp -s "$fl_tmp/rep.folded" "$fl_tmp/svg.totals"; then
		pass "flame-report-g-folded:$1"
	else
		fail "flame-report-g-folded:$1" "dirreport -g folded's counts per event differ" \
			"$fl_tmp/rep.folded" "$fl_tmp/svg.totals"
	fi
}

# fl_deep_record: the browser checks on a real `perf record -a -g` recording whose
# stacks are deeper than the window: a program of ours recursing 200 calls deep
# (frame pointers kept, so every sample's chain is perf's 127 entries) spins for two
# seconds (some 2,000 samples at 999 Hz) while the whole system is recorded (the other tasks add the
# garbage chains of code without frame pointers).  Its flame graph is some 2,100 px
# high: tests/browser/flame.js "tall" checks that it opens on its root, zooms and
# searches; its speedscope profile (the program alone, --comms) has frames of over
# 1,000 samples, which the app writes with thousands separators.  Prints the
# checks' PASS/FAIL lines, or one SKIP line where perf cannot record here.
fl_deep_record() {
	_d=$fl_tmp/deep
	mkdir -p "$_d"
	cat >"$_d/deep.c" <<'EOC'
#include <time.h>
static volatile unsigned long sink;
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static int __attribute__((noinline)) recurse(int n, double end)
{
	if (n)
		return recurse(n - 1, end) + 1;
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
	return 0;
}
int main(void)
{
	return recurse(200, now() + 2) != 200;
}
EOC
	if ! ${CC:-cc} -O0 -fno-omit-frame-pointer -o "$_d/deep" "$_d/deep.c" >"$_d/cc.log" 2>&1; then
		echo "FAIL browser-deep:build ($(head -n 1 "$_d/cc.log"))"
		return
	fi
	if ! command -v perf >/dev/null 2>&1 ||
	   ! (cd "$_d" && timeout 60 perf record -q -a -g -F 999 -o deep.data -- ./deep) \
		>"$_d/record.log" 2>&1; then
		echo "SKIP browser-deep (perf record -a -g cannot record here: $(tail -n 1 "$_d/record.log"))"
		return
	fi
	"$fl_bin" -i "$_d/deep.data" --folded >"$_d/deep.folded" 2>"$_d/err" &&
	"$fl_bin" -i "$_d/deep.data" --flamegraph "$_d/deep.svg" 2>>"$_d/err" &&
	"$fl_bin" -i "$_d/deep.data" --comms deep --speedscope "$_d/deep.json" 2>>"$_d/err" || {
		echo "FAIL browser-deep:dirscript ($(head -n 1 "$_d/err"))"
		return
	}
	timeout 120 node "$fl_node/flame.js" "$_d/deep.svg" "$_d/deep.folded" '^recurse$' \
		"$fl_shots" tall
	timeout 120 node "$fl_node/speedscope.js" "$_d/deep.json" "$fl_shots" deep
}

if [ ! -x "$fl_bin" ]; then
	fail "flame:binary" "$BUILD/dirscript missing or not executable"
elif ! command -v python3 >/dev/null 2>&1; then
	skip "flame" "python3 is not installed"
else
	command -v xmllint >/dev/null 2>&1 || fl_install libxml2-utils
	for fl_case in callchain:chain threads: system-g:chain two-events: group-g:chain; do
		fl_s=${fl_case%%:*}
		fl_chain=${fl_case#*:}
		fl_in=$fl_root/samples/$fl_s.data
		rm -f "$fl_tmp/$fl_s".* "$fl_tmp/$fl_s"-*
		run "$fl_tmp/$fl_s.folded" "$fl_tmp/err" "$fl_bin" -i "$fl_in" --folded
		run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" \
			--flamegraph "$fl_tmp/$fl_s.svg" --speedscope "$fl_tmp/$fl_s.json"
		crashed "flame:$fl_s" "$fl_tmp/err" && continue
		if [ "$rc" -ne 0 ] || [ -s "$fl_tmp/out" ] || [ ! -f "$fl_tmp/$fl_s.svg" ]; then
			fail "flame:$fl_s" "exit $rc, $(head -n 1 "$fl_tmp/err")"
			continue
		fi
		# well-formed
		fl_bad=
		if command -v xmllint >/dev/null 2>&1; then
			for fl_f in "$fl_tmp/$fl_s".svg "$fl_tmp/$fl_s"-*.svg; do
				[ -f "$fl_f" ] || continue
				xmllint --noout "$fl_f" 2>>"$fl_tmp/xmllint" ||
					fl_bad="$fl_bad $(basename "$fl_f")"
			done
			if [ -n "$fl_bad" ]; then
				fail "flame-xml:$fl_s" "not well-formed:$fl_bad"
			else
				pass "flame-xml:$fl_s"
			fi
		else
			skip "flame-xml:$fl_s" "xmllint missing (Debian libxml2-utils)"
		fi
		# the counts are --folded's
		# shellcheck disable=SC2086
		if fl_msg=$($fl_check svg "$fl_tmp/$fl_s.folded" "$fl_tmp/$fl_s".svg \
			$(ls "$fl_tmp/$fl_s"-*.svg 2>/dev/null) 2>&1); then
			pass "flame-folded:$fl_s" "$(ls "$fl_tmp/$fl_s".svg "$fl_tmp/$fl_s"-*.svg \
				2>/dev/null | wc -l) SVG"
		else
			fail "flame-folded:$fl_s" "$fl_msg"
		fi
		fl_report_check "$fl_s" "$fl_in" "$fl_chain"
		# --inverted
		run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" --inverted --title "Icicle" \
			--flamegraph "$fl_tmp/inv-$fl_s.svg"
		if [ "$rc" -eq 0 ] && fl_msg=$($fl_check frameset "$fl_tmp/$fl_s.svg" \
			"$fl_tmp/inv-$fl_s.svg" 2>&1) && grep -q '>Icicle<' "$fl_tmp/inv-$fl_s.svg"; then
			pass "flame-inverted:$fl_s"
		else
			fail "flame-inverted:$fl_s" "exit $rc $fl_msg"
		fi
		# --percent-limit: the frames of at least 5% of the samples, and no other
		run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" --percent-limit 5 \
			--flamegraph "$fl_tmp/lim-$fl_s.svg"
		if [ "$rc" -eq 0 ] && fl_msg=$($fl_check limit "$fl_tmp/$fl_s.svg" \
			"$fl_tmp/lim-$fl_s.svg" 5 2>&1); then
			pass "flame-percent-limit:$fl_s"
		else
			fail "flame-percent-limit:$fl_s" "exit $rc $fl_msg"
		fi
		# speedscope: (event, pid, comm) triples of perf script's lines
		run "$fl_tmp/pairs.raw" "$fl_tmp/err" "$fl_bin" -i "$fl_in" -F comm,pid,event
		sed -E 's/^ *(.*[^ ]) +(-?[0-9]+) +([^ ]+): *$/\3 \2 \1/' "$fl_tmp/pairs.raw" |
			sort -u >"$fl_tmp/pairs"
		if fl_msg=$($fl_check speedscope "$fl_tmp/$fl_s.folded" "$fl_tmp/$fl_s.json" \
			"$fl_tmp/pairs" 2>&1); then
			pass "speedscope:$fl_s" "$(wc -l <"$fl_tmp/pairs") profiles"
		else
			fail "speedscope:$fl_s" "$fl_msg"
		fi
	done

	# --- filters ----------------------------------------------------------------------
	for fl_f in "callchain:--comms gzip" "callchain:--pid 14211" "system-g:-C 1" \
		    "callchain:--max-stack 3"; do
		fl_in=$fl_root/samples/${fl_f%%:*}.data
		fl_f=${fl_f#*:}
		fl_n="flame-filter:$(echo "$fl_f" | tr ' ' '_')"
		# shellcheck disable=SC2086
		run "$fl_tmp/f.folded" "$fl_tmp/err" "$fl_bin" -i "$fl_in" --folded $fl_f
		# shellcheck disable=SC2086
		run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" $fl_f \
			--flamegraph "$fl_tmp/f.svg"
		if [ "$rc" -eq 0 ] && [ -s "$fl_tmp/f.folded" ] &&
		   fl_msg=$($fl_check svg "$fl_tmp/f.folded" "$fl_tmp/f.svg" 2>&1); then
			pass "$fl_n" "$(awk '{ s += $NF } END { print s }' "$fl_tmp/f.folded") samples"
		else
			fail "$fl_n" "exit $rc $fl_msg"
		fi
	done

	# --- errors and replacing ---------------------------------------------------------
	fl_in=$fl_root/samples/callchain.data
	run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" \
		--flamegraph "$fl_tmp/no/such/dir/x.svg"
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$fl_tmp/err")" -eq 1 ] &&
	   grep -q "^dirscript: $fl_tmp/no/such/dir/x.svg: No such file or directory$" \
		"$fl_tmp/err"; then
		pass "flame-error:no-dir"
	else
		fail "flame-error:no-dir" "exit $rc, $(head -n 1 "$fl_tmp/err")"
	fi
	mkdir -p "$fl_tmp/ro"
	echo old >"$fl_tmp/ro/x.json"
	run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" --speedscope "$fl_tmp/ro/x.json" \
		--flamegraph "$fl_tmp/ro/x.svg"
	if [ "$rc" -eq 0 ] && [ "$(ls "$fl_tmp/ro" | tr '\n' ' ')" = "x.json x.svg " ] &&
	   ! grep -q old "$fl_tmp/ro/x.json"; then
		pass "flame-replace" "OUT replaced, no .tmp left"
	else
		fail "flame-replace" "exit $rc, files: $(ls "$fl_tmp/ro" | tr '\n' ' ')"
	fi
	for fl_args in "--inverted" "--title x" "-F comm --flamegraph x.svg" \
		       "--speedscope x.json -F comm" "--flamegraph="; do
		# shellcheck disable=SC2086
		run "$fl_tmp/out" "$fl_tmp/err" "$fl_bin" -i "$fl_in" $fl_args
		if [ "$rc" -eq 2 ] && [ ! -s "$fl_tmp/out" ] && [ ! -e x.svg ] && [ ! -e x.json ]; then
			pass "flame-usage:$fl_args"
		else
			fail "flame-usage:$fl_args" "exit $rc, expected 2"
		fi
	done

	# --- in a browser -----------------------------------------------------------------
	command -v chromium >/dev/null 2>&1 || fl_install chromium
	{ command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; } ||
		fl_install nodejs npm
	fl_node=$fl_build/node
	fl_shots=$fl_build/browser
	if [ -n "${SANITIZE:-}" ]; then
		skip "browser" "a sanitizer build: the SVGs are the plain build's, checked there"
	elif ! command -v chromium >/dev/null 2>&1; then
		skip "browser" "chromium is not installed (Debian package chromium)"
	elif ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
		skip "browser" "node or npm is not installed (Debian packages nodejs npm)"
	elif ! { mkdir -p "$fl_node" "$fl_shots" &&
		 { cmp -s "$fl_root/tests/browser/package-lock.json" \
			"$fl_node/package-lock.json" && [ -d "$fl_node/node_modules/ajv" ]; } ||
		 { cp "$fl_root/tests/browser/package.json" \
			"$fl_root/tests/browser/package-lock.json" "$fl_node/" &&
		   (cd "$fl_node" && PUPPETEER_SKIP_DOWNLOAD=1 timeout 300 npm ci \
			--ignore-scripts --no-audit --no-fund) >"$fl_tmp/npm.log" 2>&1; }; }; then
		rm -f "$fl_node/package-lock.json"	# try again next time
		skip "browser" "npm ci failed (no registry?): $(tail -n 1 "$fl_tmp/npm.log")"
	else
		cp "$fl_root"/tests/browser/*.js "$fl_node/"
		timeout 120 node "$fl_node/flame.js" "$fl_tmp/callchain.svg" \
			"$fl_tmp/callchain.folded" 'page_fault' "$fl_shots" >"$fl_tmp/browser.out" 2>&1
		timeout 120 node "$fl_node/speedscope.js" "$fl_tmp/callchain.json" "$fl_shots" \
			>>"$fl_tmp/browser.out" 2>&1
		fl_deep_record >>"$fl_tmp/browser.out" 2>&1
		while read -r fl_word fl_rest; do
			case $fl_word in
			PASS) pass "${fl_rest%% *}" "$(echo "$fl_rest" | sed -n 's/^[^ ]* (\(.*\))$/\1/p')" ;;
			FAIL) fail "${fl_rest%% *}" "$(echo "$fl_rest" | sed -n 's/^[^ ]* (\(.*\))$/\1/p')" ;;
			SKIP) skip "${fl_rest%% *}" "$(echo "$fl_rest" | sed -n 's/^[^ ]* (\(.*\))$/\1/p')" ;;
			esac
		done <"$fl_tmp/browser.out"
		grep -q '^PASS\|^FAIL' "$fl_tmp/browser.out" ||
			fail "browser" "no result: $(tail -n 3 "$fl_tmp/browser.out" | tr '\n' ' ')"
	fi
fi

if [ -n "$fl_standalone" ]; then
	suite_summary
fi
