# bench/lib.sh - what the bench scripts share; sourced by them (bash), from the
# repository root, after they have set their defaults ($runs, $secs, $keep) and defined
# usage(); $data is the operand bench_opts leaves.
#
#   bench_opts FN ARGS   the options every bench takes: -n RUNS, -s SECONDS, -k, -h
#                        (usage, which the script defines); any other option goes to
#                        the script's FN OPTION [VALUE...], which sets $took to the
#                        words it took (0: not its option, a usage error); the
#                        operands left are in the array bench_args
#   bench_init BIN       check $BUILD/BIN, perf 6.1 and GNU time (installed when missing:
#                        Debian package `time`); make $tmp (removed at exit unless -k)
#   bench_data           record $secs seconds with $MAKE_DATA into $tmp when $data is
#                        empty; print the one-line summary of the data
#   measure NAME CMD...  a warm-up run, then $runs runs under `/usr/bin/time -f '%e %M'`,
#                        stdout to /dev/null; with $out set, that file is removed before
#                        each run and the warm-up's copy is kept there for checks.
#                        Appends "NAME<TAB>median wall s<TAB>median peak RSS KB<TAB>status"
#                        to $tmp/results.
#   bench_table MODE_RE  print $tmp/results with time and RSS ratios to the `perf ...`
#                        line of the same mode; a line is of mode 1 when its name matches
#                        the awk regex MODE_RE, else of mode 0.
#   bench_jtable FILE    print FILE's "NAME<TAB>wall<TAB>CPU<TAB>peak RSS KB" lines
#                        (bench_runs') with time and RSS ratios to the block's
#                        `perf ...` line and each `... -j 2` line's speedup over its
#                        `... -j 1`
#   bench_data_arg FN ARGS  bench_opts FN ARGS, then at most one operand: $data
#   bench_dashdash ARGS  ARGS cut at the first "--": the words before it in the array
#                        bench_pre, those after it in bench_post (default: --stdio,
#                        the report's options)
#   usage, no_check_opt  the synopsis (line 4 of the script) on stderr, exit 2; the
#                        --no-check option (check='') for bench_opts
#   jobs_opt             the -j N option (jobs=N: "1 2", or one -j) for bench_opts
BUILD=${BUILD:-build}
MAKE_DATA=${MAKE_DATA:-../shared/bench/make-data.sh}
out=

bench_opts() {
	local fn=$1
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		-n) runs=${2:?}; shift 2 ;;
		-s) secs=${2:?}; shift 2 ;;
		-k) keep=1; shift ;;
		-h | --help) usage ;;
		-*)
			took=0
			[ -z "$fn" ] || "$fn" "$@"
			[ "$took" -gt 0 ] || usage
			shift "$took" ;;
		*) break ;;
		esac
	done
	bench_args=("$@")
}

usage() { sed -n '4p' "$0" | sed 's/^#   /usage: /' >&2; exit 2; }
no_check_opt() { case $1 in --no-check) check=''; took=1 ;; esac; }
jobs_opt() { case $1 in -j) jobs=${2:?}; took=2 ;; esac; }

bench_dashdash() {
	local i
	local -a all=("$@")

	bench_pre=("$@")
	bench_post=(--stdio)
	for i in "${!all[@]}"; do
		if [ "${all[$i]}" = -- ]; then
			bench_pre=("${all[@]:0:$i}")
			bench_post=("${all[@]:$((i + 1))}")
			[ ${#bench_post[@]} -gt 0 ] || bench_post=(--stdio)
			break
		fi
	done
}

bench_data_arg() {
	local fn=$1
	shift
	bench_opts "$fn" "$@"
	set -- "${bench_args[@]}"
	[ $# -le 1 ] || usage
	data=${1:-}
}

bench_init() {
	bin=$BUILD/$1
	[ -x "$bin" ] || { echo "bench: $bin not found; run make first" >&2; exit 1; }
	perf version 2>/dev/null | grep -q '^perf version 6\.1\.' ||
		echo "bench: warning: $(perf version 2>&1 | head -n 1) is not perf 6.1" >&2
	if [ ! -x /usr/bin/time ]; then
		echo "bench: installing GNU time (Debian package time)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1-bench.XXXXXX")
	trap '[ -n "$keep" ] || rm -rf "$tmp"' EXIT
	: >"$tmp/results"
}

bench_data() {
	if [ -z "$data" ]; then
		data=$tmp/bench.data
		echo "bench: recording ${secs}s with $MAKE_DATA into $data"
		sh "$MAKE_DATA" "$data" "$secs" >"$tmp/record.log" 2>&1 ||
			{ cat "$tmp/record.log" >&2; exit 1; }
		[ -z "$keep" ] || echo "bench: keeping $data"
	fi
	[ -e "$data" ] || { echo "bench: $data: no such file or directory" >&2; exit 1; }
	echo "bench: $data, $(du -sh "$data" | cut -f1), $(nproc) CPUs, median of $runs runs"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() {
	local name=$1 i status=ok
	shift
	[ -z "$out" ] || rm -f "$out"
	"$@" >/dev/null 2>"$tmp/err" || status="FAILED (exit $?)"
	[ -z "$out" ] || cp "$out" "$out.keep" 2>/dev/null || true
	: >"$tmp/times"
	for ((i = 0; i < runs; i++)); do
		[ -z "$out" ] || rm -f "$out"
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>>"$tmp/err" ||
			status="FAILED"
		tail -n 1 "$tmp/t" >>"$tmp/times"
	done
	[ -z "$out" ] || mv "$out.keep" "$out" 2>/dev/null || true
	printf '%s\t%s\t%s\t%s\n' "$name" \
		"$(cut -d' ' -f1 "$tmp/times" | median)" \
		"$(cut -d' ' -f2 "$tmp/times" | median)" "$status" >>"$tmp/results"
	printf '  %-34s %s\n' "$name" "$status" >&2
	[ "$status" = ok ] || head -n 3 "$tmp/err" | sed 's/^/    /' >&2
}

bench_table() {
	echo
	awk -F'\t' -v mode_re="$1" '
		BEGIN { printf "%-36s %9s %13s %11s %10s\n", "command", "wall s", "peak RSS MB",
			"time/perf", "RSS/perf" }
		{
			mode = ($1 ~ mode_re) ? 1 : 0
			if ($1 ~ /^perf /) { pw[mode] = $2; pm[mode] = $3 }
			tr = (pw[mode] > 0) ? sprintf("%.3f", $2 / pw[mode]) : "-"
			mr = (pm[mode] > 0) ? sprintf("%.2f", $3 / pm[mode]) : "-"
			sp = ""
			if ($2 > 0 && pw[mode] > 0 && $1 !~ /^perf /)
				sp = sprintf("  (%.1fx faster)", pw[mode] / $2)
			printf "%-36s %9.2f %13.1f %11s %10s%s%s\n", $1, $2, $3 / 1024, tr, mr, sp,
				($4 == "ok") ? "" : "  " $4
		}' "$tmp/results"
}

# bench_file_data: $file, a single perf.data file of the bench workload (perf record -a
# -g -F 25000 of the make-data.sh loop with perl and python added), recorded for $secs
# seconds into $tmp when $file is empty.
bench_file_data() {
	if [ -z "$file" ]; then
		file=$tmp/bench-file.data
		echo "bench: recording ${secs}s into the single file $file"
		perf record -a -g -F 25000 -o "$file" -- sh -c '
end=$(( $(date +%s) + '"$secs"' ))
while [ "$(date +%s)" -lt "$end" ]; do
	dd if=/dev/zero bs=64k count=2000 2>/dev/null | gzip -1 | sha256sum >/dev/null
	seq 1 200000 | sort -r | md5sum >/dev/null
	perl -e "sub f { my \$n = shift; \$n < 2 ? \$n : f(\$n-1) + f(\$n-2) } f(24)"
	python3 -c "f = lambda n: n if n < 2 else f(n-1) + f(n-2); f(23)"
done' >"$tmp/record-file.log" 2>&1 || { cat "$tmp/record-file.log" >&2; exit 1; }
	fi
	echo "bench: single file $file, $(du -sh "$file" | cut -f1)"
}

# bench_export_probe: $export_script, perf's export-to-sqlite.py, and have_export=1 where
# perf script runs it here (it needs PySide2's QtSql).
bench_export_probe() {
	export_script=$(perf --exec-path 2>/dev/null)/scripts/python/export-to-sqlite.py
	have_export=
	if [ -f "$export_script" ] && perf script -i samples/plain.data -s "$export_script" \
		"$tmp/probe.db" >/dev/null 2>&1; then
		have_export=1
	fi
}

# bench_runs OUT NAME CMD...: CMD once (a warm-up), then $runs times under GNU time
# ($tmp/out.db removed before each); appends "NAME<TAB>wall s<TAB>CPU s (user + system)
# <TAB>peak RSS kB", the medians, to OUT.  The times are bash's `time` around GNU
# time (milliseconds; GNU time's own are in hundredths of a second, a tenth of a
# 0.1 s run), the peak RSS GNU time's.
bench_runs() {
	local to=$1 name=$2 i TIMEFORMAT='%3R %3U %3S'
	shift 2
	rm -f "$tmp/out.db"
	"$@" >/dev/null 2>"$tmp/err" || { echo "  $name: FAILED" >&2; head -n 3 "$tmp/err" >&2; }
	: >"$tmp/times"
	for ((i = 0; i < runs; i++)); do
		rm -f "$tmp/out.db"
		{ time /usr/bin/time -f '%M' -o "$tmp/t" "$@" >/dev/null 2>>"$tmp/err" || true; } \
			2>"$tmp/bt"
		echo "$(tail -n 1 "$tmp/bt") $(tail -n 1 "$tmp/t")" >>"$tmp/times"
	done
	printf '%s\t%s\t%s\t%s\n' "$name" \
		"$(cut -d' ' -f1 "$tmp/times" | median)" \
		"$(awk '{ print $2 + $3 }' "$tmp/times" | median)" \
		"$(cut -d' ' -f4 "$tmp/times" | median)" >>"$to"
	printf '  %-40s done\n' "$name" >&2
}

bench_jtable() {
	awk -F'\t' '
		BEGIN { printf "%-36s %8s %8s %9s %9s %9s %8s\n", "command", "wall s", "CPU s",
			"RSS MB", "time/perf", "RSS/perf", "-j2/-j1" }
		/^perf / { pw = $2; pm = $4 }
		{
			name = $1; base = name; sub(/ -j [12]$/, "", base)
			tr = (pw > 0 && name !~ /^perf /) ? sprintf("%.3f", $2 / pw) : "-"
			mr = (pm > 0 && name !~ /^perf /) ? sprintf("%.2f", $4 / pm) : "-"
			sp = "-"
			if (name ~ / -j 1$/) w1[base] = $2
			if (name ~ / -j 2$/ && $2 > 0 && w1[base] > 0)
				sp = sprintf("%.2fx", w1[base] / $2)
			printf "%-36s %8.3f %8.3f %9.1f %9s %9s %8s\n", name, $2, $3, $4 / 1024,
				tr, mr, sp
		}' "$1"
}
