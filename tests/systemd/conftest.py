"""Fixtures shared by the notify tests."""
from __future__ import annotations

import pytest
from notify_listener import NotifyListener


@pytest.fixture
def listener(tmp_path):
    """systemd's end of NOTIFY_SOCKET: a real datagram socket at a filesystem path."""
    listener = NotifyListener(path=str(tmp_path / "notify"))
    yield listener
    listener.close()
