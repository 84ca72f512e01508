"""contactlab: differentiable rigid-body contact dynamics, from Python.

    import contactlab as cl
    model = cl.load("box_ramp")                     # a built-in scene or an MJCF path
    sim = cl.Simulation(model, contact="desaxce", solver="padmm", scheme="velocity")
    traj = sim.rollout(steps=500)                   # dict of NumPy arrays
    g = cl.grad("box_ramp", loss="final:box.px", wrt=["init:box.vx"], steps=200)

docs/python.md is the guide. Errors raise: cl.MjcfError (a ValueError naming
the file and line) for a model the reader refuses, ValueError for a bad
option, name or value, KeyError for an unknown actuator, RuntimeError when a
simulation diverges.
"""
from ._contactlab import (  # noqa: F401
    Batch,
    ControlObjective,
    MjcfError,
    Model,
    Simulation,
    builtin_scenes,
    combinations,
    adam,
    evolution_strategies,
    grad,
    gradcheck,
    ilqr,
    list_parts,
    load,
    solve_problem,
)
from .trajectory import read_trajectory_csv  # noqa: F401

__all__ = [
    "Batch", "ControlObjective", "MjcfError", "Model", "Simulation", "adam", "builtin_scenes", "combinations",
    "evolution_strategies", "grad", "gradcheck", "ilqr", "list_parts", "load", "read_trajectory_csv",
    "solve_problem",
]
