"""Processes beside the daemon: each reads the journal read-only and follows the control
socket's event stream; none writes the journal or talks to the devices."""
