#!/bin/sh
# Prints the path of a gzipped tarball of a fresh Debian 12 (bookworm) root made by
# debootstrap, making it first when this machine has none.  The root is made once per
# machine and kept outside the checkout (TRACEKIT_ROOT_CACHE, default
# /var/cache/tracekit-tests), because debootstrap takes minutes and the result does
# not change between runs.  The mirror is the one apt on this machine uses.
set -eu

cache=${TRACEKIT_ROOT_CACHE:-/var/cache/tracekit-tests}
tarball=$cache/bookworm-amd64-minbase.tar.gz
[ -s "$tarball" ] && { echo "$tarball"; exit 0; }

# The first deb.debian.org-style URI of the main archive in apt's sources.
mirror() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f"
	done
}
url=$(mirror | head -n 1)
[ -n "$url" ] || url=http://deb.debian.org/debian

mkdir -p "$cache"
work=$(mktemp -d "$cache/root.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
# minbase keeps it small; man-db is what `man -w` needs, not something tracekit pulls in.
echo "debian_root: debootstrap bookworm from $url (once per machine)" >&2
debootstrap --variant=minbase --include=man-db bookworm "$work/root" "$url" >"$work/log" 2>&1 || {
	tail -n 20 "$work/log" >&2
	echo "debian_root: debootstrap failed (log above)" >&2
	exit 1
}
tar -C "$work/root" -czf "$work/root.tar.gz" .
mv "$work/root.tar.gz" "$tarball"
echo "$tarball"
