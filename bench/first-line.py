#!/usr/bin/env python3
"""bench/first-line.py CMD...: seconds from starting CMD until its first line of output.

The command's standard output is read until the first newline, the elapsed wall time is
printed, and the command is killed (bench/index.sh takes the median of several runs).
"""
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: first-line.py CMD...", file=sys.stderr)
        return 2
    start = time.monotonic()
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdout.readline()
    elapsed = time.monotonic() - start
    proc.kill()
    proc.wait()
    print(f"{elapsed:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
