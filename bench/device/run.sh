#!/bin/sh
# bench/device/run.sh [JOBS...] - the scaling run on the other machine: unpack the
# payload next to this script (made by make-payload.sh) and run bench.py on it;
# the table goes to stdout and to $OUT/scaling.txt when OUT is set.
set -eu
DEVRUN=$(cd "$(dirname "$0")" && pwd)
export DEVRUN
L=$DEVRUN/lib
rm -rf /tmp/w
mkdir -p /tmp/w
cd /tmp/w
"$L/ld-linux-x86-64.so.2" --library-path "$L" "$DEVRUN/bin/zstd" -q -d --long=27 \
	-c "$DEVRUN/payload.tar.zst" | tar xf -
HOME=/tmp/w/home
export HOME
nproc
uname -r
python3 "$DEVRUN/bench.py" "$@" 2>&1 | tee "${OUT:-/tmp/w}/scaling.txt"
