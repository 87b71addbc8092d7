#!/bin/sh
# samples/record.sh - record the bundled sample recordings with the installed perf.
#
# Run from the repository root: `sh samples/record.sh [NAME...]` (NAME: a recording
# below without .data; default: all).  The golden files depend on the recordings:
# re-record one only together with its golden cases.  Every path is relative so that
# perf's stored command line and the golden `-D` output never name a path of this machine.
# Workloads are programs of a stock Debian system only.  Needs perf and root (or
# kernel.perf_event_paranoid <= 1 for a task-bound cpu-clock recording).
#
# The kernel symbols every recording needs travel with it, as perf carries a recording to
# another machine: perf record runs with a fresh build-id cache (HOME is a temporary
# directory, so ~/.debug is its .debug), and what it put there for the kernel
# ([kernel.kallsyms]/<build-id>/kallsyms, a copy of /proc/kallsyms) and the vdso
# ([vdso]/<build-id>/vdso) is merged into samples/buildid-cache.tar.xz, perf's ~/.debug
# layout, which `make` unpacks into samples/buildid-cache/ (tests/README.md).  Pipe
# recordings and -z recordings name no kernel build-id, so perf (and dirreport) can only
# be given their kernel symbols with --kallsyms: NAME.data.kallsyms is a link to the
# running kernel's copy.
# The user-space files travel too, as `perf archive` carries them: every ELF file a
# recording's workload mapped (programs, libc, ld.so, libm, ...) is added to the same cache
# with `perf buildid-cache -a` (<path>/<build-id>/elf, and its detached debug info from
# /usr/lib/debug as <path>/<build-id>/debug: libc6-dbg's symbols and DWARF), so that perf
# and dirreport resolve user space through the cache whatever point release of libc, perl
# or python the machine has.  That needs every such file named by build-id in the
# recording: perf 6.1 writes no BUILD_ID feature for -z and pipe recordings, and only for
# the dsos with sample hits otherwise, so those recordings are made with --buildid-mmap
# (every MMAP2 record carries its file's build-id) and the DWARF ones, whose unwound
# callers are no hits, with --buildid-all.
#
# After recording, run `sh tests/golden/update.sh` to regenerate perf's golden outputs.
set -eu
cd "$(dirname "$0")/.."
PATH=/usr/bin:/bin:/usr/sbin:/sbin; export PATH

tmp=$(mktemp -d "${TMPDIR:-/tmp}/record.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/home"
HOME=$tmp/home; export HOME
cache=$HOME/.debug

work='dd if=/dev/zero bs=64k count=300 2>/dev/null | gzip -1 | sha256sum >/dev/null; seq 1 30000 | sort -r | md5sum >/dev/null'

rec() {
	out=$1; shift
	want "$out" || return 0
	rm -rf "samples/$out"
	perf record -q -o "samples/$out" "$@" >/dev/null 2>&1
}

# kernel_build_id: the running kernel's build-id (perf buildid-list -k).
kernel_build_id() {
	perf buildid-list -k 2>/dev/null | head -n 1
}

# pipe NAME.data PERF-RECORD-ARGS...: a pipe-format recording.
pipe() {
	out=$1; shift
	want "$out" || return 0
	rm -f "samples/$out"
	perf record -q -o - "$@" >"samples/$out" 2>/dev/null
}

# want NAME.data: recorded in this run?
want() {
	[ -z "$names" ] && return 0
	case " $names " in *" ${1%.data} "*) return 0 ;; esac
	return 1
}
names="$*"

# single regular file
rec plain.data -e cpu-clock -F 2000 -- sh -c "$work"
# perf record --threads: a data directory (data + data.N)
rec threads.data --threads -e cpu-clock -F 2000 -- sh -c "$work"
# --threads -z: every data.N is a zstd stream of COMPRESSED records
rec threads-z.data --threads -z --buildid-mmap -e cpu-clock -F 2000 -- sh -c "$work"
# -g: frame-pointer callchains
rec callchain.data -g -e cpu-clock -F 1000 -- sh -c "$work"
# pipe format written to a file
pipe pipe.data --buildid-mmap -e cpu-clock -F 2000 -- sh -c "$work"
# -a -g: system-wide with callchains; perf adds the dummy:HG side-band event.  Other
# processes of the machine are in it, and their binaries may be gone later (perf and
# dirreport then agree on printing addresses): the --stdio goldens would go stale, so
# only -D and --header-only have golden files; --stdio is compared live.
rec system-g.data -a -g -F 200 -- sh -c "$work"
# --threads=core -z -g: compressed directory with callchains, one stream per core
rec threads-core-zg.data --threads=core -z --buildid-mmap -g -e cpu-clock -F 1000 -- sh -c "$work"
# the other --threads specs: one stream per package, per NUMA node, and a user spec
# (cpu mask/affinity mask of each stream)
rec threads-package.data --threads=package -e cpu-clock -F 1000 -- sh -c "$work"
rec threads-numa.data --threads=numa -e cpu-clock -F 1000 -- sh -c "$work"
rec threads-user.data --threads=0/0:1/1 -e cpu-clock -F 1000 -- sh -c "$work"
# two events
rec two-events.data -e cpu-clock,task-clock -F 1000 -- sh -c "$work"
# event groups (GROUP_DESC; perf report's group view): two timers sampling alike
rec group.data -e '{cpu-clock,task-clock}' -F 1000 -- sh -c "$work"
# a group whose member samples elsewhere (page faults: entries the leader lacks)
rec group-pf.data -e '{cpu-clock,page-faults}' -F 1000 -- sh -c "$work"
# a lone event, an anonymous group and a named group
rec group-mixed.data -e 'page-faults,{cpu-clock,task-clock},grp{minor-faults,context-switches}' -F 1000 -- sh -c "$work"
# a group with callchains
rec group-g.data -g -e '{cpu-clock,page-faults}' -F 1000 -- sh -c "$work"
# groups with events that take no samples (major faults of cached programs): a
# leader (perf skips its whole group) and a member in the middle
rec group-empty.data -e '{major-faults,cpu-clock},{cpu-clock,major-faults,task-clock}' -F 1000 -- sh -c "$work"
# -g in pipe format: perf report cancels its children view there (a pipe's events are
# not known when it decides) and keeps the caller order of that view's call graphs
pipe pipe-g.data --buildid-mmap -g -e cpu-clock -F 1000 -- sh -c "$work"
# a group in pipe format (GROUP_DESC comes as a feature record)
pipe group-pipe.data --buildid-mmap -e '{cpu-clock,page-faults}' -F 1000 -- sh -c "$work"
# page faults with -d --phys-data --data-page-size: non-zero data addresses (the
# faulting address), their physical addresses and page sizes (--mem-mode's keys)
rec mem-pf.data -d --phys-data --data-page-size -e page-faults -c 20 -- sh -c "$work"
# ... with callchains (--mem-mode's entries have call graphs, no children view)
rec mem-pf-g.data -g -d -e page-faults -c 50 -- sh -c "$work"
# -T --sample-cpu -d: time stamps, cpus, data addresses
rec tcd.data -T --sample-cpu -d -e cpu-clock -F 1000 -- sh -c "$work"
# tracepoints only (perf's default sort is then the trace output, from TRACING_DATA):
# fixed char arrays, __print_flags, __data_loc strings and a ternary in the print fmts
rec trace.data -e sched:sched_switch,sched:sched_wakeup,sched:sched_process_exec,sched:sched_process_fork,sched:sched_process_exit -- sh -c "$work"
# tracepoints in pipe format: the TRACING_DATA record with its payload after it; perf's
# default sort stays comm,dso,sym there (it is chosen before the events are known)
pipe pipe-trace.data \
	-e sched:sched_process_exec,sched:sched_process_fork,sched:sched_process_exit \
	-- sh -c "$work"
# -W: sample weights (WEIGHT_STRUCT; zero for cpu-clock on machines without PEBS)
rec weight.data -W -e cpu-clock -F 1000 -- sh -c "$work"
# --all-cgroups --namespaces: CGROUP and NAMESPACES records, sample cgroup ids (the
# cgroup and cgroup_id keys; on a machine where everything runs in the root cgroup)
rec cgroup.data --all-cgroups --namespaces -e cpu-clock -F 1000 -- sh -c "$work"
# --code-page-size: page sizes of the sampled code (the code_page_size key)
rec pagesize.data --code-page-size -e cpu-clock -F 1000 -- sh -c "$work"
# -g at 4 kHz on sort's libc string functions, whose lines libc6-dbg has (the
# srcline and srcfile keys; the children view's absolute frame addresses)
rec srcline-g.data -g -e cpu-clock -F 4000 -- sh -c 'seq 1 200000 | sort -r | md5sum >/dev/null'
# --per-thread
rec per-thread.data --per-thread -e cpu-clock -F 1000 -- sh -c "$work"
# --call-graph dwarf: user registers and a copy of the user stack, unwound at report
# time (4096 bytes, less than the programs' stacks: unwinding stops where the copy
# ends).  Processes that fork and exec keep their parent's maps (perf's libunwind
# then finds no CFI in their libraries); libc6-dbg's DWARF names inlined functions.
dwarf='--call-graph dwarf,4096 -e cpu-clock -F 300'
rec dwarf.data --buildid-all $dwarf -- sh -c "$work"
# ... a directory, -z, and interpreters (one process each, deep stacks)
rec dwarf-threads.data --threads --buildid-all $dwarf -- sh -c "$work"
rec dwarf-z.data -z --buildid-mmap $dwarf -- sh -c "$work"
rec dwarf-perl.data -z --buildid-mmap $dwarf -F 1000 -- perl -e 'my $s = 0; $s += sqrt($_) for 1 .. 4000000; print "$s\n"'
rec dwarf-python.data -z --buildid-mmap $dwarf -F 1000 -- python3 -c 'print(sum(i * i for i in range(3000000)))'

# is_pipe FILE: a pipe-format recording (its header is 16 bytes: size field 16)?
is_pipe() {
	[ -f "$1" ] && [ "$(od -An -tu8 -j8 -N8 "$1" | tr -d ' ')" = 16 ]
}

# Recordings whose header names no kernel build-id (pipes, and -z recordings: perf 6.1
# writes no BUILD_ID feature for them; their MMAP2 records may name it) get
# NAME.data.kallsyms, a link to the running kernel's kallsyms in the cache: their golden
# cases give it to perf and dirreport with --kallsyms.
bid=$(kernel_build_id)
for s in samples/*.data; do
	want "$(basename "$s")" || continue
	rm -f "$s.kallsyms"
	! is_pipe "$s" &&
		! perf report --header-only -i "$s" 2>/dev/null |
			grep -q '^# missing features:.* BUILD_ID' &&
		perf buildid-list -i "$s" 2>/dev/null |
		grep -q '^[0-9a-f]\{40\} \[kernel\.kallsyms\]$' &&
		continue
	mkdir -p "$cache/[kernel.kallsyms]/$bid"
	[ -f "$cache/[kernel.kallsyms]/$bid/kallsyms" ] ||
		cp /proc/kallsyms "$cache/[kernel.kallsyms]/$bid/kallsyms"
	ln -s "buildid-cache/[kernel.kallsyms]/$bid/kallsyms" "$s.kallsyms"
done

# mmaps FILE: the build-ids and the files of FILE's MMAP2 records of the build-id form
# ("BUILD-ID PATH" lines).
mmaps() {
	perf script -i "$1" --show-mmap-events -F comm 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2 .* <\([0-9a-f]*\)>\]: [^ ]* \(.*\)$/\1 \2/p'
}

# The running kernel's vdso image ([vdso]/<build-id>/vdso), which the --buildid-mmap
# recordings name but perf record caches only where it writes build-ids: a recording of
# nothing with --buildid-all caches it (and the kernel's kallsyms).
perf record -q --buildid-all -o "$tmp/vdso.data" -e cpu-clock -- true >/dev/null 2>&1

# The user-space files of this run's recordings (not system-g.data's: its other processes
# are compared live only), each added to the cache with the build-id it has here.
for s in samples/*.data; do
	want "$(basename "$s")" || continue
	case $s in samples/system-g.data) continue ;; esac
	{ perf buildid-list -i "$s" 2>/dev/null; mmaps "$s"; } | awk '$2 ~ /^\// { print $2 }'
	perf script -i "$s" --show-mmap-events -F comm 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2* .*\]: [^ ]* \(\/.*\)$/\1/p'
done | LC_ALL=C sort -u | while read -r f; do
	[ -f "$f" ] && [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = 177ELF ] || continue
	perf buildid-cache -a "$f" 2>/dev/null || echo "record.sh: cannot cache $f" >&2
done

# The build-id cache: the entries already kept (other samples may need them), plus this
# run's; entries whose build-id no recording and no link names any more are dropped.
keep=$tmp/keep
mkdir -p "$keep"
[ -f samples/buildid-cache.tar.xz ] && tar -xJf samples/buildid-cache.tar.xz -C "$keep"
[ -d "$cache" ] && (cd "$cache" && find . -mindepth 1 -path ./.build-id -prune -o -type f -print) |
	while read -r f; do
		mkdir -p "$keep/$(dirname "$f")"
		cp -p "$cache/$f" "$keep/$f"
	done
used=$tmp/used
for s in samples/*.data; do
	perf buildid-list -i "$s" 2>/dev/null | awk '{ print $1 }'
	mmaps "$s" | awk '{ print $1 }'
done >"$used"
for l in samples/*.kallsyms; do
	[ -L "$l" ] && readlink "$l" | awk -F/ '{ print $3 }'
done >>"$used"
# entries: <path>/<build-id>/ directories (40 hex digits)
entries() {
	(cd "$keep" && find . -path ./.build-id -prune -o -type d -print |
		grep '/[0-9a-f]\{40\}$' | sed 's|^\./||' | LC_ALL=C sort)
}
for e in $(entries | tr ' ' '?'); do
	e=$(echo "$e" | tr '?' ' ')
	grep -qx "$(basename "$e")" "$used" || rm -rf "$keep/$e"
done
find "$keep" -depth -type d -empty -delete
mkdir -p "$keep"
# a build-id named by a recording whose file is not cached (re-record that sample)
for b in $(LC_ALL=C sort -u "$used"); do
	echo "$b" | grep -q '^[0-9a-f]\{40\}$' || continue
	entries | grep -q "/$b\$" ||
		echo "record.sh: build-id $b is named by a recording but not cached" >&2
done
# perf's .build-id/xx/yyyy... links to the kept entries
rm -rf "$keep/.build-id"
entries | while read -r e; do
	b=$(basename "$e")
	mkdir -p "$keep/.build-id/$(echo "$b" | cut -c1-2)"
	ln -s "../../$e" "$keep/.build-id/$(echo "$b" | cut -c1-2)/$(echo "$b" | cut -c3-)"
done
(cd "$keep" && find . -mindepth 1 | LC_ALL=C sort |
	tar --owner=0 --group=0 --numeric-owner --mtime=@0 --no-recursion -cf - -T -) |
	xz -9 >samples/buildid-cache.tar.xz
rm -rf samples/buildid-cache
mkdir -p samples/buildid-cache
tar -xJf samples/buildid-cache.tar.xz -C samples/buildid-cache

ls -l samples
