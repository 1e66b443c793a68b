"""Reading a match log given on the command line: a JSONL file, or a match id in the store."""

from __future__ import annotations

from pathlib import Path

from archive.matches import ArchiveError, load_match
from clients.cli import CommandError
from clients.store_option import open_store
from games.dominoes.events import Event
from games.dominoes.jsonl import LogFormatError, parse_lines


def read_log(path: Path) -> list[Event]:
    try:
        with path.open(encoding="utf-8") as handle:
            events = parse_lines(handle)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from error
    except LogFormatError as error:
        raise CommandError(f"{path}: {error}") from error
    if not events:
        raise CommandError(f"{path}: no events")
    return events


def read_log_or_match(source: str, db: str) -> list[Event]:
    """`source` is a file if one exists at that path, else a match id in `db`."""
    path = Path(source)
    if path.exists():
        return read_log(path)
    if "://" not in db and not Path(db).is_file():
        raise CommandError(f"{source}: no such file, and no store at {db} to find it in")
    with open_store(db) as store:
        try:
            return load_match(store, source)
        except ArchiveError as error:
            raise CommandError(f"{source} is neither a file nor a stored match") from error
