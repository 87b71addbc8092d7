#!/bin/sh
# tests/convert/run.sh - tests of dirconvert --to-sqlite: golden (perf 6.1's own export
# of samples/), live (perf's export of fresh recordings, when perf's script can run),
# damaged input, and the output file's atomicity.
#
#   BUILD=build sh tests/convert/run.sh      standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/convert/run.sh                   from tests/run-cli-tests.sh: uses its
#                                            helpers and counters, prints no summary
#
# golden     tests/convert/golden/<case>/ (made by update.sh from perf's databases):
#            `dirconvert $(cat cmd) --to-sqlite OUT` must give a database whose
#            tests/convert/dump.sh output equals the stored files: the same schema
#            (tables, views, their SQL), and every row of every table and view with
#            its type.  Also with -j 1 and -j 4 (the rows are resolved on the
#            workers), and for the pipe sample from standard input.
#            Kernel symbols come from the build-id cache the samples carry (the
#            ~/.debug of tests/run-cli-tests.sh; the pipe case's cmd names its
#            --kallsyms), so every case holds on any kernel.
# live       when perf 6.1 and its export-to-sqlite.py (PySide2's QtSql, installed as
#            root with apt-get unless CONVERT_NO_INSTALL is set) run here:
#            fresh recordings (a file; a --threads -z directory with callchains; a
#            tracepoint recording) exported by perf and by dirconvert, compared the
#            same way; --callchains against perf's script with its callchains-mode
#            crash fixed by sed at run time; --all-events must add the tracepoint
#            samples perf leaves out.
# bad input  every damaged input of tests/malformed/make.sh: dirconvert must do what
#            dirreport --stdio does (same reader): when it rejects the input, exit 1,
#            its one stderr line "dirconvert: FILE: offset N: ...", no OUT and no
#            OUT.tmp left; when it accepts it, exit 0, the same warnings, a sound
#            database.  Plus: OUT exists (untouched without -f, replaced with
#            -f), OUT.tmp exists (refused, left alone), a write error half-way
#            (file size limit: no OUT, no OUT.tmp), usage errors (exit 2, one line).

cv_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$cv_root/tests/convert/dump.sh" ] || cv_root=$(pwd)

# Standalone: the helpers run-cli-tests.sh provides (tests/lib.sh).
cv_standalone=
if ! command -v pass >/dev/null 2>&1; then
	cv_standalone=1
	cd "$cv_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone convert
fi

echo "-- dirconvert (tests/convert)"
cv_bin=$(cd "$cv_root/$BUILD" 2>/dev/null && pwd)/dirconvert
cv_tmp=$tmp/convert
rm -rf "$cv_tmp"
mkdir -p "$cv_tmp"

# cv_dump DB DIR: dump.sh, quietly; false on failure.
cv_dump() {
	rm -rf "$2"
	sh "$cv_root/tests/convert/dump.sh" "$1" "$2" >/dev/null 2>"$cv_tmp/dump.err"
}

# cv_same NAME WANTDIR GOTDIR: pass when every file of WANTDIR's dump is equal in GOTDIR
# and GOTDIR has no others.
cv_same() {
	_bad=
	for _f in "$2"/*.txt; do
		_b=$(basename "$_f")
		case $_b in os-release.txt) continue ;; esac
		if ! cmp -s "$_f" "$3/$_b"; then
			_bad="$_bad ${_b%.txt}"
			[ -n "${_first:-}" ] || _first=$_b
		fi
	done
	for _f in "$3"/*.txt; do
		[ -f "$2/$(basename "$_f")" ] || _bad="$_bad +$(basename "$_f" .txt)"
	done
	if [ -z "$_bad" ]; then
		pass "$1"
	else
		fail "$1" "differs:$_bad"
		[ -z "${_first:-}" ] || diff "$2/$_first" "$3/$_first" | head -n 10 |
			sed 's/^/    /'
	fi
	_first=
}

# cv_convert NAME OUT ARGS...: run dirconvert ARGS --to-sqlite OUT; pass/fail reported
# only on failure (returns 1).
cv_convert() {
	_name=$1 _out=$2
	shift 2
	rm -f "$_out"
	run "$cv_tmp/out" "$cv_tmp/err" "$cv_bin" "$@" --to-sqlite "$_out"
	crashed "$_name" "$cv_tmp/err" && return 1
	if [ "$rc" -ne 0 ]; then
		fail "$_name" "exit status $rc"
		head -n 3 "$cv_tmp/err" | sed 's/^/    /'
		return 1
	fi
	if ! cv_dump "$_out" "$cv_tmp/got"; then
		fail "$_name" "dump.sh failed: $(head -n 1 "$cv_tmp/dump.err")"
		return 1
	fi
	return 0
}

# The sqlite3 shell (dump.sh) and, for the live tests, PySide2's QtSql in perf's
# Python: installed here as root like the build's dependencies (tools/ensure-deps.sh),
# unless CONVERT_NO_INSTALL is set.
cv_install() {
	[ -z "${CONVERT_NO_INSTALL:-}" ] && [ "$(id -u)" = 0 ] &&
		sh "$cv_root/tools/ensure-deps.sh" "$@" >"$cv_tmp/install.log" 2>&1
}
command -v sqlite3 >/dev/null 2>&1 || cv_install sqlite3

if [ ! -x "$cv_bin" ]; then
	fail "dirconvert binary" "$BUILD/dirconvert missing or not executable"
elif ! command -v sqlite3 >/dev/null 2>&1; then
	skip "dirconvert" "the sqlite3 shell is not installed (Debian package sqlite3)"
else
	# --- golden ------------------------------------------------------------------
	for cv_dir in "$cv_root"/tests/convert/golden/*/; do
		cv_dir=${cv_dir%/}
		cv_case=$(basename "$cv_dir")
		[ -f "$cv_dir/cmd" ] || continue
		cv_name=convert-golden:$cv_case
		set -f
		# shellcheck disable=SC2046 # the arguments are whitespace-separated words
		set -- $(cat "$cv_dir/cmd")
		set +f
		for cv_j in "" 1 4; do
			cv_n=$cv_name${cv_j:+:-j$cv_j}
			# shellcheck disable=SC2086
			cv_convert "$cv_n" "$cv_tmp/out.db" ${cv_j:+-j $cv_j} "$@" || continue
			cv_same "$cv_n" "$cv_dir" "$cv_tmp/got"
		done
		if [ "$cv_case" = pipe ]; then
			cv_n=$cv_name:stdin
			rm -f "$cv_tmp/out.db"
			timeout "$TIMEOUT" "$cv_bin" -i - --to-sqlite "$cv_tmp/out.db" \
				--kallsyms "$cv_root/samples/pipe.data.kallsyms" \
				<"$cv_root/samples/pipe.data" >"$cv_tmp/out" 2>"$cv_tmp/err"
			rc=$?
			if ! crashed "$cv_n" "$cv_tmp/err"; then
				if [ "$rc" -ne 0 ]; then
					fail "$cv_n" "exit status $rc"
				elif cv_dump "$cv_tmp/out.db" "$cv_tmp/got"; then
					cv_same "$cv_n" "$cv_dir" "$cv_tmp/got"
				else
					fail "$cv_n" "dump.sh failed"
				fi
			fi
		fi
	done

	# --- live --------------------------------------------------------------------
	cv_script=
	if [ -n "$have_perf" ]; then
		cv_script=$(perf --exec-path 2>/dev/null)/scripts/python/export-to-sqlite.py
		# perf's script needs PySide2's QtSql in perf's own Python
		cv_probe() {
			rm -f "$cv_tmp/probe.db"
			[ -f "$cv_script" ] &&
				perf script -i "$cv_root/samples/plain.data" -s "$cv_script" \
					"$cv_tmp/probe.db" >"$cv_tmp/probe.log" 2>&1
		}
		if ! cv_probe && grep -q PySide "$cv_tmp/probe.log" 2>/dev/null &&
		   cv_install python3-pyside2.qtsql; then
			cv_probe
		fi
		if [ ! -s "$cv_tmp/probe.db" ]; then
			cv_why="perf's export-to-sqlite.py does not run here (apt-get install python3-pyside2.qtsql)"
			cv_script=
		fi
	else
		cv_why="perf 6.1 not runnable"
	fi
	if [ -z "$cv_script" ]; then
		skip "convert-live" "$cv_why"
	else
		# Fresh recordings of this machine: an empty build-id cache, not the samples'
		# (whose vdso may be this kernel's: perf then names it after a temporary copy,
		# /tmp/perf-vdso.so-XXXXXX, in its dsos table)
		cv_home=$HOME
		HOME=$cv_tmp/live-home
		mkdir -p "$HOME"
		sed 's/^\([[:space:]]*\)call_return_table(0, /\1if perf_db_export_calls: call_return_table(0, /' \
			"$cv_script" >"$cv_tmp/export-callchains.py"
		cv_work='seq 1 40000 | sort -r | md5sum >/dev/null; dd if=/dev/zero bs=64k count=100 2>/dev/null | gzip -1 >/dev/null'
		cv_rec() {	# cv_rec OUT PERF-RECORD-ARGS...: a fresh recording
			_o=$1
			shift
			rm -rf "$_o"
			perf record -q --no-buildid-cache -o "$_o" "$@" -- sh -c "$cv_work" \
				>/dev/null 2>&1
		}
		# cv_live NAME DATA PERF-ARGS DIRCONVERT-ARGS [SCRIPT]
		cv_live() {
			rm -f "$cv_tmp/perf.db"
			# shellcheck disable=SC2086
			if ! perf script -i "$2" -s "${5:-$cv_script}" "$cv_tmp/perf.db" $3 \
				>"$cv_tmp/perf.log" 2>&1; then
				skip "$1" "perf's export failed: $(tail -n 1 "$cv_tmp/perf.log")"
				return
			fi
			cv_dump "$cv_tmp/perf.db" "$cv_tmp/want" || { fail "$1" "dump failed"; return; }
			# perf names a [vdso] without build-id after the temporary copy of its own
			# vdso that it read symbols from, with that copy's build-id (README.md,
			# Known differences); dirconvert keeps [vdso]
			for _f in "$cv_tmp/want"/dsos*.txt; do
				sed "s|'/tmp/perf-vdso\.so-[A-Za-z0-9]*','[0-9a-f]*'|'[vdso]',''|" \
					"$_f" >"$_f.tmp" && mv "$_f.tmp" "$_f"
			done
			# shellcheck disable=SC2086
			cv_convert "$1" "$cv_tmp/out.db" -i "$2" $4 &&
				cv_same "$1" "$cv_tmp/want" "$cv_tmp/got"
		}
		if cv_rec "$cv_tmp/fresh.data" -e cpu-clock -F 2000; then
			cv_live convert-live:file "$cv_tmp/fresh.data" "" ""
		else
			skip convert-live:file "perf record failed"
		fi
		if cv_rec "$cv_tmp/fresh-dir.data" --threads -z -g -e cpu-clock -F 2000; then
			cv_live convert-live:threads-z-g "$cv_tmp/fresh-dir.data" "" ""
			cv_live convert-live:threads-z-g:callchains "$cv_tmp/fresh-dir.data" \
				"all callchains" "--callchains" "$cv_tmp/export-callchains.py"
		else
			skip convert-live:threads-z-g "perf record failed"
		fi
		# tracepoints: perf's export leaves their samples out; --all-events keeps them
		if cv_rec "$cv_tmp/tp.data" -e cpu-clock -e sched:sched_process_exec -F 2000; then
			cv_live convert-live:tracepoint "$cv_tmp/tp.data" "" ""
			cv_n=convert-live:tracepoint:--all-events
			if cv_convert "$cv_n" "$cv_tmp/all.db" -i "$cv_tmp/tp.data" --all-events; then
				cv_tp=$(sqlite3 -batch "$cv_tmp/all.db" "SELECT count(*) FROM samples_view WHERE event = 'sched:sched_process_exec'")
				cv_cpu=$(sqlite3 -batch "$cv_tmp/all.db" "SELECT count(*) FROM samples_view WHERE event = 'cpu-clock'")
				cv_pcpu=$(sqlite3 -batch "$cv_tmp/perf.db" "SELECT count(*) FROM samples_view WHERE event = 'cpu-clock'" 2>/dev/null)
				if [ "${cv_tp:-0}" -gt 0 ] && [ "$cv_cpu" = "$cv_pcpu" ]; then
					pass "$cv_n" "$cv_tp tracepoint samples"
				else
					fail "$cv_n" "tracepoint samples: ${cv_tp:-?}, cpu-clock: $cv_cpu (perf: $cv_pcpu)"
				fi
			fi
		else
			skip convert-live:tracepoint "perf record -e sched:sched_process_exec failed"
		fi
		HOME=$cv_home
	fi

	# --- kernel symbols read ahead -----------------------------------------------------
	# At -j 2 the export of a recording of the running kernel reads the build-id
	# cache's copy of its kallsyms and checks /proc/kallsyms against it; where they
	# differ it drops the rows written and makes the export again from /proc/kallsyms
	# (README.md).  The database is the one made from /proc/kallsyms with the copy the
	# same, changed (text symbols from line 1000 on renamed) and at -j 1; the phase
	# lines say which way each went.  Needs perf record only (not perf's script).
	if ahead_begin "$cv_tmp" -e cpu-clock -F 2000; then
		if cv_convert convert-ahead:want "$cv_tmp/ka.db" -j 2 --kallsyms /proc/kallsyms \
			-i "$cv_tmp/ka.data"; then
			rm -rf "$cv_tmp/ka-want"
			mv "$cv_tmp/got" "$cv_tmp/ka-want"
			# cv_ahead NAME WANT_PHASE J COPY_SOURCE
			cv_ahead() {
				cp "$4" "$ahead_copy"
				cv_convert "$1" "$cv_tmp/ka.db" -j "$3" -i "$cv_tmp/ka.data" || return
				if ! ahead_verdict "$1" dirconvert "$cv_tmp/err" "$2"; then
					:
				elif [ -e "$cv_tmp/ka.db.tmp" ]; then
					fail "$1" "ka.db.tmp left behind"
				else
					cv_same "$1" "$cv_tmp/ka-want" "$cv_tmp/got"
				fi
			}
			cv_ahead convert-ahead:same checked 2 "$cv_tmp/kallsyms.same"
			cv_ahead convert-ahead:differ differ 2 "$cv_tmp/kallsyms.changed"
			cv_ahead convert-ahead:-j1 "" 1 "$cv_tmp/kallsyms.changed"
			# the changed copy read as it is names other symbols: the cases above
			# could tell
			cv_convert convert-ahead:changed-copy "$cv_tmp/ka.db" -j 2 \
				--kallsyms "$cv_tmp/kallsyms.changed" -i "$cv_tmp/ka.data" &&
				ahead_renamed convert-ahead:changed-copy-differs "$cv_tmp/got"/*.txt
		fi
		ahead_end
	else
		skip "convert-ahead" "$ahead_why"
	fi

	# --- bad input -------------------------------------------------------------------
	# Every damaged input of tests/malformed/make.sh, read by dirreport --stdio and by
	# dirconvert: the same reader, so the same outcome.  Rejected: exit 1, dirreport's
	# one-line message (with dirconvert's name), no OUT and no OUT.tmp.  Accepted (a cut
	# last record, ...): exit 0, the same warning lines, a sound database.
	cv_gen=$cv_tmp/malformed
	cv_report=$(dirname "$cv_bin")/dirreport
	if ! sh "$cv_root/tests/malformed/make.sh" "$cv_gen" >"$cv_tmp/gen.log" 2>&1; then
		fail "convert-bad:generator" "tests/malformed/make.sh failed"
	elif [ ! -x "$cv_report" ]; then
		skip "convert-bad" "$cv_report missing"
	else
		for cv_dir in "$cv_root"/tests/malformed/*/; do
			cv_dir=${cv_dir%/}
			cv_case=$(basename "$cv_dir")
			[ -d "$cv_gen/$cv_case" ] || continue
			cv_name=convert-bad:$cv_case
			cv_here=$(pwd)
			cd "$cv_gen/$cv_case" || continue
			rm -f out.db out.db.tmp
			run "$cv_tmp/rout" "$cv_tmp/rerr" "$cv_report" -i input --stdio
			cv_rrc=$rc
			run "$cv_tmp/out" "$cv_tmp/err" "$cv_bin" -i input --to-sqlite out.db
			cv_left=$(ls out.db.tmp 2>/dev/null)
			[ "$rc" -ne 0 ] && cv_left="$cv_left $(ls out.db 2>/dev/null)"
			cv_ok=$( [ "$rc" -ne 0 ] || sqlite3 -batch out.db 'PRAGMA integrity_check' 2>&1)
			cd "$cv_here" || exit 2
			crashed "$cv_name" "$cv_tmp/err" && continue
			sed 's/^dirreport: /dirconvert: /' "$cv_tmp/rerr" >"$cv_tmp/want.err"
			# a recording with tracepoints is exported with dirconvert's note
			# that their samples are not (as perf's export); dirreport has none
			if [ "$rc" -eq 0 ]; then
				grep -v '^dirconvert: note: [0-9]* tracepoint samples not exported' \
					"$cv_tmp/err" >"$cv_tmp/err.nonote" || :
				mv "$cv_tmp/err.nonote" "$cv_tmp/err"
			fi
			if [ "$rc" -ne "$cv_rrc" ]; then
				fail "$cv_name" "exit status $rc, dirreport's $cv_rrc"
				head -n 2 "$cv_tmp/err" | sed 's/^/    /'
			elif [ -n "$(echo $cv_left)" ]; then
				fail "$cv_name" "left behind:$cv_left"
			elif [ -s "$cv_tmp/out" ]; then
				fail "$cv_name" "output on stdout"
			elif ! cmp -s "$cv_tmp/want.err" "$cv_tmp/err"; then
				fail "$cv_name" "stderr differs from dirreport's" "$cv_tmp/want.err" "$cv_tmp/err"
			elif [ "$rc" -eq 0 ] && [ "$cv_ok" != ok ]; then
				fail "$cv_name" "database: $cv_ok"
			elif [ "$rc" -ne 0 ] && [ "$(wc -l <"$cv_tmp/err")" -ne 1 ]; then
				fail "$cv_name" "stderr is not one line"
			else
				pass "$cv_name" "exit $rc"
			fi
		done
	fi

	# --- atomicity ---------------------------------------------------------------------
	cv_in=$cv_root/samples/threads-z.data
	cv_out=$cv_tmp/atomic.db
	# OUT exists: untouched without -f
	rm -f "$cv_out" "$cv_out.tmp"
	echo "precious" >"$cv_out"
	run "$cv_tmp/out" "$cv_tmp/err" "$cv_bin" -i "$cv_in" --to-sqlite "$cv_out"
	if ! crashed convert-atomic:exists "$cv_tmp/err"; then
		if [ "$rc" -eq 1 ] && [ "$(cat "$cv_out")" = precious ] && [ ! -e "$cv_out.tmp" ] &&
		   grep -q "already exists" "$cv_tmp/err"; then
			pass convert-atomic:exists
		else
			fail convert-atomic:exists "exit $rc, $(head -n 1 "$cv_tmp/err")"
		fi
	fi
	# OUT exists: replaced with -f (and --force)
	for cv_f in -f --force; do
		echo "precious" >"$cv_out"
		run "$cv_tmp/out" "$cv_tmp/err" "$cv_bin" -i "$cv_in" --to-sqlite "$cv_out" "$cv_f"
		if ! crashed "convert-atomic:$cv_f" "$cv_tmp/err"; then
			if [ "$rc" -eq 0 ] && [ ! -e "$cv_out.tmp" ] &&
			   [ "$(sqlite3 -batch "$cv_out" 'PRAGMA integrity_check' 2>&1)" = ok ]; then
				pass "convert-atomic:$cv_f"
			else
				fail "convert-atomic:$cv_f" "exit $rc, $(head -n 1 "$cv_tmp/err")"
			fi
		fi
	done
	# OUT.tmp exists (another dirconvert?): refused, left alone
	rm -f "$cv_out"
	echo "theirs" >"$cv_out.tmp"
	run "$cv_tmp/out" "$cv_tmp/err" "$cv_bin" -i "$cv_in" --to-sqlite "$cv_out"
	if ! crashed convert-atomic:tmp-exists "$cv_tmp/err"; then
		if [ "$rc" -eq 1 ] && [ ! -e "$cv_out" ] && [ "$(cat "$cv_out.tmp")" = theirs ]; then
			pass convert-atomic:tmp-exists
		else
			fail convert-atomic:tmp-exists "exit $rc, $(head -n 1 "$cv_tmp/err")"
		fi
	fi
	rm -f "$cv_out.tmp"
	# write errors (a file size limit below the ~60 KB database of plain.data: 16 or 48
	# blocks of 512 bytes (dash) or 1 KiB (bash); 16 stops SQLite, 48 the samples
	# pages): no OUT, no OUT.tmp
	for cv_blocks in 16 48; do
		cv_n=convert-atomic:write-error-$cv_blocks
		rm -f "$cv_out" "$cv_out.tmp"
		(ulimit -f "$cv_blocks" 2>/dev/null &&
		 exec "$cv_bin" -i "$cv_root/samples/plain.data" --to-sqlite "$cv_out") \
			>"$cv_tmp/out" 2>"$cv_tmp/err"
		rc=$?
		crashed "$cv_n" "$cv_tmp/err" && continue
		if [ "$rc" -eq 1 ] && [ ! -e "$cv_out" ] && [ ! -e "$cv_out.tmp" ] &&
		   [ "$(wc -l <"$cv_tmp/err")" -eq 1 ]; then
			pass "$cv_n" "$(cat "$cv_tmp/err")"
		else
			fail "$cv_n" "exit $rc, $(head -n 1 "$cv_tmp/err")"
		fi
	done
	rm -f "$cv_out"
	# usage errors: exit 2, one line on stderr, nothing written
	for cv_args in "-i $cv_in" "-i $cv_in --to-sqlite $cv_out -j 0" \
		       "-i $cv_in --to-sqlite $cv_out --bogus"; do
		# shellcheck disable=SC2086
		run "$cv_tmp/out" "$cv_tmp/err" "$cv_bin" $cv_args
		cv_n="convert-usage:$(echo "$cv_args" | sed "s|$cv_in|IN|; s|$cv_out|OUT|")"
		if [ "$rc" -eq 2 ] && [ ! -e "$cv_out" ] && [ "$(wc -l <"$cv_tmp/err")" -eq 1 ] &&
		   grep -q "^dirconvert: .*; see 'dirconvert --help'\$" "$cv_tmp/err"; then
			pass "$cv_n"
		else
			fail "$cv_n" "exit $rc, expected 2 and one line; OUT $([ -e "$cv_out" ] || echo not )created: $(head -n 1 "$cv_tmp/err")"
		fi
	done
fi

if [ -n "$cv_standalone" ]; then
	suite_summary
fi
