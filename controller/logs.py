"""Logging: structlog, JSON lines on stdout by default (journald stores them as they come),
a readable console format for people. Standard-library loggers (transitions, ...) are routed
through the same renderer so every line on the stream has one shape.

    configure_logging("json", "info")
    log = structlog.get_logger("journal")
    log.info("round_opened", round=7)
    # {"event":"round_opened","level":"info","logger":"journal","round":7,"timestamp":"...Z"}
"""
from __future__ import annotations

import json
import logging
import sys
from typing import TextIO

import structlog

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
FORMATS = ("json", "console")
_HANDLER_NAME = "tablectl"


def _renderer(format: str, stream: TextIO):
    if format == "json":
        return structlog.processors.JSONRenderer(
            serializer=lambda obj, **kw: json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str))
    return structlog.dev.ConsoleRenderer(colors=hasattr(stream, "isatty") and stream.isatty())


def configure_logging(format: str = "json", level: str = "info", stream: TextIO | None = None) -> None:
    """Set up structlog (and the root stdlib logger) to write to `stream` (default stdout)."""
    if format not in FORMATS:
        raise ValueError(f"log format {format!r}: expected one of {', '.join(FORMATS)}")
    if level not in LEVELS:
        raise ValueError(f"log level {level!r}: expected one of {', '.join(LEVELS)}")
    stream = sys.stdout if stream is None else stream
    shared = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]
    if format == "json":  # the console renderer prints exceptions itself
        shared.append(structlog.processors.format_exc_info)
    renderer = _renderer(format, stream)
    structlog.configure(
        processors=[*shared, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level]),
        logger_factory=_NamedPrintLoggerFactory(stream),
        cache_logger_on_first_use=False,
    )
    _route_stdlib(shared, renderer, level, stream)


class _NamedPrintLoggerFactory:
    """PrintLogger that keeps the name given to get_logger(name), for add_logger_name."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def __call__(self, *args):
        logger = structlog.PrintLogger(self._stream)
        logger.name = args[0] if args and isinstance(args[0], str) else "tablectl"
        return logger


def _route_stdlib(shared, renderer, level: str, stream: TextIO) -> None:
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
    )
    handler = logging.StreamHandler(stream)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(LEVELS[level])


def reset_logging() -> None:
    """Undo configure_logging (structlog's defaults, our stdlib handler gone): for tests and
    for a process that hands its stdout back."""
    structlog.reset_defaults()
    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)
