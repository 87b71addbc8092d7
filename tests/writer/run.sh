#!/bin/sh
# tests/writer/run.sh - tests of dirconvert --to-file / --to-dir (format/writer.h):
# round trips of every recording in samples/ and tests/external/, damaged input and the
# output file.
#
#   BUILD=build sh tests/writer/run.sh       standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/writer/run.sh                    from tests/run-cli-tests.sh: uses its
#                                            helpers and counters, prints no summary
#
# round trip  for every samples/*.data (files, directories, pipes) and tests/external/
#             perf.data.* (not the Intel PT pipe, nor COMPRESSED2: perf 6.1 reads neither)
#             and each conversion: --to-file, --to-dir, --to-dir --split 2,
#             --to-file --decompress, --to-file -z (and --to-dir -z3 on the
#             directories): `dirreport --stdio` on the output equals `dirreport --stdio`
#             on the input, and, when perf 6.1 runs, `perf report --stdio` on the output
#             equals perf's on the input.  Nothing is masked: --stdio prints no header
#             lines that depend on the file (no `# captured on`, no sizes, no file
#             name); only perf's random closing tip is removed (strip_tip).  HOME's
#             ~/.debug is the samples' build-id cache (samples_home); pipe samples and
#             the external recordings get the same --kallsyms on both sides.
#             perf's stderr on the output must not hold more lines than on the input
#             (no new warnings).
# compressed  -z output has COMPRESSED records (dirreport -D), and perf's COMPRESSED
#             header line says Zstd; --decompress output has none.
# bad input   damaged inputs (tests/malformed/make.sh, made by run-cli-tests.sh into
#             $BUILD/malformed): exit 1, one stderr line naming the file, no OUT, no
#             OUT.tmp.  OUT exists: refused without -f (untouched), replaced with -f
#             (a file by a directory too).

wr_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$wr_root/tests/writer/run.sh" ] || wr_root=$(pwd)

wr_standalone=
if ! command -v pass >/dev/null 2>&1; then
	wr_standalone=1
	cd "$wr_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone writer
fi

echo "-- dirconvert --to-file / --to-dir (tests/writer)"
wr_bin=$(cd "$wr_root/$BUILD" 2>/dev/null && pwd)/dirconvert
wr_rep=$(dirname "$wr_bin")/dirreport
wr_tmp=$tmp/writer
rm -rf "$wr_tmp"
mkdir -p "$wr_tmp"

# wr_ks INPUT: the --kallsyms both sides get (pipes: the sample's; external: none)
wr_ks() {
	case $1 in
	*/tests/external/*) echo "--kallsyms $wr_root/tests/external/empty.kallsyms" ;;
	*) [ -e "$1.kallsyms" ] && echo "--kallsyms $1.kallsyms" ;;
	esac
}

# wr_report OUT ERR PROG INPUT KS: PROG's --stdio report of INPUT, tip removed (PROG:
# dirreport's path, or "perf report")
wr_report() {
	# shellcheck disable=SC2086 # PROG: the words of a command; KS: options
	run "$wr_tmp/rep.raw" "$2" $3 --stdio -i "$4" $5
	strip_tip "$wr_tmp/rep.raw" "$1"
}

if [ ! -x "$wr_bin" ] || [ ! -x "$wr_rep" ]; then
	fail "writer" "$BUILD/dirconvert or $BUILD/dirreport missing"
else
	wr_perf_skipped=
	for wr_in in "$wr_root"/samples/*.data "$wr_root"/tests/external/perf.data.*; do
		[ -e "$wr_in" ] || continue
		case $wr_in in *intel_pt*) continue ;; esac
		wr_s=$(basename "$wr_in")
		wr_k=$(wr_ks "$wr_in")
		# A pipe: perf picks its default view (children view and call graphs for
		# callchains, the trace key for tracepoints) before it reads the attrs, which
		# a pipe brings only later, so a pipe and the same records in a file report
		# differently by default: both sides get that view explicitly.
		[ -f "$wr_in" ] && [ "$(od -An -tu8 -j8 -N8 "$wr_in" | tr -d ' ')" = 16 ] &&
			wr_k="$wr_k --no-children -g none -s comm,dso,sym"
		wr_report "$wr_tmp/src.rep" "$wr_tmp/src.err" "$wr_rep" "$wr_in" "$wr_k"
		wr_src_rc=$rc
		if [ -n "$have_perf" ]; then
			wr_report "$wr_tmp/src.perf" "$wr_tmp/src.perr" "perf report" "$wr_in" "$wr_k"
			wr_src_prc=$rc
			# the comparison must compare something
			[ "$rc" -eq 0 ] && ! grep -q '^# Samples: ' "$wr_tmp/src.perf" &&
				fail "writer:$wr_s:perf" "perf reports no samples on the input"
		fi
		# NAME:MODE[:EXTRA], EXTRA's words joined by _
		wr_convs="file:--to-file dir:--to-dir split2:--to-dir:--split_2
file-decompress:--to-file:--decompress file-z:--to-file:-z"
		[ -d "$wr_in" ] && wr_convs="$wr_convs dir-z3:--to-dir:-z3"
		for wr_c in $wr_convs; do
			wr_n=writer:$wr_s:${wr_c%%:*}
			wr_m=${wr_c#*:}
			wr_x=
			case $wr_m in *:*) wr_x=$(echo "${wr_m#*:}" | tr '_' ' ') wr_m=${wr_m%%:*} ;; esac
			rm -rf "$wr_tmp/out" "$wr_tmp/out.tmp"
			# shellcheck disable=SC2086 # wr_x: options
			run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_in" "$wr_m" "$wr_tmp/out" $wr_x
			crashed "$wr_n" "$wr_tmp/cerr" && continue
			if [ "$rc" -ne 0 ]; then
				fail "$wr_n" "exit status $rc: $(head -n 1 "$wr_tmp/cerr")"
				continue
			fi
			if [ -e "$wr_tmp/out.tmp" ]; then
				fail "$wr_n" "out.tmp left behind"
				continue
			fi
			wr_report "$wr_tmp/got.rep" "$wr_tmp/got.err" "$wr_rep" "$wr_tmp/out" "$wr_k"
			if [ "$rc" != "$wr_src_rc" ]; then
				fail "$wr_n" "dirreport: exit $rc on the output, $wr_src_rc on the input"
				continue
			elif [ "$rc" -eq 0 ] && ! grep -q '^# Samples: ' "$wr_tmp/got.rep"; then
				fail "$wr_n" "dirreport reports no samples on the output"
				continue
			elif ! cmp -s "$wr_tmp/src.rep" "$wr_tmp/got.rep"; then
				fail "$wr_n" "dirreport --stdio differs" "$wr_tmp/src.rep" "$wr_tmp/got.rep"
				continue
			fi
			if [ -z "$have_perf" ]; then
				wr_perf_skipped=1
				pass "$wr_n" "dirreport only"
				continue
			fi
			wr_report "$wr_tmp/got.perf" "$wr_tmp/got.perr" "perf report" "$wr_tmp/out" "$wr_k"
			if [ "$rc" != "$wr_src_prc" ]; then
				fail "$wr_n" "perf: exit $rc on the output, $wr_src_prc on the input"
			elif ! cmp -s "$wr_tmp/src.perf" "$wr_tmp/got.perf"; then
				fail "$wr_n" "perf report --stdio differs" "$wr_tmp/src.perf" \
					"$wr_tmp/got.perf"
			elif [ "$(wc -l <"$wr_tmp/got.perr")" -gt "$(wc -l <"$wr_tmp/src.perr")" ]; then
				fail "$wr_n" "perf warns on the output: $(head -n 1 "$wr_tmp/got.perr")"
			else
				pass "$wr_n"
			fi
		done
	done
	[ -n "$wr_perf_skipped" ] && skip "writer:perf-report" "$perf_why"

	# --- a fresh recording of more than 1 MiB: several index chunks, FINISHED_ROUNDs
	# between them, many COMPRESSED records (the samples are smaller than a chunk) ---
	if [ -z "$have_perf" ]; then
		skip "writer:fresh" "$perf_why"
	elif ! perf record -q --no-buildid-cache -g -e cpu-clock -F 20000 \
		-o "$wr_tmp/fresh.data" -- sh -c 'seq 1 300000 | sort -r | gzip -1 | md5sum \
		>/dev/null' >/dev/null 2>&1; then
		skip "writer:fresh" "perf record failed"
	else
		wr_home=$HOME
		HOME=$wr_tmp/fresh-home	# this machine's recording: not the samples' cache
		mkdir -p "$HOME"
		wr_report "$wr_tmp/src.rep" "$wr_tmp/src.err" "$wr_rep" "$wr_tmp/fresh.data" ""
		wr_report "$wr_tmp/src.perf" "$wr_tmp/src.perr" "perf report" "$wr_tmp/fresh.data" ""
		for wr_c in file:--to-file file-z:--to-file:-z dir-split3-z:--to-dir:--split_3_-z
		do
			wr_n=writer:fresh:${wr_c%%:*}
			wr_m=${wr_c#*:}
			wr_x=
			case $wr_m in *:*) wr_x=$(echo "${wr_m#*:}" | tr '_' ' ') wr_m=${wr_m%%:*} ;; esac
			rm -rf "$wr_tmp/out"
			# shellcheck disable=SC2086 # wr_x: options
			run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_tmp/fresh.data" "$wr_m" \
				"$wr_tmp/out" $wr_x
			crashed "$wr_n" "$wr_tmp/cerr" && continue
			wr_report "$wr_tmp/got.rep" "$wr_tmp/got.err" "$wr_rep" "$wr_tmp/out" ""
			wr_report "$wr_tmp/got.perf" "$wr_tmp/got.perr" "perf report" "$wr_tmp/out" ""
			if [ "$rc" -ne 0 ]; then
				fail "$wr_n" "perf report failed: $(head -n 1 "$wr_tmp/got.perr")"
			elif ! cmp -s "$wr_tmp/src.perf" "$wr_tmp/got.perf"; then
				fail "$wr_n" "perf report --stdio differs" "$wr_tmp/src.perf" \
					"$wr_tmp/got.perf"
			elif ! cmp -s "$wr_tmp/src.rep" "$wr_tmp/got.rep"; then
				fail "$wr_n" "dirreport --stdio differs" "$wr_tmp/src.rep" \
					"$wr_tmp/got.rep"
			else
				pass "$wr_n"
			fi
		done
		HOME=$wr_home
	fi

	# --- compression is really there (or not) ----------------------------------
	wr_in=$wr_root/samples/callchain.data
	rm -rf "$wr_tmp/z.data" "$wr_tmp/plain.data"
	run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_in" --to-file "$wr_tmp/z.data" -z5
	wr_nc=$("$wr_rep" -D -i "$wr_tmp/z.data" 2>/dev/null |
		sed -n 's/^ *COMPRESSED events: *\([0-9]*\).*/\1/p')
	if [ "$rc" -eq 0 ] && [ "${wr_nc:-0}" -gt 0 ]; then
		pass "writer:z:compressed-records" "$wr_nc COMPRESSED records"
	else
		fail "writer:z:compressed-records" "exit $rc, ${wr_nc:-no} COMPRESSED records"
	fi
	if [ -n "$have_perf" ]; then
		if perf report --header-only -i "$wr_tmp/z.data" 2>/dev/null |
			grep -q '^# compressed : Zstd, level = 5, ratio = [1-9]'; then
			pass "writer:z:feature"
		else
			fail "writer:z:feature" "perf prints no '# compressed : Zstd, level = 5'"
		fi
	fi
	run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_root/samples/threads-z.data" \
		--to-file "$wr_tmp/plain.data" --decompress
	if [ "$rc" -eq 0 ] && ! "$wr_rep" -D -i "$wr_tmp/plain.data" 2>/dev/null |
		grep -q 'COMPRESSED events' &&
	   ! "$wr_rep" --header-only -i "$wr_tmp/plain.data" 2>/dev/null | grep -q '^# compressed'
	then
		pass "writer:decompress"
	else
		fail "writer:decompress" "exit $rc, or COMPRESSED records or feature left"
	fi

	# --- usage -------------------------------------------------------------------
	run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_root/samples/plain.data" \
		--to-file "$wr_tmp/u.data" --split 2
	if [ "$rc" -eq 2 ] && [ ! -e "$wr_tmp/u.data" ]; then pass "writer:usage:split-file"
	else fail "writer:usage:split-file" "exit $rc"; fi
	run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_root/samples/plain.data" \
		--to-dir "$wr_tmp/u.data" --split cpu
	if [ "$rc" -eq 1 ] && [ ! -e "$wr_tmp/u.data" ] && [ ! -e "$wr_tmp/u.data.tmp" ] &&
	   grep -q 'do not sample the cpu' "$wr_tmp/cerr"; then
		pass "writer:usage:split-cpu-without-cpu"
	else
		fail "writer:usage:split-cpu-without-cpu" "exit $rc: $(head -n 1 "$wr_tmp/cerr")"
	fi

	# --- damaged input -----------------------------------------------------------
	for wr_case in record-size-past-end record-type-unknown zstd-corrupt truncated-header \
		       not-perf record-size-zero data-offset-past-end attr-size-zero; do
		wr_in=$wr_root/$BUILD/malformed/$wr_case/input
		for wr_m in --to-file --to-dir; do
			wr_n=writer-bad:$wr_case:$wr_m
			[ -e "$wr_in" ] || { skip "$wr_n" "$BUILD/malformed not made"; continue; }
			rm -rf "$wr_tmp/bad" "$wr_tmp/bad.tmp"
			run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_in" $wr_m "$wr_tmp/bad"
			crashed "$wr_n" "$wr_tmp/cerr" && continue
			if [ "$rc" -ne 1 ]; then
				fail "$wr_n" "exit status $rc, want 1"
			elif [ "$(wc -l <"$wr_tmp/cerr")" -ne 1 ] ||
			     ! grep -q "^dirconvert: .*$wr_case/input" "$wr_tmp/cerr"; then
				fail "$wr_n" "stderr is not one line naming the file: $(head -n 2 "$wr_tmp/cerr")"
			elif [ -e "$wr_tmp/bad" ] || [ -e "$wr_tmp/bad.tmp" ]; then
				fail "$wr_n" "output left behind"
			else
				pass "$wr_n"
			fi
		done
	done

	# --- the output file ---------------------------------------------------------
	for wr_m in --to-file --to-dir; do
		wr_n=writer-out:exists:$wr_m
		rm -rf "$wr_tmp/exists.data"
		echo keep >"$wr_tmp/exists.data"
		run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_root/samples/plain.data" \
			$wr_m "$wr_tmp/exists.data"
		if [ "$rc" -eq 1 ] && [ "$(cat "$wr_tmp/exists.data")" = keep ] &&
		   grep -q 'already exists' "$wr_tmp/cerr"; then
			pass "$wr_n"
		else
			fail "$wr_n" "exit $rc; $(head -n 1 "$wr_tmp/cerr")"
		fi
		wr_n=writer-out:force:$wr_m
		run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_root/samples/plain.data" -f \
			$wr_m "$wr_tmp/exists.data"
		if [ "$rc" -eq 0 ] && "$wr_rep" --stdio -i "$wr_tmp/exists.data" >/dev/null 2>&1 &&
		   [ ! -e "$wr_tmp/exists.data.tmp" ]; then
			pass "$wr_n"
		else
			fail "$wr_n" "exit $rc; $(head -n 1 "$wr_tmp/cerr")"
		fi
	done
	# a directory that is not a recording is never replaced
	wr_n=writer-out:force-not-a-recording
	rm -rf "$wr_tmp/notrec"
	mkdir -p "$wr_tmp/notrec" && echo keep >"$wr_tmp/notrec/file"
	run "$wr_tmp/cout" "$wr_tmp/cerr" "$wr_bin" -i "$wr_root/samples/plain.data" -f \
		--to-dir "$wr_tmp/notrec"
	if [ "$rc" -eq 1 ] && [ "$(cat "$wr_tmp/notrec/file")" = keep ] &&
	   [ ! -e "$wr_tmp/notrec.tmp" ]; then
		pass "$wr_n"
	else
		fail "$wr_n" "exit $rc; $(head -n 1 "$wr_tmp/cerr")"
	fi
fi

if [ -n "$wr_standalone" ]; then
	suite_summary
fi
