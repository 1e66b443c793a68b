"""Reading and writing the JSON Lines event log, with errors that name the line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import ValidationError

from games.dominoes.events import Event, event_to_dict, parse_event


@dataclass(frozen=True)
class LogFormatError(Exception):
    """A line that is not a valid event."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def _explain(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "event"
    return f"{where}: {first.get('msg', 'invalid')}"


def parse_lines(lines: Iterable[str]) -> list[Event]:
    """Every event in a JSONL text; blank lines are allowed, anything else must be an event."""
    events: list[Event] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise LogFormatError(number, f"not JSON ({error.msg})") from error
        if not isinstance(data, dict):
            raise LogFormatError(number, "an event must be a JSON object")
        try:
            events.append(parse_event(data))
        except ValidationError as error:
            raise LogFormatError(number, _explain(error)) from error
    return events


def dump_line(event: Event) -> str:
    return json.dumps(event_to_dict(event), separators=(",", ":"), ensure_ascii=False)


def dump_lines(events: Iterable[Event]) -> str:
    return "".join(dump_line(e) + "\n" for e in events)
