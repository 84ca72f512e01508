#!/usr/bin/env python3
"""Runs every model of the shared MJCF corpus (../shared/data/mjcf, files
written by others) for 1 s with contactlab's default combination, and, when
the MuJoCo peer is built, with MuJoCo on the same file, and prints the table
of docs/mjcf.md "The corpus" (markdown) or a CSV.

A file either runs (finite state, no divergence: the run's own checks) or is
refused with the reader's message (first line shown). Files under a
`common/` folder are include fragments, not models, and are left out.

usage: scripts/mjcf_corpus.py BIN [CORPUS_DIR] [--csv] [--duration S]
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time


def models(corpus):
    for root, dirs, files in os.walk(corpus):
        dirs.sort()
        if os.path.basename(root) == "common":
            continue
        for f in sorted(files):
            if f.endswith(".xml"):
                yield os.path.join(root, f)


def run(binary, path, duration, peer):
    """Returns (status, detail, summary, mean_contacts, wall_s, energy drift)."""
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.csv")
        cmd = [binary, "run", path, "--duration", str(duration), "--json", "--stats", stats]
        if peer:
            cmd += ["--peer", "mujoco"]
        start = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if p.returncode != 0:
            lines = [l for l in p.stderr.splitlines() if "error" in l] or p.stderr.splitlines() or ["(no message)"]
            return "refused" if p.returncode == 1 else f"exit {p.returncode}", lines[0], None, None, wall, None
        summary = json.loads(p.stdout.strip().splitlines()[-1])
        rows = list(csv.DictReader(open(stats)))
        contacts = sum(int(r["contacts"]) for r in rows) / max(1, len(rows))
        energies = [float(r["energy"]) for r in rows if r["energy"] not in ("", "nan")]
        drift = (max(energies) - energies[0]) if energies else None
        return "runs", "", summary, contacts, wall, drift


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    as_csv = "--csv" in sys.argv
    duration = 1.0
    if "--duration" in sys.argv:
        duration = float(sys.argv[sys.argv.index("--duration") + 1])
        args = [a for a in args if a != sys.argv[sys.argv.index("--duration") + 1]]
    binary = args[0]
    corpus = args[1] if len(args) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "mjcf")
    corpus = os.path.normpath(corpus)
    peer_built = "mujoco" in subprocess.run([binary, "list", "peers"], capture_output=True, text=True).stdout
    header = ["file", "bodies", "result", "mean_contacts", "steps_not_converged", "wall_s", "energy_rise_J",
              "mujoco_wall_s", "detail"]
    out = []
    for path in models(corpus):
        rel = os.path.relpath(path, corpus)
        status, detail, summary, contacts, wall, drift = run(binary, path, duration, False)
        peer = run(binary, path, duration, True) if peer_built else None
        row = {
            "file": rel,
            "bodies": len(summary["final"]) if summary else "",
            "result": status,
            "mean_contacts": f"{contacts:.1f}" if contacts is not None else "",
            "steps_not_converged": summary["steps_not_converged"] if summary else "",
            "wall_s": f"{wall:.2f}",
            "energy_rise_J": f"{drift:.3g}" if drift is not None else "",
            "mujoco_wall_s": (f"{peer[4]:.2f}" if peer[0] == "runs" else peer[0]) if peer else "not built",
            "detail": detail.replace("|", "\\|"),
        }
        out.append(row)
    if as_csv:
        w = csv.DictWriter(sys.stdout, fieldnames=header)
        w.writeheader()
        w.writerows(out)
        return
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in out:
        print("| " + " | ".join(str(r[h]) for h in header) + " |")


if __name__ == "__main__":
    main()
