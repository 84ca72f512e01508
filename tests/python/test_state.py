"""State access: MJCF generalised coordinates, maximal coordinates, zero-copy views."""
import math

import numpy as np
import pytest

import contactlab as cl


def test_qpos_round_trip_and_pendulum_pose():
    sim = cl.Simulation("pendulum")
    assert sim.qpos.shape == (sim.model.nq,) and sim.qvel.shape == (sim.model.nv,)
    q = sim.qpos.copy()
    q[0] = 0.3
    sim.qpos = q
    np.testing.assert_allclose(sim.qpos, q, atol=1e-14)
    v = sim.qvel.copy()
    v[0] = -1.25
    sim.qvel = v
    np.testing.assert_allclose(sim.qvel, v, atol=1e-14)
    np.testing.assert_allclose(sim.qpos, q, atol=1e-14)  # setting qvel kept qpos


def test_body_pose_and_twist_round_trip():
    sim = cl.Simulation("box_ramp")
    pose = sim.body_pose.copy()
    pose[0, :3] = [0.1, -0.2, 0.3]
    c, s = math.cos(0.2), math.sin(0.2)
    pose[0, 3:] = [c, 0, 0, s]  # 0.4 rad about z, w first
    sim.body_pose = pose
    np.testing.assert_allclose(sim.body_pose, pose, atol=1e-15)
    twist = np.array([[0.5, 0.0, 0.0, 0.0, 0.0, 2.0]])
    sim.body_twist = twist
    np.testing.assert_allclose(sim.body_twist, twist, atol=1e-15)


def test_state_views_share_memory():
    sim = cl.Simulation("bouncing_ball")
    x = sim.x_W
    x[0, 2] += 0.25  # a writable view of the state: moves the ball
    assert sim.body_pose[0, 2] == pytest.approx(x[0, 2])
    sim.step()
    assert x[0, 2] == sim.x_W[0, 2]  # the view follows the simulation
    with pytest.raises(ValueError):
        sim.q_WB[0, 0] = 2.0  # read-only: a non-unit quaternion would break the state


def test_bad_state_is_refused():
    sim = cl.Simulation("box_ramp")
    with pytest.raises(ValueError, match="qpos"):
        sim.qpos = [0.0, 1.0]
    with pytest.raises(ValueError, match="finite"):
        sim.qpos = [0, 0, float("nan"), 1, 0, 0, 0]
    with pytest.raises(ValueError, match="not unit"):
        sim.body_pose = np.array([[0, 0, 0.1, 2.0, 0, 0, 0]])
    with pytest.raises(ValueError, match="shape"):
        sim.body_twist = np.zeros((2, 6))
