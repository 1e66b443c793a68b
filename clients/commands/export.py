"""`domino-oracle export MATCH_ID [--as AUDIENCE]`: the match as JSON Lines on stdout.

`--as S` writes what seat S saw (other hands and unrevealed seeds redacted): the log a player
holds, which `verify FILE` can still prove fair from the seeds revealed at each hand's end.
"""

from __future__ import annotations

import argparse
import sys

from archive.matches import ArchiveError, load_match
from clients.cli import CommandError
from clients.store_option import add_db_option, open_store
from games.dominoes.audience import AUDIENCES, view
from games.dominoes.jsonl import dump_line


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a stored match as JSONL to stdout")
    parser.add_argument("match_id")
    parser.add_argument("--as", dest="audience", choices=AUDIENCES, default="referee",
                        help="whose view to write (default: the referee's full log)")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_store(args.db) as store:
        try:
            events = load_match(store, args.match_id)
        except ArchiveError as error:
            raise CommandError(str(error)) from error
    for event in events:
        sys.stdout.write(dump_line(view(event, args.audience)) + "\n")
    return 0
