"""The lint and type checks (docs/developing.md): every package is in mypy's scope, strict for the
core and relaxed only for the layers right of drivers/, and CI runs ruff and mypy before the tests."""
import pathlib
import tomllib

from test_layers import ORDER

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MYPY = PYPROJECT["tool"]["mypy"]
STRICT = ["games", "firmware_bridge", "drivers"]


def test_mypy_checks_every_package():
    packages = [name.rstrip("*") for name in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]]
    assert sorted(MYPY["files"]) == sorted(packages) == sorted(ORDER)


def test_strict_for_the_core_and_relaxed_only_right_of_drivers():
    assert MYPY["strict"] is True
    relaxed = [o for o in MYPY["overrides"] if o.get("disallow_untyped_defs") is False]
    assert len(relaxed) == 1
    assert sorted(relaxed[0]["module"]) == sorted(f"{layer}.*" for layer in ORDER if layer not in STRICT)
    assert STRICT == ORDER[:3]
    # strict's error checks stay on everywhere: only annotation requirements are relaxed
    assert not set(relaxed[0]) & {"check_untyped_defs", "strict_equality", "warn_unused_ignores", "strict_optional"}


def test_only_pyusb_goes_untyped():
    ignored = [o["module"] for o in MYPY["overrides"] if o.get("ignore_missing_imports")]
    assert ignored == [["usb", "usb.*"]]
    assert "ignore_missing_imports" not in MYPY


def test_ci_runs_ruff_and_mypy_before_the_tests():
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    ruff, mypy, tests = (lines.index(cmd) for cmd in (".venv/bin/ruff check .", ".venv/bin/mypy",
                                                       ".venv/bin/python -m pytest -q -n auto --dist loadfile"))
    assert lines.index("bash .ci/setup") < ruff < mypy < tests
    test_extra = " ".join(PYPROJECT["project"]["optional-dependencies"]["test"])
    assert "ruff==" in test_extra and "mypy==" in test_extra and "types-pyserial" in test_extra
