#!/bin/sh
# The tracked files carry no merge-conflict markers and no paths of a
# development machine (the repository speaks of the project only).
#
#   test_repo_tidy.sh SOURCE_ROOT
set -u
root=${1:?usage: test_repo_tidy.sh SOURCE_ROOT}
cd "$root" || exit 1
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "FAIL (CI=true, cannot skip): $root is not a git checkout"; exit 1; }
	echo "SKIP: $root is not a git checkout (nothing lists the tracked files)"
	exit 77
fi
bad=0
# A conflict left by a merge: all three markers at the start of lines.
if git grep -n -I -E '^(<<<<<<<|>>>>>>>) ' -- . >markers.tmp.$$ 2>/dev/null; then
	echo "FAIL: merge-conflict markers in tracked files:"
	cat markers.tmp.$$
	bad=1
fi
rm -f markers.tmp.$$
# The folders the project is developed in on its development machine.
if git grep -n -I -E '(^|[^a-zA-Z0-9_.])/work/|/tmp/bash_jobs' -- . ':!tests/pkg/test_repo_tidy.sh' \
	>paths.tmp.$$ 2>/dev/null; then
	echo "FAIL: development-machine paths in tracked files:"
	cat paths.tmp.$$
	bad=1
fi
rm -f paths.tmp.$$
[ "$bad" = 0 ] && echo "ok: no conflict markers, no machine paths"
exit "$bad"
