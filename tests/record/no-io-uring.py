#!/usr/bin/env python3
"""tests/record/no-io-uring.py ERRNO CMD [ARGS...] - run CMD where io_uring_setup(2)
fails with ERRNO (a name: ENOSYS, EPERM), as on a kernel without io_uring or in a
container whose seccomp profile forbids it: a seccomp filter (inherited across exec)
answers that one system call with the error and lets every other one through.

Exit status: CMD's (this process becomes it); 2 on a bad command line; 3 where the
filter cannot be installed (no seccomp in this kernel)."""
import ctypes
import errno
import os
import struct
import sys

NR_IO_URING_SETUP = 425  # the same number on every architecture (asm-generic table)
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000


def main():
    if len(sys.argv) < 3 or not hasattr(errno, sys.argv[1]):
        sys.stderr.write("usage: no-io-uring.py ERRNO CMD [ARGS...]\n")
        return 2
    err = getattr(errno, sys.argv[1])
    # classic BPF over struct seccomp_data: A = nr; nr == 425 ? ERRNO : ALLOW
    insns = [
        (0x20, 0, 0, 0),                          # ld  [0]       (nr)
        (0x15, 0, 1, NR_IO_URING_SETUP),          # jeq #425, 0, 1
        (0x06, 0, 0, SECCOMP_RET_ERRNO | err),    # ret ERRNO|err
        (0x06, 0, 0, SECCOMP_RET_ALLOW),          # ret ALLOW
    ]
    code = b"".join(struct.pack("=HBBI", *i) for i in insns)
    buf = ctypes.create_string_buffer(code, len(code))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Fprog(len(insns), ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p,
                           ctypes.c_ulong, ctypes.c_ulong]
    if (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) or
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0)):
        sys.stderr.write("no-io-uring.py: seccomp: %s\n" %
                         os.strerror(ctypes.get_errno()))
        return 3
    os.execvp(sys.argv[2], sys.argv[2:])
    return 127


sys.exit(main())
