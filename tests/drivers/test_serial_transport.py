"""SerialTransport on real ptys: I/O, exclusivity, modem lines, hang-up (reopening by path
with backoff is the driver's: tests/drivers/test_driver_api.py)."""
from __future__ import annotations

import fcntl
import os
import termios
import threading

import pytest

from drivers.errors import (
    DeviceBusyError,
    DeviceDisconnectedError,
    DeviceNotFoundError,
    TransportError,
)
from drivers.reconnect import Backoff
from drivers.serial_transport import SerialTransport, is_pty

WAIT = 10.0  # generous bound for events; never a timing assertion


def _fd_target(transport: SerialTransport) -> str:
    return os.readlink(f"/proc/self/fd/{transport._port.fileno()}")


def test_read_write_over_a_pty(pty_device):
    with SerialTransport(pty_device.link) as t:
        assert t.read(0) == b""
        pty_device.write(b"\x7e\x01\x02")
        got = b""
        while len(got) < 3:
            got += t.read(WAIT)
        assert got == b"\x7e\x01\x02"
        t.write(b"hello")
        assert pty_device.read_exactly(5) == b"hello"


def test_read_without_timeout_waits_for_data(pty_device):
    with SerialTransport(pty_device.link) as t:
        threading.Timer(0.05, pty_device.write, args=(b"late",)).start()
        got = b""
        while len(got) < 4:
            got += t.read(None)
        assert got == b"late"


def test_cancel_read_wakes_a_blocked_reader(pty_device):
    with SerialTransport(pty_device.link) as t:
        result = []
        reader = threading.Thread(target=lambda: result.append(t.read(None)))
        reader.start()
        while not result and reader.is_alive():
            t.cancel_read()
            reader.join(0.05)
        assert result == [b""]


def test_exclusive_open_refuses_a_second_opener(pty_device):
    first = SerialTransport(pty_device.link)
    first.open()
    try:
        with pytest.raises(DeviceBusyError, match=pty_device.link):
            SerialTransport(pty_device.link).open()
    finally:
        first.close()
    with SerialTransport(pty_device.link):
        pass  # free again once the first holder closed


def test_non_exclusive_open_can_share(pty_device):
    with SerialTransport(pty_device.link, exclusive=False) as first, \
            SerialTransport(pty_device.link, exclusive=False) as second:
        assert first.is_open and second.is_open


def test_missing_path_is_device_not_found(tmp_path):
    with pytest.raises(DeviceNotFoundError, match="nothing-here"):
        SerialTransport(str(tmp_path / "nothing-here")).open()


def test_a_regular_file_is_not_a_serial_port(tmp_path):
    path = tmp_path / "plain"
    path.write_bytes(b"")
    transport = SerialTransport(str(path))
    with pytest.raises(TransportError, match="plain"):
        transport.open()
    assert not transport.is_open


def test_modem_lines_are_not_touched_on_a_pty(pty_device, mocker):
    assert is_pty(pty_device.link)
    spy = mocker.patch("serial.serialposix.fcntl.ioctl", side_effect=fcntl.ioctl)
    with SerialTransport(pty_device.link):
        pass
    modem_requests = {termios.TIOCMBIS, termios.TIOCMBIC, termios.TIOCMSET}
    assert not [c for c in spy.call_args_list if c.args[1] in modem_requests]


def test_is_pty_is_false_for_other_things(tmp_path):
    assert not is_pty("/dev/null")
    assert not is_pty(str(tmp_path / "missing"))


def test_hang_up_is_reported_on_read_and_write(pty_device):
    with SerialTransport(pty_device.link) as t:
        pty_device.unplug()
        with pytest.raises(DeviceDisconnectedError, match="hang-up"):
            t.read(WAIT)
        with pytest.raises(DeviceDisconnectedError, match="hang-up"):
            t.write(b"x")


def test_backoff_grows_caps_and_resets():
    b = Backoff(initial=0.1, factor=3, maximum=1.0)
    assert [b.next_delay() for _ in range(4)] == pytest.approx([0.1, 0.3, 0.9, 1.0])
    b.reset()
    assert b.next_delay() == 0.1


@pytest.mark.parametrize("kwargs", [dict(initial=0), dict(factor=0.5), dict(initial=2, maximum=1)])
def test_backoff_rejects_bad_parameters(kwargs):
    with pytest.raises(ValueError, match="backoff"):
        Backoff(**kwargs)
