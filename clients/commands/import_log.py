"""`domino-oracle import FILE`: store a JSONL match log, all or nothing, after checking it."""

from __future__ import annotations

import argparse
from pathlib import Path

from clients.cli import CommandError
from clients.log_file import read_log
from clients.match_archive import ArchiveError, save_match
from clients.store_option import add_db_option, open_store
from domino.validate import LogProblem
from storage.errors import ConcurrencyConflict


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("import", help="check a JSONL match log and store it")
    parser.add_argument("file", type=Path)
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    events = read_log(args.file)
    try:
        with open_store(args.db, create=True) as store:
            save_match(store, events)
    except (LogProblem, ArchiveError) as problem:
        raise CommandError(f"{args.file}: {problem} — nothing was imported") from problem
    except ConcurrencyConflict as error:
        raise CommandError(f"{args.file}: the store already has match {error.stream!r}") from error
    print(f"imported {events[0].match_id} ({len(events)} events)")  # type: ignore[union-attr]
    return 0
