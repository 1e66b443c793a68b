"""`domino-oracle selfplay`: complete matches between simple legal bots, stored.

Dominoes matches come from its self-play policies (random, heaviest); any other registered
game plays its own bots through the generic match loop (games.play)."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from archive.matches import ArchiveError, save_matches
from clients.cli import CommandError
from clients.store_option import add_db_option, open_store
from clients.table_options import add_table_options, seats_and_options
from games.dominoes.game import DOMINOES
from games.dominoes.selfplay import heaviest_policy, random_match_events, random_policy
from games.interface import Game, UnknownGame
from games.play import play_match

POLICIES = {"random": random_policy, "heaviest": heaviest_policy}
BATCH = 50


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("selfplay", help="play and store complete bot matches")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="same seed, same matches")
    parser.add_argument("--variant", default="partnership-6",
                        help="any registered variant (partnership-6, partnership-9, block-2, "
                             "draw-2, ...)")
    parser.add_argument("--target", type=int, default=100)
    add_table_options(parser)
    parser.add_argument("--policy", default="random",
                        help="dominoes: random or heaviest; another game: one of its bots")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def _match_maker(game: Game, args: argparse.Namespace, rng: random.Random) -> Any:
    """A function making one complete match of the chosen variant and policy."""
    seats, options = seats_and_options(args, game, args.variant)
    if game is DOMINOES:
        if args.policy not in POLICIES:
            raise CommandError(f"unknown --policy {args.policy!r} (dominoes: "
                               f"{', '.join(sorted(POLICIES))})")
        return lambda: random_match_events(rng, args.variant, args.target,
                                           policy=POLICIES[args.policy])
    bots = game.bots()
    if args.policy not in bots:
        raise CommandError(f"unknown --policy {args.policy!r} ({game.name}: "
                           f"{', '.join(sorted(bots))})")
    bot = bots[args.policy]
    return lambda: play_match(game, args.variant, dict.fromkeys(seats, bot), rng,
                              {"target": args.target, **options})


def _declared(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    return seats_and_options(args, game, args.variant)[1]


def run(args: argparse.Namespace) -> int:
    if args.matches < 1 or args.target < 1:
        raise CommandError("--matches and --target must be >= 1")
    try:
        game = args.games.game_of_variant(args.variant)
    except UnknownGame as error:
        raise CommandError(str(error)) from None
    rng = random.Random(args.seed)
    make = _match_maker(game, args, rng)
    started = time.perf_counter()
    stored = 0
    with open_store(args.db, create=True) as store:
        while stored < args.matches:
            count = min(BATCH, args.matches - stored)
            matches = [make() for _ in range(count)]
            try:
                stored += save_matches(store, matches, args.games)
            except ArchiveError as error:
                raise CommandError(f"{error} (a match of that id is stored already in "
                                   f"{args.db}: another --seed makes other matches)") from None
    elapsed = time.perf_counter() - started
    chosen = ", ".join(f"{k}={v}" for k, v in _declared(game, args).items())
    print(f"stored {stored} {args.variant} matches{f' ({chosen})' if chosen else ''} in "
          f"{args.db} ({elapsed:.2f} s)")
    return 0
