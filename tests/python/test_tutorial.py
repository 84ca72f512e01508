"""examples/python/tutorial.py (docs/python.md's walk-through) runs and says what the docs say."""
import os
import re
import subprocess
import sys


def test_tutorial_runs_and_its_numbers_hold(tmp_path):
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "tutorial.py")
    done = subprocess.run([sys.executable, script, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert (tmp_path / "tutorial_rollout.png").stat().st_size > 1000
    assert "gradcheck: ok" in out
    # The push that brings the box to 0.2 m: analytic 0.2 / (T^2/2) + mu g = 6.505 N; the
    # semi-implicit step's first-order error (h = 1 ms over 0.5 s, 2e-3 relative in x) moves
    # it by ~3e-3 N. Bound 1e-2 N.
    push = float(re.search(r"optimised push ([0-9.]+) N", out).group(1))
    assert abs(push - 6.505) < 1e-2
    loss = float(re.findall(r"loss ([0-9.e+-]+)", out)[-1])
    assert loss < 1e-10  # converged, not just moved
