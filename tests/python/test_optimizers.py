"""The optimisers from Python (cl.adam, cl.evolution_strategies, cl.ilqr) and
cl.ControlObjective, on problems with a known answer: a contact-free point
mass whose step is exactly semi-implicit Euler (tests/data/point_mass.xml,
the C++ optimiser tests' model too), so x_T = x_0 + (h^2 / m) sum_t (T - t) u_t from rest, and
a quadratic."""
import os

import numpy as np
import pytest

import contactlab as cl

MASS, H = 2.0, 0.01


@pytest.fixture()
def point_mass(test_data):
    return os.path.join(test_data, "point_mass.xml")


def objective(point_mass, **kw):
    args = dict(loss="sumsq:mass.pos=0.3,-0.2,1", knots=4, steps=20)
    args.update(kw)
    return cl.ControlObjective(point_mass, **args)


def test_control_objective_shape_and_rollout_follow_the_spline(point_mass):
    obj = objective(point_mass)
    assert (obj.num_parameters, obj.knots, obj.steps, obj.dt, obj.actuators) == (8, 4, 20, H, ["fx", "fy"])
    x = np.array([1.0, -2.0, 3.0, 0.5, 0.0, 4.0, -1.0, 2.0])
    u = obj.controls(x)
    assert u.shape == (20, 2)
    # The spline interpolates its knots: the first and last steps are knots 0 and K-1.
    assert u[0, 0] == 1.0 and u[-1, 0] == 0.5 and u[0, 1] == 0.0 and u[-1, 1] == 2.0
    traj = obj.rollout(x)
    T = obj.steps
    expected = np.array([0.0, 0.0, 1.0])
    expected[:2] += H * H / MASS * ((T - np.arange(T))[:, None] * u).sum(axis=0)
    # Semi-implicit Euler in floating point: 20 additions, 1e-12 m.
    np.testing.assert_allclose(traj["pos"][-1, 0], expected, rtol=0, atol=1e-12)
    assert traj["body_names"] == ["mass"] and traj["pos"].shape == (T + 1, 1, 3)
    # The loss is the squared distance of the final position to the target.
    assert obj(x) == pytest.approx(float(np.sum((traj["pos"][-1, 0] - [0.3, -0.2, 1.0]) ** 2)), rel=1e-12)
    np.testing.assert_array_equal(obj.constant(60.0), np.full(8, 50.0))  # clamped to ctrlrange


def test_control_objective_gradient_matches_central_differences(point_mass):
    obj = objective(point_mass, effort_weight=1e-3)
    rng = np.random.default_rng(3)
    x = rng.uniform(-5, 5, obj.num_parameters)
    loss, g = obj.value_and_grad(x)
    assert loss == obj(x)
    fd = np.zeros_like(x)
    eps = 1e-5
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        fd[i] = (obj(x + e) - obj(x - e)) / (2 * eps)
    # A quadratic in x (linear dynamics, no clamp active): central differences
    # are exact up to rounding, ~1e-10 of the gradient's scale.
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-9 * np.abs(g).max())


def test_adam_reaches_the_target_and_both_paths_agree(point_mass, tmp_path):
    obj = objective(point_mass)
    x0 = obj.constant(0.0)
    csv = tmp_path / "adam.csv"
    seen = []
    native = cl.adam(obj, x0, iterations=150, learning_rate=1.0, csv=str(csv), callback=seen.append)
    python = cl.adam(obj.value_and_grad, x0, iterations=150, learning_rate=1.0)
    # The same arithmetic whether Adam calls the objective in C++ or through Python.
    np.testing.assert_array_equal(native["x"], python["x"])
    np.testing.assert_array_equal(native["history"]["loss"], python["history"]["loss"])
    start = 0.3 ** 2 + 0.2 ** 2
    assert native["history"]["loss"][0] == pytest.approx(start, rel=1e-12)
    # A convex quadratic of the knots with minimum 0 (the target is reachable):
    # Adam brings the distance down 1000-fold, a loss 1e-6 of the start
    # (measured 5.1e-9, 3.9e-8 of the start, at 150 iterations with lr 1).
    assert native["best_loss"] < 1e-6 * start
    assert native["iterations"] == 150 and native["evaluations"] == 151
    rows = csv.read_text().splitlines()
    assert rows[0] == "iteration,loss,grad_norm,forward_s,backward_s"
    assert len(rows) == 152 and len(seen) == 151
    assert seen[-1]["iteration"] == 150 and seen[-1]["loss"] == native["loss"]


def test_evolution_strategies_descend_and_the_batch_equals_serial_rollouts(point_mass):
    c = np.array([1.0, -0.5, 0.25])
    r = cl.evolution_strategies(lambda x: float(np.sum((x - c) ** 2)), np.zeros(3), iterations=150, pairs=8,
                                sigma=0.1, learning_rate=0.05, seed=7)
    start = float(np.sum(c ** 2))
    assert r["history"]["loss"][0] == start
    # Within sigma of the optimum, a loss below sigma^2 = 1e-2 (measured 2.8e-6 with seed 7).
    assert r["best_loss"] < 0.1 ** 2
    assert r["evaluations"] == 150 * 17 + 1  # 2N candidates and the mean per iteration, and the final mean
    obj = objective(point_mass)
    x0 = obj.constant(1.0)
    batch = cl.evolution_strategies(obj, x0, iterations=5, pairs=4, threads=2)
    serial = cl.evolution_strategies(lambda x: obj(x), x0, iterations=5, pairs=4)
    # Each batch world is bit-identical to its own simulation (sim/batch.hpp).
    np.testing.assert_array_equal(batch["history"]["loss"], serial["history"]["loss"])
    np.testing.assert_array_equal(batch["x"], serial["x"])


def test_ilqr_lands_on_the_riccati_solution(point_mass):
    T = 30
    # State per body: com (3), rotation increment (3), com velocity (3), angular velocity (3).
    q = np.array([1, 1, 1, 0, 0, 0, 0.1, 0.1, 0.1, 0, 0, 0.0])
    r = cl.ilqr(point_mass, steps=T, target={"mass": {"com": [0.5, -0.3, 1.0]}}, Q=q, Qf=100 * q, R=1e-3,
                iterations=10)
    # Reference: finite-horizon LQR of z = (px, py, vx, vy) by the backward Riccati recursion.
    A = np.eye(4)
    A[0:2, 2:4] = H * np.eye(2)
    B = np.vstack([H * H / MASS * np.eye(2), H / MASS * np.eye(2)])
    Qr, Qfr, Rr = np.diag([1, 1, 0.1, 0.1]), np.diag([100, 100, 10, 10.0]), 1e-3 * np.eye(2)
    P, K = Qfr, [None] * T
    for t in reversed(range(T)):
        K[t] = np.linalg.solve(Rr + B.T @ P @ B, B.T @ P @ A)
        P = Qr + A.T @ P @ (A - B @ K[t])
    e, J, u_ref = np.array([-0.5, 0.3, 0, 0]), 0.0, []
    for t in range(T):
        u = -K[t] @ e
        u_ref.append(u)
        J += 0.5 * e @ Qr @ e + 0.5 * u @ Rr @ u
        e = A @ e + B @ u
    J += 0.5 * e @ Qfr @ e
    assert r["converged"]
    # Linear dynamics, quadratic cost: one full Newton step is the optimum (to the Cholesky's rounding).
    assert r["cost"] == pytest.approx(J, rel=1e-9)
    np.testing.assert_allclose(r["u"], np.array(u_ref), rtol=0, atol=1e-7 * np.abs(u_ref).max())
    assert r["u"].shape == (T, 2) and r["K"].shape == (T, 2, 12) and r["com"].shape == (T + 1, 1, 3)
    assert r["cost_history"][0] > r["cost"] and r["actuators"] == ["fx", "fy"]


def test_optimiser_errors_raise(point_mass):
    obj = objective(point_mass)
    with pytest.raises(ValueError, match="expected 8 values"):
        obj(np.zeros(3))
    with pytest.raises(ValueError, match="not finite"):
        obj(np.full(8, np.nan))
    with pytest.raises(ValueError):
        cl.ControlObjective(point_mass, loss="final:mass.px", actuators=["nope"], steps=5)
    with pytest.raises(ValueError):
        cl.ControlObjective(point_mass, loss="final:mass.px", knots=0, steps=5)
    with pytest.raises(ValueError):
        cl.ControlObjective(point_mass, loss="final:nobody.px", steps=5)
    with pytest.raises(ValueError, match="learning_rate|AdamOptions"):
        cl.adam(obj, obj.constant(0), learning_rate=-1)
    with pytest.raises(ValueError, match="gradient"):
        cl.adam(lambda x: (0.0, np.zeros(2)), np.zeros(3), iterations=2)
    with pytest.raises(TypeError, match="loss, gradient"):
        cl.adam(lambda x: 1.0, np.zeros(3), iterations=2)
    with pytest.raises(ValueError, match="NaN"):
        cl.adam(lambda x: (float("nan"), np.zeros(3)), np.zeros(3), iterations=2)

    def stop(row):
        raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        cl.adam(obj, obj.constant(0), iterations=3, callback=stop)
    with pytest.raises(KeyError, match="unknown body"):
        cl.ilqr(point_mass, steps=5, target={"nobody": {"com": [0, 0, 0]}})
    with pytest.raises(ValueError, match="Q"):
        cl.ilqr(point_mass, steps=5, Q=np.ones(5))
    with pytest.raises(ValueError, match="u0"):
        cl.ilqr(point_mass, steps=5, u0=np.zeros((4, 2)))
    with pytest.raises(ValueError, match="unknown field"):
        cl.ilqr(point_mass, steps=5, target={"mass": {"position": [0, 0, 0]}})
