"""Runs inside `umockdev-run`: drives UsbTransport (real pyusb + real libusb) step by step.

argv[1] is a JSON list of steps: ["open", vid, pid, serial], ["write", hex], ["read", timeout],
["close"]. Prints one JSON object per step: {"ok": result} or {"error": class, "message": text}.
"""
import json
import sys

from drivers.usb_transport import UsbTransport


def main() -> None:
    transport = None
    for step in json.loads(sys.argv[1]):
        try:
            if step[0] == "open":
                transport = UsbTransport(step[1], step[2], serial=step[3])
                transport.open()
                result = None
            elif step[0] == "write":
                result = transport.write(bytes.fromhex(step[1]))
            elif step[0] == "read":
                result = transport.read(step[1]).hex()
            elif step[0] == "close":
                result = transport.close()
            else:
                raise SystemExit(f"unknown step {step[0]!r}")
            print(json.dumps({"ok": result}), flush=True)
        except Exception as exc:  # report every failure to the test, in order
            print(json.dumps({"error": type(exc).__name__, "message": str(exc)}), flush=True)
    if transport is not None:
        transport.close()


if __name__ == "__main__":
    main()
