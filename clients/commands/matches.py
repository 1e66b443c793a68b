"""`domino-oracle matches`: one line per stored match, of any game."""

from __future__ import annotations

import argparse

from archive.matches import match_ids, summarize
from clients.store_option import add_db_option, open_store


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("matches", help="list stored matches")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_store(args.db) as store:
        for match_id in match_ids(store):
            s = summarize(store, match_id)
            print(f"{s.match_id}  {s.variant}  {s.status}  {_scores(s.scores)}  "
                  f"({s.events} events)")
    return 0


def _scores(scores: dict[str, int]) -> str:
    """'NS 105 - EW 72' in partnership dominoes (NS first, as ever), else as scored."""
    sides = ["NS", "EW"] if set(scores) == {"NS", "EW"} else list(scores)
    return " - ".join(f"{side} {scores[side]}" for side in sides) or "no score"
