#!/usr/bin/env python3
"""Trajectory error of the pendulum scene: max over the steps in [0, T] of
|theta_k - theta(t_k)|, theta = 2 atan2(qy, qw) of body "pole" from
`contactlab run`, against the ODE theta'' = -(m g l / I) sin(theta)
(m g l / I = 9.81 / 1.0001, theta(0) = 0.2 rad at rest) integrated by RK4
with steps of at most 1e-5 s (docs/moreau.md; the same reference as
tests/schemes/test_moreau.cpp's pendulum_error).

usage: scripts/pendulum_error.py BIN SCHEME DT [T] [-- extra contactlab run args]
"""
import csv
import math
import os
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    binary, scheme, dt = args[0], args[1], float(args[2])
    T = float(args[3]) if len(args) > 3 else 2.0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "pendulum.csv")
        subprocess.run([binary, "run", "pendulum", "--scheme", scheme, "--dt", args[2], "--duration", str(T),
                        "--out", out, *extra], check=True, stdout=subprocess.DEVNULL)
        rows = [r for r in csv.DictReader(open(out)) if r["body"] == "pole"]
    k = 9.81 / (1.0 + 1e-4)
    th, om, t = 0.2, 0.0, 0.0
    f = lambda x: -k * math.sin(x)
    worst = 0.0
    for r in rows[1:]:
        t_k = float(r["time"])
        n = max(1, math.ceil((t_k - t) / 1e-5 - 1e-9))
        h = (t_k - t) / n
        for _ in range(n):
            k1t, k1o = om, f(th)
            k2t, k2o = om + 0.5 * h * k1o, f(th + 0.5 * h * k1t)
            k3t, k3o = om + 0.5 * h * k2o, f(th + 0.5 * h * k2t)
            k4t, k4o = om + h * k3o, f(th + h * k3t)
            th += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
            om += h / 6 * (k1o + 2 * k2o + 2 * k3o + k4o)
        t = t_k
        theta = 2 * math.atan2(float(r["qy"]), float(r["qw"]))
        worst = max(worst, abs(theta - th))
    print(f"pendulum {scheme} dt={args[2]} T={T:g} max|theta_k - theta(t_k)| {worst:.4e} rad")


if __name__ == "__main__":
    main()
