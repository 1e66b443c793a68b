"""`domino-oracle import FILE`: store a JSONL match log, all or nothing, after checking it.

Any registered game: the log's `match_started.game` picks the rules that re-decide it. The
log is proved before the store is opened: a refused import creates no database file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from archive.matches import ArchiveError, check_match, store_checked_match
from clients.cli import CommandError
from clients.log_file import read_log
from clients.store_option import add_db_option, open_store
from games.interface import LogProblem
from storage.errors import ConcurrencyConflict


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("import", help="check a JSONL match log and store it")
    parser.add_argument("file", type=Path)
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    log = read_log(args.file, args.games)
    try:
        match_id = check_match(log.events, log.game)
        with open_store(args.db, create=True) as store:
            store_checked_match(store, match_id, log.events, log.game)
    except (LogProblem, ArchiveError) as problem:
        raise CommandError(f"{args.file}: {problem} — nothing was imported") from problem
    except ConcurrencyConflict as error:
        raise CommandError(f"{args.file}: the store already has match {error.stream!r}") from error
    print(f"imported {match_id} ({len(log.events)} events)")
    return 0
