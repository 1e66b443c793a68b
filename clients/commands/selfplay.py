"""`domino-oracle selfplay`: complete matches between simple legal bots, stored.

A game that declares its own self-play (`Capabilities.self_play`: fast policies on its rules)
plays its policies that way; any policy that names one of the game's bots plays it through the
generic match loop (games.play)."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from archive.matches import ArchiveError, save_matches
from clients.cli import CommandError
from clients.store_option import add_db_option, open_store
from clients.table_options import add_table_options, seats_and_options
from games.interface import Game, UnknownGame
from games.play import play_match

BATCH = 50


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("selfplay", help="play and store complete bot matches")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="same seed, same matches")
    parser.add_argument("--variant", default="partnership-6",
                        help="any registered variant (partnership-6, partnership-9, block-2, "
                             "draw-2, ...)")
    parser.add_argument("--target", type=int, default=None,
                        help="points to win, for a variant with a target option (dominoes: "
                             "default 100); the same as --option target=N")
    add_table_options(parser)
    parser.add_argument("--policy", default="random",
                        help="one of the game's self-play policies (dominoes: random, "
                             "heaviest) or of its bots")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def _match_maker(game: Game, args: argparse.Namespace, rng: random.Random) -> Any:
    """A function making one complete match of the chosen variant and policy."""
    seats, options = seats_and_options(args, game, args.variant)
    own = game.capabilities.self_play
    if own is not None and args.policy in own.policies:
        return lambda: own.match(rng, args.variant, options, args.policy)
    bots = game.bots()
    if args.policy not in bots:
        known = sorted({*bots, *(own.policies if own is not None else ())})
        raise CommandError(f"unknown --policy {args.policy!r} ({game.name}: "
                           f"{', '.join(known)})")
    bot = bots[args.policy]
    return lambda: play_match(game, args.variant, dict.fromkeys(seats, bot), rng, options)


def _declared(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    return seats_and_options(args, game, args.variant)[1]


def run(args: argparse.Namespace) -> int:
    if args.matches < 1:
        raise CommandError("--matches must be >= 1")
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
