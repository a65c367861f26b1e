"""Why the unit allows AF_NETLINK: with netlink sockets refused the way
RestrictAddressFamilies= refuses them (a seccomp filter answering EAFNOSUPPORT), libusb
cannot start and pyusb finds no backend, so a USB shoe could never be opened. If a future
libusb stops needing it, test_without_netlink_pyusb_has_no_backend fails and the unit can
drop AF_NETLINK (see the comment in systemd/tablectl.service).

The filter is installed in a child process only (it cannot be removed again)."""
from __future__ import annotations

import platform
import subprocess
import sys

import pytest

# Per machine: (AUDIT_ARCH_*, __NR_socket)
ARCHES = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}

CHILD = r"""
import ctypes, struct, sys
arch, nr_socket, deny = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "deny"
AF_NETLINK, EAFNOSUPPORT = 16, 97
LD_ABS, JEQ, RET = 0x20, 0x15, 0x06
ALLOW, ERRNO = 0x7FFF0000, 0x00050000
program = [                                    # seccomp_data: nr @0, arch @4, args[0] @16
    (LD_ABS, 0, 0, 4), (JEQ, 0, 5, arch),
    (LD_ABS, 0, 0, 0), (JEQ, 0, 3, nr_socket),
    (LD_ABS, 0, 0, 16), (JEQ, 0, 1, AF_NETLINK),
    (RET, 0, 0, ERRNO | EAFNOSUPPORT),
    (RET, 0, 0, ALLOW),
]
if deny:
    code = b"".join(struct.pack("HBBI", *op) for op in program)
    buffer = ctypes.create_string_buffer(code)
    fprog = struct.pack("HxxxxxxP", len(program), ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.c_char_p(fprog), 0, 0):
        print("no-seccomp", ctypes.get_errno()); sys.exit(0)
import socket
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15).close(); netlink = "netlink-ok"
except OSError as error:
    netlink = f"netlink-errno-{error.errno}"
import usb.backend.libusb1
print(netlink, "backend" if usb.backend.libusb1.get_backend() else "no-backend")
"""


def run_child(mode: str) -> str:
    if platform.machine() not in ARCHES:
        pytest.skip(f"no seccomp constants for {platform.machine()}")
    arch, nr_socket = ARCHES[platform.machine()]
    done = subprocess.run([sys.executable, "-c", CHILD, str(arch), str(nr_socket), mode], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    if done.stdout.startswith("no-seccomp"):
        pytest.skip(f"seccomp filters unavailable here: {done.stdout.strip()}")
    return done.stdout.strip()


def test_with_netlink_pyusb_has_a_backend():
    assert run_child("allow") == "netlink-ok backend"


def test_without_netlink_pyusb_has_no_backend():
    assert run_child("deny") == "netlink-errno-97 no-backend"
