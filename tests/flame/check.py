#!/usr/bin/env python3
"""tests/flame/check.py - what tests/flame/run.sh asks of dirscript's flame graphs and
speedscope files, checked with the standard library only.  Each command prints one
line of findings (nothing on success) and exits 1 when something is wrong, 0 else.

  check.py svg FOLDED SVG...      the SVGs together hold FOLDED's stacks: each frame
                                  is a <g class="f"> with data-x/-n/-d and a <title>
                                  "NAME (N sample[s], P%)" whose N is data-n; a frame's
                                  children lie inside it; the samples of each
                                  root-to-frame path not in a child (summed over all
                                  the files, the root left out) are FOLDED's counts
  check.py totals SVG...          "EVENT N" per file: its subtitle's event, its root's
                                  samples
  check.py roots SVG              "NAME N" per depth-1 frame (the processes)
  check.py frameset SVG SVG2      the two files have the same frames (x, n, depth,
                                  name) and the second's root is on top
  check.py speedscope FOLDED JSON PAIRS
                                  the speedscope file: its structure (the schema's
                                  required fields, every index below the number of
                                  frames, one weight per sample, weights adding up to
                                  endValue), one profile per "EVENT PID COMM" line of PAIRS,
                                  and its stacks, prefixed by the process name (spaces
                                  made '_'), are FOLDED's with the same counts
"""
import collections
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
TITLE = re.compile(r'^(.*) \((\d+) samples?, (\d+\.\d\d)%\)$', re.S)


def frames(path):
    """The frames of an SVG: dicts of name, x, n, d, y; the subtitle."""
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        m = TITLE.match(g.find(NS + 'title').text or '')
        if not m:
            raise SystemExit('%s: bad title %r' % (path, g.find(NS + 'title').text))
        f = dict(name=m.group(1), x=int(g.get('data-x')), n=int(g.get('data-n')),
                 d=int(g.get('data-d')), y=float(g.find(NS + 'rect').get('y')))
        if int(m.group(2)) != f['n']:
            raise SystemExit('%s: title %r, data-n %d' % (path, m.group(0), f['n']))
        out.append(f)
    sub = ''
    for t in root.iter(NS + 'text'):
        if t.get('id') == 'subtitle':
            sub = t.text or ''
    return out, sub


def folded(path):
    c = collections.Counter()
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            stack, _, n = line.rstrip('\n').rpartition(' ')
            c[stack] += int(n)
    return c


def svg_stacks(path, c):
    fs, _ = frames(path)
    if not fs or fs[0]['d'] != 0:
        raise SystemExit('%s: no root frame first' % path)
    # parents: the frame one level up whose span holds the frame's
    by_depth = collections.defaultdict(list)
    for i, f in enumerate(fs):
        by_depth[f['d']].append(i)
    parent = {}
    for i, f in enumerate(fs):
        if f['d'] == 0:
            continue
        ps = [j for j in by_depth[f['d'] - 1]
              if fs[j]['x'] <= f['x'] and f['x'] + f['n'] <= fs[j]['x'] + fs[j]['n']]
        if len(ps) != 1:
            raise SystemExit('%s: frame %r lies in %d parents' % (path, f['name'], len(ps)))
        parent[i] = ps[0]
    inner = collections.Counter()
    for i, j in parent.items():
        inner[j] += fs[i]['n']
    for i, f in enumerate(fs):
        if inner[i] > f['n']:
            raise SystemExit('%s: children of %r hold more than it' % (path, f['name']))
        if i == 0 or f['n'] == inner[i]:
            continue
        names, k = [], i
        while k:
            names.append(fs[k]['name'])
            k = parent[k]
        c[';'.join(reversed(names))] += f['n'] - inner[i]


def diff(want, got, what):
    bad = [(k, want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got)
           if want.get(k, 0) != got.get(k, 0)]
    if bad:
        bad.sort()
        print('%d stacks differ from %s, e.g. %r: %d there, %d here'
              % (len(bad), what, bad[0][0][:200], bad[0][1], bad[0][2]))
        return 1
    return 0


def cmd_svg(args):
    got = collections.Counter()
    for p in args[1:]:
        svg_stacks(p, got)
    return diff(folded(args[0]), got, '--folded')


def cmd_totals(args):
    for p in args:
        fs, sub = frames(p)
        print('%s %d' % (sub.rsplit(': ', 1)[0], fs[0]['n'] if fs else 0))
    return 0


def cmd_roots(args):
    fs, _ = frames(args[0])
    c = collections.Counter()
    for f in fs:
        if f['d'] == 1:
            c[f['name']] += f['n']
    for k in sorted(c):
        print('%s %d' % (k, c[k]))
    return 0


def cmd_frameset(args):
    a, _ = frames(args[0])
    b, _ = frames(args[1])
    key = lambda f: (f['x'], f['n'], f['d'], f['name'])
    if sorted(map(key, a)) != sorted(map(key, b)):
        print('the frames differ')
        return 1
    top = min(b, key=lambda f: f['y'])
    if len(b) > 1 and top['d'] != 0:
        print('the root is not on top')
        return 1
    return 0


def cmd_limit(args):
    """args: FULL.svg LIMITED.svg P: LIMITED holds exactly FULL's frames of at least
    P% of the samples whose ancestors all are, unchanged."""
    full, _ = frames(args[0])
    lim, _ = frames(args[1])
    p = float(args[2])
    if not full:
        return 0
    total = full[0]['n']
    key = lambda f: (f['x'], f['n'], f['d'], f['name'])
    # FULL's frames come parents first (a parent's index is below its children's):
    # a frame is kept when it is wide enough and the frame of depth d-1 last seen
    # before it (its parent) was kept
    keep, last = [], {}
    for f in full:
        ok = 100.0 * f['n'] >= p * total and (f['d'] == 0 or last.get(f['d'] - 1, False))
        last[f['d']] = ok
        if ok:
            keep.append(key(f))
    if sorted(keep) != sorted(map(key, lim)):
        print('%d frames of at least %s%%, %d drawn' % (len(keep), args[2], len(lim)))
        return 1
    if len(lim) >= len(full) and p > 0 and any(100.0 * f['n'] < p * total for f in full):
        print('nothing was left out')
        return 1
    return 0


def cmd_speedscope(args):
    want = folded(args[0])
    with open(args[1], encoding='utf-8', errors='surrogateescape') as f:
        doc = json.load(f)
    pairs = set(tuple(l.rstrip('\n').split(' ', 2)) for l in open(args[2]) if l.strip())
    for k in ('$schema', 'shared', 'profiles'):
        if k not in doc:
            print('no %s' % k)
            return 1
    names = [fr['name'] for fr in doc['shared']['frames']]
    got = collections.Counter()
    seen = set()
    for p in doc['profiles']:
        for k in ('type', 'name', 'unit', 'startValue', 'endValue', 'samples', 'weights'):
            if k not in p:
                print('profile without %s' % k)
                return 1
        m = re.match(r'^(.*) \((-?\d+)\) (.*)$', p['name'], re.S)
        if p['type'] != 'sampled' or not m or len(p['samples']) != len(p['weights']):
            print('bad profile %r' % p['name'])
            return 1
        if sum(p['weights']) != p['endValue'] - p['startValue']:
            print('%r: weights add up to %d, endValue %d'
                  % (p['name'], sum(p['weights']), p['endValue']))
            return 1
        seen.add((m.group(3), m.group(2), m.group(1)))
        comm = m.group(1).replace(' ', '_')
        for st, w in zip(p['samples'], p['weights']):
            if any(i < 0 or i >= len(names) for i in st):
                print('%r: frame index out of range' % p['name'])
                return 1
            got[';'.join([comm] + [names[i] for i in st])] += w
    if seen != pairs or len(seen) != len(doc['profiles']):
        print('profiles %s, perf script has %s' % (sorted(seen)[:5], sorted(pairs)[:5]))
        return 1
    return diff(want, got, '--folded')


CMDS = dict(svg=cmd_svg, totals=cmd_totals, roots=cmd_roots, frameset=cmd_frameset,
            speedscope=cmd_speedscope, limit=cmd_limit)

if __name__ == '__main__':
    sys.exit(CMDS[sys.argv[1]](sys.argv[2:]))
