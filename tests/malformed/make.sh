#!/bin/sh
# tests/malformed/make.sh OUTDIR - build the damaged inputs of the malformed-input tests.
#
# Run from anywhere; reads the bundled recordings in samples/ (and one of
# tests/external/) and writes one directory per
# case, OUTDIR/<case>/, holding `input` (a file, a directory, or nothing for the
# nonexistent-path case) and `offset`: the byte offset of the damage as dirreport prints
# it (C "%#x": 0x1a8, or 0), or "-" when no offset applies.  Nothing here is committed:
# `make check` runs this into $BUILD/malformed/ (see tests/run-cli-tests.sh).
#
# Needs only POSIX sh, od, dd, printf, awk, head, cp, ln (no python).  The offsets are
# computed from the samples, so re-recording samples/ moves them; tests/malformed/README.md
# lists the values for the committed samples and what each case damages.
set -eu

out=${1:?usage: make.sh OUTDIR}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
cd "$(dirname "$0")/../.."
samples=samples

# --- byte helpers (the samples are little-endian) ------------------------------------
# u16/u32/u64 FILE OFFSET: the unsigned little-endian integer at OFFSET, in decimal.
u16() { od -An -v -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
u32() { od -An -v -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
u64() { od -An -v -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
fsize() { wc -c <"$1" | tr -d ' '; }

# put FILE OFFSET NBYTES VALUE: overwrite NBYTES bytes at OFFSET with VALUE, little-endian.
put() {
	_s='' _i=0
	while [ "$_i" -lt "$3" ]; do
		_s="$_s\\$(printf '%03o' $(( ($4 >> (8 * _i)) & 255 )))"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2059 # the format is the octal escapes built above
	printf "$_s" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# xorbytes FILE OFFSET N: flip every bit of N bytes at OFFSET.
xorbytes() {
	_x=0
	while [ "$_x" -lt "$3" ]; do
		_b=$(od -An -v -t u1 -j $(($2 + _x)) -N 1 "$1" | tr -d ' ')
		put "$1" $(($2 + _x)) 1 $((_b ^ 255))
		_x=$((_x + 1))
	done
}

# records FILE START END: "offset type size" of each record in [START, END), walking
# header.size.  (No out-of-record payloads: the samples have no TRACING_DATA/AUXTRACE.)
records() {
	od -An -v -t u1 -j "$2" -N $(($3 - $2)) "$1" | awk -v base="$2" '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		p = 0
		while (p + 8 <= n) {
			size = b[p + 6] + 256 * b[p + 7]
			print base + p, b[p] + 256 * b[p + 1] + 65536 * b[p + 2], size
			if (size < 8)
				exit
			p += size
		}
	}'
}

# middle FILE START END [TYPE]: the offset of the first record (of TYPE, if given) that
# starts at or after the middle of [START, END).
middle() {
	records "$1" "$2" "$3" | awk -v mid=$(( ($2 + $3) / 2 )) -v t="${4:-}" '
		$1 >= mid && (t == "" || $2 == t) { print $1; exit }'
}

hex() { printf '%#x' "$1"; }

# new CASE: start OUTDIR/CASE afresh; sets $d.
new() {
	d=$out/$1
	rm -rf "$d"
	mkdir -p "$d"
}
offset() { echo "$1" >"$d/offset"; }
# var NAME VALUE: expected.stderr's @NAME@ is VALUE (a fact of the sample it was made from)
var() { echo "$1=$2" >>"$d/vars"; }

# data section of a regular file: sets $dstart, $dend.
data_section() {
	dstart=$(u64 "$1" 40)
	dend=$((dstart + $(u64 "$1" 48)))
}

mkdir -p "$out"

# --- cases ---------------------------------------------------------------------------

# The path does not exist.
new nonexistent
offset -

# A zero-byte file.
new empty
: >"$d/input"
offset 0

# A text file: the first 8 bytes are not PERFILE2.
new not-perf
printf 'This is a text file, not a perf.data recording.\nIt is long enough to hold a header.\nSo only the magic is wrong.\n' >"$d/input"
offset 0

# The first 50 bytes of a regular file: the 104-byte header is cut (the damage is the end
# of the file, at 0x32).
new truncated-header
head -c 50 "$samples/plain.data" >"$d/input"
offset "$(hex 50)"

# Pipe stream cut in the middle of its last record (what `perf record -o - | ...` leaves
# when killed): warning, the records before it are reported, exit 0.
new cut-last-record-pipe
f=$samples/pipe.data
last=$(records "$f" 16 "$(fsize "$f")" | awk '$3 > 8 { o = $1; s = $3 } END { print o, s }')
# shellcheck disable=SC2086 # two numbers
set -- $last
head -c $(($1 + $2 / 2)) "$f" >"$d/input"
offset "$(hex "$1")"

# Directory whose data.1 is cut in the middle of its last record: warning, exit 0.
new cut-last-record-dir
cp -R "$samples/threads.data" "$d/input"
f=$d/input/data.1
last=$(records "$f" 0 "$(fsize "$f")" | awk '$3 > 8 { o = $1; s = $3 } END { print o, s }')
# shellcheck disable=SC2086 # two numbers
set -- $last
head -c $(($1 + $2 / 2)) "$f" >"$f.tmp" && mv "$f.tmp" "$f"
offset "$(hex "$1")"

# A record in the middle of the data section claims size 0.
new record-size-zero
cp "$samples/plain.data" "$d/input"
data_section "$d/input"
r=$(middle "$d/input" "$dstart" "$dend")
var TYPE "$(u32 "$d/input" "$r")"
put "$d/input" $((r + 6)) 2 0
offset "$(hex "$r")"

# A pipe-format file with a record of size 0 in its middle: perf 6.1 prints its first
# two lines and "bad event header size", ends the stream there and exits 0; dirreport
# ends the stream there too, with a warning, and reports the records before it: what
# perf reports of the stream cut before that record (oracle/input).
new record-size-zero-pipe
cp "$samples/pipe.data" "$d/input"
r=$(middle "$d/input" 16 "$(fsize "$d/input")")
var TYPE "$(u32 "$d/input" "$r")"
put "$d/input" $((r + 6)) 2 0
offset "$(hex "$r")"
mkdir "$d/oracle"
head -c "$r" "$d/input" >"$d/oracle/input"

# The same pipe record with type 200: perf 6.1 prints "failed to process type: 200" and
# stops without a report (exit 0); an error here (damage, not a cut), exit 1. A pipe
# damaged half-way for the tests that need the run to fail (tests/pgsql's atomicity).
new record-type-unknown-pipe
cp "$samples/pipe.data" "$d/input"
r=$(middle "$d/input" 16 "$(fsize "$d/input")")
put "$d/input" "$r" 4 200
offset "$(hex "$r")"

# A record in the middle of the data section claims 0xfff8 bytes: past the end of the
# data section and of the file.
new record-size-past-end
cp "$samples/plain.data" "$d/input"
data_section "$d/input"
r=$(middle "$d/input" "$dstart" "$dend")
put "$d/input" $((r + 6)) 2 65528
offset "$(hex "$r")"

# A record in the middle of the data section has type 200 (unknown to perf 6.1 and to
# newer perf).
new record-type-unknown
cp "$samples/plain.data" "$d/input"
data_section "$d/input"
r=$(middle "$d/input" "$dstart" "$dend")
put "$d/input" "$r" 4 200
offset "$(hex "$r")"

# --threads -z directory whose data.1 starts with a COMPRESSED record (type 81) whose zstd
# frame magic (payload bytes 0..3, file bytes 8..11) is inverted.
new zstd-corrupt
cp -R "$samples/threads-z.data" "$d/input"
f=$d/input/data.1
[ "$(u32 "$f" 0)" = 81 ] || { echo "make.sh: $f does not start with COMPRESSED" >&2; exit 1; }
xorbytes "$f" 8 4
offset 0

# Directory with data.0 and data.1 but no `data` (the header file).
new dir-no-data
cp -R "$samples/threads.data" "$d/input"
rm "$d/input/data"
offset -

# Directory whose data.1 cannot be read.  chmod 000 does not stop root (CI runs as root),
# so data.1 is a dangling symlink: open() fails with ENOENT.
new dir-data-n-dangling
cp -R "$samples/threads.data" "$d/input"
rm "$d/input/data.1"
ln -s data.1.missing "$d/input/data.1"
offset -

# Directory whose data.1 is a directory: read() fails with EISDIR.
new dir-data-n-is-dir
cp -R "$samples/threads.data" "$d/input"
rm "$d/input/data.1"
mkdir "$d/input/data.1"
offset -

# Directory with extra entries: a file that is no data file (README), a data.N name
# that is not a number (data.x), an empty data.2 and a data.7 after the gap (a copy of
# data.1).  perf 6.1 reads every regular, non-empty file named data.* (data.x and data.7
# too) and skips the others; so does dirreport.
new dir-extra-files
cp -R "$samples/threads.data" "$d/input"
echo "not a data file" >"$d/input/README"
cp "$d/input/data.1" "$d/input/data.x"
: >"$d/input/data.2"
cp "$d/input/data.1" "$d/input/data.7"
offset -

# The file header's attr_size (offset 16) is 0.
new attr-size-zero
cp "$samples/plain.data" "$d/input"
put "$d/input" 16 8 0
offset "$(hex 16)"

# The first attr's own size field (attr + 4) says 200 bytes, larger than any perf attr
# (perf 6.1: 128; newer perf: 136) and inconsistent with the header's attr_size 144.
new attr-size-bad
cp "$samples/plain.data" "$d/input"
a=$(u64 "$d/input" 24)
put "$d/input" $((a + 4)) 4 200
offset "$(hex $((a + 4)))"

# The feature-table entry of HOSTNAME (feature 3) points past the end of the file.
new feature-offset-past-end
cp "$samples/plain.data" "$d/input"
data_section "$d/input"
bits=$(u64 "$d/input" 72)
[ $((bits >> 3 & 1)) = 1 ] || { echo "make.sh: plain.data has no HOSTNAME feature" >&2; exit 1; }
idx=$(( (bits >> 1 & 1) + (bits >> 2 & 1) ))	# set bits below 3 (bit 0 is never set)
e=$((dend + 16 * idx))
put "$d/input" "$e" 8 $(($(fsize "$d/input") + 4096))
var BODY "$(hex $(($(fsize "$d/input") + 4096)))"
var BODYSIZE "$(hex "$(u64 "$d/input" $((e + 8)))")"
offset "$(hex "$e")"

# Pipe stream (sample_type IP|TID|TIME|ID|PERIOD) in which a SAMPLE in the middle carries
# id 0xdeadbeef, which no attr owns.  The id is the 4th u64 of the body: record + 32.
new sample-unknown-id
f=$samples/pipe.data
cp "$f" "$d/input"
r=$(middle "$d/input" 16 "$(fsize "$f")" 9)
put "$d/input" $((r + 32)) 8 3735928559
offset "$(hex "$r")"

# A regular file cut inside its feature sections (a copy stopped half-way): the
# records are all there; the features from the cut on are ignored, one warning, exit 0.
# Cut in the middle of the CMDLINE body (feature 11).
new cut-in-features
cp "$samples/plain.data" "$d/input"
data_section "$d/input"
bits=$(u64 "$d/input" 72)
idx=0 f=1
while [ "$f" -lt 11 ]; do idx=$((idx + (bits >> f & 1))); f=$((f + 1)); done
e=$((dend + 16 * idx))
body=$(u64 "$d/input" "$e")
head -c $((body + 10)) "$samples/plain.data" > "$d/input"
offset "$(hex "$body")"

# perf record killed: the header still says data size 0 and no features; dirreport
# reads the data section to the end of the file (one warning, exit 0).
new data-size-zero
cp "$samples/plain.data" "$d/input"
data_section "$d/input"
head -c "$dend" "$samples/plain.data" > "$d/input"
put "$d/input" 48 8 0
put "$d/input" 72 32 0
offset 0x30

# The header's data offset points past the end of the file: damage (perf writes the data
# right after the attrs), an error naming the field.
new data-offset-past-end
cp "$samples/plain.data" "$d/input"
put "$d/input" 40 8 $(($(fsize "$d/input") + 65536))
var START "$(hex $(($(fsize "$d/input") + 65536)))"
var SIZE "$(hex "$(fsize "$d/input")")"
offset 0x28

# A pipe whose HEADER_TRACING_DATA record (type 66, with the tracing data that follows
# it: a u32 of its size at the record's byte 8) is cut out: its tracepoint samples
# have no format, which the trace key (-s trace) needs.  perf 6.1 crashes there
# (SIGSEGV).  The error names the first tracepoint sample delivered: the first SAMPLE
# after the cut in pipe-trace.data (its first round starts with it), at its offset in
# the file (the pipe's 16-byte header counted, as every error does).
new trace-no-tracing-data-pipe
f=$samples/pipe-trace.data
# shellcheck disable=SC2046 # three numbers
set -- $(od -An -v -t u1 -j 16 "$f" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function u32(at) { return b[at] + 256 * b[at + 1] + 65536 * b[at + 2] + 16777216 * b[at + 3] }
	END {
		p = 0; cut = -1; id = -1
		while (p + 8 <= n) {
			type = u32(p)
			size = b[p + 6] + 256 * b[p + 7]
			if (size < 8)
				exit 1
			len = size
			if (type == 64 && u32(p + 8) == 2 && id < 0)	# HEADER_ATTR, tracepoint
				id = u32(p + 16)			# its attr.config
			if (type == 66) {
				len += u32(p + 8)
				cut = p; cutlen = len
			} else if (type == 9 && cut >= 0) {
				print 16 + cut, cutlen, 16 + p - cutlen, id
				exit
			}
			p += len
		}
		exit 1
	}')
dd if="$f" of="$d/input" bs=1 count="$1" 2>/dev/null
dd if="$f" bs=1 skip=$(($1 + $2)) 2>/dev/null >>"$d/input"
var ID "$4"
offset "$(hex "$3")"

# A CPUDESC string cut to nothing: its feature-table entry says 0 bytes at the end of
# the file (an armv7 recording from another machine, tests/external). perf 6.1 reads
# its length past the end of the file, prints "# cpudesc : (null)", skips the later
# features (printed empty) and reports as usual; dirreport reads it so, with a warning
# naming the body (its cases: --header-only and --stdio, stdout = perf's).
for c in feature-string-cut feature-string-cut-stdio; do
	new $c
	cp tests/external/perf.data.armv7-3.4 "$d/input"
	: >"$d/empty.kallsyms"
	data_section "$d/input"
	bits=$(u64 "$d/input" 72)
	[ $((bits >> 8 & 1)) = 1 ] ||
		{ echo "make.sh: perf.data.armv7-3.4 has no CPUDESC feature" >&2; exit 1; }
	idx=0 b=1
	while [ $b -lt 8 ]; do idx=$((idx + (bits >> b & 1))); b=$((b + 1)); done
	e=$((dend + 16 * idx))
	put "$d/input" "$e" 8 "$(fsize "$d/input")"
	put "$d/input" $((e + 8)) 8 0
	offset "$(hex "$(fsize "$d/input")")"
done

echo "malformed inputs written to $out"
