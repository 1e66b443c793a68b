"""Structured logs: one line per happening, `event=name key=value ...`, easy to grep and parse."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

LOGGER = logging.getLogger("domino.server")


def _value(value: object) -> str:
    text = str(value)
    if not text or any(c in text for c in ' "='):
        return '"' + text.replace('"', '\\"') + '"'
    return text


def log(event: str, level: int = logging.INFO, /, **fields: object) -> None:
    if LOGGER.isEnabledFor(level):
        parts = [f"event={event}", *(f"{k}={_value(v)}" for k, v in fields.items())]
        LOGGER.log(level, " ".join(parts))


class _CurrentStderr(logging.StreamHandler[TextIO]):
    """Writes to whatever `sys.stderr` is when a line is logged, not to the one there was at
    `configure` time: a command run in-process (the tests' CLI runs, whose stderr is captured
    and then closed) must not leave later log lines writing to a closed file."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


def configure(level: str = "INFO") -> None:
    """Log lines to stderr with a timestamp and level, in key=value form."""
    handler = _CurrentStderr()
    handler.setFormatter(
        logging.Formatter("ts=%(asctime)s level=%(levelname)s %(message)s", "%Y-%m-%dT%H:%M:%S")
    )
    root = logging.getLogger("domino")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
    logging.getLogger("websockets").setLevel(logging.WARNING)
