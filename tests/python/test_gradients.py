"""cl.grad against `contactlab grad` (the same JSON numbers) and cl.gradcheck
against central differences."""
import json

import pytest

import contactlab as cl

TIGHT = {"solver.tol_primal": 1e-12, "solver.tol_dual": 1e-12, "solver.tol_compl": 1e-12, "solver.max_iterations": 5000}
TIGHT_FLAGS = [x for k, v in TIGHT.items() for x in ("--set", f"{k}={v}")]


def test_grad_equals_the_cli_json(cli):
    loss, wrt = "final:box.px + final:box.vx", ["param:geom.box.friction", "ctrl:push", "init:box.vx"]
    done = cli("grad", "box_ramp", "--loss", loss, "--wrt", ",".join(wrt), "--steps", "2500", *TIGHT_FLAGS)
    ref = json.loads(done.stdout)
    got = cl.grad("box_ramp", loss=loss, wrt=wrt, steps=2500, options=TIGHT)
    # The CLI prints %.17g: the same doubles.
    assert got["loss"] == ref["loss"]
    assert got["gradient"] == ref["gradient"]
    assert list(got["gradient"]) == wrt  # in the order asked


def test_grad_with_another_combination_and_held_ctrl(cli):
    args = dict(loss="final:pole.px", wrt="ctrl:slide_motor,init:pole.vx", steps=40, scheme="backward_euler",
                contact="fischer_burmeister", solver="newton", dt=0.02, ctrl={"slide_motor": 0.5})
    done = cli("grad", "cart_pole", "--loss", args["loss"], "--wrt", args["wrt"], "--steps", "40", "--scheme",
               "backward_euler", "--contact", "fischer_burmeister", "--solver", "newton", "--dt", "0.02",
               "--ctrl", "slide_motor=0.5")
    ref = json.loads(done.stdout)
    got = cl.grad("cart_pole", **args)
    assert got["loss"] == ref["loss"] and got["gradient"] == ref["gradient"]


def test_gradcheck_passes_through_sticking_and_sliding():
    # box_ramp: pushed from rest, slides, sticks again (docs/gradients.md); tight solves so the
    # central differences measure the gradient, not the solver's tolerance. Measured relative
    # errors <= 8e-8 (`contactlab gradcheck box_ramp ...` with the same options); bound 1e-5.
    r = cl.gradcheck("box_ramp", loss="final:box.px + final:box.vx",
                     wrt=["param:geom.box.friction", "ctrl:push"], options=TIGHT, tol=1e-5)
    assert r["ok"], r["entries"]
    for e in r["entries"]:
        assert e["relative_error"] <= 1e-5
        assert abs(e["analytic"]) > 0.1  # not a trivially zero gradient
    assert set(r["finite_difference"]) == {"param:geom.box.friction", "ctrl:push"}


def test_gradcheck_reports_a_failure_as_a_result():
    # Default (loose) solver tolerances make the differences noise at eps = 1e-9: a FAIL row, not an exception.
    r = cl.gradcheck("box_ramp", loss="final:box.px", wrt=["param:geom.box.friction"], eps=1e-9, tol=1e-9)
    assert r["ok"] is False and r["entries"][0]["ok"] is False


def test_bad_gradient_requests_raise():
    with pytest.raises(ValueError, match="nosuchbody"):
        cl.grad("box_ramp", loss="final:nosuchbody.px", steps=10)
    with pytest.raises(ValueError, match="wrt"):
        cl.grad("box_ramp", loss="final:box.px", wrt=["ctrl:push@99"], steps=10)
    with pytest.raises(ValueError, match="adjoint.sensitivity"):
        cl.grad("box_ramp", loss="final:box.px", steps=10, options={"adjoint.sensitivity": "nonsense"})
    with pytest.raises(ValueError, match="eps"):
        cl.gradcheck("box_ramp", loss="final:box.px", wrt="ctrl:push", steps=10, eps=-1.0)
