#!/bin/sh
# bench/device/make-payload.sh DIR FILE [OUT] - everything a scaling run needs on
# another x86-64 machine that has none of our libraries (the device tool), into OUT
# (default .devrun, which must be git-ignored: `echo /.devrun/ >> .git/info/exclude`):
#   bin/     dirreport, dirconvert of $BUILD (default build/) as bin/, and zstd
#   lib/     every library they load, and the dynamic loader (run.sh starts them
#            through it, whatever the other machine's libc)
#   payload.tar.zst   the recordings DIR and FILE, and a build-id cache (HOME/.debug)
#            with the kallsyms and vdso they name and the binaries they have samples
#            in, without DWARF and with their code and data zeroed (blank_code) so
#            that they compress (a report of frame-pointer chains reads neither), with
#            their /usr/lib/debug files: the other machine resolves as this one does
#   run.sh, bench.py  the run (bench/device/)
#   expected/ the --stdio and flat reports of each recording made here (gzip), which
#            bench.py holds the other machine's outputs to.  Samples in a dso that
#            the recording has no build-id for (perf record notes those of the
#            dsos its samples' addresses hit, not their call chains') resolve from
#            the file at its path, here and there alike, so their lines may differ
# bin/ and lib/ travel as progs.tar.xz (programs stripped; python3's tarfile unpacks
# it there), so that the payload and the repository stay under the tool's 64 MiB.
# The recordings must have been made on this machine's running kernel (its
# /proc/kallsyms is stored as theirs).  To compare builds, name other builds'
# folders in BASE and BASE2: their programs go to bin0 and bin2 (bench.py runs bin0,
# bin and bin2, those that exist).
# DWARF=REC adds a --call-graph dwarf recording (dwarf.data); the binaries it has
# samples in are kept whole (unwinding reads their .eh_frame and code).
# Run from the repository root; needs perf, objcopy, zstd.
set -eu
[ $# -ge 2 ] || { sed -n '2p' "$0" >&2; exit 2; }
dir=$1 file=$2 out=${3:-.devrun}
build=${BUILD:-build}
mkdir -p "$out/bin" "$out/lib"
cp "$build/dirreport" "$build/dirconvert" "$(command -v zstd)" "$out/bin/"
if [ -n "${BASE:-}" ]; then
	mkdir -p "$out/bin0"
	cp "$BASE/dirreport" "$BASE/dirconvert" "$out/bin0/"
fi
if [ -n "${BASE2:-}" ]; then
	mkdir -p "$out/bin2"
	cp "$BASE2/dirreport" "$BASE2/dirconvert" "$out/bin2/"
fi
for b in "$out"/bin/*; do
	ldd "$b" | awk '/=>/ { print $3 } /ld-linux/ && !/=>/ { print $1 }'
done | sort -u | while read -r l; do cp -L "$l" "$out/lib/"; done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/payload.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -R "$dir" "$tmp/dir.data"
cp "$file" "$tmp/file.data"
whole=
if [ -n "${DWARF:-}" ]; then
	cp -R "$DWARF" "$tmp/dwarf.data"
	whole=$(perf buildid-list -i "$DWARF" --with-hits 2>/dev/null | awk '{ print $1 }')
fi
# blank_code ELF: zero the bytes of its code and data sections in place, so that it
# compresses to its symbol tables, relocations and headers; the layout, .dynsym, .plt
# and the notes stay, so symbols resolve exactly as from the whole file (objcopy
# --only-keep-debug would drop a stripped binary's .dynsym and its PLT entries: the
# report of perl's samples lost its Perl_* symbols that way).
blank_code() {
	readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
	awk '$1 ~ /^\.(text|rodata|data|data\.rel\.ro|gcc_except_table|lrodata|ldata)$/ &&
	     $2 != "NOBITS" { print $4, $5 }' |
	while read -r off size; do
		dd if=/dev/zero of="$1" bs=1M conv=notrunc oflag=seek_bytes \
			iflag=count_bytes seek=$((0x$off)) count=$((0x$size)) 2>/dev/null
	done
}
cache=$tmp/home/.debug
mkdir -p "$cache"
for d in "$dir" "$file" ${DWARF:+"$DWARF"}; do
	perf buildid-list -i "$d" 2>/dev/null
done | sort -u | while read -r bid path; do
	hi=$(echo "$bid" | cut -c1-2)
	lo=$(echo "$bid" | cut -c3-)
	case $path in
	'[kernel.kallsyms]')
		mkdir -p "$cache/[kernel.kallsyms]/$bid"
		cp /proc/kallsyms "$cache/[kernel.kallsyms]/$bid/kallsyms" ;;
	'[vdso]')
		if [ -d "$HOME/.debug/[vdso]/$bid" ]; then
			mkdir -p "$cache/[vdso]"
			cp -R "$HOME/.debug/[vdso]/$bid" "$cache/[vdso]/"
			mkdir -p "$cache/.build-id/$hi/$lo"
			cp "$HOME/.debug/[vdso]/$bid/vdso" "$cache/.build-id/$hi/$lo/vdso"
		fi ;;
	'['*) ;;
	*)
		# the build-id cache's copy first, as dirreport and perf look: the file at
		# the recorded path may have been upgraded since
		src=$HOME/.debug/.build-id/$hi/$lo/elf
		[ -f "$src" ] || src=$path
		[ -f "$src" ] || continue
		mkdir -p "$cache/.build-id/$hi/$lo"
		case " $(echo $whole) " in
		*" $bid "*) cp "$src" "$cache/.build-id/$hi/$lo/elf" ;;
		*) objcopy --strip-debug "$src" "$cache/.build-id/$hi/$lo/elf"
		   blank_code "$cache/.build-id/$hi/$lo/elf" ;;
		esac
		if [ -f "/usr/lib/debug/.build-id/$hi/$lo.debug" ]; then
			objcopy --strip-debug "/usr/lib/debug/.build-id/$hi/$lo.debug" \
				"$cache/.build-id/$hi/$lo/debug"
		fi ;;
	esac
done
# what the report prints here, to hold the other machine's output to (bench.py)
mkdir -p "$out/expected"
for d in dir file ${DWARF:+dwarf}; do
	"$build/dirreport" -i "$tmp/$d.data" --stdio 2>/dev/null | gzip -9 >"$out/expected/$d-report.gz"
	"$build/dirreport" -i "$tmp/$d.data" --stdio --no-children -g none 2>/dev/null |
		gzip -9 >"$out/expected/$d-flat.gz"
done
(cd "$tmp" && tar cf - dir.data file.data ${DWARF:+dwarf.data} home) |
	zstd -q -T0 -19 --long=27 -o "$out/payload.tar.zst" -f
strip "$out"/bin*/dir*
(cd "$out" && tar cf - bin* lib | xz -9 -T0 >progs.tar.xz && rm -rf bin* lib)
cp bench/device/run.sh bench/device/bench.py bench/device/threads.py "$out/"
du -sh "$out"
