#!/usr/bin/env python3
"""tests/json/ff-chain.py IN OUT - copy the perf.data file IN to OUT with an address
entry of every third callchain (of at least three entries after its first marker)
rewritten to 0xffffffffffffffff, as frame-pointer chains of real recordings hold them
(perf data convert --to-json skips such an entry and keeps the frames after it).
Prints how many entries were rewritten. Regular little-endian files whose events all
have the first one's sample_type, without PERF_SAMPLE_READ."""
import struct
import sys

FF = 0xffffffffffffffff
CONTEXT_MAX = (1 << 64) - 4095
# the u64 fields before the callchain, in the order of the sample layout
BEFORE = [(1 << 16, 1), (1, 1), (2, 1), (4, 1), (8, 1), (64, 1), (512, 1), (128, 1),
          (256, 1)]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    b = bytearray(open(src, 'rb').read())
    if b[:8] != b'PERFILE2':
        sys.exit('ff-chain.py: %s: not a little-endian perf.data file' % src)
    attr_off = struct.unpack_from('<Q', b, 24)[0]
    dstart, dsize = struct.unpack_from('<QQ', b, 40)
    st = struct.unpack_from('<Q', b, attr_off + 24)[0]
    if not st & 32 or st & 16:
        sys.exit('ff-chain.py: %s: no callchains, or PERF_SAMPLE_READ' % src)
    skip = sum(n for bit, n in BEFORE if st & bit)
    pos, end, nth, done = dstart, dstart + dsize, 0, 0
    while pos + 8 <= end:
        typ, _, size = struct.unpack_from('<IHH', b, pos)
        if size < 8:
            break
        if typ == 9:
            cc = pos + 8 + 8 * skip
            nr = struct.unpack_from('<Q', b, cc)[0]
            ips = [struct.unpack_from('<Q', b, cc + 8 + 8 * i)[0] for i in range(nr)]
            addrs = [i for i, ip in enumerate(ips) if ip < CONTEXT_MAX]
            if len(addrs) >= 3:
                if nth % 3 == 0:
                    struct.pack_into('<Q', b, cc + 8 + 8 * addrs[1], FF)
                    done += 1
                nth += 1
        pos += size
    open(dst, 'wb').write(b)
    print(done)


main()
