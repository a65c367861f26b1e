"""Every demo these tests start keeps its table under a temporary XDG_STATE_HOME, never in the
home directory of whoever runs the tests; only while these tests run (package scope), so that
the variable does not leak into the tests that a worker of `pytest -n` runs after them."""
import os

import pytest


@pytest.fixture(scope="package", autouse=True)
def demo_state_home(tmp_path_factory):
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    yield os.environ["XDG_STATE_HOME"]
    if before is None:
        del os.environ["XDG_STATE_HOME"]
    else:
        os.environ["XDG_STATE_HOME"] = before
