"""Device URLs: every accepted form, and bad URLs rejected naming the bad part."""
from __future__ import annotations

import pytest

from drivers.errors import BadDeviceUrl
from drivers.serial_transport import SerialTransport
from drivers.url import SerialUrl, UsbUrl, parse_device_url, transport_for_url
from drivers.usb_transport import UsbTransport


@pytest.mark.parametrize(
    "url, expected",
    [
        ("serial:///dev/tablectl/shoe?baud=115200", SerialUrl("/dev/tablectl/shoe", 115200, True)),
        ("serial:///dev/ttyUSB0?baud=9600&exclusive=0", SerialUrl("/dev/ttyUSB0", 9600, False)),
        ("serial:///dev/serial/by-id/usb-Shoe%20A", SerialUrl("/dev/serial/by-id/usb-Shoe A")),
        ("/tmp/x/shoe", SerialUrl("/tmp/x/shoe")),
        ("/dev/pts/5", SerialUrl("/dev/pts/5")),
        ("usb://1209:0001?serial=ABC", UsbUrl(0x1209, 0x0001, "ABC")),
        ("usb://1209:00aF", UsbUrl(0x1209, 0x00AF, None)),
        ("usb://1209:0001/", UsbUrl(0x1209, 0x0001, None)),
    ],
)
def test_good_urls(url, expected):
    assert parse_device_url(url) == expected


@pytest.mark.parametrize(
    "url, names",
    [
        ("", "empty"),
        ("shoe", "'shoe'"),
        ("tcp://127.0.0.1:5", "unknown scheme 'tcp'"),
        ("serial://dev/ttyUSB0", "host 'dev'"),
        ("serial:///dev/x?baud=fast", "baud='fast'"),
        ("serial:///dev/x?baud=0", "baud='0'"),
        ("serial:///dev/x?parity=E", "unknown option 'parity'"),
        ("serial:///dev/x?baud=1&baud=2", "'baud' given twice"),
        ("serial:///dev/x?exclusive=maybe", "exclusive='maybe'"),
        ("serial:///dev/x#frag", "fragment '#frag'"),
        ("serial://", "absolute device path"),
        ("usb://1209", "got '1209'"),
        ("usb://12g9:0001", "vendor id '12g9'"),
        ("usb://1209:1", "product id '1'"),
        ("usb://1209:0001/shoe", "takes no path"),
        ("usb://1209:0001?serial=", "serial= is empty"),
        ("usb://1209:0001?sn=ABC", "unknown option 'sn'"),
    ],
)
def test_bad_urls_name_the_bad_part(url, names):
    with pytest.raises(BadDeviceUrl) as info:
        parse_device_url(url)
    assert names in str(info.value)


def test_transport_for_url_builds_unopened_transports():
    serial_t = transport_for_url("serial:///dev/tablectl/shoe?baud=57600")
    assert isinstance(serial_t, SerialTransport) and not serial_t.is_open
    assert (serial_t.path, serial_t.baudrate, serial_t.exclusive) == ("/dev/tablectl/shoe", 57600, True)
    backend = object()
    usb_t = transport_for_url("usb://1209:0001?serial=ABC", usb_backend=backend)
    assert isinstance(usb_t, UsbTransport) and not usb_t.is_open
    assert (usb_t.vid, usb_t.pid, usb_t.serial, usb_t.backend) == (0x1209, 1, "ABC", backend)


def test_transport_for_bad_url_raises_before_touching_anything():
    with pytest.raises(BadDeviceUrl, match="unknown scheme 'ftp'"):
        transport_for_url("ftp://x/y")
