#!/bin/sh
# The package on a clean system: builds the .deb from this tree (scripts/deb.sh),
# unpacks a fresh Debian 12 root made by debootstrap (tests/pkg/debian_root.sh, cached
# per machine), installs the package there with apt so its dependencies come from the
# Debian mirror, runs it, then purges it and checks that nothing of it is left.
# Root only (debootstrap, chroot); the chroot's mounts live in a private mount namespace.
# Usage: test_clean_system.sh SOURCE_DIR
set -eu
src=$(cd "$1" && pwd)

if [ "$(id -u)" != 0 ]; then
	[ "${CI:-}" = true ] && { echo "clean-system: needs root (debootstrap, chroot)"; exit 1; }
	echo "SKIP: clean-system needs root (debootstrap, chroot)"
	exit 77
fi
for tool in debootstrap dpkg-buildpackage lintian unshare; do
	command -v "$tool" >/dev/null || { echo "clean-system: $tool is missing (make deps)"; exit 1; }
done

work=$(mktemp -d /var/tmp/tracekit-clean-system.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
t0=$(date +%s)

echo "== make deb"
scripts_out=$("$src/scripts/deb.sh" "$work/deb") || exit 1
echo "$scripts_out"
echo "== the files docs/packaging.md lists"
python3 "$src/tests/pkg/deb_files_documented.py" "$src/docs/packaging.md" "$work"/deb/tracekit*.deb ||
	{ echo "clean-system: the packages' files and docs/packaging.md differ (above)"; exit 1; }
t1=$(date +%s)

echo "== fresh Debian 12 root"
tarball=$("$src/tests/pkg/debian_root.sh")
mkdir "$work/root"
tar -C "$work/root" -xzf "$tarball"
mkdir -p "$work/root/tmp/debs"
cp "$work"/deb/tracekit_*.deb "$work/root/tmp/debs/"
cp "$work"/deb/tracekit-dev_*.deb "$work/root/tmp/debs/" 2>/dev/null || true
cp /etc/resolv.conf "$work/root/etc/resolv.conf"
t2=$(date +%s)

cat >"$work/root/tmp/inside.sh" <<'INSIDE'
set -eu
export DEBIAN_FRONTEND=noninteractive LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }
# Every path on the root, but for apt's and dpkg's own bookkeeping and logs.
snapshot() {
	find / -xdev \( -path /proc -o -path /tmp -o -path /var/lib/apt -o -path /var/cache \
		-o -path /var/lib/dpkg -o -path /var/log \) -prune -o -print | sort
}
snapshot >/tmp/before

echo "== apt-get install"
apt-get update -qq
apt-get install -y -qq --no-install-recommends /tmp/debs/*.deb >/tmp/apt.log 2>&1 ||
	{ cat /tmp/apt.log; fail "apt could not install the package"; }
grep -E '^(Setting up|Unpacking) ' /tmp/apt.log | sed 's/^/  /' | head -n 40

echo "== tracekit --version"
tracekit --version
tracekit --version | grep -qx "tracekit $VERSION" || fail "version is not $VERSION"

echo "== tracekit syscalls -f true"
tracekit syscalls -f true 2>/tmp/trace || fail "tracekit syscalls -f true exited $?"
head -n 3 /tmp/trace
grep -q '^execve("/usr/bin/true", \["true"\]' /tmp/trace || fail "no execve line"
grep -qx '+++ exited with 0 +++' /tmp/trace || fail "no exit line"

echo "== man -w"
for page in tracekit tracekit-syscalls tracekit-record; do
	man -w "$page" || fail "man -w $page found nothing"
done
man tracekit-record 2>/dev/null | grep -q 'record kernel events' || fail "man tracekit-record"
[ -f /usr/share/bash-completion/completions/tracekit ] || fail "no bash completion"
if ls /tmp/debs/tracekit-dev_*.deb >/dev/null 2>&1; then
	[ -f /usr/include/tracekit/probe.h ] || fail "tracekit-dev: no <tracekit/probe.h>"
fi

echo "== apt-get purge"
files=$(dpkg -L tracekit)
pkgs=$(dpkg-query -W -f '${Package}\n' 'tracekit*' 2>/dev/null | tr '\n' ' ')
apt-get purge -y -qq $pkgs >/dev/null 2>&1 || fail "apt-get purge $pkgs"
apt-get autoremove --purge -y -qq >/dev/null 2>&1 || fail "apt-get autoremove"
dpkg -s tracekit >/dev/null 2>&1 && fail "tracekit is still installed"
for f in $files; do
	[ -d "$f" ] || [ ! -e "$f" ] || fail "$f is left after purge"
done
snapshot >/tmp/after
if ! diff /tmp/before /tmp/after >/tmp/diff; then
	cat /tmp/diff
	fail "the root differs from before the install (above)"
fi
echo "nothing is left"
INSIDE

echo "== in the root"
version=$(ls "$work"/deb/tracekit_*_amd64.deb | sed 's/.*tracekit_\(.*\)_amd64.deb/\1/')
unshare --mount --propagation private sh -c '
	mount -t proc proc "$1/proc" && chroot "$1" /usr/bin/env -i VERSION="$2" HOME=/root \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb /bin/sh /tmp/inside.sh' \
	sh "$work/root" "$version"
t3=$(date +%s)
echo "clean-system: pass (deb $((t1 - t0)) s, root $((t2 - t1)) s, install/run/purge $((t3 - t2)) s)"
