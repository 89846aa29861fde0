#!/usr/bin/env python3
"""The files each .deb holds are the ones docs/packaging.md's table lists for it.

    deb_files_documented.py DOCS_PACKAGING_MD DEB...

Each row of the table names its package in the first column and its files as backquoted
absolute paths (shell patterns) in the second: every pattern must match a file of that
package, and every file of it (but /usr/share/doc, which debhelper writes) a pattern.
"""

import fnmatch
import re
import subprocess
import sys


def documented(md):
    rows = {}
    for line in open(md):
        m = re.match(r'^\| `([a-z0-9-]+)` \| (.*) \|$', line.strip())
        if m:
            rows[m.group(1)] = re.findall(r'`(/[^`]+)`', m.group(2))
    return rows


def files_of(deb):
    out = subprocess.run(['dpkg-deb', '-c', deb], capture_output=True, text=True, check=True).stdout
    files = []
    for line in out.splitlines():
        path = line.split(None, 5)[5].split(' -> ')[0].lstrip('.')
        if not path.endswith('/') and not path.startswith('/usr/share/doc/'):
            files.append(path)
    return files


def main():
    rows = documented(sys.argv[1])
    bad = []
    for deb in sys.argv[2:]:
        pkg = deb.rsplit('/', 1)[-1].split('_', 1)[0]
        if pkg.endswith('-dbgsym'):
            continue
        pats, files = rows.get(pkg), files_of(deb)
        if pats is None:
            bad.append('%s: no row in %s' % (pkg, sys.argv[1]))
            continue
        bad += ['%s: the docs list %s, the package has no such file' % (pkg, p) for p in pats
                if not any(fnmatch.fnmatch(f, p) for f in files)]
        bad += ['%s: holds %s, which the docs do not list' % (pkg, f) for f in files
                if not any(fnmatch.fnmatch(f, p) for p in pats)]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
