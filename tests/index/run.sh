#!/bin/sh
# tests/index/run.sh - tests of the per-file index (docs/index-format.md):
# `dirconvert --index PATH` and `dirreport --stats` answering from it.
#
#   BUILD=build sh tests/index/run.sh        standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/index/run.sh                     from tests/run-cli-tests.sh
#
# build      --index on every bundled file and directory recording (not pipes): exit 0,
#            the index is there (FILE.dirindex, DIR/dirindex) and no FILE.dirindex.tmp
# stats      dirreport --stats with the index equals --stats without it (a copy of the
#            recording without its index), at -j 1 and -j 2, with no warning
# ignored    a stale index (a data file touched), a damaged one (a byte changed, cut
#            short, an empty file), a foreign one (another recording's): one warning
#            line "index ignored", the same output as without an index
# writer     --to-dir output carries a fresh index: --stats on it warns nothing and
#            equals --stats on a copy without the index
# reader     every bundled data directory, three files made directories (--to-dir) and
#            five single files, indexed in 4 KiB entries (--index-interval 4096): the
#            session starts from the index (no scan pass; compressed ones scan), and
#            dirreport --stdio, -D, --stdio with --time slices (a directory's session
#            leaves out the samples of entries outside them) and dirscript --time print
#            the same, stdout and stderr, as on a copy without the index, at -j 1 and
#            -j 2; a --time slice reads fewer bytes of records with the index
#            (DIRREPORT_IO_STATS)
# report-ignored  a stale index under --stdio: one warning, the same report
# damaged    data under a fresh index (a file cut inside a record; bytes changed and
#            the modification time put back; a file perf did not finish, data size
#            0): the same warning or the same one-line error (file, offset) as
#            without the index, never a hang (a --time slice does not see damage in
#            the samples it leaves out)
# usage      --index of a pipe: exit 1, one line; --index with other modes: exit 2

ix_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$ix_root/tests/index/run.sh" ] || ix_root=$(pwd)

ix_standalone=
if ! command -v pass >/dev/null 2>&1; then
	ix_standalone=1
	cd "$ix_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, have_perf, suite_standalone
	suite_standalone index
fi

echo "-- index (tests/index)"
ix_conv=$(cd "$ix_root/$BUILD" 2>/dev/null && pwd)/dirconvert
ix_rep=$(cd "$ix_root/$BUILD" 2>/dev/null && pwd)/dirreport
ix_tmp=$tmp/index
rm -rf "$ix_tmp"
mkdir -p "$ix_tmp"

# ix_index_path REC: where its index is
ix_index_path() {
	if [ -d "$1" ]; then echo "$1/dirindex"; else echo "$1.dirindex"; fi
}

# ix_stats NAME REC WANT: dirreport --stats on REC (-j 1 and -j 2) equals WANT and
# warns nothing
ix_stats() {
	for _j in 1 2; do
		run "$ix_tmp/out" "$ix_tmp/err" "$ix_rep" -j "$_j" --stats -i "$2"
		crashed "$1:-j$_j" "$ix_tmp/err" && continue
		if [ "$rc" -ne 0 ]; then
			fail "$1:-j$_j" "exit $rc: $(head -n 1 "$ix_tmp/err")"
		elif [ -s "$ix_tmp/err" ]; then
			fail "$1:-j$_j" "stderr: $(head -n 1 "$ix_tmp/err")"
		elif ! cmp -s "$3" "$ix_tmp/out"; then
			fail "$1:-j$_j" "differs from --stats without the index"
			diff "$3" "$ix_tmp/out" | head -n 5 | sed 's/^/    /'
		else
			pass "$1:-j$_j"
		fi
	done
}

# ix_ignored NAME REC WANT: one "index ignored" warning, the output WANT
ix_ignored() {
	run "$ix_tmp/out" "$ix_tmp/err" "$ix_rep" --stats -i "$2"
	crashed "$1" "$ix_tmp/err" && return
	if [ "$rc" -ne 0 ]; then
		fail "$1" "exit $rc: $(head -n 1 "$ix_tmp/err")"
	elif [ "$(wc -l <"$ix_tmp/err")" -ne 1 ] || ! grep -q 'index ignored' "$ix_tmp/err"; then
		fail "$1" "want one 'index ignored' warning, stderr: $(head -n 2 "$ix_tmp/err")"
	elif ! cmp -s "$3" "$ix_tmp/out"; then
		fail "$1" "output differs from --stats without the index"
	else
		pass "$1" "$(cut -c1-100 "$ix_tmp/err")"
	fi
}

if [ ! -x "$ix_conv" ] || [ ! -x "$ix_rep" ]; then
	fail "index" "$BUILD/dirconvert or $BUILD/dirreport missing"
else
	for ix_src in "$ix_root"/samples/*.data; do
		ix_s=$(basename "$ix_src" .data)
		case $ix_s in pipe*|*-pipe) continue ;; esac
		# a copy, so that the checkout stays as it is
		ix_rec=$ix_tmp/$ix_s.data
		rm -rf "$ix_rec" "$ix_rec.dirindex"
		cp -Rp "$ix_src" "$ix_rec"
		"$ix_rep" --stats -i "$ix_rec" >"$ix_tmp/want" 2>/dev/null
		run "$ix_tmp/out" "$ix_tmp/err" "$ix_conv" --index "$ix_rec"
		crashed "index-build:$ix_s" "$ix_tmp/err" && continue
		ix_path=$(ix_index_path "$ix_rec")
		if [ "$rc" -ne 0 ]; then
			fail "index-build:$ix_s" "exit $rc: $(head -n 1 "$ix_tmp/err")"
			continue
		elif [ ! -s "$ix_path" ] || [ -e "$ix_path.tmp" ]; then
			fail "index-build:$ix_s" "no index (or its .tmp left)"
			continue
		fi
		pass "index-build:$ix_s"
		ix_stats "index-stats:$ix_s" "$ix_rec" "$ix_tmp/want"
		case $ix_s in plain | threads | threads-z | two-events) ;; *) continue ;; esac
		# damaged, stale, foreign: ignored with one warning, the same output
		cp "$ix_path" "$ix_tmp/good"
		printf 'X' | dd of="$ix_path" bs=1 seek=100 conv=notrunc 2>/dev/null
		ix_ignored "index-ignored:$ix_s:byte" "$ix_rec" "$ix_tmp/want"
		head -c 40 "$ix_tmp/good" >"$ix_path"
		ix_ignored "index-ignored:$ix_s:cut" "$ix_rec" "$ix_tmp/want"
		: >"$ix_path"
		ix_ignored "index-ignored:$ix_s:empty" "$ix_rec" "$ix_tmp/want"
		cp "$ix_tmp/good" "$ix_path"
		if [ -d "$ix_rec" ]; then ix_f=$ix_rec/data; else ix_f=$ix_rec; fi
		touch -d '2001-01-01 00:00:00' "$ix_f"
		ix_ignored "index-ignored:$ix_s:stale" "$ix_rec" "$ix_tmp/want"
		# foreign: the index of another recording
		if [ "$ix_s" = plain ]; then
			rm -f "$ix_tmp/foreign.data" "$ix_tmp/foreign.data.dirindex"
			cp "$ix_root/samples/two-events.data" "$ix_tmp/foreign.data"
			"$ix_conv" --index "$ix_tmp/foreign.data" >/dev/null 2>&1
			cp "$ix_tmp/foreign.data.dirindex" "$ix_path" 2>/dev/null
			ix_ignored "index-ignored:$ix_s:foreign" "$ix_rec" "$ix_tmp/want"
		fi
	done

	# --to-dir carries a fresh index
	ix_out=$ix_tmp/todir.data
	rm -rf "$ix_out" "$ix_tmp/todir-copy.data"
	run "$ix_tmp/out" "$ix_tmp/err" "$ix_conv" -i "$ix_root/samples/threads.data" \
		--to-dir "$ix_out"
	if [ "$rc" -ne 0 ] || [ ! -s "$ix_out/dirindex" ]; then
		fail "index-writer:to-dir" "exit $rc, index $(ls "$ix_out" 2>/dev/null | tr '\n' ' ')"
	else
		cp -Rp "$ix_out" "$ix_tmp/todir-copy.data"
		rm -f "$ix_tmp/todir-copy.data/dirindex"
		"$ix_rep" --stats -i "$ix_tmp/todir-copy.data" >"$ix_tmp/want" 2>/dev/null
		ix_stats "index-writer:to-dir" "$ix_out" "$ix_tmp/want"
	fi

	# reader: started from the index, samples outside --time left out
	ix_script=$(cd "$ix_root/$BUILD" 2>/dev/null && pwd)/dirscript
	for ix_src in "$ix_root"/samples/threads*.data dir:srcline-g dir:trace dir:system-g \
		file:plain file:two-events file:trace file:srcline-g file:group-mixed; do
		case $ix_src in
		/*) ix_s=$(basename "$ix_src" .data)
		    rm -rf "$ix_tmp/r-$ix_s.data"
		    cp -Rp "$ix_src" "$ix_tmp/r-$ix_s.data" ;;
		dir:*) ix_s=${ix_src#dir:}
		   rm -rf "$ix_tmp/r-$ix_s.data"
		   "$ix_conv" -i "$ix_root/samples/$ix_s.data" --to-dir "$ix_tmp/r-$ix_s.data" \
			>/dev/null 2>&1 ;;
		file:*) ix_s=file-${ix_src#file:}
		   rm -rf "$ix_tmp/r-$ix_s.data"
		   cp -p "$ix_root/samples/${ix_src#file:}.data" "$ix_tmp/r-$ix_s.data" ;;
		esac
		ix_rec=$ix_tmp/r-$ix_s.data
		ix_path=$(ix_index_path "$ix_rec")
		rm -f "$ix_path"
		rm -rf "$ix_tmp/n-$ix_s.data" "$ix_tmp/n-$ix_s.data.dirindex"
		cp -Rp "$ix_rec" "$ix_tmp/n-$ix_s.data"
		run "$ix_tmp/out" "$ix_tmp/err" "$ix_conv" --index "$ix_rec" --index-interval 4096
		if [ "$rc" -ne 0 ] || [ ! -s "$ix_path" ]; then
			fail "index-reader:$ix_s" "--index: exit $rc: $(head -n 1 "$ix_tmp/err")"
			continue
		fi
		if DIRREPORT_IO_STATS=1 "$ix_rep" --stdio -i "$ix_rec" 2>&1 >/dev/null |
			grep -q 'started from the index'; then
			pass "index-reader:$ix_s:started"
		else
			case $ix_s in
			*-z*) pass "index-reader:$ix_s:scanned" "compressed: the scan pass runs" ;;
			*) fail "index-reader:$ix_s:started" "the session did not start from the index" ;;
			esac
		fi
		for ix_args in "--stdio" "-D" "--stdio --time 0%-30%" \
			"--stdio --no-children --time 40%-60%" "--stdio --time 85%-100%" \
			"--stdio --sort comm,dso,sym --time 10%/3" "--stdio -g caller --time 50%-"; do
			for _j in 1 2; do
				ix_n="index-reader:$ix_s:$(echo "$ix_args" | tr ' ' '_'):-j$_j"
				# shellcheck disable=SC2086
				run "$ix_tmp/want" "$ix_tmp/wanterr" "$ix_rep" -j "$_j" $ix_args \
					-i "$ix_tmp/n-$ix_s.data"
				# shellcheck disable=SC2086
				run "$ix_tmp/out" "$ix_tmp/err" "$ix_rep" -j "$_j" $ix_args -i "$ix_rec"
				crashed "$ix_n" "$ix_tmp/err" && continue
				# -D names the files: the copies' names differ
				for _f in want wanterr out err; do
					sed "s#$ix_tmp/[nr]-#DIR/#g" "$ix_tmp/$_f" >"$ix_tmp/$_f.s"
					mv "$ix_tmp/$_f.s" "$ix_tmp/$_f"
				done
				if ! cmp -s "$ix_tmp/want" "$ix_tmp/out"; then
					fail "$ix_n" "differs from the run without the index"
					diff "$ix_tmp/want" "$ix_tmp/out" | head -n 5 | sed 's/^/    /'
				elif ! cmp -s "$ix_tmp/wanterr" "$ix_tmp/err"; then
					fail "$ix_n" "stderr differs: $(head -n 1 "$ix_tmp/err")"
				else
					pass "$ix_n"
				fi
			done
		done
		run "$ix_tmp/want" "$ix_tmp/wanterr" "$ix_script" --time 30%-70% \
			-i "$ix_tmp/n-$ix_s.data"
		run "$ix_tmp/out" "$ix_tmp/err" "$ix_script" --time 30%-70% -i "$ix_rec"
		for _f in want wanterr out err; do
			sed "s#$ix_tmp/[nr]-#DIR/#g" "$ix_tmp/$_f" >"$ix_tmp/$_f.s"
			mv "$ix_tmp/$_f.s" "$ix_tmp/$_f"
		done
		if cmp -s "$ix_tmp/want" "$ix_tmp/out" && cmp -s "$ix_tmp/wanterr" "$ix_tmp/err"
		then
			pass "index-reader:$ix_s:dirscript-time"
		else
			fail "index-reader:$ix_s:dirscript-time" "differs from the run without the index"
		fi
	done
	# the slice reads less with the index (srcline-g: 4 KiB entries, few side-band records)
	ix_bytes() {
		DIRREPORT_IO_STATS=1 "$ix_rep" --stdio --time 0%-10% -i "$1" 2>&1 >/dev/null |
			sed -n 's/^dirreport: io: \([0-9]*\) bytes.*/\1/p'
	}
	ix_with=$(ix_bytes "$ix_tmp/r-srcline-g.data")
	ix_without=$(ix_bytes "$ix_tmp/n-srcline-g.data")
	if [ -n "$ix_with" ] && [ -n "$ix_without" ] && [ "$ix_with" -lt "$ix_without" ] &&
	   DIRREPORT_IO_STATS=1 "$ix_rep" --stdio -i "$ix_tmp/r-srcline-g.data" 2>&1 >/dev/null |
		grep -q 'started from the index'; then
		pass "index-reader:bytes-read" "$ix_with bytes with the index, $ix_without without"
	else
		fail "index-reader:bytes-read" "with the index '$ix_with', without '$ix_without'"
	fi
	# a stale index under a report: one warning, the same report
	touch -d '2001-01-01 00:00:00' "$ix_tmp/r-srcline-g.data/data.0"
	run "$ix_tmp/out" "$ix_tmp/err" "$ix_rep" --stdio --time 0%-10% -i "$ix_tmp/r-srcline-g.data"
	"$ix_rep" --stdio --time 0%-10% -i "$ix_tmp/n-srcline-g.data" >"$ix_tmp/want" 2>/dev/null
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$ix_tmp/err")" -eq 1 ] &&
	   grep -q 'index ignored: .*changed since' "$ix_tmp/err" && cmp -s "$ix_tmp/want" "$ix_tmp/out"; then
		pass "index-report-ignored:stale" "$(cut -c1-100 "$ix_tmp/err")"
	else
		fail "index-report-ignored:stale" "exit $rc, stderr: $(head -n 2 "$ix_tmp/err")"
	fi

	# damaged data under a fresh index: what the run without the index says
	# ix_same_err NAME ARGS...: dirreport ARGS -i DIR/w.data and -i DIR/n.data (the
	# copy without the index) agree on the exit status, stdout and stderr
	ix_same_err() {
		_n=$1
		shift
		run "$ix_tmp/want" "$ix_tmp/wanterr" "$ix_rep" "$@" -i "$ix_tmp/dmg/n.data"
		_wrc=$rc
		run "$ix_tmp/out" "$ix_tmp/err" "$ix_rep" "$@" -i "$ix_tmp/dmg/w.data"
		crashed "$_n" "$ix_tmp/err" && return
		sed 's#/n\.data#/w.data#g' "$ix_tmp/wanterr" >"$ix_tmp/wanterr.s"
		sed 's#/n\.data#/w.data#g' "$ix_tmp/want" >"$ix_tmp/want.s"
		mv "$ix_tmp/want.s" "$ix_tmp/want"
		if [ "$rc" -ne "$_wrc" ]; then
			fail "$_n" "exit $rc, without the index $_wrc: $(head -n 1 "$ix_tmp/err")"
		elif ! cmp -s "$ix_tmp/wanterr.s" "$ix_tmp/err"; then
			fail "$_n" "stderr: $(head -n 1 "$ix_tmp/err"), without the index: $(head -n 1 "$ix_tmp/wanterr.s")"
		elif [ "$rc" -eq 0 ] && ! cmp -s "$ix_tmp/want" "$ix_tmp/out"; then
			fail "$_n" "output differs from the run without the index"
		else
			pass "$_n" "exit $rc $(head -n 1 "$ix_tmp/err" | cut -c1-80)"
		fi
	}
	# ix_damage KIND SRC: w.data (indexed, then damaged) and n.data (the same, no index)
	ix_damage() {
		rm -rf "$ix_tmp/dmg"
		mkdir -p "$ix_tmp/dmg"
		cp -Rp "$2" "$ix_tmp/dmg/w.data"
		if [ "$1" = cut ]; then
			truncate -s 12800 "$ix_tmp/dmg/w.data/data.1"
			"$ix_conv" --index "$ix_tmp/dmg/w.data" --index-interval 4096 >/dev/null 2>&1
		elif [ "$1" = bytes ]; then
			"$ix_conv" --index "$ix_tmp/dmg/w.data" --index-interval 4096 >/dev/null 2>&1
			printf '\077\000' | dd of="$ix_tmp/dmg/w.data/data.1" bs=1 seek=376 \
				conv=notrunc 2>/dev/null
			touch -r "$2/data.1" "$ix_tmp/dmg/w.data/data.1"
		elif [ "$1" = size ]; then
			"$ix_conv" --index "$ix_tmp/dmg/w.data" --index-interval 4096 >/dev/null 2>&1
			printf '\377\377' | dd of="$ix_tmp/dmg/w.data/data.1" bs=1 seek=6 \
				conv=notrunc 2>/dev/null
			touch -r "$2/data.1" "$ix_tmp/dmg/w.data/data.1"
		else	# unfinished: a single file with data size 0, cut after its data
			rm -rf "$ix_tmp/dmg/w.data"
			cp -p "$2" "$ix_tmp/dmg/w.data"
			# shellcheck disable=SC2046
			set -- $(od -An -tu8 -j40 -N16 "$2")
			truncate -s $(($1 + $2)) "$ix_tmp/dmg/w.data"
			printf '\000\000\000\000\000\000\000\000' |
				dd of="$ix_tmp/dmg/w.data" bs=1 seek=48 conv=notrunc 2>/dev/null
			"$ix_conv" --index "$ix_tmp/dmg/w.data" --index-interval 4096 >/dev/null 2>&1
		fi
		cp -Rp "$ix_tmp/dmg/w.data" "$ix_tmp/dmg/n.data"
		rm -f "$ix_tmp/dmg/n.data/dirindex" "$ix_tmp/dmg/n.data.dirindex" 2>/dev/null
		[ -s "$ix_tmp/dmg/w.data/dirindex" ] || [ -s "$ix_tmp/dmg/w.data.dirindex" ] ||
			fail "index-damaged:$1" "no index was made"
	}
	for ix_kind in cut bytes size unfinished; do
		if [ "$ix_kind" = unfinished ]; then
			ix_damage "$ix_kind" "$ix_root/samples/plain.data"
		else
			ix_damage "$ix_kind" "$ix_root/samples/threads.data"
		fi
		ix_same_err "index-damaged:$ix_kind:stdio" --stdio
		ix_same_err "index-damaged:$ix_kind:-j1" -j 1 --stdio
		ix_same_err "index-damaged:$ix_kind:dump" -D
		# a --time slice does not read the samples it leaves out: damage there
		# (bytes) goes unseen, the rest is the same
		[ "$ix_kind" = bytes ] ||
			ix_same_err "index-damaged:$ix_kind:time" --stdio --time 345.5,
	done

	# usage
	run "$ix_tmp/out" "$ix_tmp/err" "$ix_conv" --index "$ix_root/samples/pipe.data"
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$ix_tmp/err")" -eq 1 ] &&
	   [ ! -e "$ix_root/samples/pipe.data.dirindex" ]; then
		pass "index-usage:pipe" "$(head -n 1 "$ix_tmp/err")"
	else
		fail "index-usage:pipe" "exit $rc: $(head -n 2 "$ix_tmp/err")"
		rm -f "$ix_root/samples/pipe.data.dirindex"
	fi
	run "$ix_tmp/out" "$ix_tmp/err" "$ix_conv" --index "$ix_tmp/plain.data" \
		--to-json "$ix_tmp/x.json"
	if [ "$rc" -eq 2 ]; then pass "index-usage:with-mode"; else
		fail "index-usage:with-mode" "exit $rc"; fi
fi

if [ -n "$ix_standalone" ]; then
	suite_summary
fi
