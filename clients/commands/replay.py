"""`domino-oracle replay FILE|MATCH_ID`: the match move by move in the terminal (any game;
dominoes is told with its line of tiles, others one line per event)."""

from __future__ import annotations

import argparse

from clients.cli import CommandError
from clients.log_file import is_dominoes, read_log_or_match
from clients.store_option import add_db_option
from clients.terminal_replay import narrate, narrate_any
from games.interface import RuleViolation


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="tell a stored or exported match move by move")
    parser.add_argument("source", help="a JSONL file or a match id in --db")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    log = read_log_or_match(args.source, args.db, args.games)
    lines = narrate(log.events) if is_dominoes(log.game) else narrate_any(log.game, log.events)
    try:
        for line in lines:
            print(line)
    except (ValueError, RuleViolation) as error:  # dominoes' BadEvent is a ValueError
        raise CommandError(f"{args.source}: {error}") from error
    return 0
