"""`domino-oracle replay FILE|MATCH_ID`: the match move by move in the terminal (any game: told
by the narrator it declares, `Capabilities.narrate`, else one line per event)."""

from __future__ import annotations

import argparse

from clients.cli import CommandError
from clients.log_file import read_log_or_match
from clients.store_option import add_db_option
from clients.terminal_replay import narrate_any
from games.interface import RuleViolation


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="tell a stored or exported match move by move")
    parser.add_argument("source", help="a JSONL file or a match id in --db")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    log = read_log_or_match(args.source, args.db, args.games)
    narrate = log.game.capabilities.narrate
    lines = narrate(log.events) if narrate is not None else narrate_any(log.game, log.events)
    try:
        for line in lines:
            print(line)
    except (ValueError, RuleViolation) as error:  # a narrator's broken-log error included
        raise CommandError(f"{args.source}: {error}") from error
    return 0
