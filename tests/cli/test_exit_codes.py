"""One convention for every command (cli.common.run_command): bad usage or a bad config exits
2 with `tablectl CMD: ...` on stderr, one line per problem; a journal or daemon that is not
there exits 1, prefixed the same way."""
from __future__ import annotations

import pytest

from cli import COMMANDS, main

BAD_VALUE = "[timeouts]\ncard_timeout_s = \"soon\"\n"
# every command that reads the table's config, with what else it needs to get that far
READS_CONFIG = {
    "run": [], "status": [], "watch": [], "send": ["new_shoe"], "recall": [], "journal": ["verify"],
    "shoe": ["report"], "edge": [], "feed": [], "scoreboard": [], "meters": [],
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_bad_option_exits_2_prefixed_with_the_command(capsys, name):
    status, out, err = run(capsys, name, "--no-such-option")
    assert status == 2 and out == ""
    assert err.startswith(f"tablectl {name}:") or err.startswith(f"tablectl {name} "), err  # `tablectl sim shoe: ...`
    assert "--no-such-option" in err or "required" in err, err  # or the missing argument argparse checks first


@pytest.mark.parametrize("name", sorted(READS_CONFIG))
def test_a_bad_config_exits_2_naming_command_file_and_key(capsys, tmp_path, name):
    config = tmp_path / "tablectl.toml"
    config.write_text(BAD_VALUE)
    status, out, err = run(capsys, name, *READS_CONFIG[name], "--config", str(config))
    assert (status, out) == (2, "")
    assert err == f"tablectl {name}: {config}: timeouts.card_timeout_s: expected a number, got 'soon' (a string)\n"


@pytest.mark.parametrize("name", sorted(READS_CONFIG))
def test_a_missing_config_exits_2_naming_command_and_file(capsys, tmp_path, name):
    status, _, err = run(capsys, name, *READS_CONFIG[name], "--config", str(tmp_path / "nope.toml"))
    assert status == 2 and err == f"tablectl {name}: {tmp_path / 'nope.toml'}: no such file\n"


def test_every_problem_of_a_config_gets_its_own_prefixed_line(capsys, tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(BAD_VALUE + "bet_seconds = \"long\"\n")
    status, _, err = run(capsys, "status", "--config", str(config))
    lines = err.splitlines()
    assert status == 2 and len(lines) == 2 and all(line.startswith(f"tablectl status: {config}: timeouts.") for line in lines)


def test_a_journal_that_is_not_there_exits_1_prefixed(capsys, tmp_path):
    status, _, err = run(capsys, "recall", "--journal", str(tmp_path / "none.sqlite"))
    assert status == 1 and err == f"tablectl recall: no journal at {tmp_path / 'none.sqlite'}\n"
