#!/usr/bin/env python3
"""tests/external/kallsyms/make.py - synthetic kallsyms files for the external
recordings with kernel modules (their machines' own kallsyms are not available).

    python3 tests/external/kallsyms/make.py   (from the repository root)

For each recording: _text, _stext and 40 kernel functions from 0xffffffff81000000,
then for every module that a kernel MMAP of the recording maps, up to 50 symbols
"MODULE_fN" spread over its map (as /proc/kallsyms lists them: "ADDR t NAME\t[MODULE]",
the module name with '-' made '_'), and a module no MMAP maps ("[ghostmod]", whose
symbol perf drops).  The golden cases ext-kmod-* give them to perf and dirreport with
--kallsyms: module symbols must resolve as perf 6.1 splits them from kallsyms."""
import re
import subprocess

def craft(f, out):
    d = subprocess.run(['build/dirreport', '-D', '-i', f], capture_output=True, text=True).stdout
    mods = []
    for l in d.splitlines():
        m = re.search(r'PERF_RECORD_MMAP -1/0: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0)\]: x (\S+)', l)
        if not m:
            continue
        start, ln, name = int(m.group(1), 16), int(m.group(2), 16), m.group(4)
        if name.startswith('[kernel.kallsyms]'):
            continue
        mods.append((start, ln, name))
    lines = []
    base = 0xffffffff81000000
    lines.append((base, 'T', '_text', None))
    lines.append((base + 0x190, 'T', '_stext', None))
    for i in range(40):
        lines.append((base + 0x1000 + i * 0x20000, 'T', 'kfunc_%d' % i, None))
    lines.append((base + 0x900000, 'T', '_etext', None))
    for start, ln, name in mods:
        b = name.rsplit('/', 1)[-1]
        mn = b[:-3] if b.endswith('.ko') else b
        mn = mn.replace('-', '_')
        n = min(50, max(2, ln // 0x1800))
        for i in range(n):
            lines.append((start + i * (ln // n), 't' if i % 2 else 'T', '%s_f%d' % (mn, i), mn))
    # a module without a map
    lines.append((0xffffffffc9000000, 't', 'ghost_f', 'ghostmod'))
    lines.sort(key=lambda x: x[0])
    with open(out, 'w') as fo:
        for a, t, n, m in lines:
            fo.write('%016x %s %s%s\n' % (a, t, n, '\t[%s]' % m if m else ''))


for name in ('busy.1-3.4', 'forkexit-3.8', 'callgraph-3.8', 'piped.target-3.8'):
    craft('tests/external/perf.data.' + name, 'tests/external/kallsyms/' + name)
