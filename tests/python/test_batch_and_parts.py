"""cl.Batch over 64 worlds, the part registry's tables, and solve_problem on an fc3d file."""
import glob
import os

import numpy as np
import pytest

import contactlab as cl


def test_batch_of_64_worlds_matches_independent_simulations():
    model = cl.load("bouncing_ball")
    n, steps = 64, 200
    batch = cl.Batch(model, n, threads=2)
    assert batch.x_W.shape == (n, model.nbody, 3) and batch.q_WB.shape == (n, model.nbody, 4)
    heights = 0.5 + 0.01 * np.arange(n)
    batch.x_W[:, 0, 2] = heights  # each world its own drop height (a writable view)
    out = batch.rollout(steps)
    assert out["pos"].shape == (steps + 1, n, model.nbody, 3)
    assert out["contacts"].shape == (steps, n)
    for w in (0, 17, 63):  # per_world mode is bit-identical to one Simulation per world
        sim = cl.Simulation(model)
        sim.x_W[0, 2] = heights[w]
        ref = sim.rollout(steps=steps)
        assert np.array_equal(out["pos"][:, w], ref["pos"]), w
    # Different drops give different trajectories (the worlds are not one world copied).
    assert not np.array_equal(out["pos"][:, 0], out["pos"][:, 63])


def test_batch_refuses_bad_arguments():
    with pytest.raises(ValueError):
        cl.Batch("bouncing_ball", 0)
    with pytest.raises(ValueError, match="mode"):
        cl.Batch("bouncing_ball", 4, mode="sideways")


def test_list_parts_and_combinations():
    parts = cl.list_parts()
    names = {axis: [p["name"] for p in parts[axis]] for axis in parts}
    assert {"desaxce", "fischer_burmeister", "ccp", "central_path"} <= set(names["contact"])
    assert {"padmm", "newton", "pgs", "convex_newton"} <= set(names["solver"])
    assert {"velocity", "backward_euler", "quasi_dynamic", "moreau"} <= set(names["scheme"])
    table = cl.combinations()
    assert len(table) == len(names["scheme"]) * len(names["contact"]) * len(names["solver"])
    row = {(r["scheme"], r["contact"], r["solver"]): r for r in table}
    assert row[("velocity", "desaxce", "padmm")]["runs"] and row[("velocity", "desaxce", "padmm")]["differentiable"]
    refused = row[("velocity", "desaxce", "convex_newton")]
    assert not refused["runs"] and refused["reason"]
    # What the table says runs does run (one step), and what it refuses raises.
    for r in table:
        if r["runs"]:
            cl.Simulation("box_ramp", contact=r["contact"], solver=r["solver"], scheme=r["scheme"]).step()
        else:
            with pytest.raises(ValueError):
                cl.Simulation("box_ramp", contact=r["contact"], solver=r["solver"], scheme=r["scheme"])


def test_solve_problem_on_an_fc3d_file(fc3d_dir):
    files = sorted(glob.glob(os.path.join(fc3d_dir, "**", "*.dat"), recursive=True))
    if not files:
        pytest.fail(f"no .dat problem under {fc3d_dir} (CONTACTLAB_FC3D_DIR): the shared data is missing")
    path = min(files, key=os.path.getsize)  # the smallest: fast
    r = cl.solve_problem(path, solver="padmm", tol=1e-6)
    assert r["success"], r["errors"]
    assert r["r"].shape == r["u"].shape and r["r"].shape[0] % 3 == 0
    assert r["errors"]["relative"] <= 1e-6
    with pytest.raises(ValueError):
        cl.solve_problem(path, solver="padmm", options={"solver.nope": 1})
    with pytest.raises(ValueError):
        cl.solve_problem(os.path.join(fc3d_dir, "no_such_file.dat"))
