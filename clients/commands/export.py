"""`domino-oracle export MATCH_ID [--as AUDIENCE]`: the match as JSON Lines on stdout.

Any registered game: the match's game redacts each event for the audience (`Game.view`).
`--as S` writes what seat S saw (other hands and unrevealed seeds redacted): the log a player
holds, which (for dominoes) `verify FILE` can still prove fair from the seeds revealed at
each hand's end.
"""

from __future__ import annotations

import argparse
import sys

from archive.jsonl import dump_line
from archive.matches import ArchiveError, load_match_log
from clients.cli import CommandError
from clients.log_file import check_audience
from clients.store_option import add_db_option, open_store
from games.interface import REFEREE


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a stored match as JSONL to stdout")
    parser.add_argument("match_id")
    parser.add_argument("--as", dest="audience", default=REFEREE, metavar="AUDIENCE",
                        help="whose view to write: a seat of the match, 'spectator' or "
                             "'referee' (default: the referee's full log)")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_store(args.db) as store:
        try:
            log = load_match_log(store, args.match_id, games=args.games)
        except ArchiveError as error:
            raise CommandError(str(error)) from error
    check_audience(log, args.audience, "--as", referee=True)
    for event in log.events:
        sys.stdout.write(dump_line(log.game, log.game.view(event, args.audience)) + "\n")
    return 0
