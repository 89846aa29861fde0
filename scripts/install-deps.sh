#!/bin/sh
# Install the Debian packages tracekit builds and tests with. Idempotent: does
# nothing when everything is present, runs `apt-get update` once otherwise.
set -eu

PKGS="meson ninja-build pkg-config gcc make python3
libtraceevent-dev libtracefs-dev libtracecmd-dev libzstd-dev libelf-dev libdw-dev
libcapstone-dev libseccomp-dev libbpf-dev libstdc++-12-dev
clang llvm bpftool bpftrace
strace trace-cmd linux-perf protobuf-compiler binutils
ltrace gdb libc6-dbg
chromium nodejs
qemu-system-x86 busybox-static kmod cpio linux-headers-amd64
debhelper dpkg-dev lintian debootstrap scdoc bash-completion
g++ liblttng-ust-dev lttng-tools
kernelshark xvfb xdotool"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
# The kernel lab (tests/kernel) boots Debian's kernel package under qemu; it fetches that
# package itself (apt-get download, never installed) and builds examples/kernel with the headers.
# The view tests drive chromium with npm's playwright-core (tests/e2e/package.json):
# installed from the lock file when absent or older than it (npm comes with nodejs
# from NodeSource; Debian splits it into the npm package).
e2e_npm() {
	d="$(dirname "$0")/../tests/e2e"
	[ -d "$d/node_modules/playwright-core" ] && [ "$d/node_modules" -nt "$d/package-lock.json" ] &&
		return 0
	command -v npm >/dev/null || apt-get install -y -qq --no-install-recommends npm
	(cd "$d" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
}

[ -z "$missing" ] && { e2e_npm; exit 0; }

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "install-deps: installing$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
e2e_npm
