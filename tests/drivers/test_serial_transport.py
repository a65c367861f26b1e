"""SerialTransport on real ptys: I/O, exclusivity, modem lines, hang-up, reopen by path."""
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
from drivers.reconnect import Backoff, reopen_with_backoff
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


def test_reopen_by_path_with_backoff_after_unplug_and_replug(pty_device):
    transport = SerialTransport(pty_device.link)
    transport.open()
    pty_device.unplug()
    with pytest.raises(DeviceDisconnectedError):
        transport.read(WAIT)

    retries: list[tuple[type, float]] = []
    retried_twice = threading.Event()

    def on_retry(error, delay):
        retries.append((type(error), delay))
        if len(retries) >= 2:
            retried_twice.set()

    stop = threading.Event()
    outcome = []
    backoff = Backoff(initial=0.01, factor=2.0, maximum=0.04)
    worker = threading.Thread(
        target=lambda: outcome.append(reopen_with_backoff(transport, stop, backoff, on_retry))
    )
    worker.start()
    try:
        assert retried_twice.wait(WAIT)
        pty_device.replug()
        worker.join(WAIT)
    finally:
        stop.set()
        worker.join()
    try:
        assert outcome == [True]
        assert [kind for kind, _ in retries] == [DeviceNotFoundError] * len(retries)
        delays = [d for _, d in retries]
        assert delays[:3] == [0.01, 0.02, 0.04][: len(delays[:3])]
        assert all(d == 0.04 for d in delays[3:])
        # the new pty, reached through the same path, not the dead handle (pts numbers
        # are recycled, so compare with the live pty rather than the old name)
        assert _fd_target(transport) == pty_device.slave_name
        pty_device.write(b"back")
        got = b""
        while len(got) < 4:
            got += transport.read(WAIT)
        assert got == b"back"
    finally:
        transport.close()


def test_reopen_gives_up_when_stopped(tmp_path):
    transport = SerialTransport(str(tmp_path / "never"))
    stop = threading.Event()
    attempts = []

    def on_retry(error, delay):
        attempts.append(delay)
        if len(attempts) == 3:
            stop.set()

    assert reopen_with_backoff(transport, stop, Backoff(initial=0.001), on_retry) is False
    assert attempts == [0.001, 0.002, 0.004]
    assert not transport.is_open


def test_backoff_grows_caps_and_resets():
    b = Backoff(initial=0.1, factor=3, maximum=1.0)
    assert [b.next_delay() for _ in range(4)] == pytest.approx([0.1, 0.3, 0.9, 1.0])
    b.reset()
    assert b.next_delay() == 0.1


@pytest.mark.parametrize("kwargs", [dict(initial=0), dict(factor=0.5), dict(initial=2, maximum=1)])
def test_backoff_rejects_bad_parameters(kwargs):
    with pytest.raises(ValueError, match="backoff"):
        Backoff(**kwargs)
