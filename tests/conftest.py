"""Set-up for the whole run.

The tests start a few hundred Python child processes (daemons, simulators, the CLI, the
scoreboard, the feed and the pit), each importing this checkout. With PYTHONDONTWRITEBYTECODE
set, every one of them compiles those sources again. Then, for this run only, the children
write and share their bytecode in a temporary PYTHONPYCACHEPREFIX instead: still nothing is
written into the checkout, and each source is compiled once."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_SAVED_KEY = pytest.StashKey[tuple[str, str | None]]()


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return  # children write bytecode as the user set it up
    prefix = tempfile.mkdtemp(prefix="tablectl-tests-pycache-")
    config.stash[_SAVED_KEY] = (prefix, os.environ.pop("PYTHONDONTWRITEBYTECODE"))
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


def pytest_unconfigure(config: pytest.Config) -> None:
    saved = config.stash.get(_SAVED_KEY, None)
    if saved is None:
        return
    prefix, dont_write = saved
    os.environ.pop("PYTHONPYCACHEPREFIX", None)
    if dont_write is not None:
        os.environ["PYTHONDONTWRITEBYTECODE"] = dont_write
    shutil.rmtree(prefix, ignore_errors=True)
