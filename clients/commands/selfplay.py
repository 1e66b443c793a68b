"""`domino-oracle selfplay`: complete matches between simple legal bots, stored."""

from __future__ import annotations

import argparse
import random
import time

from archive.matches import save_matches
from clients.cli import CommandError
from clients.store_option import add_db_option, open_store
from games.dominoes.selfplay import heaviest_policy, random_match_events, random_policy
from games.dominoes.variants import VARIANTS

POLICIES = {"random": random_policy, "heaviest": heaviest_policy}
BATCH = 50


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("selfplay", help="play and store complete bot matches")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="same seed, same matches")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="partnership-6")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="random")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.matches < 1 or args.target < 1:
        raise CommandError("--matches and --target must be >= 1")
    rng = random.Random(args.seed)
    started = time.perf_counter()
    stored = 0
    with open_store(args.db, create=True) as store:
        while stored < args.matches:
            count = min(BATCH, args.matches - stored)
            matches = [
                random_match_events(rng, args.variant, args.target, policy=POLICIES[args.policy])
                for _ in range(count)
            ]
            stored += save_matches(store, matches)
    elapsed = time.perf_counter() - started
    print(f"stored {stored} {args.variant} matches in {args.db} ({elapsed:.2f} s)")
    return 0
