#!/usr/bin/env python3
"""equiv.py PERF-OUTPUT DIRREPORT-OUTPUT: are two --stdio reports the same answer?

perf's entry trees may split one key into two entries (their comparisons are not
transitive); dirreport's default mode keeps one entry per key, and may order entries
of equal values differently.  This reads both reports as

  - the comment lines (normalised whitespace; the dots under the column headers and
    perf's closing tip left out), which must be equal;
  - per event, the entries: key (the key columns' text, normalised whitespace; with
    --hierarchy the path of keys) -> the value columns (percentages and counts),
    the values of entries of the same key summed;
  - under each entry, its call graph lines.

and checks that the keys are the same, that the values are (percentages within
0.01 per entry summed: each was rounded), that entries come in the same order
wherever their first values differ, and that every entry perf did not split has the same
call graph (split entries: the merged graph's lines are not compared).

Exit 0 when equivalent, 1 with one line per difference (at most 20), 2 on usage.
"""
import re
import sys

VALUE = re.compile(r'^(-?[0-9]+(\.[0-9]+)?%?|N/A)$')
VALUE_COLUMNS = {'Overhead', 'Children', 'Self', 'Samples', 'Period', 'sys', 'usr',
                 'guest sys', 'guest usr', 'Overhead (Self)'}


# An unresolved symbol's level ([k], [.]) is its entry's first sample's, not part of
# the key: perf's split entries of one address may show either.
UNRESOLVED = re.compile(r'\[[kgHu.]\] (0x[0-9a-f]+|[0-9a-f]{16})\b')


def norm(s):
    return ' '.join(s.split())


def norm_key(s):
    return UNRESOLVED.sub(lambda m: '[?] ' + m.group(1), norm(s))


def strip_tip(lines):
    if (len(lines) >= 3 and lines[-1] == '#' and lines[-3] == '#' and
            re.match(r'^# \((Tip: .*|Cannot load tips\.txt file.*)\)$', lines[-2])):
        return lines[:-3]
    return lines


def spans(dots):
    """The column spans [start, end) of a '# ....  ....' line."""
    out = []
    for m in re.finditer(r'\.+', dots):
        out.append((m.start(), m.end()))
    return out


class Report:
    def __init__(self, path):
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            lines = strip_tip(f.read().split('\n')[:-1])
        self.comments = []
        self.events = []        # per event: list of (key, values, graph lines)
        cur = None
        cols = None             # (column spans, value columns) from the dots line
        header = None
        entry = None
        hier = False
        path = []               # --hierarchy: (depth, text) of the open levels
        for line in lines:
            if line.startswith('#'):
                entry = None
                if re.match(r'^# Samples:', line) or cur is None and \
                        re.match(r'^# Event count', line):
                    cur = []
                    self.events.append(cur)
                if re.match(r'^#[ .]*\.\.[ .]*$', line):
                    cols = self.columns(header, line)
                    continue
                if line.strip() != '#':
                    header = line
                self.comments.append(norm(line))
                if 'Overhead' in line and '/' in line and cols is None:
                    hier = True
                continue
            if cur is None:
                cur = []
                self.events.append(cur)
            split = self.entry(line, cols, hier)
            if split is None:
                if line.strip() == '':
                    if entry is not None and entry[2]:
                        entry[2].append('')
                    continue
                if entry is None:
                    raise ValueError('a line outside any entry: %r' % line)
                entry[2].append(line.rstrip())
                continue
            values, key, depth = split
            if hier:
                while path and path[-1][0] >= depth:
                    path.pop()
                path.append((depth, key))
                key = tuple(k for _, k in path)
            else:
                key = (key,)
            entry = (key, values, [])
            cur.append(entry)
        for ev in self.events:
            for _, _, g in ev:
                while g and g[-1] == '':
                    g.pop()

    @staticmethod
    def columns(header, dots):
        sp = spans(dots)
        nval = 0
        for a, b in sp:
            name = header[a:b].strip() if header else ''
            if name in VALUE_COLUMNS or name.startswith('Overhead'):
                nval += 1
            else:
                break
        return sp, nval

    def entry(self, line, cols, hier):
        """(values, key, depth) of an entry line, None for another line."""
        if cols is not None and not hier:
            sp, nval = cols
            if nval == 0:
                return None
            values = []
            prev = 0
            for a, b in sp[:nval]:
                # a value is right-aligned in its column and may start before it
                field = line[max(prev, a - 3):b].strip()
                prev = b
                if not VALUE.match(field) or (len(line) > b and line[b] != ' '):
                    return None
                values.append(field)
            return values, norm_key(line[sp[nval - 1][1]:]), 0
        # no column layout (-q, -t SEP, --hierarchy): leading value tokens
        m = re.match(r'^(\s*)(\S.*)$', line)
        if not m or len(m.group(1)) > 12:
            return None
        toks = re.split(r'(\s+)', line.strip())
        values = []
        i = 0
        while i < len(toks) and VALUE.match(toks[i]):
            values.append(toks[i])
            i += 2
        if not values or i >= len(toks):
            return None
        if not values[0].endswith('%') and values[0] != 'N/A':
            return None
        rest = line.strip()[len(''.join(toks[:i])):]
        depth = len(rest) - len(rest.lstrip(' '))
        return values, norm_key(rest), depth


def num(v):
    if v == 'N/A':
        return None
    return float(v.rstrip('%'))


def merged(entries):
    """key -> (summed values, largest values, number of entries, graph of the first)."""
    out = {}
    for key, values, graph in entries:
        if key in out:
            old, top, n, g = out[key]
            vals = [None if a is None or num(b) is None else a + num(b)
                    for a, b in zip(old, values)]
            top = [None if a is None or num(b) is None else max(a, num(b))
                   for a, b in zip(top, values)]
            out[key] = (vals, top, n + 1, g)
        else:
            vals = [num(v) for v in values]
            out[key] = (vals, list(vals), 1, graph)
    return out


def agree(want, got):
    """perf's values of a key (summed over its n entries, and their largest) and
    dirreport's (one entry).  A sample counts once in each entry's Children value,
    so where it reached two of perf's split entries, the one entry of their key has
    less than their sum, but no less than the largest."""
    wsum, wtop, wn, _ = want
    gsum, _, gn, _ = got
    for a, top, b in zip(wsum, wtop, gsum):
        if (a is None) != (b is None):
            return False
        if a is None:
            continue
        slack = 0.01 * max(wn, gn) + 1e-9
        if not top - slack <= b <= a + slack:
            return False
        if wn == 1 and gn == 1 and abs(a - b) > slack:
            return False
    return True


def runs(entries, keep):
    """The entries' keys as runs of an equal first value, where keep(key)."""
    out = []
    for key, values, _ in entries:
        if not keep(key):
            continue
        v = values[0]   # the first sort key (the order of entries it ties is free)
        if out and out[-1][0] == v:
            out[-1][1].add(key)
        else:
            out.append((v, {key}))
    return out


def compare(want, got):
    diffs = []
    if want.comments != got.comments:
        for a, b in zip(want.comments + [''] * len(got.comments),
                        got.comments + [''] * len(want.comments)):
            if a != b:
                diffs.append('comment line: perf %r, dirreport %r' % (a, b))
                break
    if len(want.events) != len(got.events):
        diffs.append('%d events in perf, %d in dirreport' %
                     (len(want.events), len(got.events)))
    for ev, (we, ge) in enumerate(zip(want.events, got.events)):
        wm, gm = merged(we), merged(ge)
        for key in wm.keys() - gm.keys():
            diffs.append('event %d: %s only in perf' % (ev, ' / '.join(key)))
        for key in gm.keys() - wm.keys():
            diffs.append('event %d: %s only in dirreport' % (ev, ' / '.join(key)))
        for key in sorted(wm.keys() & gm.keys()):
            wv, _, wn, wg = wm[key]
            gv, _, gn, gg = gm[key]
            if not agree(wm[key], gm[key]):
                diffs.append('event %d: %s: perf %s (%d entries), dirreport %s' %
                             (ev, ' / '.join(key), wv, wn, gv))
            if wn == 1 and gn == 1 and wg != gg:
                diffs.append('event %d: %s: call graphs differ' % (ev, ' / '.join(key)))
        single = {k for k, v in wm.items() if v[2] == 1}
        wr = runs(we, lambda k: k in single)
        gr = runs(ge, lambda k: k in single)
        if [r[1] for r in wr] != [r[1] for r in gr]:
            for a, b in zip(wr, gr):
                if a[1] != b[1]:
                    diffs.append('event %d: order differs at %s' %
                                 (ev, ' / '.join(sorted(a[1])[0])))
                    break
            else:
                diffs.append('event %d: order differs' % ev)
    return diffs


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: equiv.py PERF-OUTPUT DIRREPORT-OUTPUT\n')
        return 2
    try:
        want, got = Report(argv[1]), Report(argv[2])
    except ValueError as e:
        sys.stderr.write('equiv.py: %s\n' % e)
        return 2
    diffs = compare(want, got)
    for d in diffs[:20]:
        print(d)
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
