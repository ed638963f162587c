#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The source tree's layers, checked: no circle and no use that climbs.

    layers.py SOURCE_DIR BUILD_DIR

A file uses another when it includes it (#include "..." of a header of the
tree) or when its object needs a symbol the other's object defines (nm of
the objects compile_commands.json names: U against T, D, B, R, C). Every
source and header belongs to the layer whose patterns in src/LAYERS match
its path; layers are listed from the top (main) down to the bottom (base).
A use must stay in its layer or go to a layer listed below it. The check
fails (exit 1) on a file of the tree no layer holds, on a use that goes up
or sideways to a layer at the same level, and on any circle of files that
use each other, directly or through others (each printed).
"""
import collections
import fnmatch
import json
import os
import re
import subprocess
import sys

from include_cycles import circles

src, build = sys.argv[1], sys.argv[2]
os.chdir(src)

# src/LAYERS: "LEVEL NAME PATTERN..." lines, top first; '#' starts a comment.
layers = []
with open("src/LAYERS") as f:
    for line in f:
        p = line.split("#", 1)[0].split()
        if p:
            layers.append((int(p[0]), p[1], p[2:]))


def layer(path):
    for level, name, pats in layers:
        if any(fnmatch.fnmatchcase(path, pat) for pat in pats):
            return level, name
    return None


tree = sorted(os.path.join(d, n) for top in ("src", "include")
              for d, _, ns in os.walk(top) for n in ns if n.endswith((".c", ".h")))
errors = []
for p in tree:
    if layer(p) is None:
        errors.append("%s: in no layer of src/LAYERS" % p)

uses = collections.defaultdict(set)
why = {}
known = set(tree)


def resolve(frm, name):
    for cand in (os.path.join(os.path.dirname(frm), name), os.path.join("include", name),
                 os.path.join("src", name)):
        cand = os.path.normpath(cand)
        if cand in known:
            return cand
    return None


inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
for p in tree:
    with open(p, errors="replace") as f:
        for name in inc_re.findall(f.read()):
            t = resolve(p, name)
            if t and t != p:
                uses[p].add(t)
                why.setdefault((p, t), '#include "%s"' % name)

with open(os.path.join(build, "compile_commands.json")) as f:
    cc = json.load(f)
defs, needs, seen = {}, collections.defaultdict(set), set()
for e in cc:
    obj = os.path.normpath(os.path.join(e["directory"], e.get("output", "")))
    s = os.path.relpath(os.path.normpath(os.path.join(e["directory"], e["file"])), src)
    # the tree's own objects, once: not the sanitized copies, tests or fuzz targets
    if s not in known or s in seen or "san" in os.path.basename(os.path.dirname(obj)):
        continue
    if not os.path.exists(obj):
        errors.append("%s: object %s missing (build first)" % (s, obj))
        continue
    seen.add(s)
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TDBRC":
            defs.setdefault(p[2], s)
        elif len(p) == 2 and p[0] == "U":
            needs[s].add(p[1])
if not seen:
    errors.append("no object of the tree found in %s" % build)
for s, ns in needs.items():
    for n in sorted(ns):
        d = defs.get(n)
        if d and d != s:
            uses[s].add(d)
            why.setdefault((s, d), "calls %s" % n)

for a in sorted(uses):
    la = layer(a)
    for b in sorted(uses[a]):
        lb = layer(b)
        if la and lb and la != lb and lb[0] <= la[0]:
            errors.append("%s (%s) uses %s (%s), a layer %s: %s"
                          % (a, la[1], b, lb[1], "above" if lb[0] < la[0] else "beside",
                             why[(a, b)]))

# Circles: strongly connected sets of more than one file (Tarjan, the
# same search the header check makes).
for c in circles(uses, sorted(set(uses) | set(tree))):
    c = set(c)
    edges = ["%s -> %s (%s)" % (a, b, why[(a, b)])
             for a in sorted(c) for b in sorted(uses[a] & c)]
    errors.append("circle of %d files:\n    %s" % (len(c), "\n    ".join(edges)))

for e in errors:
    print("layers:", e)
print("layers: %d files, %d uses, %d layers, %d errors"
      % (len(tree), sum(len(b) for b in uses.values()), len(layers), len(errors)))
sys.exit(1 if errors else 0)
