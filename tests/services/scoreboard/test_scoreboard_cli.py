"""`tablectl scoreboard`'s options and errors: a bad --listen or --lang, a bad config or no
config at all exits 2 naming it, an address already in use exits 1 saying why; a journal not
there yet is said on stderr while the board is served; the listen address is an IP
literal and a port (IPv6 in brackets), as the config checks it."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from kiosk import WAIT, ScoreboardProcess

from cli import main
from controller.config.schema import DEFAULT_CONFIG_PATH, split_listen


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "scoreboard", *argv], capture_output=True, text=True,
                          timeout=WAIT, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("text, address", [
    ("127.0.0.1:8080", ("127.0.0.1", 8080)), ("0.0.0.0:80", ("0.0.0.0", 80)), ("[::1]:0", ("::1", 0)),
    ("192.168.10.5:65535", ("192.168.10.5", 65535)),
])
def test_listen_addresses(text, address):
    assert split_listen(text) == address


@pytest.mark.parametrize("text", ["localhost:8080", "127.0.0.1", "127.0.0.1:http", "127.0.0.1:65536", "::1:80", "[::1]", ""])
def test_bad_listen_addresses(text):
    with pytest.raises(ValueError):
        split_listen(text)


@pytest.mark.parametrize("argv, says", [
    (["--listen", "localhost:80"], "--listen 'localhost:80': expected an IP address and a port"),
    (["--lang", "fr"], "argument --lang: invalid choice: 'fr'"),
    (["--port", "80"], "unrecognized arguments: --port 80"),
])
def test_bad_options_exit_2_naming_them(argv, says):
    done = run(*argv)
    assert done.returncode == 2 and says in done.stderr and done.stdout == ""


def test_a_bad_config_exits_2(tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text('[scoreboard]\nlang = "fr"\n')
    done = run("--config", str(config))
    assert done.returncode == 2
    assert f"tablectl scoreboard: {config}: scoreboard.lang: expected one of 'en', 'zh-Hant', got 'fr' (a string)" in done.stderr


@pytest.mark.skipif(Path(DEFAULT_CONFIG_PATH).exists(), reason=f"a table is installed here ({DEFAULT_CONFIG_PATH})")
def test_without_any_config_it_says_so_and_names_the_demos_config(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "XDG_STATE_HOME"} | {"HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "cli", "scoreboard"], capture_output=True, text=True, timeout=WAIT,
                          stdin=subprocess.DEVNULL, env=env)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"tablectl scoreboard: no config at {DEFAULT_CONFIG_PATH}: give --config FILE, the table's config "
                           "(the demo's: --config ~/.local/state/tablectl/demo/tablectl.toml, with a free --listen "
                           "ADDRESS:PORT; docs/scoreboard.md)\n")


def test_a_journal_not_there_yet_is_said_and_the_board_served(tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n[control]\nsocket = "{tmp_path / "c.sock"}"\n')
    board = ScoreboardProcess(config, directory=tmp_path)
    try:
        assert board.get_json()["game"] == "fortune6"
        assert (f"tablectl scoreboard: no journal at {tmp_path / 'j.sqlite'} yet (as {config} says): the board fills in "
                "once the daemon writes it") in board.output()
    finally:
        assert board.stop() == 0


def test_an_address_in_use_exits_1_saying_so(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "tablectl.toml"
        config.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n[control]\nsocket = "{tmp_path / "c.sock"}"\n')
        done = run("--config", str(config), "--listen", f"127.0.0.1:{port}")
    assert done.returncode == 1
    assert f"tablectl scoreboard: cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr


def test_listen_lang_and_table_name_from_the_config_and_the_options(tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'game = "fafa4"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n[control]\nsocket = "{tmp_path / "c.sock"}"\n'
                      '[scoreboard]\nlisten = "127.0.0.1:1"\nlang = "zh-Hant"\ntable_name = "百家樂 3"\n')
    board = ScoreboardProcess(config, directory=tmp_path)  # --listen 127.0.0.1:0 overrides the config's
    try:
        state = board.get_json()
        assert (state["lang"], state["table"], state["game"]) == ("zh-Hant", "百家樂 3", "fafa4")
    finally:
        assert board.stop() == 0
    board = ScoreboardProcess(config, "--lang", "en", directory=tmp_path)
    try:
        assert board.get_json()["lang"] == "en"
    finally:
        board.stop()


def test_it_is_listed_among_the_commands(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "scoreboard" in out and "roads" in out
