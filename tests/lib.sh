# tests/lib.sh - what the shell test suites share: result counters and lines, running a
# program under a timeout, recognising a crash.  Sourced (POSIX sh) by
# tests/run-cli-tests.sh and, when run on its own, tests/convert/run.sh.
#
#   pass NAME [NOTE]            a PASS line; counts npass
#   skip NAME [WHY]             a SKIP line; counts nskip
#   fail NAME [WHY [WANT GOT]]  a FAIL line, with the first lines of diff -u WANT GOT
#   xfail NAME WHY              an XFAIL line: a known difference from perf (a golden
#                               case's known-difference file says which); counts nxfail
#   run OUT ERR CMD...          CMD under $TIMEOUT seconds (default 60), stdin from
#                               /dev/null, stdout to OUT, stderr to ERR; sets $rc
#   on_tty OUT CMDLINE          the shell command line CMDLINE with a terminal for its
#                               stdout and stderr (util-linux script(1): a
#                               pseudo-terminal), stdin /dev/null, under $TIMEOUT; what
#                               the terminal showed goes to OUT; sets $rc (CMDLINE's)
#   crashed NAME ERR            after run: a FAIL and status 0 when CMD timed out, died
#                               of a signal, exited with 128 or more, or a sanitizer
#                               reported on ERR; status 1 otherwise
#   have_perf, perf_why         set here: have_perf=1 when perf 6.1 runs, else empty
#                               and perf_why says why
#   samples_home DIR            HOME=DIR/home, whose .debug (the build-id cache perf and
#                               dirreport consult) is a copy of samples/buildid-cache and
#                               nothing else; exits 2 when it is not unpacked
TIMEOUT=${TIMEOUT:-60}
npass=0 nfail=0 nskip=0 nxfail=0
pass() { npass=$((npass + 1)); echo "PASS $1${2:+ ($2)}"; }
xfail() { nxfail=$((nxfail + 1)); echo "XFAIL $1 ($2)"; }
skip() { nskip=$((nskip + 1)); echo "SKIP $1${2:+ ($2)}"; }
fail() {
	nfail=$((nfail + 1))
	echo "FAIL $1${2:+ ($2)}"
	if [ -n "${3:-}" ] && [ -n "${4:-}" ]; then
		diff -u "$3" "$4" | head -n 20 | sed 's/^/    /'
	fi
}

# run OUT ERR CMD...: run CMD under the timeout; sets $rc.
run() {
	_o=$1 _e=$2
	shift 2
	timeout "$TIMEOUT" "$@" >"$_o" 2>"$_e" </dev/null
	rc=$?
}

# on_tty OUT CMDLINE: CMDLINE run by sh on a terminal of its own; sets $rc.
on_tty() {
	SHELL=/bin/sh timeout "$TIMEOUT" script -q -e -c "$2" /dev/null </dev/null >"$1" 2>&1
	rc=$?
}

# crashed NAME ERR: report a failure and return 0 when the last run timed out, died of a
# signal or tripped a sanitizer.
crashed() {
	if [ "$rc" -eq 124 ]; then
		fail "$1" "timed out after ${TIMEOUT}s"
	elif [ "$rc" -gt 128 ] && [ "$rc" -le 192 ]; then
		fail "$1" "exit status $rc: killed by signal $((rc - 128))"
	elif [ "$rc" -ge 128 ]; then
		fail "$1" "exit status $rc: 128 or more is never a valid exit"
	elif grep -q -e 'Sanitizer' -e ': runtime error: ' "$2" 2>/dev/null; then
		fail "$1" "sanitizer report on stderr"
		head -n 20 "$2" | sed 's/^/    /'
	else
		return 1
	fi
	return 0
}

have_perf=
perf_why="perf not runnable"
if [ -n "${SANITIZE:-}" ]; then
	# a sanitizer build (make SANITIZE=... check): every test of ours runs, the
	# comparisons that run perf itself (live recordings, perf's output of our
	# files) are the plain build's; perf's time would double CI's
	perf_why="a sanitizer build ($SANITIZE): perf's side runs in the plain build's tests"
elif command -v perf >/dev/null 2>&1 && _perfver=$(perf version 2>/dev/null); then
	case $_perfver in
	"perf version 6.1."*) have_perf=1 ;;
	*) perf_why="$_perfver, not 6.1" ;;
	esac
fi

# samples_home DIR: a home whose ~/.debug is the build-id cache the samples carry (the
# kernel symbols and vdso images they were recorded with, tests/README.md): this
# machine's own cache is not read.
samples_home() {
	if [ ! -f samples/buildid-cache/.unpacked ]; then
		echo "tests: samples/buildid-cache is not unpacked; run 'make buildid-cache'" >&2
		exit 2
	fi
	mkdir -p "$1/home"
	cp -R samples/buildid-cache "$1/home/.debug" || exit 2
	HOME=$1/home
	export HOME
}

# strip_tip IN OUT: copy IN to OUT without perf's closing tip block (last three lines
# "#", "# (Tip: ...)" or "# (Cannot load tips.txt file, please install perf!)", "#").
strip_tip() {
	if [ -s "$1" ] && [ -z "$(tail -c 1 "$1")" ] &&
		tail -n 3 "$1" | awk '
			NR == 1 || NR == 3 { ok += ($0 == "#") }
			NR == 2 { ok += ($0 ~ /^# \((Tip: .*|Cannot load tips\.txt file, please install perf!)\)$/) }
			END { exit !(NR == 3 && ok == 3) }'; then
		_n=$(wc -l <"$1")
		head -n $((_n - 3)) "$1" >"$2"
	else
		cp "$1" "$2"
	fi
}

# suite_standalone NAME [--no-samples]: a suite run on its own (`sh tests/NAME/run.sh`,
# not from tests/run-cli-tests.sh): set -u, BUILD and TIMEOUT defaults, a temporary
# directory $tmp removed at exit, and the samples' build-id cache as ~/.debug
# (samples_home) unless --no-samples (a suite that reads nothing of samples/).
suite_standalone() {
	set -u
	BUILD=${BUILD:-build}
	TIMEOUT=${TIMEOUT:-60}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1-tests.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT INT TERM
	[ "${2:-}" = --no-samples ] || samples_home "$tmp"
}

# suite_summary: a standalone suite's last line ("N passed, N failed[, N skipped]");
# its status is the suite's (0: nothing failed).
suite_summary() {
	if [ "$nskip" -gt 0 ]; then
		echo "$npass passed, $nfail failed, $nskip skipped"
	else
		echo "$npass passed, $nfail failed"
	fi
	[ "$nfail" -eq 0 ]
}

# hermetic_prefix CASE-DIR: the words that run a golden case with a file `hermetic` in
# tests/hermetic.sh's namespace (/usr/bin/perl another program, /usr/lib/debug empty),
# where its golden was made, when we are root; nothing otherwise.
hermetic_prefix() {
	[ -f "$1/hermetic" ] && [ "$(id -u)" -eq 0 ] || return 0
	_hr=$(dirname "$1")
	while [ ! -f "$_hr/tests/hermetic.sh" ] && [ "$_hr" != / ] && [ "$_hr" != . ]; do
		_hr=$(dirname "$_hr")
	done
	# the file may name more programs to replace (HERMETIC_REPLACE), ':'-separated
	echo "env HERMETIC_REPLACE=$(head -n 1 "$1/hermetic") sh $_hr/tests/hermetic.sh"
}

# ahead_begin DIR [PERF-RECORD-OPTION...]: the set-up of the tests of the kernel's
# symbols read ahead (the build-id cache's copy of the running kernel's kallsyms):
# DIR/ka.data, a recording of the running kernel with its build-id (perf record with
# the options given, of a short workload); HOME set to DIR/ahead-home (the old one
# kept), where $ahead_copy is the path of the copy (its folder made); DIR/kallsyms.same
# (/proc/kallsyms) and DIR/kallsyms.changed (its text symbols from line 1000 on renamed
# ahead_, past the first page, which must be the file's for the copy to be read);
# DIRREPORT_PHASES exported (the phase lines say whether the copy was checked).
# Returns 1, nothing changed, where perf 6.1 cannot record or the recording names no
# kernel build-id ($ahead_why says which).  ahead_end undoes it.
ahead_begin() {
	_ad=$1
	shift
	ahead_why=$perf_why
	[ -n "$have_perf" ] || return 1
	ahead_why="no recording of the running kernel with its build-id"
	[ -r /proc/kallsyms ] || return 1
	perf record -q --no-buildid-cache "$@" -o "$_ad/ka.data" -- \
		sh -c 'dd if=/dev/zero bs=64k count=200 2>/dev/null | gzip -1 | md5sum >/dev/null' \
		>/dev/null 2>&1 || return 1
	ahead_kbid=$(perf buildid-list -i "$_ad/ka.data" 2>/dev/null |
		awk '$2 == "[kernel.kallsyms]" { print $1 }')
	[ -n "$ahead_kbid" ] || return 1
	ahead_home=$HOME
	HOME=$_ad/ahead-home
	ahead_copy="$HOME/.debug/[kernel.kallsyms]/$ahead_kbid/kallsyms"
	mkdir -p "${ahead_copy%/kallsyms}"
	cat /proc/kallsyms >"$_ad/kallsyms.same"
	sed '1000,$ { / _text$/!s/ \([tT]\) / \1 ahead_/; }' /proc/kallsyms >"$_ad/kallsyms.changed"
	export DIRREPORT_PHASES=1
	return 0
}

# ahead_verdict NAME PROG ERR WANT_PHASE: PROG's run (its stderr in ERR) said that the
# copy was checked as WANT_PHASE says ("checked", "differ", or "" for no check) and,
# where they differ, gave its note (or warning) that /proc/kallsyms differs: returns 0;
# else fails NAME and returns 1.
ahead_verdict() {
	_ph=$(sed -n "s/^$2: phase kernel symbols \(checked\|differ\):.*/\1/p" "$3")
	if [ "$_ph" != "$4" ]; then
		fail "$1" "phase line 'kernel symbols ${_ph:-(none)}', expected '${4:-(none)}'"
		return 1
	fi
	if [ "$4" = differ ] && ! grep -q "^$2: [a-z]*: /proc/kallsyms differs" "$3"; then
		fail "$1" "no note that /proc/kallsyms differs from the copy"
		return 1
	fi
	return 0
}

# ahead_renamed NAME FILE...: passes NAME where the FILEs name a kernel symbol renamed
# in kallsyms.changed (the cases read ahead could tell the copy from the file), fails
# it otherwise.
ahead_renamed() {
	_an=$1
	shift
	if grep -q 'ahead_' "$@"; then
		pass "$_an"
	else
		fail "$_an" "no renamed kernel symbol"
	fi
}

# ahead_forget: the note of a copy found stale gone (the next run reads the copy again).
ahead_forget() {
	rm -f "/dev/shm/dirreport-kallsyms-$(id -u)-$ahead_kbid"
}

# ahead_end: HOME back, DIRREPORT_PHASES unset, the stale note gone.
ahead_end() {
	unset DIRREPORT_PHASES
	HOME=$ahead_home
	ahead_forget
}
