"""contactlab: differentiable rigid-body contact dynamics (docs/python.md)."""
from ._contactlab import *  # noqa: F401,F403
