#!/usr/bin/env python3
"""The include graph keeps docs/ARCHITECTURE.md's layers (scripts/check_layers.py), and the
check fails where it must: on copies of the tree with one wrong include, a circle, or a
folder the document does not place.

    test_layers.py SOURCE_ROOT
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else '.'
CHECKER = os.path.join(ROOT, 'scripts', 'check_layers.py')
failures = []


def check(root):
    p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def expect(cond, what):
    print('%s: %s' % ('ok' if cond else 'FAIL', what))
    if not cond:
        failures.append(what)


def link(src, dst):
    os.symlink(os.path.abspath(src), dst)


def copy_tree(tmp):
    """src/, include/ and docs/ARCHITECTURE.md, what the checker reads: the C files as links
    (add_line replaces a link by a file before it writes), the rest left out."""
    dst = os.path.join(tmp, 'tree')
    only_c = shutil.ignore_patterns('*.py', '*.build', '*.js', '*.css', '*.in', '*.tbl', '*.md')
    for d in ('src', 'include'):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(dst, d), copy_function=link,
                        ignore=only_c)
    os.makedirs(os.path.join(dst, 'docs'))
    shutil.copy(os.path.join(ROOT, 'docs', 'ARCHITECTURE.md'), os.path.join(dst, 'docs'))
    return dst


def add_line(root, rel, line):
    """line added after the file's first #include (so its number is known)."""
    path = os.path.join(root, rel)
    with open(path) as f:
        lines = f.readlines()
    os.unlink(path)     # a link to the real file: never written through
    at = next(i for i, l in enumerate(lines) if l.startswith('#include')) + 1
    lines.insert(at, line + '\n')
    with open(path, 'w') as f:
        f.writelines(lines)
    return at + 1


def broken(what, rel, line, want):
    """On a fresh copy with line added to rel, the check fails and its output has each of want."""
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_tree(tmp)
        if rel:
            n = add_line(root, rel, line)
            want = [w.replace('LINE', str(n)) for w in want]
        else:
            line(root)
        rc, out = check(root)
    expect(rc == 1 and all(w in out for w in want),
           '%s: exit 1 naming %s (got %d: %s)' % (what, want, rc, out.strip()))


rc, out = check(ROOT)
expect(rc == 0, 'the tree keeps the layers: %s' % out.strip())

broken('tracefile/ includes cli/', 'src/tracefile/reader.c', '#include "cli/cli.h"',
       ['src/tracefile/reader.c:LINE includes "cli/cli.h": tracefile/ (models) may not include '
        'cli/ (front, a layer above)'])
broken('an engine includes cli/ by a relative path', 'src/ftrace/session.c', '#include "../cli/cli.h"',
       ['src/ftrace/session.c:LINE includes "../cli/cli.h": ftrace/ (engines) may not include cli/'])
broken('util/ includes an engine', 'src/util/strbuf.c', '#include "syscalls/decoder.h"',
       ['src/util/strbuf.c:LINE includes "syscalls/decoder.h": util/ (util) may not include '
        'syscalls/ (engines'])
broken('tracee/ includes an engine', 'src/tracee/tracee.c', '#include "record/record.h"',
       ['tracee/ (models) may not include record/ (engines'])
# record/ includes ftrace/ already: ftrace/ including record/ closes a circle.
broken('a circle between engines', 'src/ftrace/session.c', '#include "record/record.h"',
       ['a circle between folders:', 'ftrace/', 'record/',
        'src/ftrace/session.c:LINE includes "record/record.h"'])


def new_folder(root):
    os.makedirs(os.path.join(root, 'src', 'gizmo'))
    with open(os.path.join(root, 'src', 'gizmo', 'gizmo.c'), 'w') as f:
        f.write('#include "util/die.h"\n')


broken('a folder in no layer', None, new_folder, ['src/gizmo/: in no layer'])

print('%d passed, %d failed' % (7 - len(failures), len(failures)))
sys.exit(1 if failures else 0)
