#!/bin/sh
# tests/install-check.sh DIR VERSION - what `make install DESTDIR=DIR PREFIX=/usr` put
# there (run by `make check` between install and uninstall): every program runs from
# its installed place and prints "NAME version VERSION" for --version, its man page is
# roff with its .TH line, and the bash completion completes its long options.
set -u
dir=$1 version=$2
fail=0
for p in dirreport dirconvert dirscript dirrecord; do
	[ -x "$dir/usr/bin/$p" ] || continue
	if [ "$("$dir/usr/bin/$p" --version)" = "$p version $version" ]; then
		echo "PASS install:$p:--version"
	else
		echo "FAIL install:$p:--version"; fail=1
	fi
	u=$(echo "$p" | tr a-z A-Z)
	if grep -q "^\.TH $u 1 " "$dir/usr/share/man/man1/$p.1" 2>/dev/null; then
		echo "PASS install:$p:man"
	else
		echo "FAIL install:$p:man (no $dir/usr/share/man/man1/$p.1 with .TH $u 1)"; fail=1
	fi
	got=$(bash -c '. "$1/usr/share/bash-completion/completions/$2" &&
		COMP_WORDS=("$1/usr/bin/$2" --vers) COMP_CWORD=1 &&
		_dirreport_complete "$1/usr/bin/$2" && echo "${COMPREPLY[*]}"' _ "$dir" "$p")
	if [ "$got" = "--version" ]; then
		echo "PASS install:$p:bash-completion"
	else
		echo "FAIL install:$p:bash-completion (--vers completed to '$got')"; fail=1
	fi
done
exit $fail
