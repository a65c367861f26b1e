"""A real ControlServer on a real Unix socket, with a stand-in for the daemon's loop: a
thread that owns its state and answers the requests the server posts into its inbox (the
only fake here; it stands for controller/table, which is tested on its own)."""
import io
import queue
import tempfile
import threading

import pytest

from controller.control import ControlServer
from controller.logs import configure_logging, reset_logging


class FakeLoop:
    """Handles every request on its own thread, like the daemon's loop: status returns the
    state and the handling thread's name; other commands are recorded and accepted."""

    def __init__(self):
        self.inbox: queue.Queue = queue.Queue()
        self.received: list = []  # (cmd, args), in the order the loop handled them
        self.silent: set[str] = set()  # commands never answered (a stuck loop)
        self.held: list = []  # the requests left unanswered
        self._changed = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="fake-loop")
        self.thread.start()

    def post(self, request) -> None:
        self.inbox.put(request)

    def run_in_loop(self, fn) -> None:
        """Run fn on the loop thread and wait for it (e.g. to publish from the loop)."""
        done = threading.Event()
        self.inbox.put(lambda: (fn(), done.set()))
        assert done.wait(30), "the loop did not run it"

    def wait_held(self, count: int) -> None:
        """Until the loop holds `count` unanswered requests (the server has passed them on)."""
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.held) >= count, 30), "the request never reached the loop"

    def _run(self) -> None:
        while (item := self.inbox.get()) is not None:
            if callable(item):
                try:
                    item()
                except Exception:  # noqa: BLE001 - a test's mistake must not kill the loop
                    import traceback
                    traceback.print_exc()
                continue
            self.received.append((item.cmd, item.args))
            if item.cmd in self.silent:
                with self._changed:
                    self.held.append(item)
                    self._changed.notify_all()
            elif item.cmd == "status":
                item.reply(state="betting", round=12, thread=threading.current_thread().name)
            elif item.args.get("reason") == "refuse":
                item.fail("the supervisor key is off (void needs it)")
            else:
                item.reply(accepted=item.cmd)

    def stop(self) -> None:
        self.inbox.put(None)
        self.thread.join()


@pytest.fixture
def sock_dir():
    # Short on purpose: a Unix socket path must fit in 107 bytes, pytest's tmp_path may not.
    with tempfile.TemporaryDirectory(prefix="tablectl-") as path:
        yield path


@pytest.fixture
def sock_path(sock_dir):
    return f"{sock_dir}/control.sock"


@pytest.fixture
def loop():
    fake = FakeLoop()
    yield fake
    fake.stop()


@pytest.fixture
def server(sock_path, loop):
    with ControlServer(sock_path, loop.post, reply_timeout_s=3600) as running:  # no deadline wake-ups to hide a lost one
        yield running


@pytest.fixture(autouse=True)
def no_leaked_threads():
    before = set(threading.enumerate())
    yield
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not leaked, f"threads left running: {leaked}"


@pytest.fixture(autouse=True)
def server_log():
    """The server's log lines go here, not to the stdout the CLI tests read."""
    stream = io.StringIO()
    configure_logging("json", "debug", stream)
    yield stream
    reset_logging()
