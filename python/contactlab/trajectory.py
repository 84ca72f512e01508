"""Reading `contactlab run --out` trajectory CSV files into the arrays of Simulation.rollout."""
import csv

import numpy as np

_FIELDS = ["px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"]


def read_trajectory_csv(path):
    """The trajectory CSV of `contactlab run --out PATH` as a dict shaped like Simulation.rollout's:
    time (N+1,), pos (N+1, nbody, 3), quat (N+1, nbody, 4, w first), linvel, angvel (N+1, nbody, 3),
    body_names, and site_pos, site_quat, site_names for the "site.NAME" rows.

    The file's numbers are the shortest decimals that round-trip, so these arrays hold the
    simulated doubles exactly. Raises ValueError naming the file and line for a malformed file.
    """
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = ["step", "time", "body"] + _FIELDS
    if not rows or rows[0] != header:
        raise ValueError(f"{path}:1: expected the header {','.join(header)}")
    bodies, sites, steps = [], [], []
    values = {}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ValueError(f"{path}:{line}: expected {len(header)} columns, got {len(row)}")
        try:
            step = int(row[0])
            numbers = [float(x) for x in row[1:2] + row[3:]]
        except ValueError as e:
            raise ValueError(f"{path}:{line}: {e}") from None
        name = row[2]
        if not steps or steps[-1] != step:
            steps.append(step)
        names = sites if name.startswith("site.") else bodies
        if len(steps) == 1 and name not in names:
            names.append(name)
        values[(step, name)] = numbers
    out = {"time": np.array([values[(s, bodies[0] if bodies else sites[0])][0] for s in steps])}

    def stack(names, first, last):
        try:
            return np.array([[values[(s, n)][first:last] for n in names] for s in steps]).reshape(
                len(steps), len(names), last - first)
        except KeyError as e:
            raise ValueError(f"{path}: step {e.args[0][0]} has no row for {e.args[0][1]}") from None

    out["pos"] = stack(bodies, 1, 4)
    out["quat"] = stack(bodies, 4, 8)
    out["linvel"] = stack(bodies, 8, 11)
    out["angvel"] = stack(bodies, 11, 14)
    out["body_names"] = bodies
    out["site_pos"] = stack(sites, 1, 4)
    out["site_quat"] = stack(sites, 4, 8)
    out["site_names"] = [n[len("site."):] for n in sites]
    return out
