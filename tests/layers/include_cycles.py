#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Headers that include each other, directly or through other headers.

    include_cycles.py SOURCE_DIR

Reads the #include lines ("..." and <...>) of every header under include/
and src/ of SOURCE_DIR, resolved as the compiler would find them in the
tree (beside the header, then include/, then src/); headers of the system
are left out. Prints each circle of headers, one include per line, and
fails (exit 1) when there is one. The include guards hide such a circle
from the compiler until a header meets a type its partner has not
declared yet; a forward declaration (struct x;) or a type moved to the
lower header breaks it. Needs no build.
"""
import collections
import os
import re
import sys


def headers(src):
    return sorted(os.path.relpath(os.path.join(d, n), src)
                  for top in ("include", "src")
                  for d, _, ns in os.walk(os.path.join(src, top))
                  for n in ns if n.endswith(".h"))


INC = re.compile(r'^\s*#\s*include\s+[<"]([^">]+)[">]', re.M)


def includes(src, tree):
    """{header: {header it includes: the #include line}}"""
    known = set(tree)
    uses = collections.defaultdict(dict)
    for h in tree:
        with open(os.path.join(src, h), errors="replace") as f:
            text = f.read()
        for name in INC.findall(text):
            for cand in (os.path.join(os.path.dirname(h), name),
                         os.path.join("include", name), os.path.join("src", name)):
                cand = os.path.normpath(cand)
                if cand in known:
                    if cand != h:
                        uses[h].setdefault(cand, '#include "%s"' % name)
                    break
    return uses


def circles(uses, tree):
    """The strongly connected sets of more than one header (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(uses.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            c = []
            while True:
                w = stack.pop()
                on.discard(w)
                c.append(w)
                if w == v:
                    break
            if len(c) > 1:
                found.append(sorted(c))

    sys.setrecursionlimit(100000)
    for v in tree:
        if v not in index:
            visit(v)
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: include_cycles.py SOURCE_DIR")
    src = sys.argv[1]
    tree = headers(src)
    uses = includes(src, tree)
    found = circles(uses, tree)
    for c in found:
        members = set(c)
        print("include_cycles: %d headers include each other:" % len(c))
        for a in c:
            for b in sorted(set(uses[a]) & members):
                print("    %s -> %s (%s)" % (a, b, uses[a][b]))
    print("include_cycles: %d headers, %d includes, %d circles"
          % (len(tree), sum(len(u) for u in uses.values()), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
