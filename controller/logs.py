"""Logging: structlog, JSON lines on stdout by default (journald stores them as they come),
a readable console format for people. Standard-library loggers (transitions, ...) are routed
through the same renderer so every line on the stream has one shape.

    configure_logging("json", "info")
    log = structlog.get_logger("journal")
    log.info("round_opened", round=7)
    # {"event":"round_opened","level":"info","logger":"journal","round":7,"timestamp":"...Z"}

A log output that breaks (`tablectl run | head -2`, a journald that restarted, a full disk
under a log file) never stops the daemon: `LogOutput` drops the lines it cannot write,
counts them, and says so once on stderr; `output_state()` is what `tablectl status` shows.
"""
from __future__ import annotations

import json
import logging
import os
import sys
from typing import TextIO

import structlog

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
FORMATS = ("json", "console")
_HANDLER_NAME = "tablectl"


class LogOutput:
    """The stream every log line goes through; it never raises. A stream with a file
    descriptor is written with os.write, one whole line a call (Python's own buffer in front
    of it would keep a line that failed and fail again at exit); others (a StringIO in tests)
    through write and flush. A line that cannot be written is dropped and counted; the first
    failure after writing worked is said once on stderr, and so is the output's recovery."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        try:
            self._fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None
        self._pending = ""  # a line not yet ended by its newline (print writes the newline apart)
        self.dropped = 0  # lines dropped since the start
        self.broken: str | None = None  # why the last write failed; None while writing works

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, OSError, ValueError):
            return False

    def write(self, text: str) -> int:
        self._pending += text
        end = self._pending.rfind("\n")
        if end >= 0:
            lines, self._pending = self._pending[:end + 1], self._pending[end + 1:]
            self._out(lines)
        return len(text)

    def flush(self) -> None:
        if self._pending:
            lines, self._pending = self._pending, ""
            self._out(lines)

    def _out(self, text: str) -> None:
        try:
            if self._fd is None:
                self.stream.write(text)
                self.stream.flush()
            else:
                data = text.encode("utf-8", "replace")
                while data:
                    data = data[os.write(self._fd, data):]
        except (OSError, ValueError) as error:  # ValueError: the stream was closed
            self.dropped += max(1, text.count("\n"))
            if self.broken is None:
                self.broken = f"{type(error).__name__}: {error}"
                _say(f"tablectl: log output broken ({self.broken}): log lines are dropped and counted "
                     f"(tablectl status: daemon.log)")
            return
        if self.broken is not None:
            self.broken = None
            _say(f"tablectl: log output works again; {self.dropped} lines were dropped so far")

    def state(self) -> dict:
        return {"dropped": self.dropped, "broken": self.broken}


def _say(text: str) -> None:
    try:
        os.write(2, (text + "\n").encode("utf-8", "replace"))
    except OSError:
        pass  # stderr is broken as well: nothing is left to tell


_output: LogOutput | None = None


def output_state() -> dict:
    """The log output's lines dropped and why it is broken (None: it works), for status."""
    return _output.state() if _output is not None else {"dropped": 0, "broken": None}


def _renderer(format: str, stream: LogOutput):
    if format == "json":
        return structlog.processors.JSONRenderer(
            serializer=lambda obj, **kw: json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str))
    return structlog.dev.ConsoleRenderer(colors=stream.isatty())


def configure_logging(format: str = "json", level: str = "info", stream: TextIO | None = None) -> None:
    """Set up structlog (and the root stdlib logger) to write to `stream` (default stdout)."""
    if format not in FORMATS:
        raise ValueError(f"log format {format!r}: expected one of {', '.join(FORMATS)}")
    if level not in LEVELS:
        raise ValueError(f"log level {level!r}: expected one of {', '.join(LEVELS)}")
    global _output
    stream = sys.stdout if stream is None else stream
    _output = output = LogOutput(stream)
    shared: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]
    if format == "json":  # the console renderer prints exceptions itself
        shared.append(structlog.processors.format_exc_info)
    renderer = _renderer(format, output)
    structlog.configure(
        processors=[*shared, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level]),
        logger_factory=_NamedPrintLoggerFactory(output),
        cache_logger_on_first_use=False,
    )
    _route_stdlib(shared, renderer, level, output)


class _NamedPrintLogger(structlog.PrintLogger):
    """A PrintLogger that keeps the name given to get_logger(name), for add_logger_name."""

    def __init__(self, stream: LogOutput, name: str):
        super().__init__(stream)  # type: ignore[arg-type]  # PrintLogger only writes and flushes its file
        self.name = name


class _NamedPrintLoggerFactory:
    def __init__(self, stream: LogOutput):
        self._stream = stream

    def __call__(self, *args: object) -> _NamedPrintLogger:
        return _NamedPrintLogger(self._stream, args[0] if args and isinstance(args[0], str) else "tablectl")


def _route_stdlib(shared, renderer, level: str, stream: LogOutput) -> None:
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
    )
    handler = logging.StreamHandler(stream)  # LogOutput writes and flushes
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
