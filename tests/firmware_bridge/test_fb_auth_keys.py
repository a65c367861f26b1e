"""Device key files (PROTOCOL.md §8.2): 64 hex digits, readable by owner and group only."""
from __future__ import annotations

import os
import stat

import pytest

from firmware_bridge.auth import KEY_SIZE, KeyFileError, key_id, key_text, load_key, parse_key, write_key

KEY = bytes(range(KEY_SIZE))


def write(path, text: str, mode: int = 0o640) -> str:
    path.write_text(text)
    os.chmod(path, mode)
    return str(path)


def test_a_key_file_round_trips(tmp_path):
    assert load_key(write(tmp_path / "shoe.key", key_text(KEY))) == KEY
    assert load_key(write(tmp_path / "spaced.key", " ".join(KEY.hex()[i:i + 2] for i in range(0, 64, 2)), 0o600)) == KEY


@pytest.mark.parametrize("text, message", [
    ("", "this has 0"),
    ("00" * 31, "this has 62"),
    ("zz" * 32, "not a key"),
    ("00" * 33, "this has 66"),
])
def test_a_bad_key_is_refused_naming_the_file(tmp_path, text, message):
    path = write(tmp_path / "bad.key", text)
    with pytest.raises(KeyFileError, match=message) as error:
        load_key(path)
    assert str(error.value).startswith(path)


@pytest.mark.parametrize("mode", [0o644, 0o660, 0o604, 0o666])
def test_a_key_others_may_read_or_the_group_may_write_is_refused(tmp_path, mode):
    with pytest.raises(KeyFileError, match=f"mode {mode:04o}.*chmod 0640"):
        load_key(write(tmp_path / "open.key", key_text(KEY), mode))


def test_a_missing_key_file_says_how_to_make_one(tmp_path):
    with pytest.raises(KeyFileError, match="tablectl keys provision"):
        load_key(tmp_path / "none.key")


def test_the_key_id_names_a_key_without_showing_it():
    assert key_id(KEY) == key_id(bytes(KEY)) != key_id(bytes(KEY_SIZE))
    assert len(key_id(KEY)) == 16 and KEY.hex()[:16] != key_id(KEY)
    assert parse_key(KEY.hex()) == KEY


def test_write_key_is_atomic_and_private_from_the_first_byte(tmp_path):
    path = tmp_path / "shoe.key"
    path.write_text("old")
    write_key(path, KEY, gid=os.getegid() if os.geteuid() == 0 else None)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and load_key(path) == KEY
    assert not list(tmp_path.glob(".*partial"))
