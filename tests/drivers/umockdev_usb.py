"""Build an emulated USB device for umockdev-run: sysfs description + a usbmon pcap script.

umockdev (Debian package) runs the real libusb against an emulated usbfs node; its pcap
replayer answers URBs in the order the capture lists them and only completes a submitted
URB whose type, endpoint, length (and, for OUT, data) match the capture. So the capture we
write is both the device's script and an assertion on what the host sends.
"""
from __future__ import annotations

import errno
import struct
from pathlib import Path

SYSFS_PATH = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-1"
BUS, DEVNUM = 1, 2
EP_IN, EP_OUT = 0x81, 0x01  # umockdev's replayer wants OUT data on an odd endpoint number
BULK, CONTROL = 3, 2  # usbmon/usbfs transfer types (not bmAttributes codes)
EP_ATTR_BULK = 2       # bmAttributes of a bulk endpoint
DLT_USB_LINUX_MMAPPED = 220


def descriptors(vid: int, pid: int) -> bytes:
    device = struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0, 0, 0, 64, vid, pid, 0x0100, 0, 0, 3, 1)
    config = struct.pack("<BBHBBBBB", 9, 2, 32, 1, 1, 0, 0x80, 50)
    interface = struct.pack("<9B", 9, 4, 0, 0, 2, 0xFF, 0, 0, 0)  # vendor-specific, 2 endpoints
    ep_in = struct.pack("<BBBBHB", 7, 5, EP_IN, EP_ATTR_BULK, 64, 0)
    ep_out = struct.pack("<BBBBHB", 7, 5, EP_OUT, EP_ATTR_BULK, 64, 0)
    return device + config + interface + ep_in + ep_out


def device_description(vid: int, pid: int, serial: str) -> str:
    desc = descriptors(vid, pid).hex().upper()
    return f"""P: {SYSFS_PATH[len('/sys'):]}
N: bus/usb/{BUS:03d}/{DEVNUM:03d}={desc}
E: DEVNAME=/dev/bus/usb/{BUS:03d}/{DEVNUM:03d}
E: DEVTYPE=usb_device
E: DRIVER=usb
E: PRODUCT={vid:x}/{pid:x}/100
E: BUSNUM={BUS:03d}
E: DEVNUM={DEVNUM:03d}
E: MAJOR=189
E: MINOR=1
E: SUBSYSTEM=usb
A: bConfigurationValue=1
A: bNumConfigurations=1
A: bNumInterfaces= 1
A: busnum={BUS}
A: devnum={DEVNUM}
A: devpath=1
A: idVendor={vid:04x}
A: idProduct={pid:04x}
A: serial={serial}
A: speed=12
H: descriptors={desc}

P: /devices/pci0000:00/0000:00:14.0/usb1
E: DEVNAME=/dev/bus/usb/{BUS:03d}/001
E: DEVTYPE=usb_device
E: SUBSYSTEM=usb
A: busnum={BUS}
A: devnum=1

P: /devices/pci0000:00/0000:00:14.0
E: SUBSYSTEM=pci
"""


class UsbCapture:
    """The device's side of a session, in order, as a usbmon (DLT_USB_LINUX_MMAPPED) pcap."""

    def __init__(self) -> None:
        self._packets: list[bytes] = []
        self._urb_id = 0x1000

    def _packet(self, kind, xfer, ep, urb_len, data=b"", status=0, setup=b"\0" * 8) -> None:
        setup_flag = 0 if (kind == "S" and xfer == CONTROL) else ord("-")
        data_flag = 0 if data else ord("<")
        header = struct.pack(
            "<QBBBBHbbqiiII8siiII", self._urb_id, ord(kind), xfer, ep, DEVNUM, BUS,
            setup_flag, data_flag, 0, 0, status, urb_len, len(data), setup, 0, 0, 0, 0,
        )
        self._packets.append(header + data)

    def get_descriptor_string(self, index: int, langid: int, reply: bytes) -> None:
        """A GET_DESCRIPTOR(string) control transfer as pyusb issues it (wLength 254)."""
        self._urb_id += 1
        setup = struct.pack("<BBHHH", 0x80, 6, 0x0300 | index, langid, 254)
        self._packet("S", CONTROL, 0x80, 254, setup=setup)
        self._packet("C", CONTROL, 0x80, len(reply), reply)

    def serial_number(self, serial: str) -> None:
        """What pyusb reads for Device.serial_number: the langid table, then string 3."""
        self.get_descriptor_string(0, 0, bytes([4, 3, 0x09, 0x04]))
        text = serial.encode("utf-16-le")
        self.get_descriptor_string(3, 0x0409, bytes([2 + len(text), 3]) + text)

    def host_writes(self, data: bytes) -> None:
        self._urb_id += 1
        self._packet("S", BULK, EP_OUT, len(data), data)
        self._packet("C", BULK, EP_OUT, len(data))

    def device_sends(self, data: bytes, read_size: int = 512) -> None:
        self._urb_id += 1
        self._packet("S", BULK, EP_IN, read_size)
        self._packet("C", BULK, EP_IN, len(data), data)

    def device_unplugged_during_read(self, read_size: int = 512) -> None:
        """The kernel completes an in-flight URB with -ESHUTDOWN when the device goes away."""
        self._urb_id += 1
        self._packet("S", BULK, EP_IN, read_size)
        self._packet("C", BULK, EP_IN, 0, status=-errno.ESHUTDOWN)

    def write(self, path: Path) -> None:
        with open(path, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, DLT_USB_LINUX_MMAPPED))
            for i, packet in enumerate(self._packets):
                f.write(struct.pack("<IIII", 1, i, len(packet), len(packet)) + packet)
