"""`domino-oracle loadtest`: tables of bot clients over real sockets; prints the figures."""

from __future__ import annotations

import argparse
import asyncio
import json

from clients.cli import CommandError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "loadtest", help="play N tables flat out over WebSockets and print moves/s and latencies"
    )
    parser.add_argument("--url", help="ws://HOST:PORT/ws of a running server "
                                      "(default: start one on a free port with a temp db)")
    parser.add_argument("--variant", default="partnership-6",
                        help="any registered game's variant (default: %(default)s)")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=0, help="spectators per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--mqtt", metavar="URL",
                        help="without --url: start the server in MQTT mode with this broker, "
                             "plus --workers inference worker processes (needs --db)")
    parser.add_argument("--db", help="with --mqtt: the PostgreSQL store URL")
    parser.add_argument("--workers", type=int, default=2,
                        help="with --mqtt: inference worker processes (default: %(default)s)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from clients.python.loadtest import Deployment, local_server, report, run_load
    from games.interface import UnknownGame
    from games.registry import GAMES

    if args.tables < 1 or args.seconds <= 0 or args.spectators < 0:
        raise CommandError("--tables must be >= 1, --seconds > 0, --spectators >= 0")
    try:
        GAMES.variant(args.variant)
    except UnknownGame as error:
        raise CommandError(str(error)) from None
    deployment = None
    if args.mqtt:
        if not args.db or args.url:
            raise CommandError("--mqtt needs --db postgresql://... and no --url")
        deployment = Deployment(args.mqtt, args.db, max(1, args.workers))

    def go(url: str) -> dict:
        return asyncio.run(run_load(url, args.tables, args.spectators, args.seconds,
                                    variant=args.variant))

    try:
        if args.url:
            figures = go(args.url)
        else:
            with local_server(deployment) as url:
                figures = go(url)
    except (OSError, RuntimeError) as error:
        raise CommandError(str(error)) from error
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0
