"""Bad input raises a Python exception with the library's message; nothing aborts."""
import math

import numpy as np
import pytest

import contactlab as cl


def test_unknown_scene():
    with pytest.raises(ValueError, match="unknown scene 'no_such_scene'"):
        cl.load("no_such_scene")


def test_malformed_mjcf_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco>\n  <worldbody>\n    <geom type="sphere" size="-1"/>\n  </worldbody>\n</mujoco>\n')
    with pytest.raises(cl.MjcfError, match=r"bad\.xml:3"):
        cl.load(str(bad))
    assert issubclass(cl.MjcfError, ValueError)
    bad.write_text("<mujoco><worldbody>")  # not XML
    with pytest.raises(cl.MjcfError, match=r"bad\.xml"):
        cl.load(bad)  # a pathlib.Path works too


def test_unknown_parts_options_and_combinations():
    with pytest.raises(ValueError, match="unknown solver 'nope'"):
        cl.Simulation("box_ramp", solver="nope")
    with pytest.raises(ValueError, match="solver.no_such_key"):
        cl.Simulation("box_ramp", options={"solver.no_such_key": 1})
    with pytest.raises(ValueError, match="solver.max_iterations"):
        cl.Simulation("box_ramp", options={"solver.max_iterations": -5})
    with pytest.raises(ValueError, match="incompatible combination"):
        cl.Simulation("box_ramp", contact="desaxce", solver="convex_newton")
    with pytest.raises(TypeError):
        cl.Simulation("box_ramp", options={"solver.max_iterations": [1, 2]})


def test_bad_numbers():
    with pytest.raises(ValueError, match="dt"):
        cl.Simulation("box_ramp", dt=0.0)
    with pytest.raises(ValueError, match="dt"):
        cl.Simulation("box_ramp", dt=math.nan)
    with pytest.raises(ValueError):
        cl.Simulation("box_ramp", options={"body.box.mass": -1.0})
    sim = cl.Simulation("box_ramp")
    with pytest.raises(ValueError, match="finite"):
        sim.set_ctrl("push", math.inf)
    with pytest.raises(KeyError, match="unknown actuator 'pull'"):
        sim.set_ctrl("pull", 1.0)
    with pytest.raises(ValueError, match="shape"):
        sim.rollout(steps=5, ctrl=np.zeros((4, 1)))
    with pytest.raises(ValueError, match="finite"):
        sim.rollout(steps=2, ctrl=np.array([[0.0], [math.nan]]))
    with pytest.raises(ValueError, match="steps"):
        sim.rollout(steps=-1)


def test_divergence_is_a_runtime_error():
    sim = cl.Simulation("bouncing_ball")
    sim.v_W[0, 2] = math.nan  # the views bypass the setters' checks: the step's own check catches it
    with pytest.raises(RuntimeError, match="diverged at step"):
        sim.step(5)
    assert isinstance(sim.time, float)  # the interpreter and the object survive
