#!/bin/sh
# tests/fuzz/seed.sh - derive the seed corpora of the fuzz targets from samples/*.data.
#
# Run from anywhere: `sh tests/fuzz/seed.sh`. Rewrites tests/fuzz/corpus/<target>/seed-*
# (other corpus files, e.g. from `make fuzz-merge`, stay). Every samples/*.data is used:
# regular files, pipe streams and data directories alike (files of 64 KB and more are
# skipped where a whole file is the seed). Every seed is < 64 KB; the input shapes are
# described at the top of each tests/fuzz/<target>.c.
# Needs POSIX sh, od, awk, head, tail, printf (the samples are little-endian), and
# build/dirconvert (BUILD=...: another build) for the indexes of fuzz_index's seeds.
set -eu
cd "$(dirname "$0")/../.."
S=samples
C=tests/fuzz/corpus
SEP=$(printf '\nFUZZSEP\n_')	# command substitution strips trailing newlines: keep a _
SEP=${SEP%_}

u16() { od -An -v -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
u32() { od -An -v -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
u64() { od -An -v -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
fsize() { wc -c <"$1" | tr -d ' '; }
# bytes FILE OFFSET COUNT: COUNT bytes of FILE from OFFSET to stdout
bytes() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
# byte N: one byte of value N to stdout
# shellcheck disable=SC2059 # the format is the octal escape built here
byte() { printf "\\$(printf '%03o' "$1")"; }
# u32le N: four bytes, little-endian
u32le() { byte $(($1 & 255)); byte $(($1 >> 8 & 255)); byte $(($1 >> 16 & 255)); byte $(($1 >> 24 & 255)); }
sep() { printf '%s' "$SEP"; }

TMP=${TMPDIR:-/tmp}/seed.$$
trap 'rm -rf "$TMP".*' EXIT
# fuzz_index's seeds are indexes dirconvert --index writes
DIRCONVERT=${BUILD:-build}/dirconvert
[ -x "$DIRCONVERT" ] || { echo "seed.sh: needs $DIRCONVERT (run make)" >&2; exit 1; }
for t in fuzz_header fuzz_features fuzz_sample fuzz_dump fuzz_session fuzz_zstd \
	fuzz_trace_event fuzz_index; do
	mkdir -p "$C/$t"
	rm -f "$C/$t"/seed-*	# seeds of samples that are gone go too
done

# records FILE START END: "offset size" of each record in [START, END) (header.size walk)
records() {
	od -An -v -t u1 -j "$2" -N $(($3 - $2)) "$1" | awk -v base="$2" '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		p = 0
		while (p + 8 <= n) {
			size = b[p + 6] + 256 * b[p + 7]
			if (size < 8 || p + size > n)
				exit
			print base + p, size
			p += size
		}
	}'
}

# chunks FILE START END MAX: "offset length" of runs of whole records of about MAX bytes
chunks() {
	records "$1" "$2" "$3" | awk -v max="$4" '
	{ if (len && len + $2 > max) { print start, len; len = 0 }
	  if (!len) start = $1
	  len += $2 }
	END { if (len) print start, len }'
}

MAX=65000	# bytes: every seed stays below 64 KB

# is_pipe FILE: the second u64 is 16 (pipe header)
is_pipe() { [ "$(u64 "$1" 8)" = 16 ]; }
# small FILE...: the files' total size fits a seed
small() { [ "$(cat "$@" | wc -c | tr -d ' ')" -lt $MAX ]; }

# --- fuzz_features: [id][body] per feature, and one [0x80][id][u32 len][body]... --------
feature_seeds() {	# FILE NAME
	_f=$1
	_ds=$(u64 "$_f" 40)
	_dz=$(u64 "$_f" 48)
	_bits=$(u64 "$_f" 72)	# features 0..63 (perf 6.1 has none above)
	_e=$((_ds + _dz))
	_multi="$C/fuzz_features/seed-$2-all"
	byte 128 >"$_multi"
	_id=0
	while [ $_id -lt 64 ]; do
		if [ $((_bits >> _id & 1)) -eq 1 ]; then
			_off=$(u64 "$_f" "$_e")
			_sz=$(u64 "$_f" $((_e + 8)))
			_e=$((_e + 16))
			if [ "$_sz" -lt 16384 ]; then
				{ byte $_id; bytes "$_f" "$_off" "$_sz"; } \
					>"$C/fuzz_features/seed-$2-$_id"
				{ byte $_id; u32le "$_sz"; bytes "$_f" "$_off" "$_sz"; } >>"$_multi"
			fi
		fi
		_id=$((_id + 1))
	done
	[ "$(fsize "$_multi")" -lt $MAX ] || rm -f "$_multi"
}

# --- fuzz_sample, fuzz_dump: [flags][attr][nr ids][ids][records] ---------------------------
# attr_prefix HDRFILE: flags (evsels = attrs, at most 3), the first attr as stored, and
# the ids of all attrs (at most 7)
attr_prefix() {
	_a=$1
	_aoff=$(u64 "$_a" 24)
	_atot=$(u64 "$_a" 32)
	_asz=$(u32 "$_a" $((_aoff + 4)))
	_nattr=$((_atot / (_asz + 16)))
	[ $_nattr -gt 3 ] && _nattr=3
	[ $_nattr -lt 1 ] && _nattr=1
	_ids=
	_k=0
	while [ $_k -lt $_nattr ]; do
		_e=$((_aoff + _k * (_asz + 16) + _asz))
		_ids="$_ids $(u64 "$_a" "$_e"):$(($(u64 "$_a" $((_e + 8))) / 8))"
		_k=$((_k + 1))
	done
	byte $(((_nattr - 1) << 1))
	bytes "$_a" "$_aoff" "$_asz"
	_n=0
	for _x in $_ids; do _n=$((_n + ${_x#*:})); done
	[ $_n -gt 7 ] && _n=7
	byte $_n
	for _x in $_ids; do
		_c=${_x#*:}
		[ "$_c" -gt "$_n" ] && _c=$_n
		[ "$_c" -gt 0 ] && bytes "$_a" "${_x%:*}" $((_c * 8))
		_n=$((_n - _c))
	done
}
sample_seeds() {	# FILE NAME HDRFILE START END
	_pre=$TMP.pre
	attr_prefix "$3" >"$_pre"
	_k=0
	chunks "$1" "$4" "$5" 2048 | head -n 8 | while read -r off len; do
		for t in fuzz_sample fuzz_dump; do
			{ cat "$_pre"; bytes "$1" "$off" "$len"; } >"$C/$t/seed-$2-$_k"
		done
		_k=$((_k + 1))
	done
	rm -f "$_pre"
}

# --- fuzz_trace_event: [flags][u32 config][u16 raw_len][raw][TRACING_DATA] ----------------
# For a regular file with a TRACING_DATA feature (the first feature section then) and
# samples whose RAW data no READ or CALLCHAIN precedes: its first 8 SAMPLE records, config
# = the record's common_type (the tracepoint id).
trace_seeds() {	# FILE NAME
	[ $(($(u64 "$1" 72) >> 1 & 1)) -eq 1 ] || return 0
	_ds=$(u64 "$1" 40)
	_de=$((_ds + $(u64 "$1" 48)))
	_toff=$(u64 "$1" "$_de")
	_tsz=$(u64 "$1" $((_de + 8)))
	[ "$_tsz" -lt 60000 ] || return 0
	_st=$(u64 "$1" $(($(u64 "$1" 24) + 24)))	# the first attr's sample_type
	[ $((_st & 1024)) -ne 0 ] && [ $((_st & 48)) -eq 0 ] || return 0
	_pos=8		# RAW's size field: after the u64 fields before it
	for _b in 65536 1 2 4 8 64 512 128 256; do
		[ $((_st & _b)) -eq 0 ] || _pos=$((_pos + 8))
	done
	_k=0
	records "$1" "$_ds" "$_de" | while read -r off size; do
		[ "$(u32 "$1" "$off")" = 9 ] || continue
		[ $_k -lt 8 ] || break
		_rs=$(u32 "$1" $((off + _pos)))
		{ byte $((_k % 4)); u32le "$(u16 "$1" $((off + _pos + 4)))"
		  byte $((_rs & 255)); byte $((_rs >> 8 & 255))
		  bytes "$1" $((off + _pos + 4)) "$_rs"; bytes "$1" "$_toff" "$_tsz"
		} >"$C/fuzz_trace_event/seed-$2-$_k"
		_k=$((_k + 1))
	done
}

# --- per sample -------------------------------------------------------------------------
for f in "$S"/*.data; do
	n=$(basename "$f" .data)
	if [ -d "$f" ]; then
		# a data directory: data + the first three data.N
		# shellcheck disable=SC2046,SC2012 # data.N names have no blanks
		set -- $(cd "$f" && ls data.* 2>/dev/null | head -n 3)
		[ -f "$f/data" ] || continue
		small "$f/data" && cp "$f/data" "$C/fuzz_header/seed-$n-data"
		feature_seeds "$f/data" "$n"
		for d in "$@"; do
			sample_seeds "$f/$d" "$n-${d#data.}" "$f/data" 0 "$(fsize "$f/$d")"
		done
		for fl in 0 $((0x08 | 0x20 | 0x80)); do
			{ byte $fl; cat "$f/data"; for d in "$@"; do sep; cat "$f/$d"; done; } \
				>"$C/fuzz_session/seed-$n-$fl"
			[ "$(fsize "$C/fuzz_session/seed-$n-$fl")" -lt $MAX ] ||
				rm -f "$C/fuzz_session/seed-$n-$fl"
		done
		# fuzz_zstd: [flags][attr][data.0] SEP [data.1]
		[ $# -ge 1 ] || continue
		aoff=$(u64 "$f/data" 24)
		asz=$(u32 "$f/data" $((aoff + 4)))
		d0=$f/$1 d1=$f/${2:-$1}
		zs() {	# SUFFIX FLAGS
			{ byte "$2"; bytes "$f/data" "$aoff" "$asz"; cat "$d0"; sep; cat "$d1"; } \
				>"$C/fuzz_zstd/seed-$n-$1"
		}
		t=$(u32 "$d0" 0)
		if [ "$t" = 81 ] || [ "$t" = 83 ]; then
			# compressed data.N as they are (flags bit 0), also with window 3, twice
			zs raw 1
			zs raw-w3 $((1 | 0x40 | 0x80))
		else
			# raw records, compressed by the target: chunks of 256 and 16384 bytes,
			# COMPRESSED2, one frame per container, window 3, twice
			zs c256 $((3 << 3))
			zs c16k-v2 $((6 << 3 | 2 | 0x80))
			zs c7-end-w3 $((1 << 3 | 4 | 0x40))
		fi
	elif is_pipe "$f"; then
		small "$f" || continue
		{ byte 2; cat "$f"; } >"$C/fuzz_session/seed-$n"
		{ byte $((2 | 0x80)); cat "$f"; } >"$C/fuzz_session/seed-$n-dump"
		# the attr and its ids come from the HEADER_ATTR record at offset 16
		pasz=$(u32 "$f" 28)
		pnids=$((($(u16 "$f" 22) - 8 - pasz) / 8))
		[ $pnids -gt 7 ] && pnids=7
		pre=$TMP.pre
		{ byte 0; bytes "$f" 24 "$pasz"; byte $pnids
		  [ $pnids -eq 0 ] || bytes "$f" $((24 + pasz)) $((pnids * 8)); } >"$pre"
		k=0
		chunks "$f" 16 "$(fsize "$f")" 2048 | head -n 8 | while read -r off len; do
			for t in fuzz_sample fuzz_dump; do
				{ cat "$pre"; bytes "$f" "$off" "$len"; } >"$C/$t/seed-$n-$k"
			done
			k=$((k + 1))
		done
		rm -f "$pre"
	else
		small "$f" && cp "$f" "$C/fuzz_header/seed-$n"
		feature_seeds "$f" "$n"
		ds=$(u64 "$f" 40)
		sample_seeds "$f" "$n" "$f" "$ds" $((ds + $(u64 "$f" 48)))
		trace_seeds "$f" "$n"
		small "$f" || continue
		{ byte 1; cat "$f"; } >"$C/fuzz_session/seed-$n"
		# window 1 compared with the default window, twice delivered, then -D
		{ byte $((1 | 0x04 | 0x20 | 0x80)); cat "$f"; } >"$C/fuzz_session/seed-$n-w1-dump"
	fi
done

# --- cross-endian (big-endian) inputs, hand-made: no sample is big-endian ------------------
be16() { byte $(($1 >> 8 & 255)); byte $(($1 & 255)); }
be32() { be16 $(($1 >> 16 & 65535)); be16 $(($1 & 65535)); }
be64() { be32 $(($1 >> 32 & 4294967295)); be32 $(($1 & 4294967295)); }
zeros() { head -c "$1" /dev/zero; }
# attr: software cpu-clock, 128 bytes, sample_type IP|TID|TIME|ID|CPU|PERIOD (455),
# flags disabled|inherit|mmap|comm|freq|sample_id_all as a big-endian bit-field
be_attr() {
	be32 1; be32 128; be64 0; be64 4000; be64 455; be64 0
	byte 192; byte 224; byte 32; zeros 5
	zeros 80
}
# records: COMM, three SAMPLEs, EXIT, FINISHED_ROUND (trailer: pid tid time id cpu res)
be_trailer() { be32 42; be32 42; be64 "$1"; be64 7; be32 1; be32 0; }
be_records() {
	be32 3; be16 0; be16 56; be32 42; be32 42; printf 'fuzz'; zeros 4; be_trailer 1000
	for t in 2000 3000 2500; do
		be32 9; be16 2; be16 56; be64 $((0x400000 + t)); be32 42; be32 42; be64 $t
		be64 7; be32 1; be32 0; be64 4000
	done
	be32 4; be16 0; be16 64; be32 42; be32 1; be32 42; be32 1; be64 4000; be_trailer 4000
	be32 68; be16 0; be16 8
}
be_file() {
	_rl=$(be_records | wc -c | tr -d ' ')
	_ft=$((256 + _rl))			# feature table: HOSTNAME, NRCPUS
	printf '2ELIFREP'; be64 104; be64 144; be64 104; be64 144; be64 256; be64 "$_rl"
	be64 0; be64 0; be64 136; be64 0; be64 0; be64 0	# features 3 and 7
	be_attr; be64 248; be64 8			# attr, its ids section
	be64 7						# the id
	be_records
	be64 $((_ft + 32)); be64 20; be64 $((_ft + 52)); be64 8
	be32 16; printf 'fuzzhost'; zeros 8		# HOSTNAME
	be32 2; be32 2					# NRCPUS
}
be_pipe() {
	printf '2ELIFREP'; be64 16
	be32 64; be16 0; be16 144; be_attr; be64 7	# HEADER_ATTR with one id
	be_records
}
be_file >"$C/fuzz_header/seed-swapped"
{ byte 1; be_file; } >"$C/fuzz_session/seed-swapped"
{ byte $((1 | 0x04 | 0x20 | 0x80)); be_file; } >"$C/fuzz_session/seed-swapped-w1-dump"
{ byte 2; be_pipe; } >"$C/fuzz_session/seed-swapped-pipe"
{ byte $((2 | 0x80)); be_pipe; } >"$C/fuzz_session/seed-swapped-pipe-dump"
for t in fuzz_sample fuzz_dump; do
	{ byte 1; be_attr; byte 1; be64 7; be_records; } >"$C/$t/seed-swapped"
done

# --- fuzz_index: [flags][index] SEP [the recording's files] ---------------------------
# Small samples indexed by dirconvert (entries of 4096 bytes: several per file) under
# the names the target writes them: a single file as file.data, a data directory with
# `data`, `data.0` and `data.1` at most. Flags: 0 (CRCs and freshness made by the
# target), 8 (one entry's samples kept: the index's side-band lists), and the index
# alone.
ix_seed() {	# NAME FLAGS INDEX FILES...
	_n=$1 _fl=$2 _ix=$3
	shift 3
	{ byte "$_fl"; cat "$_ix"; for _f in "$@"; do sep; cat "$_f"; done; } \
		>"$C/fuzz_index/seed-$_n-$_fl"
	[ "$(fsize "$C/fuzz_index/seed-$_n-$_fl")" -lt $MAX ] || rm -f "$C/fuzz_index/seed-$_n-$_fl"
}
for n in plain per-thread callchain dwarf-z; do
	[ -f "$S/$n.data" ] || continue
	rm -rf "$TMP.f" && mkdir "$TMP.f" && cp "$S/$n.data" "$TMP.f/file.data"
	"$DIRCONVERT" --index "$TMP.f/file.data" --index-interval 4096 >/dev/null 2>&1 ||
		continue
	for fl in 0 8; do
		ix_seed "$n" "$fl" "$TMP.f/file.data.dirindex" "$TMP.f/file.data"
	done
	[ "$n" = plain ] && ix_seed "$n-alone" 0 "$TMP.f/file.data.dirindex"
done
for n in threads threads-z; do
	d=$S/$n.data
	[ -f "$d/data" ] && [ ! -e "$d/data.2" ] || continue
	rm -rf "$TMP.dir" && cp -R "$d" "$TMP.dir"
	"$DIRCONVERT" --index "$TMP.dir" --index-interval 4096 >/dev/null 2>&1 || continue
	# shellcheck disable=SC2046,SC2012 # data.N names have no blanks
	set -- $(cd "$TMP.dir" && ls data.* 2>/dev/null)
	for fl in 4 12; do
		ix_seed "$n" "$fl" "$TMP.dir/dirindex" "$TMP.dir/data" \
			$(for x in "$@"; do echo "$TMP.dir/$x"; done)
	done
done

du -sh "$C" | sed 's/^/seed.sh: corpus /'
