#!/usr/bin/env python3
"""bench/device/threads.py [--timeline] CMD... - run CMD (output to /dev/null) and
print the CPU time each of its threads ran, by thread name (pthread_setname_np:
dr-worker, dr-producer, dr-counter, dr-replayer, dr-sqlite; the calling thread has
the program's name), read from /proc/PID/task/TID/schedstat (nanoseconds on the CPU)
every 2 ms while it runs.  The busiest single thread bounds the wall time however
many workers there are: this names the stage that does not scale.  A thread's last
2 ms may be missed.  --timeline adds, per 20 ms of wall time, the milliseconds of
CPU each thread name took in it (workers summed): which stage runs alone when."""
import collections, os, subprocess, sys, time

timeline = sys.argv[1] == '--timeline'
argv = sys.argv[2:] if timeline else sys.argv[1:]
p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
seen = {}
slots = collections.defaultdict(collections.Counter)
t0 = time.perf_counter()
while p.poll() is None:
    now = time.perf_counter() - t0
    try:
        for tid in os.listdir('/proc/%d/task' % p.pid):
            try:
                with open('/proc/%d/task/%s/schedstat' % (p.pid, tid)) as f:
                    ns = int(f.read().split()[0])
                with open('/proc/%d/task/%s/comm' % (p.pid, tid)) as f:
                    comm = f.read().strip()
            except OSError:
                continue
            was = seen.get(tid, (comm, 0))[1]
            slots[int(now * 50)][comm] += ns - was
            seen[tid] = (comm, ns)
    except OSError:
        pass
    time.sleep(0.002)
wall = time.perf_counter() - t0
by = {}
for comm, ns in seen.values():
    n, tot, top = by.get(comm, (0, 0, 0))
    by[comm] = (n + 1, tot + ns, max(top, ns))
print('wall %.3f s, exit %d; CPU by thread name (threads, total s, busiest s):' % (wall, p.returncode))
for comm, (n, tot, top) in sorted(by.items(), key=lambda x: -x[1][2]):
    print('  %-14s %3d  %6.3f  %6.3f' % (comm, n, tot / 1e9, top / 1e9))
if timeline:
    names = sorted(by, key=lambda c: -by[c][1])
    print('  ms   ' + ' '.join('%11s' % c[:11] for c in names))
    for k in sorted(slots):
        print('%5d   ' % (k * 20) + ' '.join('%11.1f' % (slots[k][c] / 1e6) for c in names))
