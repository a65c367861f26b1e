"""Virtual firmware: the shoe, panel and lights speaking the real protocol on real ptys.

Each simulator is its own process (`tablectl sim shoe|panel|lights`, or
`python -m firmware_bridge.sim.shoe`), publishes its pty at a stable symlink, and takes
commands as JSON lines on a Unix socket (--control) or as text lines on stdin.
"""
