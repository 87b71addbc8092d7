#!/bin/sh
# tests/json/run.sh - tests of dirconvert --to-json: golden (perf 6.1's own
# `perf data convert --to-json` of samples/ and tests/external/), live (perf's output
# here), pipe input (where perf 6.1 crashes), damaged input and the output file.
#
#   BUILD=build sh tests/json/run.sh         standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/json/run.sh                      from tests/run-cli-tests.sh: uses its
#                                            helpers and counters, prints no summary
#
# golden     tests/json/golden/<name>.json.xz (update.sh): `dirconvert -i INPUT --to-json
#            OUT` (and with -j 1 and -j 4), sorted and compacted by `jq -S -c` without
#            headers."captured-on", must equal perf's; "captured-on" must be the mtime
#            of the input's header file (INPUT, or INPUT/data for a directory) in UTC.
#            Kernel symbols come from the build-id cache the samples carry (~/.debug).
# live       when perf 6.1 runs: perf's JSON of three samples, made here, equals ours
#            whole (captured-on included); also of a copy of callchain.data whose
#            chains hold 0xffffffffffffffff entries (ff-chain.py) and of a recording of
#            cpu-clock and sched:sched_switch made here ("cpu": -1).
# pipe       perf 6.1 crashes on pipe input; ours: valid JSON, no file-layout headers,
#            one sample per PERF_RECORD_SAMPLE of `dirreport -D`, the same from stdin.
# bad input  damaged inputs (tests/malformed/make.sh, made by run-cli-tests.sh into
#            $BUILD/malformed): exit 1, one stderr line naming the file, no OUT, no
#            OUT.tmp.  OUT exists: refused without -f (untouched), replaced with -f.

js_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$js_root/tests/json/update.sh" ] || js_root=$(pwd)

js_standalone=
if ! command -v pass >/dev/null 2>&1; then
	js_standalone=1
	cd "$js_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone json
fi

echo "-- dirconvert --to-json (tests/json)"
js_bin=$(cd "$js_root/$BUILD" 2>/dev/null && pwd)/dirconvert
js_tmp=$tmp/json
rm -rf "$js_tmp"
mkdir -p "$js_tmp"

command -v jq >/dev/null 2>&1 || { [ -z "${CONVERT_NO_INSTALL:-}" ] && [ "$(id -u)" = 0 ] &&
	sh "$js_root/tools/ensure-deps.sh" jq >"$js_tmp/install.log" 2>&1; }

# js_convert NAME OUT ARGS...: dirconvert ARGS --to-json OUT; reports only failures
js_convert() {
	_name=$1 _out=$2
	shift 2
	rm -f "$_out"
	run "$js_tmp/out" "$js_tmp/err" "$js_bin" "$@" --to-json "$_out"
	crashed "$_name" "$js_tmp/err" && return 1
	if [ "$rc" -ne 0 ]; then
		fail "$_name" "exit status $rc: $(head -n 1 "$js_tmp/err")"
		return 1
	fi
	if ! jq -e . "$_out" >/dev/null 2>&1; then
		fail "$_name" "not valid JSON"
		return 1
	fi
	return 0
}

# js_live NAME INPUT: perf data convert --to-json of INPUT made here and dirconvert's,
# equal as JSON values (keys sorted).
js_live() {
	rm -f "$js_tmp/perf.json"
	if ! perf data convert -i "$2" --to-json "$js_tmp/perf.json" -f \
		>"$js_tmp/perf.log" 2>&1; then
		fail "$1" "perf data convert failed: $(tail -n 1 "$js_tmp/perf.log")"
		return
	fi
	js_convert "$1" "$js_tmp/out.json" -i "$2" || return
	if [ "$(jq -S -c . "$js_tmp/perf.json")" = "$(jq -S -c . "$js_tmp/out.json")" ]; then
		pass "$1"
	else
		fail "$1" "differs from perf's output made here"
	fi
}

# js_header_file INPUT: the file whose mtime perf calls "captured-on"
js_header_file() {
	if [ -d "$1" ]; then echo "$1/data"; else echo "$1"; fi
}

if [ ! -x "$js_bin" ]; then
	fail "json" "$BUILD/dirconvert missing or not executable"
elif ! command -v jq >/dev/null 2>&1 || ! command -v xz >/dev/null 2>&1; then
	skip "json" "jq or xz is not installed (Debian packages jq, xz-utils)"
else
	# --- golden ------------------------------------------------------------------
	while read -r js_case js_in js_extra; do
		# shellcheck disable=SC2086 # js_extra: whitespace-separated arguments
		for js_j in "" 1 4; do
			js_n=json-golden:$js_case${js_j:+:-j$js_j}
			js_convert "$js_n" "$js_tmp/out.json" ${js_j:+-j $js_j} -i "$js_root/$js_in" \
				$js_extra || continue
			jq -S -c 'del(.headers."captured-on")' "$js_tmp/out.json" >"$js_tmp/got"
			xz -dc "$js_root/tests/json/golden/$js_case.json.xz" >"$js_tmp/want"
			if ! cmp -s "$js_tmp/want" "$js_tmp/got"; then
				fail "$js_n" "differs from perf's: $(jq -S . "$js_tmp/want" |
					diff - "$(jq -S . "$js_tmp/got" >"$js_tmp/got.pretty" &&
					echo "$js_tmp/got.pretty")" | sed -n 2p)"
				continue
			fi
			js_want=$(date -u -r "$(js_header_file "$js_root/$js_in")" +%Y-%m-%dT%H:%M:%SZ)
			js_got=$(jq -r '.headers."captured-on"' "$js_tmp/out.json")
			if [ "$js_got" = "$js_want" ]; then
				pass "$js_n"
			else
				fail "$js_n" "captured-on $js_got, the file's mtime is $js_want"
			fi
		done
	done <"$js_root/tests/json/cases"

	# --- live: perf's output here, whole -----------------------------------------
	if [ -z "$have_perf" ]; then
		skip "json-live" "$perf_why"
	else
		for js_s in plain callchain threads; do
			js_live "json-live:$js_s" "$js_root/samples/$js_s.data"
		done
		# frame-pointer chains holding 0xffffffffffffffff entries (a copy of
		# callchain.data with such entries written in: tests/json/ff-chain.py), and
		# "cpu": -1 in the samples of an event without PERF_SAMPLE_CPU beside one
		# with it (a recording of cpu-clock and sched:sched_switch made here)
		js_n=json-live:ff-chain
		if ! command -v python3 >/dev/null 2>&1; then
			skip "$js_n" "python3 is not installed"
		elif ! python3 "$js_root/tests/json/ff-chain.py" "$js_root/samples/callchain.data" \
			"$js_tmp/ff.data" >"$js_tmp/ff.n" 2>"$js_tmp/ff.log" ||
		     [ "$(cat "$js_tmp/ff.n")" -lt 1 ]; then
			fail "$js_n" "ff-chain.py wrote no entry: $(head -n 1 "$js_tmp/ff.log")"
		fi
		js_rec=
		if perf record -q --no-buildid-cache -e cpu-clock -e sched:sched_switch \
			-o "$js_tmp/cs.data" -- sh -c 'i=0; while [ $i -lt 100000 ]; do
				i=$((i + 1)); done; sleep 0.01' >"$js_tmp/cs.log" 2>&1; then
			js_rec=cpu-minus-one:$js_tmp/cs.data
		else
			skip json-live:cpu-minus-one "perf record -e sched:sched_switch cannot record here"
		fi
		for js_c in ${js_n#json-live:}:$js_tmp/ff.data $js_rec; do
			if [ -f "${js_c#*:}" ]; then
				js_live "json-live:${js_c%%:*}" "${js_c#*:}"
			fi
		done
	fi

	# --- kernel symbols read ahead -------------------------------------------------
	# At -j 2 the JSON of a recording of the running kernel is made with the build-id
	# cache's copy of its kallsyms, checked against /proc/kallsyms before the commit;
	# where they differ it is made again from /proc/kallsyms.  Each case's JSON equals
	# the one made from /proc/kallsyms; the phase lines say which way it went; written
	# in place (a FIFO) nothing is read ahead.
	if ahead_begin "$js_tmp" -e cpu-clock -F 2000; then
		if js_convert json-ahead:want "$js_tmp/ka-want.json" -j 2 \
			--kallsyms /proc/kallsyms -i "$js_tmp/ka.data"; then
			# js_ahead_check NAME WANT_PHASE OUT: the phase line, the note, no
			# OUT.tmp, OUT the JSON made from /proc/kallsyms
			js_ahead_check() {
				if ! ahead_verdict "$1" dirconvert "$js_tmp/err" "$2"; then
					:
				elif [ -e "$3.tmp" ]; then
					fail "$1" "$3.tmp left behind"
				elif ! cmp -s "$js_tmp/ka-want.json" "$3"; then
					fail "$1" "not the JSON made from /proc/kallsyms"
				else
					pass "$1"
				fi
			}
			# js_ahead NAME WANT_PHASE J COPY_SOURCE
			js_ahead() {
				cp "$4" "$ahead_copy"
				js_convert "$1" "$js_tmp/ka.json" -j "$3" -i "$js_tmp/ka.data" &&
					js_ahead_check "$1" "$2" "$js_tmp/ka.json"
			}
			js_ahead json-ahead:same checked 2 "$js_tmp/kallsyms.same"
			js_ahead json-ahead:differ differ 2 "$js_tmp/kallsyms.changed"
			js_ahead json-ahead:-j1 "" 1 "$js_tmp/kallsyms.changed"
			ahead_forget
			# written in place (a FIFO, read beside): nothing read ahead
			js_n=json-ahead:fifo
			if mkfifo "$js_tmp/ka.fifo" 2>/dev/null; then
				cp "$js_tmp/kallsyms.changed" "$ahead_copy"
				cat "$js_tmp/ka.fifo" >"$js_tmp/ka-fifo.json" &
				js_cat=$!
				run "$js_tmp/out" "$js_tmp/err" "$js_bin" -j 2 -i "$js_tmp/ka.data" \
					-f --to-json "$js_tmp/ka.fifo"
				# a run that never opened the FIFO leaves cat waiting
				[ "$rc" -eq 0 ] || kill "$js_cat" 2>/dev/null
				wait "$js_cat"
				if ! crashed "$js_n" "$js_tmp/err"; then
					if [ "$rc" -ne 0 ]; then
						fail "$js_n" "exit $rc: $(head -n 1 "$js_tmp/err")"
					else
						js_ahead_check "$js_n" "" "$js_tmp/ka-fifo.json"
					fi
				fi
			else
				skip "$js_n" "mkfifo failed"
			fi
			# the changed copy read as it is names other symbols: the cases above
			# could tell
			js_convert json-ahead:changed-copy "$js_tmp/ka.json" -j 2 \
				--kallsyms "$js_tmp/kallsyms.changed" -i "$js_tmp/ka.data" &&
				ahead_renamed json-ahead:changed-copy-differs "$js_tmp/ka.json"
		fi
		ahead_end
	else
		skip "json-ahead" "$ahead_why"
	fi

	# --- pipe input (perf 6.1 crashes on it) -------------------------------------
	for js_s in pipe pipe-g pipe-trace; do
		js_in=$js_root/samples/$js_s.data
		js_ks=
		[ -e "$js_in.kallsyms" ] && js_ks="--kallsyms $js_in.kallsyms"
		js_n=json-pipe:$js_s
		# shellcheck disable=SC2086
		js_convert "$js_n" "$js_tmp/out.json" -i "$js_in" $js_ks || continue
		js_want=$("$js_root/$BUILD/dirreport" -D -i "$js_in" $js_ks 2>/dev/null |
			grep -c 'PERF_RECORD_SAMPLE')
		js_got=$(jq '.samples | length' "$js_tmp/out.json")
		js_layout=$(jq '.headers | has("data-offset") or has("data-size") or
			has("feat-offset")' "$js_tmp/out.json")
		if [ "$js_got" != "$js_want" ] || [ "$js_got" = 0 ]; then
			fail "$js_n" "$js_got samples, dirreport -D shows $js_want"
		elif [ "$js_layout" != false ]; then
			fail "$js_n" "file-layout headers in a pipe's JSON"
		elif [ "$(jq -r '.headers."perf-version"' "$js_tmp/out.json")" = null ]; then
			fail "$js_n" "no perf-version header (a pipe's features are read)"
		else
			pass "$js_n"
		fi
		[ "$js_s" = pipe ] || continue
		js_n=json-pipe:stdin
		cp "$js_tmp/out.json" "$js_tmp/file.json"
		rm -f "$js_tmp/out.json"
		# shellcheck disable=SC2086
		timeout "$TIMEOUT" "$js_bin" -i - $js_ks --to-json "$js_tmp/out.json" \
			<"$js_in" >/dev/null 2>"$js_tmp/err"
		if [ $? -ne 0 ]; then
			fail "$js_n" "$(head -n 1 "$js_tmp/err")"
		elif [ "$(jq -c 'del(.headers."captured-on")' "$js_tmp/out.json")" = \
		       "$(jq -c 'del(.headers."captured-on")' "$js_tmp/file.json")" ]; then
			pass "$js_n"
		else
			fail "$js_n" "standard input gives another JSON than the file"
		fi
	done

	# --- damaged input -----------------------------------------------------------
	for js_case in record-size-past-end record-type-unknown zstd-corrupt truncated-header \
		       not-perf; do
		js_in=$js_root/$BUILD/malformed/$js_case/input
		js_n=json-bad:$js_case
		[ -e "$js_in" ] || { skip "$js_n" "$BUILD/malformed not made"; continue; }
		rm -f "$js_tmp/bad.json" "$js_tmp/bad.json.tmp"
		run "$js_tmp/out" "$js_tmp/err" "$js_bin" -i "$js_in" --to-json "$js_tmp/bad.json"
		crashed "$js_n" "$js_tmp/err" && continue
		if [ "$rc" -ne 1 ]; then
			fail "$js_n" "exit status $rc, want 1"
		elif [ "$(wc -l <"$js_tmp/err")" -ne 1 ] ||
		     ! grep -q "^dirconvert: .*$js_case/input" "$js_tmp/err"; then
			fail "$js_n" "stderr is not one line naming the file: $(head -n 2 "$js_tmp/err")"
		elif [ -e "$js_tmp/bad.json" ] || [ -e "$js_tmp/bad.json.tmp" ]; then
			fail "$js_n" "output left behind"
		else
			pass "$js_n"
		fi
	done

	# --- the output file ---------------------------------------------------------
	js_n=json-out:exists
	echo keep >"$js_tmp/exists.json"
	run "$js_tmp/out" "$js_tmp/err" "$js_bin" -i "$js_root/samples/plain.data" \
		--to-json "$js_tmp/exists.json"
	if [ "$rc" -eq 1 ] && [ "$(cat "$js_tmp/exists.json")" = keep ] &&
	   grep -q 'already exists' "$js_tmp/err"; then
		pass "$js_n"
	else
		fail "$js_n" "exit $rc; $(head -n 1 "$js_tmp/err")"
	fi
	js_n=json-out:force
	run "$js_tmp/out" "$js_tmp/err" "$js_bin" -i "$js_root/samples/plain.data" -f \
		--to-json "$js_tmp/exists.json"
	if [ "$rc" -eq 0 ] && jq -e '.samples | length > 0' "$js_tmp/exists.json" >/dev/null &&
	   [ ! -e "$js_tmp/exists.json.tmp" ]; then
		pass "$js_n"
	else
		fail "$js_n" "exit $rc; $(head -n 1 "$js_tmp/err")"
	fi
	js_n=json-usage:callchains
	run "$js_tmp/out" "$js_tmp/err" "$js_bin" -i "$js_root/samples/plain.data" \
		--callchains --to-json "$js_tmp/u.json"
	if [ "$rc" -eq 2 ] && [ ! -e "$js_tmp/u.json" ]; then pass "$js_n"; else
		fail "$js_n" "exit $rc"; fi
fi

if [ -n "$js_standalone" ]; then
	suite_summary
fi
