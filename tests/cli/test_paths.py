"""`recall`, `journal` and `status` with nothing at the path they would use: the error says
where the path came from and how to point elsewhere (exit 1)."""
import pytest

from cli import main, paths


@pytest.fixture
def no_installed_config(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "DEFAULT_CONFIG_PATH", str(tmp_path / "absent.toml"))


@pytest.mark.parametrize("argv, what, option", [
    (["recall"], "journal", "--journal"),
    (["journal", "verify"], "journal", "--journal"),
    (["status"], "control socket", "--socket"),
    (["watch"], "control socket", "--socket"),
])
def test_the_installed_default_missing_says_how_to_point_elsewhere(capsys, no_installed_config, argv, what, option):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"tablectl {argv[0]}: no {what} at /") and "(the installed default" in err
    assert f"{option} PATH or --config FILE names another, such as the one `tablectl demo` names" in err


def test_a_config_whose_journal_is_missing_is_named(capsys, tmp_path):
    config = tmp_path / "t.toml"
    config.write_text('[journal]\npath = "gone.sqlite"\n')
    assert main(["recall", "--config", str(config)]) == 1
    assert f"no journal at {tmp_path}/gone.sqlite (as {config} says)" in capsys.readouterr().err


def test_an_explicit_path_that_is_missing_is_just_named(capsys, tmp_path):
    assert main(["recall", "--journal", str(tmp_path / "gone.sqlite")]) == 1
    assert capsys.readouterr().err == f"tablectl recall: no journal at {tmp_path}/gone.sqlite\n"
