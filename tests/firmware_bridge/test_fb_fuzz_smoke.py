"""A few thousand inputs of bench/fuzz_decoder.py, so the fuzz harness itself stays honest.

The million-input run is `python3 bench/fuzz_decoder.py` (its figure is in docs/firmware_bridge.md).
"""
import importlib.util
import pathlib

import pytest

BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench" / "fuzz_decoder.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("fuzz_decoder", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fuzz_smoke_finds_nothing(fuzz):
    tally = fuzz.run(seed=7, count=4000)
    assert tally["inputs"] == 4000
    assert all(tally[f"kind_{k}"] > 0.8 * 4000 / len(fuzz.KINDS) for k in fuzz.KINDS)
    assert tally["frames_out"] > 400 and tally["payloads_accepted"] > 40  # it reaches the deep paths
    assert tally["auth_tampered"] > 300 and tally["auth_refused"] > 10  # and the attacks are seen
    for failure in fuzz.FAILURES:
        assert tally[failure] == 0, failure


def test_fuzz_would_count_a_false_frame(fuzz):
    """The oracle is not vacuous: a frame not encoded into the input is counted."""
    from firmware_bridge.frame import Frame, encode_frame
    tally = {"disagreement": 0, "false_frames": 0, "lost_frames": 0, "frames_out": 0}
    stray = encode_frame(Frame(0x10, payload=b"x"))
    fuzz.check_bytes(__import__("random").Random(1), stray, [Frame(0x11)], False, tally)
    assert tally["false_frames"] == 1


def test_the_auth_oracle_would_count_a_false_delivery(fuzz, monkeypatch):
    """Without a key the same attacks get through (a changed card with its CRC fixed is
    delivered), and the oracle counts them."""
    import random
    monkeypatch.setattr(fuzz, "AUTH_KEY", None)
    monkeypatch.setattr(fuzz, "_recorded", [])
    tally = {"auth_delivery": 0, "auth_tampered": 0, "auth_refused": 0}
    rng = random.Random(3)
    for _ in range(300):
        fuzz.check_auth(rng, tally)
    # (some are still reported: a changed frame whose SEQ was already taken is a dispute, §2)
    assert tally["auth_delivery"] > 0
