"""Simulation.rollout against `contactlab run --out/--stats` on the same scene and options:
the trajectory must be the same doubles (the CSV writes shortest round-trip decimals), the
per-step solver statistics the same integers, and the residuals the same to the stats
CSV's 9 significant digits."""
import csv

import numpy as np
import pytest

import contactlab as cl

# (scene, CLI flags, Simulation keywords, held controls): defaults; another
# combination with options; a held control over the scene's schedule; a site.
CASES = [
    ("box_ramp", [], {}, {}),
    ("cart_pole", ["--scheme", "backward_euler", "--contact", "fischer_burmeister", "--solver", "newton",
                   "--dt", "0.01", "--set", "solver.newton_iterations=30"],
     dict(scheme="backward_euler", contact="fischer_burmeister", solver="newton", dt=0.01,
          options={"solver.newton_iterations": 30}), {}),
    ("box_ramp", ["--ctrl", "push=2.5", "--set", "solver.max_iterations=50", "--set", "geom.floor.friction=0.3"],
     dict(options={"solver.max_iterations": 50, "geom.floor.friction": 0.3}), {"push": 2.5}),
]


def read_stats(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


@pytest.mark.parametrize("scene,flags,kwargs,held", CASES, ids=["box_ramp", "cart_pole_be_newton", "box_ramp_ctrl"])
def test_rollout_is_bit_identical_to_run_out(cli, tmp_path, scene, flags, kwargs, held):
    steps = 400
    traj, stats = tmp_path / "traj.csv", tmp_path / "stats.csv"
    cli("run", scene, "--steps", str(steps), "--out", str(traj), "--stats", str(stats), *flags)
    sim = cl.Simulation(cl.load(scene), **kwargs)
    if held:
        sim.set_ctrl(held)
    out = sim.rollout(steps=steps)
    ref = cl.read_trajectory_csv(traj)
    assert out["body_names"] == ref["body_names"]
    for key in ("time", "pos", "quat", "linvel", "angvel"):
        assert out[key].shape == ref[key].shape, key
        assert np.array_equal(out[key], ref[key]), f"{key}: largest difference {np.abs(out[key] - ref[key]).max()}"
    s = read_stats(stats)
    for key in ("contacts", "iterations", "converged"):
        assert np.array_equal(out["stats"][key], s[key].astype(int)), key
    for key in ("r_primal", "r_dual", "r_compl", "r_vi", "max_penetration", "joint_violation", "energy"):
        # The stats CSV keeps 9 significant digits: agreement to 1e-8 relative (and 1e-300 absolute).
        np.testing.assert_allclose(out["stats"][key], s[key], rtol=1e-8, atol=1e-300, err_msg=key)


def test_rollout_shapes_and_continuation():
    sim = cl.Simulation("box_ramp")
    nb = sim.model.nbody
    a = sim.rollout(steps=10)
    assert a["pos"].shape == (11, nb, 3) and a["quat"].shape == (11, nb, 4)
    assert a["linvel"].shape == (11, nb, 3) and a["angvel"].shape == (11, nb, 3)
    assert a["time"].shape == (11,) and all(v.shape == (10,) for v in a["stats"].values())
    np.testing.assert_allclose(np.linalg.norm(a["quat"], axis=2), 1.0, atol=1e-12)  # unit, w first
    # A second rollout continues from where the first stopped: together they are one of 20 steps.
    b = sim.rollout(steps=10)
    whole = cl.Simulation("box_ramp").rollout(steps=20)
    assert np.array_equal(np.concatenate([a["pos"], b["pos"][1:]]), whole["pos"])
    # step() takes the same steps as rollout().
    stepped = cl.Simulation("box_ramp")
    stepped.step(20)
    assert np.array_equal(stepped.body_pose[:, :3], whole["pos"][-1])
    assert stepped.time == pytest.approx(whole["time"][-1], abs=0)


def test_default_steps_follow_the_scene_duration():
    sim = cl.Simulation("bouncing_ball")
    assert sim.default_steps == round(sim.model.duration / sim.dt)
    assert sim.rollout()["time"].shape == (sim.default_steps + 1,)


def test_ctrl_table_overrides_each_step(cli, tmp_path):
    # A per-step table as `run --ctrl-file`: the same trajectory bit for bit.
    steps = 300
    u = np.where(np.arange(steps) < 150, 6.0, 0.0)
    table = tmp_path / "ctrl.csv"
    table.write_text("step,push\n" + "".join(f"{k},{v!r}\n" for k, v in enumerate(u)))
    traj = tmp_path / "traj.csv"
    cli("run", "box_ramp", "--steps", str(steps), "--ctrl-file", str(table), "--out", str(traj))
    out = cl.Simulation("box_ramp").rollout(steps=steps, ctrl=u.reshape(steps, 1))
    assert np.array_equal(out["pos"], cl.read_trajectory_csv(traj)["pos"])
    # 6 N for 0.15 s against mu m g = 4.905 N (1 kg, mu 0.5), then sliding to rest at mu g:
    # x = a t^2 / 2 + (a t)^2 / (2 mu g), a = 1.095 m/s^2: 0.0150688 m. Measured 0.0150694;
    # bound 1e-3 relative (the step's first-order error, h = 1 ms, is ~1e-4 relative).
    a, mu_g = 6.0 - 0.5 * 9.81, 0.5 * 9.81
    expected = a * 0.15**2 / 2 + (a * 0.15) ** 2 / (2 * mu_g)
    assert out["pos"][-1, 0, 0] == pytest.approx(expected, rel=1e-3)


def test_sites_in_the_rollout_match_the_csv(cli, tmp_path, test_data):
    path = f"{test_data}/site_arm.xml"
    traj = tmp_path / "traj.csv"
    cli("run", path, "--steps", "50", "--out", str(traj))
    out = cl.Simulation(cl.load(path)).rollout(steps=50)
    ref = cl.read_trajectory_csv(traj)
    assert out["site_names"] == ref["site_names"] and len(out["site_names"]) > 0
    assert np.array_equal(out["site_pos"], ref["site_pos"])
    assert np.array_equal(out["site_quat"], ref["site_quat"])
