"""controller.logs: JSON lines by default, a console format for people, stdlib loggers routed
through the same renderer, the level filter, and clear errors for a bad format or level."""
import io
import json
import logging

import pytest
import structlog

from controller.config import default_config
from controller.logs import configure_logging, reset_logging


@pytest.fixture
def stream():
    out = io.StringIO()
    yield out
    reset_logging()


def lines(stream):
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_json_lines_carry_timestamp_level_event_logger_and_fields(stream):
    configure_logging("json", "info", stream)
    structlog.get_logger("journal").info("round_opened", round=7, game="fortune6")
    [line] = lines(stream)
    assert {k: line[k] for k in ("event", "level", "logger", "round", "game")} == {
        "event": "round_opened", "level": "info", "logger": "journal", "round": 7, "game": "fortune6"}
    assert line["timestamp"].endswith("Z")


def test_the_level_filters_and_the_default_config_logs_json_at_info(stream):
    config = default_config()
    configure_logging(config.log.format, config.log.level, stream)
    log = structlog.get_logger("control")
    log.debug("not_shown")
    log.warning("client_dropped", reason="buffer full")
    assert [(line["event"], line["level"]) for line in lines(stream)] == [("client_dropped", "warning")]


def test_library_loggers_come_out_in_the_same_json_shape(stream):
    configure_logging("json", "debug", stream)
    logging.getLogger("transitions.core").warning("cannot trigger %s", "deal")
    [line] = lines(stream)
    assert (line["event"], line["level"], line["logger"]) == ("cannot trigger deal", "warning", "transitions.core")


def test_exceptions_are_one_json_line_with_the_traceback(stream):
    configure_logging("json", "info", stream)
    try:
        {}["missing"]
    except KeyError:
        structlog.get_logger("loop").exception("handler_failed", input="Card")
    [line] = lines(stream)
    assert line["event"] == "handler_failed" and "KeyError: 'missing'" in line["exception"]


def test_console_format_is_for_people(stream):
    configure_logging("console", "info", stream)
    structlog.get_logger("control").info("client_dropped", reason="buffer full")
    text = stream.getvalue()
    assert "client_dropped" in text and "reason='buffer full'" in text and "[control]" in text
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    assert "\x1b[" not in text  # no colour codes when the stream is not a terminal


def test_configuring_twice_leaves_one_stdlib_handler(stream):
    configure_logging("json", "info", stream)
    configure_logging("json", "info", stream)
    logging.getLogger("x").warning("once")
    assert len(lines(stream)) == 1


@pytest.mark.parametrize("args, message", [
    (("xml", "info"), "log format 'xml': expected one of json, console"),
    (("json", "loud"), "log level 'loud': expected one of debug, info, warning, error"),
])
def test_a_bad_format_or_level_is_named(args, message):
    with pytest.raises(ValueError, match=message):
        configure_logging(*args)


def test_reset_logging_undoes_it(stream):
    configure_logging("json", "info", stream)
    reset_logging()
    logging.getLogger("x").warning("not ours any more")
    assert stream.getvalue() == ""
    assert not [h for h in logging.getLogger().handlers if h.get_name() == "tablectl"]
