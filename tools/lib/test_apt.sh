#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host test of apt.sh's spe_need_host_pkgs, which two scripts of one make
# check may call at the same time: it installs only what is missing, asks
# apt-get only after holding the shared lock (an fd on the cache's
# .host-apt-lock), installs only what is still missing once it holds it,
# refreshes the host's lists at most every 12 hours and stops with a clear
# error when apt-get fails. dpkg-query, apt-get and flock are stubs that
# log their calls. Prints TAP and ends with "apt-lib: N passed, N failed,
# N skipped".
# shellcheck disable=SC2016
# (the stubs' bodies expand when they run)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tap.sh
. "$here/tap.sh"
tap_begin apt-lib

# The stubs: dpkg-query answers from $work/installed; apt-get logs its
# arguments (and a line if it inherited the lock's descriptor, which a
# daemon it starts would keep) and adds what it installs there (or fails
# if $work/apt-fails exists); flock logs the file its fd is open on, then
# runs $work/on-lock if there is one: what another installer did while
# this one waited (or fails if $work/flock-fails exists).
mkdir -p "$work/bin"
cat >"$work/bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
grep -qxF -- "$p" "$WORK/installed" && printf 'install ok installed'
exit 0
EOF
cat >"$work/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$WORK/calls"
for fd in /proc/$$/fd/*; do
	[ "$(readlink "$fd")" = "$WORK/cache/.host-apt-lock" ] && echo "apt-get holds the lock" >>"$WORK/calls"
done
[ -e "$WORK/apt-fails" ] && exit 100
if [ "$1" = install ]; then
	for p; do case $p in install | -*) ;; *) echo "$p" >>"$WORK/installed" ;; esac; done
fi
exit 0
EOF
cat >"$work/bin/flock" <<'EOF'
#!/bin/sh
echo "flock $(readlink "/proc/$PPID/fd/$1")" >>"$WORK/calls"
[ -e "$WORK/flock-fails" ] && exit 1
[ -x "$WORK/on-lock" ] && "$WORK/on-lock"
exit 0
EOF
chmod +x "$work/bin/"*

# need CASE PKG...: a fresh call of spe_need_host_pkgs PKG in a subshell
# with the stubs first in PATH; its stderr goes to $work/err, its status
# to $rc; $work/calls is emptied first.
need() {
	: >"$work/calls"
	(
		export WORK=$work ARM_SPE_CACHE=$work/cache SPE_LOG_TAG=t PATH="$work/bin:$PATH"
		# shellcheck source=apt.sh
		. "$here/apt.sh"
		spe_sudo() { "$@"; }
		spe_need_host_pkgs "$@"
	) 2>"$work/err"
	rc=$?
}

# expect DESC WANT_RC WANT_CALLS: the last need's status and calls.
expect() {
	local calls
	calls=$(cat "$work/calls")
	if [ "$rc" -eq "$2" ] && [ "$calls" = "$3" ]; then
		tap_ok "$1"
	else
		tap_not_ok "$1" "rc $rc (want $2), calls below"
		{ echo "calls:"; echo "$calls"; echo "want:"; echo "$3"; cat "$work/err"; } | sed 's/^/#   /'
	fi
}

lock=$work/cache/.host-apt-lock
printf '%s\n' make gcc >"$work/installed"

need make gcc
expect "all installed: no lock, no apt-get" 0 ""

need make pkg-a pkg-b
expect "missing ones installed under the lock, lists refreshed first" 0 "flock $lock
apt-get update -qq
apt-get install -y -qq --no-install-recommends pkg-a pkg-b"

need pkg-c
expect "lists refreshed less than 12 hours ago: not again" 0 "flock $lock
apt-get install -y -qq --no-install-recommends pkg-c"

printf '#!/bin/sh\necho pkg-d >>"$WORK/installed"\n' >"$work/on-lock"
chmod +x "$work/on-lock"
need pkg-d pkg-e
expect "installed by another while waiting: only the rest" 0 "flock $lock
apt-get install -y -qq --no-install-recommends pkg-e"

printf '#!/bin/sh\nprintf "pkg-f\\npkg-g\\n" >>"$WORK/installed"\n' >"$work/on-lock"
need pkg-f pkg-g
expect "all installed by another while waiting: no apt-get" 0 "flock $lock"
rm -f "$work/on-lock"

touch "$work/apt-fails"
need pkg-h
expect "apt-get fails: exit 1" 1 "flock $lock
apt-get install -y -qq --no-install-recommends pkg-h"
if grep -qxF "[t] error: could not install: pkg-h" "$work/err"; then
	tap_ok "apt-get fails: the error names the packages"
else
	tap_not_ok "apt-get fails: the error names the packages"
	sed 's/^/#   /' "$work/err"
fi
rm -f "$work/apt-fails"

touch "$work/flock-fails"
need pkg-i
expect "the lock cannot be taken: exit 1, no apt-get" 1 "flock $lock"
if grep -qxF "[t] error: could not lock $lock" "$work/err"; then
	tap_ok "the lock cannot be taken: the error names the lock"
else
	tap_not_ok "the lock cannot be taken: the error names the lock"
	sed 's/^/#   /' "$work/err"
fi
rm -f "$work/flock-fails"

tap_end
