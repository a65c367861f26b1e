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
    assert all(tally[f"kind_{k}"] > 800 for k in fuzz.KINDS)
    assert tally["frames_out"] > 500 and tally["payloads_accepted"] > 50  # it reaches the deep paths
    for failure in ("crashes", "false_frames", "disagreement", "lost_frames", "repack_mismatch"):
        assert tally[failure] == 0, failure


def test_fuzz_would_count_a_false_frame(fuzz):
    """The oracle is not vacuous: a frame not encoded into the input is counted."""
    from firmware_bridge.frame import Frame, encode_frame
    tally = {"disagreement": 0, "false_frames": 0, "lost_frames": 0, "frames_out": 0}
    stray = encode_frame(Frame(0x10, payload=b"x"))
    fuzz.check_bytes(__import__("random").Random(1), stray, [Frame(0x11)], False, tally)
    assert tally["false_frames"] == 1
