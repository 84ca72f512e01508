#!/usr/bin/env python3
"""Checks the include layering of contactlab (cmake/layers.txt).

Reads every #include "..." in the layer folders, prints the folder-to-folder
matrix of include lines, and exits 1 when an include crosses an arrow the
layer table does not allow (directly or transitively), or when the folders
include each other in a cycle. tests/ and examples/ may include any layer and
are listed for information.

    scripts/check_layers.py [--root DIR] [--quiet]
"""
import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".cu", ".cuh", ".inl")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def read_layers(path):
    layers = {}
    order = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                sys.exit(f"{path}:{lineno}: expected 'LAYER: DEPENDENCIES'")
            name, deps = line.split(":", 1)
            name = name.strip()
            layers[name] = deps.split()
            order.append(name)
    for name, deps in layers.items():
        for d in deps:
            if d not in layers:
                sys.exit(f"{path}: layer '{name}' depends on unknown layer '{d}'")
    return layers, order


def closure(layers):
    allowed = {}
    for name in layers:
        seen, stack = set(), list(layers[name])
        while stack:
            d = stack.pop()
            if d not in seen:
                seen.add(d)
                stack.extend(layers[d])
        allowed[name] = seen
    return allowed


def includes_of(root, folder, known):
    """(file, line, target folder) for every quoted include of a file under folder."""
    out = []
    for dirpath, _, files in os.walk(os.path.join(root, folder)):
        for fn in sorted(files):
            if not fn.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, root)
            with open(path, errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    first = target.split("/", 1)[0] if "/" in target else None
                    if first in known:
                        out.append((rel, lineno, first, target))
                    elif first is None:
                        out.append((rel, lineno, folder, target))  # beside the including file
    return out


def cycles(edges, nodes):
    """Strongly connected components with more than one folder (Tarjan)."""
    index, low, on, stack, result = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                result.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return result


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--quiet", action="store_true", help="print only violations")
    args = ap.parse_args()
    layers, order = read_layers(os.path.join(args.root, "cmake", "layers.txt"))
    allowed = closure(layers)
    free = [f for f in ("tests", "examples") if os.path.isdir(os.path.join(args.root, f))]
    folders = [f for f in order if os.path.isdir(os.path.join(args.root, f))] + free
    known = set(layers) | set(free)

    counts, edges, violations = {}, {}, []
    for folder in folders:
        for rel, lineno, target_folder, target in includes_of(args.root, folder, known):
            if target_folder == folder:
                continue
            counts[(folder, target_folder)] = counts.get((folder, target_folder), 0) + 1
            edges.setdefault(folder, set()).add(target_folder)
            if folder in free:
                if target_folder in free:
                    violations.append(f"{rel}:{lineno}: includes {target} (tests and examples include layers only)")
                continue
            if target_folder not in allowed[folder]:
                violations.append(f"{rel}:{lineno}: {folder} -> {target_folder} is not an allowed arrow "
                                  f"(includes {target}; {folder} may use: {' '.join(sorted(allowed[folder])) or 'nothing'})")

    # Source files outside the layers (scenes/ holds MJCF files only).
    ignored = {"build", "docs", "scripts", "cmake", ".git", ".ci"}
    for top in sorted(os.listdir(args.root)):
        path = os.path.join(args.root, top)
        if not os.path.isdir(path) or top in known or top in ignored or top.startswith(("build", ".")):
            continue
        for dirpath, _, files in os.walk(path):
            for fn in sorted(files):
                if fn.endswith(SOURCE_SUFFIXES):
                    violations.append(f"{os.path.relpath(os.path.join(dirpath, fn), args.root)}: source file outside "
                                      "every layer (cmake/layers.txt)")

    loops = cycles(edges, folders)
    if not args.quiet:
        width = max(len(f) for f in folders)
        print("include lines, folder (row) -> folder (column); '.' none, '!' outside cmake/layers.txt")
        print(" " * (width + 1) + " ".join(f"{i:>3}" for i in range(len(folders))))
        for i, a in enumerate(folders):
            cells = []
            for b in folders:
                n = counts.get((a, b), 0)
                bad = n and a not in free and b not in allowed.get(a, set())
                cells.append(f"{n:>2}!" if bad else (f"{n:>3}" if n else "  ."))
            print(f"{a:<{width}} " + " ".join(cells) + f"   {i}")
        print(f"edges outside the layer table: {len(violations)}; folder-level include cycles: {len(loops)}")
    for v in violations:
        print(v)
    for loop in loops:
        print("include cycle between folders: " + " <-> ".join(loop))
    return 1 if violations or loops else 0


if __name__ == "__main__":
    sys.exit(main())
