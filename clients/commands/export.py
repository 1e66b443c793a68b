"""`domino-oracle export MATCH_ID`: the match as JSON Lines on stdout."""

from __future__ import annotations

import argparse
import sys

from clients.cli import CommandError
from clients.match_archive import ArchiveError, load_match
from clients.store_option import add_db_option, open_store
from domino.jsonl import dump_line


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a stored match as JSONL to stdout")
    parser.add_argument("match_id")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_store(args.db) as store:
        try:
            events = load_match(store, args.match_id)
        except ArchiveError as error:
            raise CommandError(str(error)) from error
    for event in events:
        sys.stdout.write(dump_line(event) + "\n")
    return 0
