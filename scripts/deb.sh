#!/bin/sh
# Builds tracekit_VERSION_amd64.deb (and tracekit-dev when there are public headers)
# into OUTDIR (default build/deb) from a copy of the tree, and checks it with lintian.
# The version is meson.build's project version: debian/changelog is written here
# from it, in the copy, so there is one place to change it.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$src/build/deb}" && cd "${1:-$src/build/deb}" && pwd)
version=$(meson introspect --projectinfo "$src/meson.build" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
stage=$out/src/tracekit-$version

rm -rf "$out/src" "$out"/tracekit*_"$version"_*.deb
mkdir -p "$stage"
# The tree without build output, VCS data, tests and benches (a package needs none).
(cd "$src" && tar -c --exclude-vcs --exclude='./build*' --exclude=./tests --exclude=./bench \
	--exclude='./obj-*' --exclude=./debian/tmp .) | tar -x -C "$stage"

{
	echo "tracekit ($version) unstable; urgency=medium"
	echo
	echo "  * Built from the tracekit tree; its history is the project's git log."
	echo
	echo " -- tracekit developers <tracekit@lists.example.org>  $(date -R)"
} >"$stage/debian/changelog"

(cd "$stage" && DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed; the whole log is $out/build.log" >&2
	exit 1
}
mv "$out/src"/*.deb "$out/"
rm -rf "$out/src"

debs=$(ls "$out"/tracekit*_"$version"_*.deb)
root_ok=; [ "$(id -u)" = 0 ] && root_ok=--allow-root
lintian --fail-on error $root_ok $debs || {
	echo "deb: lintian reports errors (above)" >&2
	exit 1
}
echo "$debs"
