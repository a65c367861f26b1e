"""The parts as the daemon will assemble them from one config file: logging, the journal
and the control socket, each taking its settings from the loaded Config."""
import io
import json
import os
import stat

from controller.config import load_config
from controller.control import ControlClient, ControlServer
from controller.journal import Journal, recover
from controller.logs import configure_logging


def test_one_config_file_sets_up_logging_journal_and_socket(sock_dir, loop, server_log):
    config_file = os.path.join(sock_dir, "tablectl.toml")
    with open(config_file, "w") as file:
        file.write('game = "fafa4"\ndecks = 6\n[journal]\npath = "state/journal.sqlite"\nsync = "always"\n'
                   '[control]\nsocket = "c.sock"\nmode = "0600"\nreply_timeout_s = 30\n[log]\nformat = "json"\nlevel = "info"\n')
    config = load_config(config_file)
    stream = io.StringIO()
    configure_logging(config.log.format, config.log.level, stream)
    with Journal(config.journal.path, sync=config.journal.sync) as journal, \
            ControlServer(config.control.socket, loop.post, mode=config.control.mode,
                          client_buffer_bytes=config.control.client_buffer_bytes,
                          reply_timeout_s=config.control.reply_timeout_s):
        journal.append("daemon_started", {"game": config.game, "decks": config.decks})
        assert recover(journal).next_round == 1
        assert stat.S_IMODE(os.stat(config.control.socket).st_mode) == 0o600
        with ControlClient(config.control.socket) as client:
            assert client.request("status")["ok"]
    assert config.journal.path == os.path.join(sock_dir, "state", "journal.sqlite")
    assert [json.loads(line)["event"] for line in stream.getvalue().splitlines()] == ["listening", "stopped"]
