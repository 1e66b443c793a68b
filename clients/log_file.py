"""Reading a match log given on the command line: a JSONL file, or a match id in the store.

Either way the result names its game (from `match_started.game`, found in the registry the
command was given), so each command then speaks only the game interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from archive.jsonl import LogFormatError, parse_log_lines
from archive.matches import ArchiveError, MatchLog, load_match_log
from clients.cli import CommandError, NotForThisGame
from clients.store_option import open_store
from games.interface import REFEREE, SPECTATOR, Game, VariantInfo, match_seats
from games.registry import Registry


def read_log(path: Path, games: Registry) -> MatchLog:
    try:
        with path.open(encoding="utf-8") as handle:
            log = parse_log_lines(handle, games)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from error
    except LogFormatError as error:
        raise CommandError(f"{path}: {error}") from error
    if not log.events:
        raise CommandError(f"{path}: no events")
    return log


def read_log_or_match(source: str, db: str, games: Registry) -> MatchLog:
    """`source` is a file if one exists at that path, else a match id in `db`."""
    path = Path(source)
    if path.exists():
        return read_log(path, games)
    if "://" not in db and not Path(db).is_file():
        raise CommandError(f"{source}: no such file, and no store at {db} to find it in")
    with open_store(db) as store:
        try:
            return load_match_log(store, source, games=games)
        except ArchiveError as error:
            raise CommandError(f"{source} is neither a file nor a stored match") from error


def variant_of(log: MatchLog) -> VariantInfo | None:
    """The variant the log's match_started names, if its game hosts it."""
    first = log.game.event_to_dict(log.events[0]) if log.events else {}
    if first.get("type") != "match_started":
        return None
    return log.game.variants().get(str(first.get("variant")))


def audiences(log: MatchLog, *, referee: bool = True) -> tuple[str, ...] | None:
    """Who may look at this match: its seats, spectators (and the referee); None when the log
    names no variant its game knows (the game's own checks then speak)."""
    if variant_of(log) is None:
        return None
    seats = match_seats(log.game, log.events[0])  # a table option may have changed them
    return (*seats, SPECTATOR, *((REFEREE,) if referee else ()))


def check_audience(log: MatchLog, audience: str, option: str, *, referee: bool) -> None:
    """A clear error for an audience the match does not have (e.g. W at a two-player table)."""
    known = audiences(log, referee=referee)
    if known is not None and audience not in known:
        raise CommandError(f"{option} {audience}: not an audience of this "
                           f"{log.game.name} match (one of {', '.join(known)})")


def not_offered(game: Game, what: str, offered: str) -> NotForThisGame:
    """The typed refusal of an extra this game does not declare (e.g. a sampler)."""
    return NotForThisGame(f"{what} is not offered by {game.name} ({offered})")


def view_of(game: Game, events: Sequence[Any], audience: str) -> list[Any]:
    """The log as `audience` sees it, through the game's one gate for hidden information."""
    return [game.view(event, audience) for event in events]
