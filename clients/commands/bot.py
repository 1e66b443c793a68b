"""`domino-oracle bot`: a strategy bot playing one seat of a live table, over the protocol."""

from __future__ import annotations

import argparse
import asyncio

from clients.cli import CommandError
from games.dominoes.strategy.bots import TABLE_BOTS, make_bot
from games.dominoes.tiles import SEATS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bot", help="play one seat of a live table with random, greedy or pimc, as a client"
    )
    parser.add_argument("--url", required=True, help="the server's ws://HOST:PORT/ws")
    parser.add_argument("--table", required=True, help="the table id")
    parser.add_argument("--seat", required=True, choices=SEATS)
    parser.add_argument("--bot", choices=TABLE_BOTS, default="greedy")
    parser.add_argument("--name", default="", help="the name shown at the table "
                                                   "(default: remote-BOT)")
    parser.add_argument("--token", help="resume a seat already joined (e.g. in the browser) "
                                        "instead of joining an empty one")
    parser.add_argument("--seed", help="seed of the bot's own random source")
    parser.add_argument("--nodes", type=int, help="pimc: solver nodes per decision")
    parser.add_argument("--samples", type=int, help="pimc: deals per decision")
    parser.add_argument("--reconnect-seconds", type=float, default=60.0,
                        help="give up resuming after a drop after this long "
                             "(default: %(default)s)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from clients.python.bot_runner import run_bot
    from clients.python.client import ServerError

    options: dict[str, object] = {}
    if args.nodes is not None or args.samples is not None:
        if args.bot != "pimc":
            raise CommandError("--nodes and --samples are pimc's options")
        if args.nodes is not None:
            if args.nodes < 1:
                raise CommandError("--nodes must be >= 1")
            options["nodes"] = args.nodes
        if args.samples is not None:
            if args.samples < 1:
                raise CommandError("--samples must be >= 1")
            options["samples"] = args.samples
    bot = make_bot(args.bot, seed=args.seed, **options)
    try:
        result = asyncio.run(run_bot(args.url, args.table, args.seat, bot, name=args.name,
                                     token=args.token, reconnect_seconds=args.reconnect_seconds))
    except ServerError as error:
        raise CommandError(f"the server refused: {error}") from error
    except (OSError, ConnectionError, TimeoutError) as error:
        raise CommandError(f"cannot play at {args.url}: {error}") from error
    scores = ", ".join(f"{team} {points}" for team, points in result.scores.items())
    print(f"{result.seat} ({result.bot}) at {result.table_id}: match over, {scores}, "
          f"winner {result.winner}; {result.moves} moves, {result.resumes} resumes")
    return 0
