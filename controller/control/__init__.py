"""The local control socket: JSON lines over a Unix stream socket (mode 0660, no network).

    server = ControlServer(path, handle_command).start()   # handle_command(Request) must not block
    server.publish({"event": "card", ...})                  # from the loop, never blocks
    with ControlClient(path) as client: client.request("status"); client.events()

Wire format and commands: controller/control/protocol.py and docs/journal.md.
"""
from controller.control.client import ControlClient
from controller.control.protocol import COMMANDS, BadRequest, CommandSpec, ControlError, parse_request
from controller.control.server import ControlServer, Request

__all__ = ["COMMANDS", "BadRequest", "CommandSpec", "ControlClient", "ControlError", "ControlServer", "Request", "parse_request"]
