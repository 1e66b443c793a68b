"""`domino-oracle replay FILE|MATCH_ID`: the match move by move in the terminal."""

from __future__ import annotations

import argparse

from clients.cli import CommandError
from clients.log_file import read_log_or_match
from clients.store_option import add_db_option
from clients.terminal_replay import narrate
from games.dominoes.errors import BadEvent


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="tell a stored or exported match move by move")
    parser.add_argument("source", help="a JSONL file or a match id in --db")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    events = read_log_or_match(args.source, args.db)
    try:
        for line in narrate(events):
            print(line)
    except BadEvent as error:
        raise CommandError(f"{args.source}: {error}") from error
    return 0
