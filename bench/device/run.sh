#!/bin/sh
# bench/device/run.sh [JOBS...] - the scaling run on the other machine: unpack the
# payload next to this script (made by make-payload.sh) and run bench.py on it;
# the table goes to stdout and to $OUT/scaling.txt when OUT is set.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
DEVRUN=/tmp/kit
export DEVRUN
L=$DEVRUN/lib
rm -rf /tmp/w /tmp/kit
mkdir -p /tmp/w /tmp/kit
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
	"$here/progs.tar.xz" /tmp/kit 2>/dev/null ||
	tar -C /tmp/kit -xJf "$here/progs.tar.xz"
cp "$here/bench.py" /tmp/kit/
[ ! -d "$here/expected" ] || cp -R "$here/expected" /tmp/kit/
cd /tmp/w
"$L/ld-linux-x86-64.so.2" --library-path "$L" "$DEVRUN/bin/zstd" -q -d --long=27 \
	-c "$here/payload.tar.zst" | tar xf -
HOME=/tmp/w/home
export HOME
nproc
uname -r
python3 "$DEVRUN/bench.py" "$@" 2>&1 | tee "${OUT:-/tmp/w}/scaling.txt"
