"""The `tablectl` dispatcher: usage errors exit 2 with the usage on stderr; --help and
--version answer on stdout."""
import subprocess
import sys

import pytest

from cli import COMMANDS, main, version


def test_bare_tablectl_is_a_usage_error(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: tablectl COMMAND")
    assert all(name in err for name in COMMANDS)


def test_help_goes_to_stdout_and_exits_0(capsys):
    for flag in ("-h", "--help", "help"):
        assert main([flag]) == 0
        out, err = capsys.readouterr()
        assert out.startswith("usage: tablectl COMMAND") and err == ""


def test_an_unknown_command_is_a_usage_error(capsys):
    assert main(["dance"]) == 2
    assert capsys.readouterr().err.startswith("tablectl: unknown command 'dance'")


def test_version_is_the_installed_distributions():
    from importlib.metadata import version as installed

    done = subprocess.run([sys.executable, "-m", "cli", "--version"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"tablectl {installed('tablectl')}\n", "")
    assert version() == installed("tablectl")


def test_bare_tablectl_sim_is_a_usage_error_too(capsys):
    assert main(["sim"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: tablectl sim DEVICE")
    assert main(["sim", "--help"]) == 0 and capsys.readouterr().out.startswith("usage: tablectl sim DEVICE")


def test_send_usage_shows_the_fields_after_the_command(capsys):
    """`tablectl send void kind=... reason=...` takes FIELD=VALUE words: its usage line says so."""
    with pytest.raises(SystemExit) as done:  # a command's --help exits through argparse
        main(["send", "--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert usage.startswith("usage: tablectl send") and usage.rstrip().endswith("CMD [FIELD=VALUE ...]")
