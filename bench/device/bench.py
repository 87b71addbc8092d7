#!/usr/bin/env python3
"""bench/device/bench.py [JOBS...] - how dirreport and dirconvert scale with -j on the
payload's recordings (run by run.sh, which sets DEVRUN and unpacks them into /tmp/w),
for each build present in DEVRUN/bin0, bin, bin2, interleaved run by run so that a
noisy machine treats them alike: the median wall, CPU and peak RSS of 5 runs after a
warm-up, then each build's speedup at the largest -j and the serial fraction it
implies (Amdahl), and whether every build's --stdio output is the same at -j 1 and
the largest -j, and how many lines differ from what the machine that made the payload
printed (expected/: the lines of dsos without a build-id in the recording may).
BENCH_INPUTS and BENCH_CMDS (comma-separated names) pick inputs
(dir, file, dwarf: those in the payload) and commands; BENCH_RUNS the runs."""
import collections, gzip, hashlib, os, statistics, subprocess, sys, time

D = os.environ['DEVRUN']
L = D + '/lib'
LD = [L + '/ld-linux-x86-64.so.2', '--library-path', L]
variants = [v for v in ('bin0', 'bin', 'bin2') if os.path.exists(D + '/' + v + '/dirreport')]
inputs = {n: '/tmp/w/%s.data' % n for n in ('dir', 'file', 'dwarf')
          if os.path.exists('/tmp/w/%s.data' % n)}
cmds = {
    'report': lambda b, j, i: LD + [b + '/dirreport', '-j', str(j), '-i', i, '--stdio'],
    'flat': lambda b, j, i: LD + [b + '/dirreport', '-j', str(j), '-i', i, '--stdio',
                                  '--no-children', '-g', 'none'],
    'dump': lambda b, j, i: LD + [b + '/dirreport', '-j', str(j), '-i', i, '-D'],
    'sqlite': lambda b, j, i: LD + [b + '/dirconvert', '-j', str(j), '--no-progress',
                                    '-i', i, '--to-sqlite', '/tmp/w/out.db'],
}
if os.environ.get('BENCH_INPUTS'):
    inputs = {n: p for n, p in inputs.items() if n in os.environ['BENCH_INPUTS'].split(',')}
report_cmd = cmds['report']
if os.environ.get('BENCH_CMDS'):
    cmds = {n: c for n, c in cmds.items() if n in os.environ['BENCH_CMDS'].split(',')}
jobs = [int(x) for x in sys.argv[1:]] or [1, 2, 4, 8, 16]
runs = int(os.environ.get('BENCH_RUNS', '5'))


def once(argv):
    if os.path.exists('/tmp/w/out.db'):
        os.unlink('/tmp/w/out.db')
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, st


print('machine: %d CPUs, %s' % (os.cpu_count(), open('/proc/cpuinfo').read().split(
    'model name')[1].split('\n')[0].strip(': \t')))
print('variants: ' + ', '.join(variants) + '; median of %d runs (wall s / CPU s / RSS MB)' % runs)
hdr = '%-5s %-7s %3s' % ('input', 'command', '-j')
for v in variants:
    hdr += ' | %-22s' % v
print(hdr)
res = {}
for iname, ipath in inputs.items():
    for cname, mk in cmds.items():
        for j in jobs:
            r = {v: [] for v in variants}
            for v in variants:
                once(mk(D + '/' + v, j, ipath))  # warm-up
            for _ in range(runs):
                for v in variants:
                    r[v].append(once(mk(D + '/' + v, j, ipath)))
            line = '%-5s %-7s %3d' % (iname, cname, j)
            for v in variants:
                w = statistics.median(x[0] for x in r[v])
                c = statistics.median(x[1] for x in r[v])
                m = statistics.median(x[2] for x in r[v])
                bad = max(x[3] for x in r[v])
                res[(v, iname, cname, j)] = w
                line += ' | %6.3f %6.2f %6.1f%s' % (w, c, m, '!' if bad else ' ')
            print(line, flush=True)
print()
N = jobs[-1]
if N == jobs[0]:
    sys.exit(0)
print('speedup -j%d over -j%d of the same build, and serial fraction s (Amdahl)' % (N, jobs[0]))
for v in variants:
    for iname in inputs:
        for cname in cmds:
            t1, tn = res[(v, iname, cname, jobs[0])], res[(v, iname, cname, N)]
            s = (N * tn / t1 - 1) / (N - 1)
            print('%-5s %-5s %-7s %5.2fx  s=%.3f' % (v, iname, cname, t1 / tn, s))
for iname, ipath in inputs.items():
    sums = set()
    for v in variants:
        for j in (1, N):
            p = subprocess.run(report_cmd(D + '/' + v, j, ipath), capture_output=True)
            sums.add(hashlib.md5(p.stdout).hexdigest())
    print('%s --stdio output, every build, -j1 and -j%d: %s' % (iname, N,
          'same' if len(sums) == 1 else 'DIFFERENT (%d)' % len(sums)))
full = {'report': report_cmd,
        'flat': lambda b, j, i: report_cmd(b, j, i) + ['--no-children', '-g', 'none']}
for iname in inputs:
    for cname in full:
        path = '%s/expected/%s-%s.gz' % (D, iname, cname)
        if not os.path.exists(path):
            continue
        want = gzip.open(path, 'rb').read().splitlines()
        got = subprocess.run(full[cname](D + '/bin', N, inputs[iname]),
                             capture_output=True).stdout.splitlines()
        diff = sum((collections.Counter(want) - collections.Counter(got)).values())
        print('%s %s output at -j%d against the payload maker\'s: %s' % (
            iname, cname, N, 'same' if want == got else
            '%d of its %d lines missing' % (diff, len(want))))
