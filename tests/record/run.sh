#!/bin/sh
# tests/record/run.sh - dirrecord (record/main.c): recordings of real workloads made
# during the run, read by perf 6.1 and by dirreport, and its command line.
#
#   BUILD=build sh tests/record/run.sh       standalone: PASS/FAIL/SKIP lines, then
#                                            "N passed, N failed[, N skipped]"
#   . tests/record/run.sh                    from tests/run-cli-tests.sh
#
# Needs perf events (root, or perf_event_paranoid low enough); dirrecord falls back to
# cpu-clock where the cpu has no PMU. The comparisons with perf SKIP where perf 6.1 is
# not installed; what dirreport and dirscript read of the recordings is checked anyway.
#
# usage      bad command lines: exit 2, nothing on stdout, one stderr line
#            "dirrecord: WHAT; see 'dirrecord --help'"; --help: the usage, exit 0
# busy       `-F 1000` of a busy loop that ends after 1 s of cpu time (sh counting,
#            its /proc/PID/stat read every few thousand counts): exit 0,
#            950..1050 samples (1000 expected: within 5 %), `perf report
#            --stdio` exits 0, --header-only shows hostname, os release, version,
#            arch, nrcpus, cpudesc, cpuid, total memory, cmdline, the event, the
#            sample times and the pmu mappings, `perf
#            buildid-list` the running kernel's build-id and a file the loop ran in;
#            dirreport --stdio and --header-only print what perf report prints
#            (perf's tip block removed, as tests/run-cli-tests.sh's live cases)
# callchain  -g: perf script (dirscript without perf) prints frames; dirreport's
#            children view equals perf's; --call-graph dwarf,4096: frames unwound
# groups     -e 'page-faults,{cpu-clock,task-clock}' -e 'grp{...}': perf evlist -g
#            shows the groups (GROUP_DESC), dirreport's report and header equal perf's
# system     -a -g with sleep 1: exit 0, samples on every cpu, the synthesized kernel
#            map, a COMM of pid 1, THREAD_MAP, CPU_MAP and FINISHED_ROUNDs (dirreport -D); dirreport --stdio
#            --sort comm,dso equals perf's (not by symbol: perf may read a module's
#            symbols from its .ko, a known difference); -C 0: samples on cpu 0 only
# status     the command's exit status (0, 3), 127 and one line for a command that
#            cannot run (no file left), an existing output renamed FILE.old; a process,
#            a thread or a cpu that is not there, an output that cannot be made: exit
#            1 and one line
# signals    -a without a command: SIGINT ends it, exit 0, a readable recording;
#            a command: SIGTERM stops it and the command, exit 0; -p PID and -t TID:
#            the recording ends by itself when the process exits
# lost       -m 1 -a -g -F 20000: the LOST records' counts add up to the closing
#            warning's; dirreport's report (Total Lost Samples: the LOST_SAMPLES
#            records) equals perf's
# hardware   -e instructions: recorded where the cpu has a PMU, else exit 1 and one
#            line saying the hardware event is not supported
# index      the index dirrecord writes (FILE.dirindex, DIR/dirindex): dirreport --stats
#            warns nothing, reads no records (DIRREPORT_IO_STATS) and equals --stats
#            on a copy without the index; it is byte for byte what dirconvert --index
#            makes of a copy; dirreport --stdio starts from it (not -z: compressed
#            files have no scan facts); a data file touched: "index ignored", the
#            same output (the busy file, each directory, -z, snapshots)
# threads    --threads, --threads=core, --threads=package of the busy loop: a
#            directory of data, data.0 .. data.(ncpu-1) and dirindex, perf's header
#            says "directory data version : 1", 950..1050 samples, perf report --stdio
#            and --header-only equal dirreport's (the PASS line names how many reader
#            threads the spec makes here); -a --threads; a running dirrecord has a
#            thread per mask and the main one (--threads=cpu, =package); DIR.old
#            replaced as perf replaces it; bad and overlapping masks
# aio        --aio[=N] (io_uring writes): a file and a --threads directory of -a -g,
#            each also with -z: perf report's answer is dirreport's; io_uring_setup
#            failing (a seccomp filter: ENOSYS, EPERM): one warning, plain writes
# full-disk  a 2 MiB tmpfs filled by -a -g (a file, a directory; -z on 512 KiB and
#            1 MiB; --aio=2 of each): one line, exit 1, the kept recording perf's
#            report (flat) and dirreport's alike
# compress   -z: smaller than the busy file without it, perf's "compressed : Zstd,
#            level = 1", report and header equal perf's; --threads -z5 too; the
#            closing line "compressed (original N MB, ratio is R)" as perf's
# snapshot   -M 8K, a workload pinned to cpu 0 running perl (phase A, 1 s) then
#            python3 (phase B), two SIGUSR2s 1.2 s into B: the report has python3 and
#            no perl, equals perf's, more python3 samples than one drain holds; no SIGUSR2: no SAMPLE in --stats, perf says "has
#            no samples"; the same under --threads
# permission as nobody (setpriv or runuser; root only): -a is one line naming
#            /proc/sys/kernel/perf_event_paranoid, exit 1; a command at paranoid 2
#            is recorded without the kernel, with one warning

rd_root=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -f "$rd_root/tests/record/run.sh" ] || rd_root=$(pwd)

rd_standalone=
if ! command -v pass >/dev/null 2>&1; then
	rd_standalone=1
	cd "$rd_root" || exit 2
	. tests/lib.sh	# pass, skip, fail, run, crashed, strip_tip, have_perf
	suite_standalone record --no-samples	# nothing here reads samples/
fi

echo "-- dirrecord (tests/record)"
rd_bin=$(cd "$rd_root/$BUILD" 2>/dev/null && pwd)
rd_rec=$rd_bin/dirrecord
rd_rep=$rd_bin/dirreport
rd_conv=$rd_bin/dirconvert
rd_scr=$rd_bin/dirscript
rd_tmp=$tmp/record
rm -rf "$rd_tmp"
mkdir -p "$rd_tmp/home"
# fresh recordings of this machine: no samples' build-id cache for perf or dirreport
rd_home_saved=$HOME
HOME=$rd_tmp/home
export HOME

# rd_usage NAME ARGS...: exit 2, no stdout, one stderr line of the usage form
rd_usage() {
	_n=record:usage:$1
	shift
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" "$@"
	crashed "$_n" "$rd_tmp/err" && return
	if [ "$rc" -ne 2 ]; then
		fail "$_n" "exit $rc, want 2"
	elif [ -s "$rd_tmp/out" ]; then
		fail "$_n" "stdout not empty"
	elif [ "$(wc -l <"$rd_tmp/err")" -ne 1 ] ||
	     ! grep -q "^dirrecord: .*; see 'dirrecord --help'\$" "$rd_tmp/err"; then
		fail "$_n" "stderr is not one usage line: $(head -n 2 "$rd_tmp/err")"
	else
		pass "$_n"
	fi
}

# rd_samples FILE: the number of samples (dirscript's lines: one per sample; dirreport
# rounds its "# Samples:" count to thousands, as perf does)
rd_samples() {
	"$rd_scr" -F tid -i "$1" 2>/dev/null | wc -l | tr -d ' '
}

# rd_same NAME FILE ARGS...: perf report ARGS -i FILE and dirreport ARGS -i FILE print
# the same (tip block removed), both exit 0
rd_same() {
	_rn=$1 _f=$2
	shift 2
	if [ -z "$have_perf" ]; then
		skip "$_rn" "$perf_why"
		return
	fi
	run "$rd_tmp/pout" "$rd_tmp/perr" perf report "$@" -i "$_f"
	_prc=$rc
	strip_tip "$rd_tmp/pout" "$rd_tmp/want"
	run "$rd_tmp/dout" "$rd_tmp/derr" "$rd_rep" --perf-compat "$@" -i "$_f"
	crashed "$_rn" "$rd_tmp/derr" && return
	strip_tip "$rd_tmp/dout" "$rd_tmp/got"
	if [ "$_prc" -ne 0 ]; then
		fail "$_rn" "perf report exit $_prc: $(head -n 1 "$rd_tmp/perr")"
	elif [ "$rc" -ne 0 ]; then
		fail "$_rn" "dirreport exit $rc: $(head -n 1 "$rd_tmp/derr")"
	elif ! cmp -s "$rd_tmp/want" "$rd_tmp/got"; then
		fail "$_rn" "dirreport differs from perf report" "$rd_tmp/want" "$rd_tmp/got"
	else
		pass "$_rn"
	fi
}

# rd_record NAME ARGS...: dirrecord -q ARGS; sets $rc; FAIL (status 1) on a crash or
# anything on stderr
rd_record() {
	_n=$1
	shift
	run "$rd_tmp/rout" "$rd_tmp/rerr" "$rd_rec" -q "$@"
	crashed "$_n" "$rd_tmp/rerr" && return 1
	if [ -s "$rd_tmp/rerr" ]; then
		fail "$_n" "stderr: $(head -n 1 "$rd_tmp/rerr")"
		return 1
	fi
	return 0
}

# --- usage --------------------------------------------------------------------------------
rd_usage unknown-option --bogus true
rd_usage no-target
rd_usage freq-not-number -F many true
rd_usage freq-and-count -F 100 -c 1000 true
rd_usage unknown-event -e no-such-event true
rd_usage event-modifier -e cpu-clock:u true
rd_usage bad-cpu-list -C 3-1 true
rd_usage bad-pid -p abc
rd_usage pid-and-tid -p 1 -t 1
rd_usage bad-mmap-pages -m 0 true
rd_usage bad-call-graph --call-graph lbr true
rd_usage missing-argument -o
rd_usage pipe-output -o - true
rd_usage aio-not-number --aio=two true
run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" --help
if [ "$rc" -eq 0 ] && [ ! -s "$rd_tmp/err" ] && head -n 1 "$rd_tmp/out" | grep -q '^usage: dirrecord '; then
	pass record:usage:--help
else
	fail record:usage:--help "exit $rc"
fi

# the usage's synopsis is the manual's (every --help option in the manual: tests/cli)
sed -n '/^## SYNOPSIS/,/^## DESCRIPTION/s/^    //p' "$rd_root/docs/dirrecord.1.md" >"$rd_tmp/synopsis"
sed '/^$/q' "$rd_tmp/out" | sed '$d' >"$rd_tmp/help.synopsis"
if cmp -s "$rd_tmp/synopsis" "$rd_tmp/help.synopsis"; then
	pass record:usage:help-synopsis
else
	fail record:usage:help-synopsis "--help differs from the SYNOPSIS of docs/dirrecord.1.md" \
		"$rd_tmp/synopsis" "$rd_tmp/help.synopsis"
fi

# --- a busy loop at 1000 Hz -----------------------------------------------------------------
rd_busy=$rd_tmp/busy.data
# the loop ends after 1 s of cpu time (its own and its children's, /proc/PID/stat
# fields 14-17 in clock ticks, read past the command name), not of wall time: the
# machine may be shared, and cpu-clock counts only while the loop runs. It starts no
# process (read is the shell's): a short-lived child's inherited counter starts its
# frequency estimate afresh and takes few samples, which made the count depend on
# the machine (650-950 where a `cat` ran each round). Not timeout(1) either: its
# status 124 reads as our own timeout in crashed().
# shellcheck disable=SC2016 # the loop is sh -c's, expanded there
rd_loop='hz=$(getconf CLK_TCK)
while :; do
	i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done
	read -r s </proc/$$/stat
	set -- ${s#*) }
	[ $((${12} + ${13} + ${14} + ${15})) -lt "$hz" ] || break
done'
if rd_record record:busy:record -F 1000 -o "$rd_busy" -- sh -c "$rd_loop"; then
	if [ "$rc" -ne 0 ]; then
		fail record:busy:record "exit $rc"
	else
		pass record:busy:record
	fi
fi
if [ -s "$rd_busy" ]; then
	# 1 s of cpu time sampled 1000 times a second: 1000 samples, give or take the
	# clock-tick accounting and the noise of a CI machine
	rd_n=$(rd_samples "$rd_busy")
	if [ -n "$rd_n" ] && [ "$rd_n" -ge 950 ] && [ "$rd_n" -le 1050 ]; then
		pass record:busy:samples "$rd_n samples"
	else
		fail record:busy:samples "${rd_n:-no} samples, want 950..1050"
	fi
	rd_same record:busy:stdio "$rd_busy" --stdio
	rd_same record:busy:header-only "$rd_busy" --header-only
	# the features as perf prints them (dirreport, which prints them as perf does,
	# where perf 6.1 is not here)
	if [ -n "$have_perf" ]; then
		run "$rd_tmp/out" "$rd_tmp/err" perf report --stdio --header-only -i "$rd_busy"
	else
		run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --header-only -i "$rd_busy"
	fi
	rd_missing=
	for rd_f in 'hostname' 'os release' 'perf version' 'arch' 'nrcpus online' \
		'nrcpus avail' 'cpudesc' 'cpuid' 'total memory' 'cmdline' 'event' \
		'time of first sample' 'pmu mappings'; do
		grep -q "^# $rd_f *: ." "$rd_tmp/out" || rd_missing="$rd_missing '$rd_f'"
	done
	grep -q "^# event : name = cpu-clock\|^# event : name = cycles" "$rd_tmp/out" ||
		rd_missing="$rd_missing 'event name'"
	if [ "$rc" -ne 0 ]; then
		fail record:busy:features "--header-only exit $rc"
	elif [ -n "$rd_missing" ]; then
		fail record:busy:features "missing:$rd_missing"
	else
		pass record:busy:features
	fi
	if [ -n "$have_perf" ]; then
		run "$rd_tmp/out" "$rd_tmp/err" perf buildid-list -i "$rd_busy"
		rd_kid=$(perf buildid-list -k 2>/dev/null)
		if [ "$rc" -ne 0 ]; then
			fail record:busy:build-ids "perf buildid-list exit $rc"
		elif [ -n "$rd_kid" ] && ! grep -q "^$rd_kid \[kernel.kallsyms\]\$" "$rd_tmp/out"; then
			fail record:busy:build-ids "no [kernel.kallsyms] $rd_kid"
		elif ! grep -q '^[0-9a-f]\{40\} /' "$rd_tmp/out"; then
			fail record:busy:build-ids "no file with samples listed"
		else
			pass record:busy:build-ids
		fi
	else
		skip record:busy:build-ids "$perf_why"
	fi
fi

# --- a full disk ---------------------------------------------------------------------------
# A 2 MiB tmpfs that a system-wide recording fills: one line naming the file, the offset
# and the errno text, exit 1, and the recording kept up to its last whole record with
# its header and features (a directory's closing room reserved at its start), which
# perf and dirreport read alike: a file, a --threads directory; each also with -z on a
# 512 KiB tmpfs (its zstd stream cut after the last COMPRESSED record on disk); with
# --aio=2 (writes in flight through io_uring when the disk fills): a file, a directory,
# a directory with -z.
rd_full=$rd_tmp/full
mkdir -p "$rd_full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=2m tmpfs "$rd_full" 2>/dev/null; then
	for rd_mode in file dir file-z dir-z file-aio dir-aio dir-z-aio; do
		rd_n=record:full-disk:$rd_mode
		rd_o=$rd_full/f.data
		rm -rf "$rd_o"
		rd_opt=
		case $rd_mode in
		dir*) rd_opt=--threads ;;
		esac
		case $rd_mode in
		*-aio) rd_opt="$rd_opt --aio=2" ;;
		esac
		# -z: a tenth of the bytes, a longer workload (it ends with the disk full);
		# a directory's files are written 256 KiB at a time, each data.N needs
		# room for that beside `data`'s closing room
		case $rd_mode in
		file-z*) rd_opt="$rd_opt -z" rd_size=512k rd_rounds=60 ;;
		dir-z*) rd_opt="$rd_opt -z" rd_size=1m rd_rounds=60 ;;
		*) rd_size=2m rd_rounds=12 ;;
		esac
		mount -o remount,size=$rd_size "$rd_full"
		# shellcheck disable=SC2086 # $rd_opt: words or none
		run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" -q -N $rd_opt -a -g -F 25000 \
			-o "$rd_o" -- sh -c 'i=0; while [ $i -lt '$rd_rounds' ]; do
				seq 1 300000 | sort -r | md5sum >/dev/null; i=$((i + 1)); done'
		crashed "$rd_n" "$rd_tmp/err" && continue
		if [ "$rc" -ne 1 ]; then
			fail "$rd_n" "exit $rc, want 1"
		elif [ "$(wc -l <"$rd_tmp/err")" -ne 1 ] ||
		     ! grep -q "^dirrecord: $rd_o[^:]*: offset 0x[0-9a-f]*: write: No space left on device\$" \
			"$rd_tmp/err"; then
			fail "$rd_n" "stderr: $(head -n 2 "$rd_tmp/err" | tr '\n' '|')"
		else
			run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stdio -i "$rd_o"
			if [ "$rc" -ne 0 ] || ! grep -q '^# Samples: [1-9]' "$rd_tmp/out"; then
				fail "$rd_n" "the kept recording: dirreport exit $rc, $(head -n 1 "$rd_tmp/err")"
			else
				pass "$rd_n" "$(grep '^# Samples:' "$rd_tmp/out" | head -n 1 | cut -c3-) kept"
				# the same answer as perf's (its split entries merged:
				# tests/golden/equiv.py), where perf runs: the flat report
				# by comm and dso, what the kept records say (the symbols
				# of a system-wide recording's other processes may be
				# aliases perf names otherwise: seen, a compiler's libm;
				# the symbol keys are the goldens' to compare)
				if [ -n "$have_perf" ]; then
					run "$rd_tmp/want" "$rd_tmp/err" perf report --stdio \
						--no-children -g none --sort comm,dso -i "$rd_o"
					run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stdio \
						--no-children -g none --sort comm,dso -i "$rd_o"
					if python3 "$rd_root/tests/golden/equiv.py" "$rd_tmp/want" \
						"$rd_tmp/out" >"$rd_tmp/equiv" 2>&1; then
						pass "$rd_n:stdio" "perf report's answer"
					else
						fail "$rd_n:stdio" "not perf report's answer: $(head -n 2 "$rd_tmp/equiv" | tr '\n' ';')"
					fi
				fi
			fi
		fi
	done
	umount "$rd_full"
else
	skip record:full-disk "no tmpfs to mount here (root)"
fi

# --- -k CLOCKID -----------------------------------------------------------------------------
# perf record -k: use_clockid and the clock on the events, CLOCKID and CLOCK_DATA (the
# reference time) in the header as perf prints them, and samples timed on that clock
# (realtime: seconds since the epoch, not since boot).
rd_k=$rd_tmp/k.data
if rd_record record:clockid:record -k realtime -F 1000 -o "$rd_k" -- sh -c "$rd_loop"; then
	if [ -n "$have_perf" ]; then
		run "$rd_tmp/out" "$rd_tmp/err" perf report --header-only -I -i "$rd_k"
		if grep -q '^# clockid: realtime (0)$' "$rd_tmp/out" &&
		   grep -q '^# reference time: .* (TOD) = .* (realtime)$' "$rd_tmp/out" &&
		   grep -q '^# clockid frequency: [1-9][0-9]* MHz$' "$rd_tmp/out" &&
		   grep -q 'use_clockid = 1' "$rd_tmp/out"; then
			pass record:clockid:header
		else
			fail record:clockid:header "no clockid, reference time or use_clockid lines"
		fi
		rd_same record:clockid:header-only-I "$rd_k" --header-only -I
	else
		skip record:clockid:header "$perf_why"
	fi
	rd_t0=$("$rd_scr" -F time -i "$rd_k" 2>/dev/null | head -n 1 | tr -d ' :')
	if [ -n "$rd_t0" ] && [ "${rd_t0%%.*}" -gt 1000000000 ]; then
		pass record:clockid:times "first sample at $rd_t0 s (the epoch's clock)"
	else
		fail record:clockid:times "first sample time '$rd_t0', want realtime seconds"
	fi
fi
rd_usage unknown-clockid -k nope true

# --- tracepoints ---------------------------------------------------------------------------
# -e SYS:NAME as perf record records it: the tracepoint's id from tracefs (mounted by
# dirrecord where it is not, as perf mounts it), every hit sampled with its RAW payload,
# the tracing data (TRACING_DATA: the formats that decode the payloads) in the header.
# perf reads what we wrote: its report, dump and script equal dirreport's and
# dirscript's; a file system-wide, a --threads directory, a command with two
# tracepoints, a tracepoint beside cpu-clock, with -g; an unknown one is a usage error.
rd_tp_n=0
rd_tp=
for rd_d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -r "$rd_d/events/sched/sched_switch/id" ] && rd_tp=1
done
# where tracefs is not mounted, dirrecord mounts it (as perf); a kernel without it
# has no tracepoints to record
if [ -z "$rd_tp" ] && [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing ] &&
   mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] && rd_tp=1
fi
[ -n "$rd_tp" ] || skip record:tracepoint "no tracefs with sched:sched_switch here"
for rd_args in "-a -e sched:sched_switch" "--threads -a -e sched:sched_switch" \
	"-e sched:sched_switch,sched:sched_wakeup" "-a -e cpu-clock,sched:sched_switch" \
	"-g -e sched:sched_process_exec,sched:sched_switch"; do
	[ -n "$rd_tp" ] || break
	rd_tp_n=$((rd_tp_n + 1))
	rd_n=record:tracepoint:$rd_tp_n
	rd_t=$rd_tmp/tp$rd_tp_n.data
	# shellcheck disable=SC2086 # the options' words
	rd_record "$rd_n:record" $rd_args -o "$rd_t" -- \
		sh -c 'seq 1 20000 | sort -r >/dev/null; sleep 0.1' || continue
	if [ -z "$have_perf" ]; then
		skip "$rd_n" "$perf_why"
		continue
	fi
	run "$rd_tmp/out" "$rd_tmp/err" perf evlist -v -i "$rd_t"
	if ! grep -q '^sched:sched_switch: type: 2, .*sample_type: .*RAW' "$rd_tmp/out"; then
		fail "$rd_n:attr" "no tracepoint attr with RAW: $(head -n 1 "$rd_tmp/out")"
		continue
	fi
	rd_same "$rd_n:stdio" "$rd_t" --stdio
	rd_same "$rd_n:dump" "$rd_t" -D
	run "$rd_tmp/want" "$rd_tmp/err" perf script -i "$rd_t"
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_scr" -i "$rd_t"
	if [ "$rc" -ne 0 ]; then
		fail "$rd_n:script" "dirscript exit $rc"
	elif ! grep -q 'sched:sched_switch: prev_comm=' "$rd_tmp/out"; then
		fail "$rd_n:script" "no decoded sched_switch line"
	elif ! cmp -s "$rd_tmp/want" "$rd_tmp/out"; then
		fail "$rd_n:script" "dirscript differs from perf script" "$rd_tmp/want" \
			"$rd_tmp/out"
	else
		pass "$rd_n:script" "$(wc -l <"$rd_tmp/out") lines"
	fi
done
rd_usage unknown-tracepoint -e sched:no_such_tracepoint true

# --- the build-id cache ------------------------------------------------------------------
# The entries perf record leaves in ~/.debug (here the test's HOME): for every build-id
# of the recording (dirreport --header-only's list is perf buildid-list's), the kernel's
# kallsyms copy (mode 0444) or the file's `elf` (the same bytes) and `probes`, and the
# .build-id link to them; -N adds nothing; --buildid-dir another cache.
rd_cache_check() {	# NAME FILE CACHE
	_miss=
	perf buildid-list -i "$2" 2>/dev/null >"$rd_tmp/bids"
	while read -r _b _p; do
		case $_p in
		'[kernel.kallsyms]') _f="$3/[kernel.kallsyms]/$_b/kallsyms"
			[ "$(stat -c %a "$_f" 2>/dev/null)" = 444 ] || _miss="$_miss $_f" ;;
		/*) _f="$3$_p/$_b/elf"
			cmp -s "$_f" "$_p" && [ -f "$3$_p/$_b/probes" ] || _miss="$_miss $_f" ;;
		*) continue ;;
		esac
		_l="$3/.build-id/$(echo "$_b" | cut -c1-2)/$(echo "$_b" | cut -c3-)"
		[ -d "$_l" ] && [ "$(readlink "$_l")" = "../../${_p#/}/$_b" ] ||
			_miss="$_miss $_l"
	done <"$rd_tmp/bids"
	if [ ! -s "$rd_tmp/bids" ]; then
		fail "$1" "no build-ids listed"
	elif [ -n "$_miss" ]; then
		fail "$1" "missing or wrong:$_miss"
	else
		pass "$1" "$(wc -l <"$rd_tmp/bids") entries"
	fi
}
if [ -n "$have_perf" ] && [ -s "$rd_busy" ]; then
	rd_cache_check record:buildid-cache "$rd_busy" "$HOME/.debug"
	rd_c=$rd_tmp/cache.data
	if rd_record record:buildid-cache:dir-record --buildid-dir "$rd_tmp/cache" \
		-o "$rd_c" -- sh -c 'seq 1 100000 | sort -r >/dev/null'; then
		rd_cache_check record:buildid-cache:dir "$rd_c" "$rd_tmp/cache"
	fi
	mkdir -p "$rd_tmp/nohome"
	HOME=$rd_tmp/nohome
	if rd_record record:buildid-cache:-N-record -N -o "$rd_c" -- true; then
		if [ -e "$rd_tmp/nohome/.debug" ]; then
			fail record:buildid-cache:-N "$rd_tmp/nohome/.debug made"
		else
			pass record:buildid-cache:-N
		fi
	fi
	HOME=$rd_tmp/home
else
	skip record:buildid-cache "${have_perf:+no busy recording}${have_perf:-$perf_why}"
fi

# --- the machine's topology ----------------------------------------------------------------
# CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY and the empty BPF tables read off
# this machine as perf record reads them: `perf report --header-only -I` of a
# recording of ours and of one of perf's made now print the same lines, but for those
# of the run (sizes, times, the version and command line, the events, free memory).
# The PMU capabilities and a hybrid cpu's topology are not written yet (machines
# with them: docs/dirrecord.1.md): their lines and names are left out too.
rd_topo_lines() {
	grep -v '^# \(captured on\|data size\|feat offset\|data offset\|perf version\|cmdline\|event\|time of\|sample duration\|header version\)' "$1" |
		grep -v 'pmu capabilities\|hybrid\|^# *[a-z_]* cpu list :' |
		sed 's/\(meminfo *: total = [0-9]* kB\), free = [0-9]* kB/\1/;
		     /^# missing features:/ { s/ CPU_PMU_CAPS//; s/ HYBRID_TOPOLOGY//;
					       s/ PMU_CAPS//; }'
}
if [ -n "$have_perf" ]; then
	rd_t=$rd_tmp/topo.data
	if perf record -q --no-buildid-cache -e cpu-clock -o "$rd_t.perf" -- true \
		>/dev/null 2>&1 &&
	   rd_record record:topology:record -e cpu-clock -o "$rd_t" -- true; then
		run "$rd_tmp/want" "$rd_tmp/err" perf report --header-only -I -i "$rd_t.perf"
		rd_topo_lines "$rd_tmp/want" >"$rd_tmp/want.topo"
		run "$rd_tmp/out" "$rd_tmp/err" perf report --header-only -I -i "$rd_t"
		rd_topo_lines "$rd_tmp/out" >"$rd_tmp/got.topo"
		if [ "$rc" -ne 0 ]; then
			fail record:topology "perf report --header-only -I exit $rc"
		elif ! grep -q '^# sibling sockets : .' "$rd_tmp/want.topo"; then
			fail record:topology "perf's recording has no CPU_TOPOLOGY"
		elif ! cmp -s "$rd_tmp/want.topo" "$rd_tmp/got.topo"; then
			fail record:topology "the features differ from perf record's" \
				"$rd_tmp/want.topo" "$rd_tmp/got.topo"
		else
			pass record:topology "$(grep -c . "$rd_tmp/got.topo") lines as perf record's"
		fi
		rd_same record:topology:header-only-I "$rd_t" --header-only -I
	fi
else
	skip record:topology "$perf_why"
fi

# --- call graphs ----------------------------------------------------------------------------
rd_g=$rd_tmp/g.data
if rd_record record:callchain:record -g -F 2000 -o "$rd_g" -- \
	sh -c 'seq 1 50000 | sort -r | md5sum >/dev/null'; then
	if [ "$rc" -ne 0 ]; then
		fail record:callchain:record "exit $rc"
	else
		pass record:callchain:record
	fi
fi
# rd_has_frames NAME FILE: perf script (dirscript without perf) prints callchain frames
# of FILE - a frame: tab, address, symbol or [unknown], (dso)
rd_has_frames() {
	if [ -n "$have_perf" ]; then
		run "$rd_tmp/out" "$rd_tmp/err" perf script -i "$2"
	else
		run "$rd_tmp/out" "$rd_tmp/err" "$rd_scr" -i "$2"
	fi
	rd_frames=$(grep -c '^	 *[0-9a-f]\{1,16\} .* (.*)$' "$rd_tmp/out")
	if [ "$rc" -eq 0 ] && [ "$rd_frames" -gt 0 ]; then
		pass "$1" "$rd_frames frames"
	else
		fail "$1" "exit $rc, $rd_frames frames"
	fi
}
if [ -s "$rd_g" ]; then
	rd_has_frames record:callchain:frames "$rd_g"
	rd_same record:callchain:stdio "$rd_g" --stdio
	rd_same record:callchain:flat "$rd_g" --stdio --no-children -g none
fi
# --call-graph dwarf: user stacks copied; perf script (dirscript) unwinds them to frames
rd_dw=$rd_tmp/dwarf.data
if rd_record record:callchain:dwarf -F 500 --call-graph dwarf,4096 -o "$rd_dw" -- \
	sh -c 'seq 1 30000 | sort -r >/dev/null'; then
	rd_has_frames record:callchain:dwarf "$rd_dw"
fi

# --- several events, groups ----------------------------------------------------------------
rd_e=$rd_tmp/groups.data
if rd_record record:groups:record -F 1000 -e 'page-faults,{cpu-clock,task-clock}' \
	-e 'grp{minor-faults,context-switches}' -o "$rd_e" -- \
	sh -c 'seq 1 30000 | sort -r | md5sum >/dev/null'; then
	if [ "$rc" -ne 0 ]; then
		fail record:groups:record "exit $rc"
	else
		pass record:groups:record
	fi
fi
if [ -s "$rd_e" ]; then
	if [ -n "$have_perf" ]; then
		perf evlist -g -i "$rd_e" >"$rd_tmp/out" 2>"$rd_tmp/err"
		printf '%s\n' page-faults '{cpu-clock,task-clock}' \
			'grp{minor-faults,context-switches}' >"$rd_tmp/want"
		if cmp -s "$rd_tmp/want" "$rd_tmp/out"; then
			pass record:groups:evlist
		else
			fail record:groups:evlist "perf evlist -g differs" "$rd_tmp/want" "$rd_tmp/out"
		fi
	else
		skip record:groups:evlist "$perf_why"
	fi
	rd_same record:groups:stdio "$rd_e" --stdio
	rd_same record:groups:header-only "$rd_e" --header-only
fi

# --- system-wide ----------------------------------------------------------------------------
rd_a=$rd_tmp/a.data
if rd_record record:system:record -a -g -o "$rd_a" -- sleep 1; then
	if [ "$rc" -ne 0 ]; then
		fail record:system:record "exit $rc"
	else
		pass record:system:record
	fi
fi
if [ -s "$rd_a" ]; then
	rd_cpus=$(getconf _NPROCESSORS_ONLN)
	rd_got=$("$rd_scr" -F cpu -i "$rd_a" 2>/dev/null | sort -u | wc -l)
	if [ "$rd_got" -eq "$rd_cpus" ]; then
		pass record:system:every-cpu
	else
		fail record:system:every-cpu "samples on $rd_got cpus of $rd_cpus"
	fi
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" -D -i "$rd_a"
	if [ "$rc" -ne 0 ]; then
		fail record:system:synthesized "dirreport -D exit $rc"
	elif ! grep -q 'PERF_RECORD_MMAP -1/0: .* \[kernel\.kallsyms\]_s\{0,1\}text$' "$rd_tmp/out"; then
		fail record:system:synthesized "no kernel map"
	elif ! grep -q 'PERF_RECORD_COMM: .*:1/1$' "$rd_tmp/out"; then
		fail record:system:synthesized "no COMM of pid 1"
	elif ! grep -q 'PERF_RECORD_FINISHED_ROUND' "$rd_tmp/out"; then
		fail record:system:synthesized "no FINISHED_ROUND"
	elif ! grep -q 'PERF_RECORD_THREAD_MAP nr: 1 thread: -1$' "$rd_tmp/out" ||
	     ! grep -q 'PERF_RECORD_CPU_MAP: ' "$rd_tmp/out"; then
		fail record:system:synthesized "no THREAD_MAP of -1 or no CPU_MAP"
	else
		pass record:system:synthesized
	fi
	# by command and dso: perf may read a module's symbols from its .ko file,
	# dirreport takes them from kallsyms (docs/known-differences.md, kernel modules),
	# and a system-wide recording may have samples in modules
	rd_same record:system:stdio "$rd_a" --stdio --no-children -g none --sort comm,dso
fi
rd_c=$rd_tmp/c0.data
if rd_record record:system:cpu0 -C 0 -o "$rd_c" -- sleep 0.5; then
	rd_got=$("$rd_scr" -F cpu -i "$rd_c" 2>/dev/null | sort -u | tr -d ' ')
	if [ "$rc" -eq 0 ] && [ "$rd_got" = "[000]" ]; then
		pass record:system:cpu0
	else
		fail record:system:cpu0 "exit $rc, cpus: $(echo "$rd_got" | tr '\n' ' ')"
	fi
fi

# --- LOST records ---------------------------------------------------------------------------
# one page of ring per cpu at 20 kHz with call graphs: the kernel loses samples and says
# so in LOST records, which go into the file as they come; the closing warning counts
# what they count
rd_l=$rd_tmp/lost.data
run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" -m 1 -a -g -F 20000 -o "$rd_l" -- sleep 1
if ! crashed record:lost "$rd_tmp/err"; then
	rd_lost=$("$rd_rep" -D -i "$rd_l" 2>/dev/null |
		sed -n 's/.*PERF_RECORD_LOST: id:[0-9]*: lost:\([0-9]*\)$/\1/p' |
		awk '{ n += $1 } END { print n + 0 }')
	rd_warned=$(sed -n 's/^dirrecord: warning: the kernel lost \([0-9]*\) samples.*/\1/p' \
		"$rd_tmp/err")
	if [ "$rc" -ne 0 ]; then
		fail record:lost "exit $rc: $(head -n 1 "$rd_tmp/err")"
	elif [ "$rd_lost" -eq 0 ] && [ -z "$rd_warned" ]; then
		pass record:lost "no ring overflowed this time"
	elif [ "$rd_lost" = "${rd_warned:-0}" ]; then
		pass record:lost "$rd_lost lost, in LOST records and the warning"
	else
		fail record:lost "LOST records count $rd_lost, the warning ${rd_warned:-nothing}"
	fi
	# by command and dso, as record:system:stdio (modules)
	rd_same record:lost:stdio "$rd_l" --stdio --no-children -g none --sort comm,dso
fi

# --- exit status, FILE.old ---------------------------------------------------------------
for rd_s in 0 3; do
	if rd_record "record:status:exit-$rd_s" -o "$rd_tmp/s.data" -- sh -c "exit $rd_s"; then
		if [ "$rc" -eq "$rd_s" ]; then
			pass "record:status:exit-$rd_s"
		else
			fail "record:status:exit-$rd_s" "exit $rc"
		fi
	fi
done
if [ -f "$rd_tmp/s.data.old" ] && [ -f "$rd_tmp/s.data" ] &&
   ! cmp -s "$rd_tmp/s.data" "$rd_tmp/s.data.old"; then
	pass record:status:old-renamed
else
	fail record:status:old-renamed "no FILE.old beside FILE"
fi
run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" -q -o "$rd_tmp/x.data" -- "$rd_tmp/no-such-command"
if [ "$rc" -eq 127 ] && [ "$(wc -l <"$rd_tmp/err")" -eq 1 ] &&
   grep -q "^dirrecord: cannot run '.*no-such-command': No such file or directory\$" "$rd_tmp/err" &&
   [ ! -e "$rd_tmp/x.data" ]; then
	pass record:status:cannot-run
else
	fail record:status:cannot-run "exit $rc: $(head -n 2 "$rd_tmp/err")"
fi

# rd_error NAME WANT-RE ARGS...: exit 1, nothing on stdout, one stderr line matching
rd_error() {
	_en=record:status:$1 _re=$2
	shift 2
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" -q "$@"
	crashed "$_en" "$rd_tmp/err" && return
	if [ "$rc" -eq 1 ] && [ ! -s "$rd_tmp/out" ] && [ "$(wc -l <"$rd_tmp/err")" -eq 1 ] &&
	   grep -q "$_re" "$rd_tmp/err"; then
		pass "$_en"
	else
		fail "$_en" "exit $rc: $(head -n 2 "$rd_tmp/err")"
	fi
}
# 4194304: above every pid (pid_max is at most 2^22)
rd_error no-process '^dirrecord: no process 4194304' -p 4194304 -o "$rd_tmp/e.data"
rd_error no-thread '^dirrecord: no thread 4194304' -t 4194304 -o "$rd_tmp/e.data"
rd_error cpu-offline '^dirrecord: -C: cpu 4095 is not online$' -C 4095 -o "$rd_tmp/e.data" true
rd_error output-dir-missing "^dirrecord: $rd_tmp/no/such/dir/e.data: " -o "$rd_tmp/no/such/dir/e.data" true

# --- signals, -p, -t ------------------------------------------------------------------------
# rd_bg_wait PID: wait for a background dirrecord at most $TIMEOUT s; sets $rc
rd_bg_wait() {
	_i=0
	while kill -0 "$1" 2>/dev/null && [ "$_i" -lt "$((TIMEOUT * 10))" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1" 2>/dev/null
		wait "$1"
		rc=124
	else
		wait "$1"
		rc=$?
	fi
}

# rd_started FILE: wait (at most $TIMEOUT s) until a background dirrecord has created
# FILE, which it does after its signal handlers are in place and its events are open,
# then half a second more for samples
rd_started() {
	_i=0
	while [ ! -e "$1" ] && [ "$_i" -lt "$((TIMEOUT * 10))" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	sleep 0.5
}

# rd_check_bg NAME FILE: after rd_bg_wait: exit 0, nothing on stderr, samples in FILE
rd_check_bg() {
	crashed "$1" "$rd_tmp/bgerr" && return
	_s=$(rd_samples "$2")
	if [ "$rc" -ne 0 ]; then
		fail "$1" "exit $rc: $(head -n 1 "$rd_tmp/bgerr")"
	elif [ -s "$rd_tmp/bgerr" ]; then
		fail "$1" "stderr: $(head -n 1 "$rd_tmp/bgerr")"
	elif [ -z "$_s" ] || [ "$_s" -eq 0 ]; then
		fail "$1" "no samples read back"
	else
		pass "$1" "$_s samples"
	fi
}

"$rd_rec" -q -a -o "$rd_tmp/int.data" >/dev/null 2>"$rd_tmp/bgerr" </dev/null &
rd_pid=$!
rd_started "$rd_tmp/int.data"
kill -INT "$rd_pid"
rd_bg_wait "$rd_pid"
rd_check_bg record:signals:sigint "$rd_tmp/int.data"

"$rd_rec" -q -o "$rd_tmp/term.data" -- sh -c 'while :; do :; done' >/dev/null \
	2>"$rd_tmp/bgerr" </dev/null &
rd_pid=$!
rd_started "$rd_tmp/term.data"
kill -TERM "$rd_pid"
rd_bg_wait "$rd_pid"
rd_check_bg record:signals:sigterm "$rd_tmp/term.data"

for rd_opt in -p -t; do
	sh -c 'while :; do :; done' &
	rd_busy_pid=$!
	rm -f "$rd_tmp/p.data"
	"$rd_rec" -q "$rd_opt" "$rd_busy_pid" -o "$rd_tmp/p.data" >/dev/null \
		2>"$rd_tmp/bgerr" </dev/null &
	rd_pid=$!
	rd_started "$rd_tmp/p.data"
	kill -KILL "$rd_busy_pid"
	wait "$rd_busy_pid" 2>/dev/null
	rd_bg_wait "$rd_pid"
	rd_check_bg "record:signals:$rd_opt-ends-with-the-process" "$rd_tmp/p.data"
done

# --- hardware events ------------------------------------------------------------------------
run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" -q -e instructions -o "$rd_tmp/hw.data" -- true
if crashed record:hardware:instructions "$rd_tmp/err"; then
	:
elif [ "$rc" -eq 0 ] && [ ! -s "$rd_tmp/err" ]; then
	pass record:hardware:instructions "recorded: this cpu has a PMU"
elif [ "$rc" -eq 1 ] && [ "$(wc -l <"$rd_tmp/err")" -eq 1 ] &&
     grep -q '^dirrecord: instructions: hardware event not supported' "$rd_tmp/err"; then
	pass record:hardware:instructions "no PMU: one line"
else
	fail record:hardware:instructions "exit $rc: $(head -n 2 "$rd_tmp/err")"
fi

# --- data directories (--threads) -------------------------------------------------------
# rd_masks SPEC: how many reader threads SPEC makes on this machine's online cpus (the
# groups of its /sys topology lists), for the PASS lines
rd_masks() {
	case $1 in
	cpu) getconf _NPROCESSORS_ONLN ;;
	core) cat /sys/devices/system/cpu/cpu[0-9]*/topology/core_cpus_list 2>/dev/null |
		sort -u | wc -l | tr -d ' ' ;;
	package) cat /sys/devices/system/cpu/cpu[0-9]*/topology/package_cpus_list 2>/dev/null |
		sort -u | wc -l | tr -d ' ' ;;
	esac
}
# rd_index NAME REC [compressed]: the index dirrecord wrote is there and used:
# dirreport --stats warns nothing and reads no records (DIRREPORT_IO_STATS), equals
# --stats on a copy without the index; it is byte for byte the index dirconvert --index
# makes of a copy (cp -p: the same names, sizes and times); without compressed data
# --stdio starts from it; a data file touched: "index ignored", the same output
rd_index() {
	_in=$1 _rec=$2 _z=${3:-}
	if [ -d "$_rec" ]; then _ix=$_rec/dirindex; else _ix=$_rec.dirindex; fi
	rm -rf "$rd_tmp/noix"
	cp -Rp "$_rec" "$rd_tmp/noix"
	rm -f "$rd_tmp/noix/dirindex"
	run "$rd_tmp/want" "$rd_tmp/wanterr" "$rd_rep" --stats -i "$rd_tmp/noix"
	DIRREPORT_IO_STATS=1
	export DIRREPORT_IO_STATS
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stats -i "$_rec"
	unset DIRREPORT_IO_STATS
	crashed "$_in" "$rd_tmp/err" && return
	if [ ! -s "$_ix" ]; then
		fail "$_in" "no index $_ix"
	elif [ "$rc" -ne 0 ] || grep -q 'warning' "$rd_tmp/err"; then
		fail "$_in" "exit $rc: $(head -n 1 "$rd_tmp/err")"
	elif grep -q 'io: [1-9][0-9]* bytes of records read' "$rd_tmp/err"; then
		fail "$_in" "the records were read: the index was not used"
	elif ! cmp -s "$rd_tmp/want" "$rd_tmp/out"; then
		fail "$_in" "--stats differs from --stats without the index" "$rd_tmp/want" \
			"$rd_tmp/out"
	elif ! grep -q 'SAMPLE events: *[1-9]' "$rd_tmp/out"; then
		fail "$_in" "--stats counts no samples"
	elif ! rm -rf "$rd_tmp/conv" || ! mkdir "$rd_tmp/conv" ||
	     ! cp -Rp "$_rec" "$rd_tmp/conv/" ||
	     ! rm -f "$rd_tmp/conv/${_rec##*/}/dirindex" ||
	     ! "$rd_conv" --index "$rd_tmp/conv/${_rec##*/}" >/dev/null 2>&1 ||
	     ! cmp -s "$_ix" "$(if [ -d "$_rec" ]; then echo "$rd_tmp/conv/${_rec##*/}/dirindex"
				else echo "$rd_tmp/conv/${_rec##*/}.dirindex"; fi)"; then
		fail "$_in" "the index is not the one dirconvert --index makes"
	elif [ -z "$_z" ] && ! DIRREPORT_IO_STATS=1 "$rd_rep" --stdio -i "$_rec" 2>&1 \
		>/dev/null | grep -q 'started from the index'; then
		fail "$_in" "dirreport --stdio did not start from the index"
	else
		if [ -d "$_rec" ]; then touch "$_rec/data"; else touch "$_rec"; fi
		run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stats -i "$_rec"
		if grep -q '^dirreport: warning: index ignored: .*changed since the index' \
			"$rd_tmp/err" && cmp -s "$rd_tmp/want" "$rd_tmp/out"; then
			pass "$_in" "$(grep -c 'events:' "$rd_tmp/want") counts from the index, dirconvert's bytes"
		else
			fail "$_in" "a stale index: $(head -n 1 "$rd_tmp/err")"
		fi
	fi
}

rd_index record:index:file "$rd_busy"
for rd_spec in cpu core package; do
	rd_n=record:threads:$rd_spec
	rd_d=$rd_tmp/threads-$rd_spec.data
	rd_opt=--threads=$rd_spec
	[ "$rd_spec" = cpu ] && rd_opt=--threads	# the default spec
	rd_record "$rd_n:record" -F 1000 "$rd_opt" -o "$rd_d" -- sh -c "$rd_loop" || continue
	rd_ncpu=$(getconf _NPROCESSORS_ONLN)
	rd_files=$(cd "$rd_d" 2>/dev/null && printf '%s ' *)
	rd_want="data $(i=0; while [ $i -lt "$rd_ncpu" ]; do printf 'data.%s ' $i; i=$((i + 1)); done)dirindex "
	if [ "$rc" -ne 0 ]; then
		fail "$rd_n:record" "exit $rc"
		continue
	elif [ "$rd_files" != "$rd_want" ]; then
		fail "$rd_n:record" "files: $rd_files, want $rd_want"
		continue
	fi
	pass "$rd_n:record" "reader threads: $(rd_masks "$rd_spec"), data files: $rd_ncpu"
	if [ -n "$have_perf" ]; then
		run "$rd_tmp/out" "$rd_tmp/err" perf report --header-only -i "$rd_d"
		if [ "$rc" -eq 0 ] && grep -q '^# directory data version : 1$' "$rd_tmp/out"; then
			pass "$rd_n:dir-format"
		else
			fail "$rd_n:dir-format" "exit $rc, no 'directory data version : 1'"
		fi
	else
		skip "$rd_n:dir-format" "$perf_why"
	fi
	rd_s=$(rd_samples "$rd_d")
	if [ "$rd_s" -ge 950 ] && [ "$rd_s" -le 1050 ]; then
		pass "$rd_n:samples" "$rd_s samples"
	else
		fail "$rd_n:samples" "$rd_s samples, want 950..1050"
	fi
	rd_same "$rd_n:stdio" "$rd_d" --stdio
	rd_same "$rd_n:header-only" "$rd_d" --header-only
	rd_index "$rd_n:index" "$rd_d"
done
# the whole system, a thread per cpu: every cpu's ring in its file
rd_d=$rd_tmp/threads-a.data
if rd_record record:threads:system -a --threads -o "$rd_d" -- sleep 1; then
	if [ "$rc" -eq 0 ]; then
		pass record:threads:system
	else
		fail record:threads:system "exit $rc"
	fi
	rd_same record:threads:system-stdio "$rd_d" --stdio --no-children --sort comm,dso
fi
# one reader thread per mask besides the main thread: the tasks of a running dirrecord
for rd_spec in cpu package; do
	rm -rf "$rd_tmp/threads-n.data"
	"$rd_rec" -q -a --threads="$rd_spec" -o "$rd_tmp/threads-n.data" -- sleep 1.5 \
		>/dev/null 2>"$rd_tmp/bgerr" </dev/null &
	rd_pid=$!
	rd_started "$rd_tmp/threads-n.data/data"
	rd_tasks=$(find "/proc/$rd_pid/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l |
		tr -d ' ')
	rd_bg_wait "$rd_pid"
	rd_want=$(($(rd_masks "$rd_spec") + 1))
	if [ "$rc" -eq 0 ] && [ "$rd_tasks" -eq "$rd_want" ]; then
		pass "record:threads:tasks-$rd_spec" "$rd_tasks threads: the main one and one per mask"
	else
		fail "record:threads:tasks-$rd_spec" "exit $rc, $rd_tasks threads, want $rd_want"
	fi
done
# DIR.old, as perf keeps it: an older DIR.old directory removed first
rm -rf "$rd_tmp/old.data" "$rd_tmp/old.data.old"
for _i in 1 2 3; do
	rd_record record:threads:old-renamed --threads -o "$rd_tmp/old.data" -- true || break
done
if [ "$rc" -eq 0 ] && [ -f "$rd_tmp/old.data/data" ] && [ -f "$rd_tmp/old.data.old/data" ]; then
	pass record:threads:old-renamed
else
	fail record:threads:old-renamed "exit $rc, no DIR and DIR.old"
fi
rd_usage threads-bad-spec --threads=0/0 -a true
rd_usage threads-overlap --threads=0/0:0/0 -a true

# --- -z -------------------------------------------------------------------------------------
rd_z=$rd_tmp/z.data
if rd_record record:compress:record -z -F 1000 -o "$rd_z" -- sh -c "$rd_loop"; then
	rd_s=$(rd_samples "$rd_z")
	rd_plain=$(wc -c <"$rd_busy")
	rd_small=$(wc -c <"$rd_z")
	if [ "$rc" -ne 0 ]; then
		fail record:compress:record "exit $rc"
	elif [ "$rd_s" -lt 950 ] || [ "$rd_s" -gt 1050 ]; then
		fail record:compress:record "$rd_s samples, want 950..1050"
	elif [ "$rd_small" -ge "$rd_plain" ]; then
		fail record:compress:record "-z: $rd_small bytes, without: $rd_plain"
	else
		pass record:compress:record "$rd_small bytes with -z, $rd_plain without, $rd_s samples"
	fi
	if [ -n "$have_perf" ]; then
		run "$rd_tmp/out" "$rd_tmp/err" perf report --header-only -i "$rd_z"
		if grep -q '^# compressed : Zstd, level = 1, ratio = [1-9]' "$rd_tmp/out"; then
			pass record:compress:feature "$(sed -n 's/^# compressed : //p' "$rd_tmp/out")"
		else
			fail record:compress:feature "perf --header-only: no '# compressed : Zstd'"
		fi
	else
		skip record:compress:feature "$perf_why"
	fi
	rd_same record:compress:stdio "$rd_z" --stdio
	rd_same record:compress:header-only "$rd_z" --header-only
	rd_index record:compress:index "$rd_z" compressed
fi
rd_zd=$rd_tmp/zdir.data
if rd_record record:compress:threads --threads -z5 -F 1000 -o "$rd_zd" -- sh -c "$rd_loop"; then
	rd_same record:compress:threads-stdio "$rd_zd" --stdio
	rd_index record:compress:threads-index "$rd_zd" compressed
fi
# the closing line, as perf record -z words it (and the samples)
run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" -z -o "$rd_tmp/z2.data" -- sh -c "$rd_loop"
if ! crashed record:compress:closing-line "$rd_tmp/err"; then
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$rd_tmp/err")" -eq 1 ] &&
	   grep -q '^\[ dirrecord: Captured and wrote [0-9.]* MB .*/z2.data, compressed (original [0-9.]* MB, ratio is [1-9][0-9.]*) ([0-9]* samples) \]$' \
		"$rd_tmp/err"; then
		pass record:compress:closing-line
	else
		fail record:compress:closing-line "exit $rc: $(head -n 2 "$rd_tmp/err")"
	fi
fi
rd_usage compress-level -z23 true

# --- asynchronous writes (--aio) -----------------------------------------------------------
# --aio[=N]: each file's buffers written through an io_uring of its own, N in flight. A
# second of -a -g -F 10000 (several buffers a file) as a file and a --threads directory,
# each also with -z: exit 0, no warning but the closing line (io_uring used: where the
# kernel forbids it, the warning is a SKIP and the cases test the plain writes), and
# perf report's answer is dirreport's (by command and dso, as the system-wide case).
# Where io_uring_setup fails (a seccomp filter: ENOSYS, as a kernel without io_uring;
# EPERM, as a container forbidding it): one warning line naming the error, exit 0, a
# recording perf reads.  The full disk with --aio: above.
rd_aio_used=
for rd_mode in file file-z dir dir-z; do
	rd_n=record:aio:$rd_mode
	rd_o=$rd_tmp/aio-$rd_mode.data
	case $rd_mode in
	file) rd_opt=--aio ;;
	file-z) rd_opt="--aio=2 -z" ;;
	dir) rd_opt="--aio=4 --threads" ;;
	dir-z) rd_opt="--aio --threads=package -z" ;;
	esac
	# shellcheck disable=SC2086 # $rd_opt: words
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rec" $rd_opt -a -g -F 10000 -o "$rd_o" -- sleep 1
	crashed "$rd_n" "$rd_tmp/err" && continue
	if [ "$rc" -ne 0 ]; then
		fail "$rd_n" "exit $rc: $(head -n 1 "$rd_tmp/err")"
		continue
	fi
	if grep -q '^dirrecord: warning: --aio: io_uring is not available' "$rd_tmp/err"; then
		[ -n "$rd_aio_used" ] ||
			skip record:aio:io_uring "$(head -n 1 "$rd_tmp/err" | cut -c21-)"
		rd_aio_used=no
		sed -i '1d' "$rd_tmp/err"
	fi
	if [ "$(wc -l <"$rd_tmp/err")" -ne 1 ] || ! grep -q '^\[ dirrecord: Captured' "$rd_tmp/err"; then
		fail "$rd_n" "stderr: $(head -n 2 "$rd_tmp/err" | tr '\n' '|')"
	else
		pass "$rd_n" "$(rd_samples "$rd_o") samples, $(du -sk "$rd_o" | cut -f1) KiB"
	fi
	rd_same "$rd_n:stdio" "$rd_o" --stdio --no-children -g none --sort comm,dso
	rm -rf "$rd_o"
done
[ -n "$rd_aio_used" ] || pass record:aio:io_uring "no fallback warning"
if command -v python3 >/dev/null 2>&1; then
	for rd_e in ENOSYS:"Function not implemented" EPERM:"Operation not permitted"; do
		rd_n=record:aio:fallback-${rd_e%%:*}
		rd_o=$rd_tmp/aio-fallback.data
		rm -rf "$rd_o"
		run "$rd_tmp/out" "$rd_tmp/err" python3 "$rd_root/tests/record/no-io-uring.py" \
			"${rd_e%%:*}" "$rd_rec" --aio -F 1000 -o "$rd_o" -- sh -c "$rd_loop"
		crashed "$rd_n" "$rd_tmp/err" && continue
		if [ "$rc" -eq 3 ]; then
			skip "$rd_n" "no seccomp here: $(head -n 1 "$rd_tmp/err")"
		elif [ "$rc" -ne 0 ]; then
			fail "$rd_n" "exit $rc: $(head -n 1 "$rd_tmp/err")"
		elif [ "$(wc -l <"$rd_tmp/err")" -ne 2 ] ||
		     [ "$(head -n 1 "$rd_tmp/err")" != "dirrecord: warning: --aio: io_uring is not available here (${rd_e#*:}): plain writes" ]; then
			fail "$rd_n" "stderr: $(head -n 2 "$rd_tmp/err" | tr '\n' '|')"
		else
			pass "$rd_n" "$(head -n 1 "$rd_tmp/err" | cut -c21-)"
			rd_same "$rd_n:stdio" "$rd_o" --stdio
		fi
	done
else
	skip record:aio:fallback "no python3 (the seccomp filter's)"
fi

# --- snapshot mode (-M) ---------------------------------------------------------------------
# phase A: perl for 1 s, phase B: python3 for 3 s, all on cpu 0 (the rings are per cpu:
# an idle cpu's ring would keep A's samples); SIGUSR2 1.2 s into B: 8 KiB of samples
# per ring (about 0.2 s at 1000 Hz) hold B's only; a second SIGUSR2 appends
# the interpreter itself (a pyenv shim would run a shell script first)
rd_py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if ! command -v perl >/dev/null 2>&1 || [ -z "$rd_py" ] ||
   ! command -v taskset >/dev/null 2>&1; then
	skip record:snapshot "perl, python3 or taskset missing"
else
	# rd_phases SIGNALS DIRRECORD-ARGS...: dirrecord -q -M 8K -F 1000 ARGS of the two
	# phases in the background; SIGNALS SIGUSR2s 1.2 s into B, 0.5 s apart; waits
	# for the end (sets $rc)
	rd_phases() {
		_nsig=$1
		shift
		rm -f "$rd_tmp/phase-b"
		# shellcheck disable=SC2016 # the programs' own code
		"$rd_rec" -q -M 8K -F 1000 "$@" -- taskset -c 0 sh -c '
			perl -e '\''$t = time; $i++ while time - $t < 1'\''
			: >"$1"
			"$2" -c "
import time
t = time.time()
while time.time() - t < 3: pass"' sh "$rd_tmp/phase-b" "$rd_py" >/dev/null \
			2>"$rd_tmp/bgerr" </dev/null &
		rd_pid=$!
		rd_started "$rd_tmp/phase-b"	# and 0.5 s
		sleep 0.7
		while [ "$_nsig" -gt 0 ]; do
			kill -USR2 "$rd_pid"
			_nsig=$((_nsig - 1))
			[ "$_nsig" -eq 0 ] || sleep 0.5
		done
		rd_bg_wait "$rd_pid"
	}
	rd_m=$rd_tmp/snap.data
	rd_phases 2 -o "$rd_m"
	rd_check_bg record:snapshot:record "$rd_m"
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stdio --sort comm,dso -i "$rd_m"
	if grep -q 'perl' "$rd_tmp/out"; then
		fail record:snapshot:phase-b "phase A's perl is in the report" "$rd_tmp/out"
	elif ! grep -q ' python3 ' "$rd_tmp/out"; then
		fail record:snapshot:phase-b "phase B's python3 is not in the report" "$rd_tmp/out"
	else
		pass record:snapshot:phase-b "python3, no perl"
	fi
	# a sample is 40 bytes at least (header, ip, tid, time, period): one drain of the
	# 8 KiB ring copy holds 204 at most; more python3 samples (all from cpu 0's
	# ring) are the second SIGUSR2's, appended
	rd_s=$("$rd_scr" -F comm -i "$rd_m" 2>/dev/null | grep -c python3)
	if [ "$rd_s" -gt 204 ]; then
		pass record:snapshot:appended "$rd_s python3 samples from two SIGUSR2s"
	else
		fail record:snapshot:appended "$rd_s python3 samples, want more than 204"
	fi
	rd_same record:snapshot:stdio "$rd_m" --stdio --sort comm,dso,sym
	rd_index record:snapshot:index "$rd_m"
	# without a SIGUSR2: no samples
	rd_m0=$rd_tmp/snap0.data
	if rd_record record:snapshot:no-signal -M 16K -F 1000 -o "$rd_m0" -- sh -c "$rd_loop"; then
		run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stats -i "$rd_m0"
		if [ "$rc" -ne 0 ] || grep -q 'SAMPLE events' "$rd_tmp/out" ||
		   ! grep -q 'COMM events' "$rd_tmp/out"; then
			fail record:snapshot:no-signal "exit $rc, samples or no side-band" \
				/dev/null "$rd_tmp/out"
		elif [ -n "$have_perf" ] &&
		     ! perf report --stdio -i "$rd_m0" 2>&1 | grep -q 'has no samples'; then
			fail record:snapshot:no-signal "perf report does not say 'has no samples'"
		else
			pass record:snapshot:no-signal "no SAMPLE in --stats"
		fi
	fi
	# the same in a data directory: each reader thread writes its rings' snapshots
	rd_md=$rd_tmp/snapdir.data
	rd_phases 1 --threads -o "$rd_md"
	rd_check_bg record:snapshot:threads "$rd_md"
	run "$rd_tmp/out" "$rd_tmp/err" "$rd_rep" --stdio --sort comm -i "$rd_md"
	if grep -q 'perl' "$rd_tmp/out" || ! grep -q ' python3 *$' "$rd_tmp/out"; then
		fail record:snapshot:threads-phase-b "perl in the report, or no python3" \
			/dev/null "$rd_tmp/out"
	else
		pass record:snapshot:threads-phase-b "python3, no perl"
	fi
	rd_same record:snapshot:threads-stdio "$rd_md" --stdio --sort comm,dso,sym
	rd_index record:snapshot:threads-index "$rd_md"
fi
rd_usage snapshot-size -M 0 true

# --- permission -----------------------------------------------------------------------------
rd_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
rd_as_nobody=
if command -v setpriv >/dev/null 2>&1; then
	rd_as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
elif command -v runuser >/dev/null 2>&1; then
	rd_as_nobody="runuser -u nobody --"
fi
if [ "$(id -u)" -ne 0 ]; then
	skip record:permission "not root: cannot become nobody"
elif [ -z "$rd_as_nobody" ]; then
	skip record:permission "neither setpriv nor runuser"
elif [ -z "$rd_paranoid" ] || [ "$rd_paranoid" -lt 1 ]; then
	skip record:permission "perf_event_paranoid is ${rd_paranoid:-unknown}: users may record the system"
else
	# a directory nobody may write, with its own copy of the program
	rd_nb=$(mktemp -d "${TMPDIR:-/tmp}/record-nobody.XXXXXX")
	chmod 1777 "$rd_nb"
	cp "$rd_rec" "$rd_nb/dirrecord" && chmod 755 "$rd_nb/dirrecord"
	# shellcheck disable=SC2086 # $rd_as_nobody is a command's words
	run "$rd_tmp/out" "$rd_tmp/err" $rd_as_nobody "$rd_nb/dirrecord" -q -a \
		-o "$rd_nb/a.data" -- true
	if crashed record:permission:system-wide "$rd_tmp/err"; then
		:
	elif [ "$rc" -eq 1 ] && [ "$(wc -l <"$rd_tmp/err")" -eq 1 ] &&
	     grep -q '^dirrecord: .*/proc/sys/kernel/perf_event_paranoid is [0-9]' "$rd_tmp/err" &&
	     [ ! -e "$rd_nb/a.data" ]; then
		pass record:permission:system-wide
	else
		fail record:permission:system-wide "exit $rc: $(head -n 2 "$rd_tmp/err")"
	fi
	# shellcheck disable=SC2086
	run "$rd_tmp/out" "$rd_tmp/err" $rd_as_nobody "$rd_nb/dirrecord" -e cpu-clock \
		-o "$rd_nb/u.data" -- sh -c 'seq 1 20000 | sort -r >/dev/null'
	if crashed record:permission:command "$rd_tmp/err"; then
		:
	elif [ "$rd_paranoid" -ge 3 ]; then
		# Debian's kernels: 3 refuses every user
		if [ "$rc" -eq 1 ] && grep -q 'perf_event_paranoid is 3' "$rd_tmp/err"; then
			pass record:permission:command "paranoid 3: refused in one line"
		else
			fail record:permission:command "exit $rc: $(head -n 2 "$rd_tmp/err")"
		fi
	elif [ "$rc" -ne 0 ]; then
		fail record:permission:command "exit $rc: $(head -n 2 "$rd_tmp/err")"
	elif [ "$rd_paranoid" -eq 2 ] &&
	     ! grep -q '^dirrecord: warning: .*perf_event_paranoid.*user space only' "$rd_tmp/err"; then
		fail record:permission:command "no warning that the kernel is left out"
	elif [ "$(rd_samples "$rd_nb/u.data")" = 0 ]; then
		fail record:permission:command "no samples read back"
	else
		pass record:permission:command
	fi
	rm -rf "$rd_nb"
fi

HOME=$rd_home_saved
export HOME
rm -rf "$rd_tmp"
if [ -n "$rd_standalone" ]; then
	suite_summary
fi
