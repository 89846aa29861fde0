#!/usr/bin/env python3
"""Check that src/'s #include graph keeps the layers docs/ARCHITECTURE.md states.

    check_layers.py [SOURCE_ROOT]     # default: the checkout this script is in

The rules are read from ARCHITECTURE.md's table under "## Layers" (a row per
layer, top first, with the folders of src/ in it), so the document and the
check cannot drift apart:
  - a folder includes its own files, other folders of its layer and the layers
    below, never a layer above (no engine includes cli/; tracee/, tracefile/,
    util/ include no engine);
  - between folders no include goes round in a circle;
  - every folder of src/ stands in the table (a new one is placed on purpose).
An include is resolved as the compiler does (the including file's folder, then
meson's include directories: the root, src/, src/syscalls/, include/); one that
resolves to no file in the tree (a generated header) is not an edge.

Prints one line per broken rule naming the file and the include, and exits 1;
prints a summary and exits 0 when the graph keeps the rules.
"""

import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# meson.build's `inc`, in its order, after the including file's own folder.
INCLUDE_DIRS = ['.', 'src', 'src/syscalls', 'include']
PUBLIC = 'include'      # the public headers (include/tracekit/), a folder of its own


def read_layers(doc):
    """[(layer name, [folders])] top first, from the table under '## Layers'."""
    layers, in_section, in_table = [], False, False
    with open(doc, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                in_section = line.strip() == '## Layers'
                continue
            if not in_section:
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if line.startswith('|') and cells[:2] == ['layer', 'folders']:
                in_table = True
            elif in_table and line.startswith('|') and not set(cells[0]) <= set('-: '):
                layers.append((cells[0], [w.strip('`/') for w in cells[1].split()]))
            elif in_table and not line.startswith('|'):
                break
    return layers


def folder_of(rel):
    """The folder a tree path belongs to: src/X/... -> X, include/... -> include."""
    parts = rel.split('/')
    if parts[0] == 'src' and len(parts) > 2:
        return parts[1]
    if parts[0] == 'include':
        return PUBLIC
    return None


def includes(root):
    """Each quoted include of src/ that names a file in the tree: (file, line, text, target)."""
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'src')):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding='utf-8', errors='replace') as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    for base in [dirpath] + [os.path.join(root, d) for d in INCLUDE_DIRS]:
                        target = os.path.normpath(os.path.join(base, m.group(1)))
                        if os.path.isfile(target):
                            yield rel, n, m.group(1), os.path.relpath(target, root)
                            break


def find_cycle(graph):
    """One circle of folders in graph {a: {b: first edge}}, as [a, b, ..., a]; None if none."""
    state, stack = {}, []

    def visit(a):
        state[a] = 1
        stack.append(a)
        for b in sorted(graph.get(a, {})):
            if state.get(b) == 1:
                return stack[stack.index(b):] + [b]
            if b not in state:
                found = visit(b)
                if found:
                    return found
        stack.pop()
        state[a] = 2
        return None

    for a in sorted(graph):
        if a not in state:
            found = visit(a)
            if found:
                return found
    return None


def check(root):
    """The broken rules, one line each (empty: the graph keeps them), and a summary."""
    doc = os.path.join(root, 'docs', 'ARCHITECTURE.md')
    layers = read_layers(doc)
    if not layers:
        return ['docs/ARCHITECTURE.md: no "| layer | folders |" table under "## Layers"'], ''
    rank = {}
    for i, (name, folders) in enumerate(layers):
        for d in folders:
            rank[d] = (i, name)
    problems = []
    src = os.path.join(root, 'src')
    for d in sorted(os.listdir(src)):
        if os.path.isdir(os.path.join(src, d)) and d not in rank:
            problems.append('src/%s/: in no layer of docs/ARCHITECTURE.md\'s "## Layers" table '
                            '(add it to the layer it belongs to)' % d)
    graph, edges = {}, 0
    for rel, n, text, target in includes(root):
        a, b = folder_of(rel), folder_of(target)
        if not a or not b or a == b:
            continue
        edges += 1
        graph.setdefault(a, {}).setdefault(b, '%s:%d includes "%s"' % (rel, n, text))
        if a in rank and b in rank and rank[b][0] < rank[a][0]:
            problems.append('%s:%d includes "%s": %s/ (%s) may not include %s/ (%s, a layer above)'
                            % (rel, n, text, a, rank[a][1], b, rank[b][1]))
    cycle = find_cycle(graph)
    if cycle:
        problems.append('a circle between folders: %s (%s)' % (
            ' -> '.join(c + '/' for c in cycle),
            '; '.join(graph[x][y] for x, y in zip(cycle, cycle[1:]))))
    summary = '%d includes between %d folders keep the %d layers (%s) and make no circle' % (
        edges, len(graph), len(layers), ' > '.join(name for name, _ in layers))
    return problems, summary


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems, summary = check(root)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(summary)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
