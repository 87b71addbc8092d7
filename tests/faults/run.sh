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

if [ -n "$ft_standalone" ]; then
	suite_summary
	exit $?
fi
