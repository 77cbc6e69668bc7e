#!/usr/bin/env python3
"""Fails on an include that goes against the layer order of core/ (issue 20).

The order is core/layers.txt: one line per folder of core/ naming the layers it uses directly; a
layer may include its own folder and everything below it, nothing else. Checked here:
  * every file under core/ belongs to a layer (a new folder needs a line in core/layers.txt);
  * an include of core/X/... from a layer that is not above X (upward or sideways) is an error;
  * nothing outside tests/ includes from tests/;
  * the table names known layers and has no cycle.
The same table gives each layer's CMake target its include view (core/CMakeLists.txt), so such an
include also fails to compile; this check says which line and why, and runs in ctest
(Layers.NoUpwardIncludes).

Usage: scripts/check-layers.py [--root DIR]   (DIR defaults to the checkout holding this script)
Exits 0 when the tree follows the order, 1 with one line per offending include otherwise.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*["<]((?:core|tests)/[^">]+)[">]')
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".inc")
SKIP_DIRS = {".git", "build"}


def read_layers(path):
    """{layer: [layers it uses directly]} in file order; raises ValueError on a bad table."""
    uses = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] in uses:
                raise ValueError(f"{path}:{number}: layer {words[0]} is listed twice")
            uses[words[0]] = words[1:]
    for layer, used in uses.items():
        for u in used:
            if u not in uses:
                raise ValueError(f"{path}: {layer} uses {u}, which has no line of its own")
    return uses


def closures(uses):
    """{layer: set of layers it may include, itself among them}; raises ValueError on a cycle."""
    result, visiting = {}, set()

    def visit(layer):
        if layer in result:
            return result[layer]
        if layer in visiting:
            raise ValueError(f"core/layers.txt: the layers form a cycle through {layer}")
        visiting.add(layer)
        below = {layer}
        for u in uses[layer]:
            below |= visit(u)
        visiting.discard(layer)
        result[layer] = below
        return below

    for layer in uses:
        visit(layer)
    return result


def layer_of(core_path, layers):
    """The layer of a path under core/ ("core/gpu/codegen/X.h" -> "gpu/codegen"), longest folder
    first; None for a path in no layer."""
    rel = core_path[len("core/"):]
    for layer in sorted(layers, key=len, reverse=True):
        if rel.startswith(layer + "/"):
            return layer
    return None


def source_files(root):
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        # Hidden folders (.git, the git-ignored .device-shared copies of other trees) hold no sources of this tree.
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(("build", ".")))
        if rel_folder == ".":
            rel_folder = ""
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(rel_folder, name).replace(os.sep, "/")


def check(root):
    """Problems found, one line each ("file:line: what is wrong")."""
    table = os.path.join(root, "core", "layers.txt")
    try:
        uses = read_layers(table)
        allowed = closures(uses)
    except (OSError, ValueError) as e:
        return [str(e)]
    problems = []
    for rel in source_files(root):
        in_core = rel.startswith("core/")
        in_tests = rel.startswith("tests/")
        own = layer_of(rel, uses) if in_core else None
        if in_core and own is None:
            problems.append(f"{rel}: in no layer of core/layers.txt (add a line for its folder)")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"{rel}:{number}"
                if target.startswith("tests/"):
                    if not in_tests:
                        problems.append(f"{where}: includes {target}; only tests/ may include tests/ "
                                        "(put what both need in a library under core/, e.g. core/testing)")
                    continue
                theirs = layer_of(target, uses)
                if theirs is None:
                    problems.append(f"{where}: includes {target}, which is in no layer of core/layers.txt")
                elif own is not None and theirs not in allowed[own]:
                    problems.append(f"{where}: core/{own} includes {target}, but {theirs} is not below "
                                    f"{own} in core/layers.txt (move the shared code down, or pass it in from above)")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = parser.parse_args()
    problems = check(os.path.abspath(args.root))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) against the layer order of core/layers.txt", file=sys.stderr)
        return 1
    print("layers: every include follows core/layers.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
