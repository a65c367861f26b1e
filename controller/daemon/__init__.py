"""The table daemon (`tablectl run`): one thread, one reactor (drivers/reactor.py) carrying the
drivers' fds, the control socket, the timers, and the event loop composing the Table, the
journal and sd_notify.

    app.py        start-up (config, journal + recovery, socket, drivers), signals, shutdown
    loop.py       EventLoop: the four parts below composed, and the batch taken from the inbox
    inbox.py      what the drivers and the control socket post, taken in batches
    handling.py   an input handled in memory: its records and effects
    committer.py  the journal's one transaction a batch, its busy/full retry, checkpoints
    effects.py    the effects carried out, one handler per effect type; the table's timers
    supervisor.py READY=, STATUS=, WATCHDOG= while every part is alive (health.py)
    status_json.py the daemon's part of `tablectl status`
    journal_trust.py  who signs the journal, and what its background walk found
    sessions.py   every device's session, judged from the drivers' raw facts; driver events ->
                  table inputs (one registry)
    device_record.py  a driver event as its `device` record
    status_line.py  the STATUS= line
    lamps_out.py  lamp pictures by name -> the lamp board
    timers.py     the table's timers (one reactor timer armed at the earliest)
    device_options.py  config -> the drivers' backoff and link timings
    shoe_memory.py  the journal's past shoes and the shoe in play, for the integrity checks

docs/daemon.md describes the whole; docs/table.md is the contract with the table.
"""
