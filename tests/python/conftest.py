"""Shared fixtures of the Python module's tests (run by ctest: tests/CMakeLists.txt
sets PYTHONPATH to the build's python/ folder and the paths below)."""
import os
import subprocess

import pytest


def _env_path(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests through ctest (tests/CMakeLists.txt sets it)")
    return value


@pytest.fixture(scope="session")
def cli():
    """Runs the contactlab command and returns its CompletedProcess (text)."""
    binary = _env_path("CONTACTLAB_BINARY")

    def run(*args, check=True):
        done = subprocess.run([binary, *args], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"contactlab {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def test_data():
    return _env_path("CONTACTLAB_TEST_DATA")


@pytest.fixture(scope="session")
def fc3d_dir():
    return _env_path("CONTACTLAB_FC3D_DIR")
