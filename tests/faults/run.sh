#!/bin/sh
# tests/faults/run.sh - inputs that change or never end, outputs that must not be
# clobbered (issue 44).
#
#   BUILD=build sh tests/faults/run.sh       standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/faults/run.sh                    from tests/run-cli-tests.sh
#
# changed    a file (and a directory's data.1) cut to 0, 1/4, 1/2 and 3/4 of its length
#            between the scan pass and the delivery (DIRREPORT_TEST_PAUSE, a FIFO the
#            session waits on there): dirreport --stdio and -D, dirscript, dirconvert
#            --to-sqlite at -j 1 and -j 2 exit 1 with one line "changed while being
#            read", no signal, no output file
# endless    /dev/zero as input (a path, standard input) and an endless stream past
#            DIRREPORT_SPOOL_MAX: exit 1 at once, one line, nothing spooled
# same-input an output that is the input (the path, a link to it, the input
#            directory's data file), with and without -f: refused, the input intact
# special    a character device, a FIFO and a link to standard output as outputs:
#            written through, never replaced
# concurrent two dirscript runs writing one flame graph and one speedscope file:
#            each finished file is whole (valid XML / JSON)
# full       a full disk (/dev/full behind a link): one line with the errno text
# index-empty  a directory with an empty data.N (perf record --threads, one cut to 0
#            bytes; --to-dir --split 4 of a small recording; --split cpu of a perf
#            record -C 1 recording): dirconvert --index, then --stats and a --time
#            slice answer from the index, no warning
# modes      recordings, indexes and databases are created 0600 (umask 022), JSON
#            0644; a stricter umask (077) is kept

ft_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$ft_root/tests/faults/run.sh" ] || ft_root=$(pwd)

ft_standalone=
if ! command -v pass >/dev/null 2>&1; then
	ft_standalone=1
	cd "$ft_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, suite_standalone
	suite_standalone faults
fi

echo "-- faults (tests/faults)"
ft_bin=$(cd "$ft_root/$BUILD" 2>/dev/null && pwd)
ft_rep=$ft_bin/dirreport
ft_conv=$ft_bin/dirconvert
ft_script=$ft_bin/dirscript
ft_tmp=$tmp/faults
rm -rf "$ft_tmp"
mkdir -p "$ft_tmp"
ft_cache=$ft_root/samples/buildid-cache

# ft_one NAME: after a run, exit 1 and exactly one line on stderr matching $ft_want
ft_one() {
	crashed "$1" "$ft_tmp/err" && return 1
	if [ "$rc" -ne 1 ]; then
		fail "$1" "exit $rc, want 1: $(head -n 1 "$ft_tmp/err")"
	elif [ "$(wc -l <"$ft_tmp/err")" -ne 1 ]; then
		fail "$1" "want one line on stderr: $(head -n 3 "$ft_tmp/err" | tr '\n' '|')"
	elif ! grep -q -e "$ft_want" "$ft_tmp/err"; then
		fail "$1" "want '$ft_want': $(cat "$ft_tmp/err")"
	else
		return 0
	fi
	return 1
}

# ft_cut NAME FILE SIZE CMD...: run CMD; when it pauses after its scan pass
# (DIRREPORT_TEST_PAUSE), cut FILE to SIZE bytes, let it go on; sets $rc
ft_cut() {
	_n=$1 _f=$2 _size=$3
	shift 3
	_fifo=$ft_tmp/pause
	rm -f "$_fifo" "$ft_tmp/rc"
	mkfifo "$_fifo"
	(
		DIRREPORT_TEST_PAUSE=$_fifo timeout "$TIMEOUT" "$@" >"$ft_tmp/out" \
			2>"$ft_tmp/err" </dev/null
		echo $? >"$ft_tmp/rc"
		echo end >"$_fifo"
	) &
	read -r _what <"$_fifo"
	if [ "$_what" = paused ]; then
		truncate -s "$_size" "$_f"
		: >"$_fifo"
		read -r _what <"$_fifo"
	else
		echo "    $_n: never paused after the scan pass" >"$ft_tmp/never"
	fi
	wait
	rc=$(cat "$ft_tmp/rc")
}

# --- changed: a file cut while it is read -------------------------------------
ft_want='changed while being read'
ft_src=$ft_root/samples/dwarf.data
ft_dir=$ft_root/samples/threads.data
for ft_in in file dir; do
	if [ $ft_in = file ]; then
		ft_len=$(wc -c <"$ft_src")
	else
		ft_len=$(wc -c <"$ft_dir/data.1")
	fi
	for ft_q in 0 1 2 3; do
		ft_size=$((ft_len * ft_q / 4))
		for ft_j in 1 2; do
			for ft_mode in stdio dump script sqlite; do
				ft_n=changed:$ft_in:$ft_mode:cut$ft_q/4:-j$ft_j
				rm -rf "$ft_tmp/in" "$ft_tmp/out.db" "$ft_tmp/out.db.tmp" "$ft_tmp/never"
				if [ $ft_in = file ]; then
					cp "$ft_src" "$ft_tmp/in"
					ft_victim=$ft_tmp/in
				else
					cp -R "$ft_dir" "$ft_tmp/in"
					ft_victim=$ft_tmp/in/data.1
				fi
				case $ft_mode in
				stdio) set -- "$ft_rep" --stdio ;;
				dump) set -- "$ft_rep" -D ;;
				script) set -- "$ft_script" ;;
				sqlite) set -- "$ft_conv" --to-sqlite "$ft_tmp/out.db" ;;
				esac
				ft_cut "$ft_n" "$ft_victim" "$ft_size" "$@" -j "$ft_j" \
					--buildid-dir "$ft_cache" -i "$ft_tmp/in"
				if [ -e "$ft_tmp/never" ]; then
					fail "$ft_n" "$(cat "$ft_tmp/never")"
				elif ! ft_one "$ft_n"; then
					:
				elif [ -e "$ft_tmp/out.db" ]; then
					fail "$ft_n" "the database was written"
				else
					pass "$ft_n"
				fi
			done
		done
	done
done

# --- endless: streams that never end ------------------------------------------
# ft_stream NAME CMD...: CMD with the stream ft_feed writes on its standard input,
# its files limited to 100 MB and its time to 20 s (the old spooling filled the disk)
ft_stream() {
	_n=$1
	shift
	(
		ulimit -f 200000 2>/dev/null
		ft_feed | timeout 20 "$@" >"$ft_tmp/out" 2>"$ft_tmp/err"
	)
	rc=$?
	ft_one "$_n" && pass "$_n" "$(cut -c1-90 "$ft_tmp/err")"
}
ft_want='bad magic'
ft_feed() { :; }
ft_stream endless:dev-zero-path "$ft_rep" -i /dev/zero --stdio
ft_feed() { cat /dev/zero; }
ft_stream endless:dev-zero-stdin:dirscript "$ft_script" -i -
ft_stream endless:dev-zero-stdin:dirreport "$ft_rep" -i - --stdio
ft_stream endless:dev-zero-stdin:dirconvert "$ft_conv" -i - --to-json "$ft_tmp/z.json"
ft_want='longer than the 1000000 bytes it may be spooled (DIRREPORT_SPOOL_MAX)'
ft_feed() { cat "$ft_root/samples/pipe.data" /dev/zero; }
ft_stream endless:spool-limit env DIRREPORT_SPOOL_MAX=1000000 "$ft_rep" -i - --stdio

# --- same-input: an output that is the input ------------------------------------
# ft_refused NAME CMD...: exit 1, one line "is the input", the input unchanged
ft_refused() {
	_n=$1
	shift
	run "$ft_tmp/out" "$ft_tmp/err" "$@"
	if ft_one "$_n"; then
		if cmp -s "$ft_tmp/x.data" "$ft_root/samples/callchain.data" &&
		   cmp -s "$ft_tmp/d/data.0" "$ft_root/samples/threads.data/data.0"; then
			pass "$_n"
		else
			fail "$_n" "the input was changed"
		fi
	fi
	cp "$ft_root/samples/callchain.data" "$ft_tmp/x.data"
	rm -rf "$ft_tmp/d" && cp -R "$ft_root/samples/threads.data" "$ft_tmp/d"
}
ft_want='is the input: refusing to write over it'
cp "$ft_root/samples/callchain.data" "$ft_tmp/x.data"
rm -rf "$ft_tmp/d" && cp -R "$ft_root/samples/threads.data" "$ft_tmp/d"
ln -sf x.data "$ft_tmp/x.link"
ft_x=$ft_tmp/x.data
ft_refused same-input:flamegraph "$ft_script" -i "$ft_x" --flamegraph "$ft_x"
ft_refused same-input:speedscope "$ft_script" -i "$ft_x" --speedscope "$ft_x"
ft_refused same-input:flamegraph-link "$ft_script" -i "$ft_x" --flamegraph "$ft_tmp/x.link"
ft_refused same-input:flamegraph-dir-data "$ft_script" -i "$ft_tmp/d" --flamegraph "$ft_tmp/d/data.0"
ft_refused same-input:to-sqlite "$ft_conv" -i "$ft_x" --to-sqlite "$ft_x"
ft_refused same-input:to-sqlite-f "$ft_conv" -i "$ft_x" --to-sqlite "$ft_x" -f
ft_refused same-input:to-json-f "$ft_conv" -i "$ft_x" --to-json "$ft_x" -f
ft_refused same-input:to-json-link-f "$ft_conv" -i "$ft_x" --to-json "$ft_tmp/x.link" -f
ft_refused same-input:to-file-f "$ft_conv" -i "$ft_x" --to-file "$ft_x" -f
ft_refused same-input:to-dir-f "$ft_conv" -i "$ft_tmp/d" --to-dir "$ft_tmp/d" -f
ft_refused same-input:dir-data-to-json-f "$ft_conv" -i "$ft_tmp/d" --to-json "$ft_tmp/d/data.0" -f
run "$ft_tmp/out" "$ft_tmp/err" sh -c \
	'"$1" -i - --to-json "$2" -f <"$2"' sh "$ft_conv" "$ft_x"
ft_one same-input:stdin-to-json-f && { cmp -s "$ft_x" "$ft_root/samples/callchain.data" &&
	pass same-input:stdin-to-json-f || fail same-input:stdin-to-json-f "the input was changed"; }
cp "$ft_root/samples/callchain.data" "$ft_x"

# --- special: devices, FIFOs, links to standard output ---------------------------
# a character device of our own (root), else a link to /dev/null: written through,
# still there afterwards
rm -f "$ft_tmp/null"
mknod "$ft_tmp/null" c 1 3 2>/dev/null || ln -s /dev/null "$ft_tmp/null"
for ft_case in flamegraph speedscope json; do
	ft_n=special:chardev:$ft_case
	case $ft_case in
	json) set -- "$ft_conv" -i "$ft_x" --to-json "$ft_tmp/null" -f ;;
	*) set -- "$ft_script" -i "$ft_x" --$ft_case "$ft_tmp/null" ;;
	esac
	run "$ft_tmp/out" "$ft_tmp/err" "$@"
	crashed "$ft_n" "$ft_tmp/err" && continue
	if [ "$rc" -ne 0 ]; then
		fail "$ft_n" "exit $rc: $(head -n 1 "$ft_tmp/err")"
	elif [ ! -c "$ft_tmp/null" ]; then
		fail "$ft_n" "the device was replaced"
	else
		pass "$ft_n"
	fi
done
ft_want='is not a regular file: refusing to replace it'
for ft_case in to-sqlite to-file; do
	run "$ft_tmp/out" "$ft_tmp/err" "$ft_conv" -i "$ft_x" --$ft_case "$ft_tmp/null" -f
	ft_one "special:chardev:$ft_case" && { [ -c "$ft_tmp/null" ] &&
		pass "special:chardev:$ft_case" ||
		fail "special:chardev:$ft_case" "the device was replaced"; }
done
# a FIFO: what is written comes out of it
for ft_case in flamegraph speedscope json; do
	ft_n=special:fifo:$ft_case
	rm -f "$ft_tmp/fifo" "$ft_tmp/got"
	mkfifo "$ft_tmp/fifo"
	timeout 20 cat "$ft_tmp/fifo" >"$ft_tmp/got" &
	case $ft_case in
	json) set -- "$ft_conv" -i "$ft_x" --to-json "$ft_tmp/fifo" -f ;;
	*) set -- "$ft_script" -i "$ft_x" --$ft_case "$ft_tmp/fifo" ;;
	esac
	run "$ft_tmp/out" "$ft_tmp/err" "$@"
	wait
	crashed "$ft_n" "$ft_tmp/err" && continue
	if [ "$rc" -ne 0 ]; then
		fail "$ft_n" "exit $rc: $(head -n 1 "$ft_tmp/err")"
	elif [ ! -p "$ft_tmp/fifo" ]; then
		fail "$ft_n" "the FIFO was replaced"
	elif [ "$(wc -c <"$ft_tmp/got")" -lt 100 ]; then
		fail "$ft_n" "nothing came out of the FIFO"
	else
		pass "$ft_n"
	fi
done
# a link to /proc/self/fd/1: standard output gets it, the link stays
ln -sf /proc/self/fd/1 "$ft_tmp/stdout"
for ft_case in flamegraph speedscope json; do
	ft_n=special:link-to-stdout:$ft_case
	case $ft_case in
	json) set -- "$ft_conv" -i "$ft_x" --to-json "$ft_tmp/stdout" -f ;;
	*) set -- "$ft_script" -i "$ft_x" --$ft_case "$ft_tmp/stdout" ;;
	esac
	run "$ft_tmp/out" "$ft_tmp/err" "$@"
	crashed "$ft_n" "$ft_tmp/err" && continue
	if [ "$rc" -ne 0 ]; then
		fail "$ft_n" "exit $rc: $(head -n 1 "$ft_tmp/err")"
	elif [ ! -L "$ft_tmp/stdout" ]; then
		fail "$ft_n" "the link was replaced"
	elif [ "$(wc -c <"$ft_tmp/out")" -lt 100 ]; then
		fail "$ft_n" "nothing on standard output"
	else
		pass "$ft_n"
	fi
done
# a link to a regular file: the file is replaced, the link stays
echo old >"$ft_tmp/target.svg"
ln -sf target.svg "$ft_tmp/link.svg"
run "$ft_tmp/out" "$ft_tmp/err" "$ft_script" -i "$ft_x" --flamegraph "$ft_tmp/link.svg"
if crashed special:link-to-file "$ft_tmp/err"; then
	:
elif [ "$rc" -ne 0 ] || [ ! -L "$ft_tmp/link.svg" ] ||
     ! grep -q '<svg' "$ft_tmp/target.svg"; then
	fail special:link-to-file "exit $rc; want the link kept and its target written"
else
	pass special:link-to-file
fi

# --- concurrent: temporary files of their own -------------------------------------
# the old temporary name, OUT.tmp, made a link to a file that is not ours: never
# opened (it was truncated through the link)
for ft_case in flamegraph speedscope; do
	ft_n=concurrent:tmp-exclusive:$ft_case
	echo keep >"$ft_tmp/victim"
	rm -f "$ft_tmp/cc.out" "$ft_tmp/cc.out.tmp"
	ln -s victim "$ft_tmp/cc.out.tmp"
	run "$ft_tmp/out" "$ft_tmp/err" "$ft_script" -i "$ft_x" --$ft_case "$ft_tmp/cc.out"
	crashed "$ft_n" "$ft_tmp/err" && continue
	if [ "$rc" -ne 0 ] || [ "$(cat "$ft_tmp/victim")" != keep ]; then
		fail "$ft_n" "exit $rc; want the file behind OUT.tmp untouched"
	else
		pass "$ft_n"
	fi
done
rm -f "$ft_tmp/cc.out.tmp"
# two runs at once, four times: both exit 0, the file is whole, no temporary left
for ft_case in flamegraph speedscope; do
	ft_n=concurrent:two-runs:$ft_case
	ft_bad=
	for ft_k in 1 2 3 4; do
		rm -f "$ft_tmp/cc.out"
		"$ft_script" -i "$ft_x" --$ft_case "$ft_tmp/cc.out" 2>"$ft_tmp/err1" &
		"$ft_script" -i "$ft_x" --$ft_case "$ft_tmp/cc.out" 2>"$ft_tmp/err2"
		ft_rc2=$?
		wait $! || ft_bad="a run failed: $(cat "$ft_tmp/err1")"
		[ "$ft_rc2" -eq 0 ] || ft_bad="a run failed: $(cat "$ft_tmp/err2")"
		if [ $ft_case = flamegraph ]; then
			xmllint --noout "$ft_tmp/cc.out" 2>/dev/null || ft_bad="not valid XML"
		else
			python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
				"$ft_tmp/cc.out" 2>/dev/null || ft_bad="not valid JSON"
		fi
		[ "$(ls "$ft_tmp" | grep -c '^cc\.out.')" -eq 0 ] || ft_bad="a temporary file left"
	done
	if [ -n "$ft_bad" ]; then fail "$ft_n" "$ft_bad"; else pass "$ft_n"; fi
done

# --- full: one line with the errno's text -----------------------------------------
ln -sf /dev/full "$ft_tmp/full"
ft_want='full: write: No space left on device$'
run "$ft_tmp/out" "$ft_tmp/err" "$ft_script" -i "$ft_x" --flamegraph "$ft_tmp/full"
ft_one full:flamegraph && pass full:flamegraph
run "$ft_tmp/out" "$ft_tmp/err" "$ft_script" -i "$ft_x" --speedscope "$ft_tmp/full"
ft_one full:speedscope && pass full:speedscope
run "$ft_tmp/out" "$ft_tmp/err" "$ft_conv" -i "$ft_x" --to-json "$ft_tmp/full" -f
ft_one full:to-json && pass full:to-json

# --- index: directories with empty data.N files ---------------------------------
# ft_indexed NAME DIR: dirconvert --index DIR, then --stats and a --time slice answer
# from the index: exit 0, no warning, the session started from it
ft_indexed() {
	run "$ft_tmp/out" "$ft_tmp/err" "$ft_conv" --index "$2"
	if [ "$rc" -ne 0 ]; then
		fail "$1" "--index: exit $rc: $(head -n 1 "$ft_tmp/err")"
		return
	fi
	for _j in 1 2; do
		run "$ft_tmp/out" "$ft_tmp/err" "$ft_rep" -j $_j --stats -i "$2"
		crashed "$1:stats:-j$_j" "$ft_tmp/err" && continue
		if [ "$rc" -ne 0 ] || [ -s "$ft_tmp/err" ]; then
			fail "$1:stats:-j$_j" "exit $rc: $(head -n 1 "$ft_tmp/err")"
		else
			pass "$1:stats:-j$_j"
		fi
		run "$ft_tmp/out" "$ft_tmp/err" env DIRREPORT_IO_STATS=1 "$ft_rep" -j $_j \
			--stdio --time 0%-50% -i "$2"
		crashed "$1:time:-j$_j" "$ft_tmp/err" && continue
		if [ "$rc" -ne 0 ] || grep -q warning "$ft_tmp/err" ||
		   ! grep -q 'started from the index' "$ft_tmp/err"; then
			fail "$1:time:-j$_j" "exit $rc: $(head -n 1 "$ft_tmp/err")"
		else
			pass "$1:time:-j$_j"
		fi
	done
}
rm -rf "$ft_tmp/ix"
mkdir -p "$ft_tmp/ix"
# a perf record --threads directory, one data.N cut to 0 bytes
cp -R "$ft_root/samples/threads.data" "$ft_tmp/ix/threads"
: >"$ft_tmp/ix/threads/data.1"
ft_indexed index-empty:threads-data.1-empty "$ft_tmp/ix/threads"
# --to-dir --split 4 of a small recording: three of four files empty
"$ft_conv" -i "$ft_x" --to-dir "$ft_tmp/ix/split4" --split 4 2>"$ft_tmp/err" ||
	fail index-empty:split4 "$(head -n 1 "$ft_tmp/err")"
ft_indexed index-empty:split4 "$ft_tmp/ix/split4"
# --split cpu of a perf record -C 1 recording: data.0 empty
if perf record -q -C 1 -o "$ft_tmp/ix/c1.data" -- sleep 0.2 >/dev/null 2>&1; then
	"$ft_conv" -i "$ft_tmp/ix/c1.data" --to-dir "$ft_tmp/ix/splitcpu" --split cpu \
		2>"$ft_tmp/err" || fail index-empty:split-cpu "$(head -n 1 "$ft_tmp/err")"
	ft_indexed index-empty:split-cpu "$ft_tmp/ix/splitcpu"
else
	skip index-empty:split-cpu "perf record -C 1 does not run here"
fi

# --- modes: perf's 0600 for recordings, indexes and databases ----------------------
# ft_mode NAME PATH WANT: PATH's permission bits are WANT (e.g. 600)
ft_mode() {
	_got=$(stat -c %a "$2" 2>/dev/null)
	if [ "$_got" = "$3" ]; then pass "$1"; else fail "$1" "mode ${_got:-missing}, want $3"; fi
}
for ft_um in 022 077; do
	rm -rf "$ft_tmp/m"
	mkdir "$ft_tmp/m"
	(
		umask $ft_um
		"$ft_conv" -i "$ft_x" --to-sqlite "$ft_tmp/m/db" &&
		"$ft_conv" -i "$ft_x" --to-file "$ft_tmp/m/f.data" &&
		"$ft_conv" -i "$ft_x" --to-dir "$ft_tmp/m/dir" &&
		"$ft_conv" --index "$ft_tmp/m/f.data" &&
		"$ft_conv" -i "$ft_x" --to-json "$ft_tmp/m/j.json" &&
		"$ft_script" -i "$ft_x" --flamegraph "$ft_tmp/m/f.svg"
	) >/dev/null 2>"$ft_tmp/err" || fail "modes:umask$ft_um" "$(head -n 1 "$ft_tmp/err")"
	ft_mode "modes:umask$ft_um:to-sqlite" "$ft_tmp/m/db" 600
	ft_mode "modes:umask$ft_um:to-file" "$ft_tmp/m/f.data" 600
	ft_mode "modes:umask$ft_um:to-dir" "$ft_tmp/m/dir" 700
	ft_mode "modes:umask$ft_um:to-dir-data" "$ft_tmp/m/dir/data" 600
	ft_mode "modes:umask$ft_um:to-dir-data.0" "$ft_tmp/m/dir/data.0" 600
	ft_mode "modes:umask$ft_um:to-dir-index" "$ft_tmp/m/dir/dirindex" 600
	ft_mode "modes:umask$ft_um:index" "$ft_tmp/m/f.data.dirindex" 600
	if [ $ft_um = 022 ]; then ft_w=644; else ft_w=600; fi
	ft_mode "modes:umask$ft_um:to-json" "$ft_tmp/m/j.json" $ft_w
	ft_mode "modes:umask$ft_um:flamegraph" "$ft_tmp/m/f.svg" $ft_w
done

if [ -n "$ft_standalone" ]; then
	suite_summary
	exit $?
fi
