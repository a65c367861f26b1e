"""The rig: the simulators (a bet sensor's too with bets=True) and a real `tablectl run` process in a temp dir, with the rig
acting as the dealer. Used by tests/hil, `tablectl demo` and bench/. This API is stable.

    from simulation.rig import Rig, RigError

    with Rig("fortune6", seed=7) as rig:         # sims on ptys + daemon; returns once READY=1
        rig.new_shoe()                           # press "new shoe", deal the burn
        result = rig.play_round()                # a whole round; the `result` (or `void`/`held`) event
        rig.lamps()                              # the lights sim's lamps by name: {"bet_player": "on", ...}

Construction (nothing starts until start() / `with`):
    Rig(game="fortune6", *, seed=1, decks=None, cards=None, cut_card=None, config=None,
        directory=None, notify=True, watchdog_usec=None, absent=(), log_format="json", keep=False,
        nofile=None, stdout_pipe=False, daemon_module="cli.run", sim_args=None, bets=False)
      seed      the shoe's shuffle (and the seeds of later shoes/decks the rig loads)
      cards     a scripted shoe instead: cards in draw order ("9h 8d As" or a list)
      cut_card  the cut card lies after this card (default: 60 cards before the end of a
                multi-deck shoe; none for a deck-per-round game or a scripted shoe)
      config    TOML overrides merged into the generated config, e.g. {"timeouts": {"card_timeout_s": 2}}
      notify    give the daemon NOTIFY_SOCKET (rig.notify, a real datagram socket); READY is
                awaited there (else the control socket's status says ready)
      watchdog_usec  also set WATCHDOG_USEC
      absent    devices whose simulator is not started (start it later with start_sim(kind));
                start() then does not wait for READY
      keep      leave the temp dir (config, journal, logs *.out/*.err) behind for a look
      nofile    the daemon's RLIMIT_NOFILE (soft and hard), as LimitNOFILE= would set it
      stdout_pipe  the daemon's log goes to a pipe the test reads (rig.daemon.child.proc.stdout)
      daemon_module  the module run as the daemon (`python -m`): a test's wrapper may plant a fault
      sim_args  more arguments for a simulator, e.g. {"shoe": ["--key-file", path]}
      bets      a bet sensor too (`tablectl sim bets` with the game's layout, devices.bets in the config)

Processes (every one stopped by its own PID; nothing else is ever signalled):
    start(wait_ready=True) -> Rig      stop()                      start_sim(kind) -> Sim
    start_daemon(wait_ready=True)      stop_daemon(sig=SIGTERM) -> exit code
    kill_daemon() -> exit code (SIGKILL)   restart_daemon()        connect()  (re-follow after a restart)
    rig.shoe / rig.panel / rig.lights / rig.bets: Sim (.command(cmd, check=True, **fields) -> reply, .state(), .pid)
    rig.daemon: DaemonProcess (.pid, .child, .output())
    rig.dir, rig.config_path, rig.journal_path, rig.socket_path
    rig.game, rig.decks, rig.deck_kind, rig.deck_per_round, rig.rng (the seeds of loaded shoes/decks)

The dealer (simulation/rig/dealer.py):
    press(command, **args) -> dict     the panel button for `command` (+ args, e.g. spot=3) by the
                                       button map; returns the daemon's `command` event {"ok", "message", ...}
    press_button(button_id) -> dict    any id, also one the panel lacks
    key(on: bool) -> dict              the supervisor key; the `supervisor_key` event
    draw(n=1, wait=True) -> [dict]     cards from the shoe sim; waits until the daemon handled them
    fault(kind, **fields) -> dict      shoe faults: unplug, replug, reboot, door_open, foreign, misread, ...
    load_shoe(seed=None, cards=None, cut_card=None)   a new shoe/deck into the shoe sim
    new_shoe(seed=None, cards=None, cut_card=None) -> shoe   load if needed, "new shoe", the burn
    play_round(decide=None, spots=None, timeout=20) -> event   `result` (after confirm), `void` or `held`;
                                       loads a new shoe (deck-per-round games: the next deck) when needed;
                                       decide(spot, options) -> decision (default dealer.plain_decision:
                                       play / stay / house when offered, else the game's default)
    open_round(spots=None, close_bets=True) -> round number   shoe/deck if needed, spots, "Place your bets",
                                       "No more bets" (close_bets=False: bets stay open)
    finish_round(decide=None, timeout=20) -> event   deal the round in progress to its end (after a hold)
    button_id(command, **args) -> int   wait_for_counter(counter)

Observing:
    send(cmd, **fields) -> reply       status() -> the table's snapshot + "daemon" (links, ready, timers)
    events: EventStream                mark(), find(name, after=, **fields), wait_for(name, after=, **fields), since(mark)
    lamps() -> {name: pattern}         wait_lamps(expected=None) (default: the daemon's picture)
    notify: NotifyListener             .messages, .receive(timeout), .wait_for(predicate, timeout), .wait_for_or_none(...)
    records(since=0) -> [Record]       recall(last=10) -> [RoundView]     verify() -> VerifyReport
    wait_until(condition, timeout, what)

Failures raise RigError with the daemon's or simulator's output. Waits have generous
bounds (they fail a hung test; they never measure speed).
"""
from simulation.rig.events import EventStream
from simulation.rig.notify import NotifyListener, NotifyMessage
from simulation.rig.processes import RigError
from simulation.rig.rig import Rig
from simulation.rig.sims import Sim

__all__ = ["EventStream", "NotifyListener", "NotifyMessage", "Rig", "RigError", "Sim"]
