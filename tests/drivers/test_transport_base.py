"""The Transport contract and the exception tree, on a minimal in-memory transport."""
from __future__ import annotations

import pytest

from drivers.errors import (
    BadDeviceUrl,
    DeviceDisconnectedError,
    DeviceTimeoutError,
    DriverError,
    TransportError,
    TransportNotOpenError,
    TransportTimeoutError,
)
from drivers.transport import Transport


class LoopbackTransport(Transport):
    """Echoes what is written; counts opens/closes; can fail on close."""

    def __init__(self, fail_close: bool = False) -> None:
        super().__init__("loop://test")
        self.buffer = bytearray()
        self.opens = self.closes = 0
        self.fail_close = fail_close

    def _open_internal(self):
        self.opens += 1

    def _close_internal(self):
        self.closes += 1
        if self.fail_close:
            raise OSError("handle already gone")

    def _read_internal(self, timeout):
        data, self.buffer = bytes(self.buffer), bytearray()
        return data

    def _write_internal(self, data):
        self.buffer += data


def test_close_is_idempotent_and_reaches_the_device_once():
    t = LoopbackTransport()
    t.open()
    t.close()
    t.close()
    assert (t.opens, t.closes, t.is_open) == (1, 1, False)


def test_close_never_raises_even_if_the_handle_is_broken():
    t = LoopbackTransport(fail_close=True)
    t.open()
    t.close()
    assert not t.is_open


def test_close_before_open_does_nothing():
    t = LoopbackTransport()
    t.close()
    assert t.closes == 0


def test_context_manager_opens_and_closes():
    with LoopbackTransport() as t:
        assert t.is_open
        t.write(b"ping")
        assert t.read(0) == b"ping"
    assert not t.is_open and t.closes == 1


def test_context_manager_closes_on_error():
    t = LoopbackTransport()
    with pytest.raises(RuntimeError), t:
        raise RuntimeError("boom")
    assert not t.is_open


def test_reopen_after_close():
    t = LoopbackTransport()
    t.open()
    t.close()
    t.open()
    assert t.opens == 2 and t.is_open


def test_open_twice_is_refused():
    t = LoopbackTransport()
    t.open()
    with pytest.raises(TransportError, match="already open"):
        t.open()


@pytest.mark.parametrize("call", [lambda t: t.read(0.1), lambda t: t.write(b"x")])
def test_io_on_closed_transport(call):
    t = LoopbackTransport()
    with pytest.raises(TransportNotOpenError, match="loop://test"):
        call(t)


def test_negative_read_timeout_is_a_value_error():
    with LoopbackTransport() as t, pytest.raises(ValueError, match="-1"):
        t.read(-1)


def test_empty_write_does_not_reach_the_device():
    with LoopbackTransport() as t:
        t.write(b"")
        assert t.buffer == b""


def test_exception_tree():
    assert issubclass(TransportTimeoutError, TimeoutError)
    assert issubclass(TransportTimeoutError, TransportError)
    assert issubclass(DeviceTimeoutError, TimeoutError)
    assert issubclass(DeviceTimeoutError, DriverError)
    assert issubclass(BadDeviceUrl, ValueError) and issubclass(BadDeviceUrl, DriverError)
    assert issubclass(DeviceDisconnectedError, TransportError)
    assert issubclass(TransportError, DriverError)
    with pytest.raises(TimeoutError):
        raise TransportTimeoutError("write timed out")
