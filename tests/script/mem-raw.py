#!/usr/bin/env python3
"""tests/script/mem-raw.py - a recording of a memory event made from a sample.

    python3 tests/script/mem-raw.py KIND SRC OUT

This machine has no PMU that samples memory accesses (MEM_TRANS_RETIRED.LOAD_LATENCY
and the like are raw events of the cpu PMU, attr.type PERF_TYPE_RAW); perf script
prints such events with its raw output type's default fields (addr, data_src with
its text, weight, ins_lat, phys_addr, data page size).  This copies a sample and
makes its one event a raw event with config 0x1cd (the load-latency event's
encoding), as a recording of it would have:

  data-src  SRC is samples/mem-pf.data (IP|TID|TIME|ADDR|DATA_SRC|PHYS_ADDR|
            DATA_PAGE_SIZE): each sample's data_src becomes the next of DATA_SRC
            below (every field of perf_mem_data_src, alone and combined)
  weight    SRC is samples/weight.data (IP|TID|TIME|PERIOD|WEIGHT_STRUCT): each
            sample's weight struct becomes the next of WEIGHTS (var1_dw, var2_w
            ins_lat, var3_w)

Only fields in place are rewritten (no record changes size).  Format: the file
header's attrs section (docs/perf-data-format.md), SAMPLE records' field order.
"""
import struct
import sys

PERF_TYPE_RAW = 4
CONFIG = 0x1cd
SAMPLE = 9

# data_src values: perf_mem_data_src's op, lvl, snoop, lock, dtlb, lvl_num, remote,
# snoopx, blk and hops fields, alone and as real loads have them
DATA_SRC = [
    0x1e05080021,		# what the kernel's software events write (PERF_MEM_NA)
    0x0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x6, 0x1a,
    0x68100142, 0x68100842, 0x6a100142, 0x4a100142, 0x5080022, 0x5080442,
    0x100000, 0x200000, 0x400000, 0x800000, 0x4000000000, 0x8000000000,
    0x4000200000, 0x1000000, 0x2000000, 0x3000000, 0x4000000, 0x8000000,
    0x10000000, 0x20000000, 0x40000000, 0x80000000, 0x100000000, 0x28000000,
    0xd0000000, 0x60000000, 0x200000000, 0x400000000, 0x1200000000,
    0x1a00000000, 0x1e00000000, 0x600000040, 0x3a00000000, 0x200000080,
    0x2000000000, 0x80600000040, 0x10000000000, 0x20000000000, 0x60000000000,
    0x100600000040, 0x2a1c0c50000042, 0x7fffffffffffffff,
    0x1fffe2, 0x7ffff8a05442,	# the longest texts: cut at 99 bytes
]
# (var1_dw weight, var2_w ins_lat, var3_w)
WEIGHTS = [(0, 0, 0), (1, 0, 0), (35, 12, 0), (120, 7, 3), (4096, 65535, 1),
           (0xffffffff, 1, 0), (73, 0, 9), (250, 250, 250)]


def main():
    kind, src, out = sys.argv[1:4]
    b = bytearray(open(src, 'rb').read())
    attr_size = struct.unpack_from('<Q', b, 16)[0]
    attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQ', b, 24)
    for a in range(attrs_off, attrs_off + attrs_size, attr_size):
        struct.pack_into('<IIQ', b, a, PERF_TYPE_RAW,
                         struct.unpack_from('<I', b, a + 4)[0], CONFIG)
    st = struct.unpack_from('<Q', b, attrs_off + 24)[0]
    want = {'data-src': 0x48800f, 'weight': 0x1000107}[kind]
    if st != want:
        sys.exit(f'{src}: sample_type {st:#x}, expected {want:#x}')
    off, n = data_off, 0
    while off < data_off + data_size:
        typ, _misc, size = struct.unpack_from('<IHH', b, off)
        if size == 0:
            sys.exit(f'{src}: offset {off}: zero-size record')
        if typ == SAMPLE:
            if kind == 'data-src':	# header, ip, pid/tid, time, addr: data_src at 40
                struct.pack_into('<Q', b, off + 40, DATA_SRC[n % len(DATA_SRC)])
            else:			# header, ip, pid/tid, time, period: weight at 40
                struct.pack_into('<IHH', b, off + 40, *WEIGHTS[n % len(WEIGHTS)])
            n += 1
        off += size
    open(out, 'wb').write(b)


main()
