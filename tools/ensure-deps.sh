#!/bin/sh
# ensure-deps.sh PKG... - make sure the Debian packages the build needs are installed.
# As root, installs the missing ones with apt-get; otherwise prints the exact command and fails.
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing build dependencies:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq $missing >/dev/null || {
		echo "apt-get install failed for:$missing" >&2; exit 1; }
else
	echo "missing build dependencies; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
