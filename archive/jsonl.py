"""A match log as JSON Lines, for any registered game: read (errors name the line) and write.

The first event picks the game (`match_started.game`; none named: the registry's default game,
as every log written before games were plug-ins), and every line is then that game's
`parse_event`. Pure: the caller opens the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from archive.matches import MatchLog, game_of_payload
from games.interface import Game, UnknownGame
from games.registry import GAMES, Registry


@dataclass(frozen=True)
class LogFormatError(Exception):
    """A line that is not a valid event of the log's game."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def _explain(error: ValueError) -> str:
    if not isinstance(error, ValidationError):
        return str(error)
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "event"
    return f"{where}: {first.get('msg', 'invalid')}"


def parse_log_lines(lines: Iterable[str], games: Registry = GAMES) -> MatchLog:
    """Every event of a JSONL text and its game; blank lines are allowed, anything else must
    be an event. An empty text is an empty log of the default game (the caller decides if
    that is bad)."""
    game: Game | None = None
    events: list[Any] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise LogFormatError(number, f"not JSON ({error.msg})") from error
        if not isinstance(data, dict):
            raise LogFormatError(number, "an event must be a JSON object")
        if game is None:
            try:
                game = game_of_payload(data, games)
            except UnknownGame as error:
                raise LogFormatError(number, str(error)) from error
        try:
            event = game.parse_event(data)
        except ValueError as error:  # pydantic's ValidationError is one
            raise LogFormatError(number, _explain(error)) from error
        variant = getattr(event, "variant", None) if event.type == "match_started" else None
        if variant is not None and variant not in game.variants():
            raise LogFormatError(number, f"unknown variant {variant!r} for {game.name} (its "
                                 f"variants: {', '.join(game.variants())})")
        events.append(event)
    return MatchLog(game or games.game(None), events)


def dump_line(game: Game, event: Any) -> str:
    """One event as one compact JSON line (the log format, no trailing newline)."""
    return json.dumps(game.event_to_dict(event), separators=(",", ":"), ensure_ascii=False)


def dump_lines(game: Game, events: Iterable[Any]) -> str:
    """A whole log as JSONL text, one event a line."""
    return "".join(dump_line(game, e) + "\n" for e in events)
