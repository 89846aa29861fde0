#!/bin/sh
# Install the Debian packages tracekit builds and tests with. Idempotent: does
# nothing when everything is present, runs `apt-get update` once otherwise.
set -eu

PKGS="meson ninja-build pkg-config gcc make python3
libtraceevent-dev libtracefs-dev libtracecmd-dev libzstd-dev libelf-dev libdw-dev
libcapstone-dev libseccomp-dev libbpf-dev
strace trace-cmd linux-perf"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "install-deps: installing$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
