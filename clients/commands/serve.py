"""`domino-oracle serve`: the whole product on one port (tables, spectators, bots, beliefs)."""

from __future__ import annotations

import argparse
import asyncio
import webbrowser

from clients.cli import CommandError
from clients.store_option import add_db_option

DEFAULT_COMMIT_WINDOW_MS = 5.0
"""Chosen by measurement (docs/operations.md)."""


def private_bus(mqtt: str, insecure: bool, role: str) -> None:
    """Refuse an open bus (no login, no key) unless --insecure-bus (server/feeds/plane.py)."""
    from server.feeds.plane import InsecureBus, require_private_bus

    try:
        require_private_bus(mqtt, insecure, role)
    except InsecureBus as error:
        raise CommandError(str(error)) from None
    except (OSError, ValueError) as error:  # an unreadable key or password file, a bad URL
        raise CommandError(f"--mqtt {mqtt.split('@')[-1]}: {error}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="run the game server (WebSockets on /ws, the browser client on /)"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    add_db_option(parser)
    parser.add_argument("--grace", type=float, default=30.0,
                        help="seconds an absent player may hold up their turn before a bot "
                             "plays for them (default: %(default)s)")
    parser.add_argument("--abandon-after", type=float, default=300.0,
                        help="seconds a match in play goes on with every player disconnected "
                             "before the table stops as abandoned (default: %(default)s)")
    parser.add_argument("--close-empty-after", type=float, default=1800.0,
                        help="seconds a table waiting for players may stay with no player "
                             "connected to a seat before it is closed (default: %(default)s)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds a bot waits before moving (default: %(default)s)")
    parser.add_argument("--hand-pause", type=float, default=3.0,
                        help="seconds between a hand's end and the next deal "
                             "(default: %(default)s)")
    parser.add_argument("--open", action="store_true",
                        help="open the browser at a new table, bots in the other three seats "
                             "(move advice on)")
    parser.add_argument("--seat", default="S", choices=["S", "W", "N", "E"],
                        help="your seat with --open (default: %(default)s)")
    guard = parser.add_argument_group("limits and integrity", "see docs/security.md")
    guard.add_argument("--store-key-file", default="auto", metavar="PATH",
                       help="key that seals the store's stream heads (HMAC-SHA256), kept "
                            "outside the database; created if missing (default: DB.key "
                            "beside a SQLite file; none for PostgreSQL; 'none': no key)")
    guard.add_argument("--tables-per-connection", type=int, default=20,
                       help="unfinished tables one connection may create (default: "
                            "%(default)s)")
    guard.add_argument("--tables-per-address", type=int, default=256,
                       help="unfinished tables one IP address may create (default: "
                            "%(default)s)")
    guard.add_argument("--connections-per-address", type=int, default=64,
                       help="open connections from one IP address, counted from the TCP "
                            "accept; beyond, HTTP 429 too_many_connections (default: "
                            "%(default)s; raise it behind a reverse proxy)")
    guard.add_argument("--outbox-bytes", type=int, default=8 * 1024 * 1024,
                       help="bytes queued for a client that does not read before it is "
                            "disconnected (default: %(default)s)")
    cluster = parser.add_argument_group(
        "deployment", "several servers sharing PostgreSQL, with MQTT and inference workers "
                      "(docs/operations.md)")
    cluster.add_argument("--mqtt", metavar="URL",
                         help="broker URL (mqtt[s]://[USER:PASS@]HOST:PORT; or the login "
                              "from $DOMINO_MQTT_USERNAME and $DOMINO_MQTT_PASSWORD[_FILE]; "
                              "payloads signed with $DOMINO_MQTT_KEY_FILE: docs/security.md): "
                              "events and beliefs over MQTT, "
                              "beliefs from `domino-oracle worker` processes; needs a "
                              "postgresql:// --db")
    cluster.add_argument("--insecure-bus", action="store_true",
                         help="run --mqtt without a broker login or a signing key (refused "
                              "otherwise): only for a broker nobody else can reach; logged "
                              "at WARNING")
    cluster.add_argument("--node", help="this server's unique name (default: host-pid-random)")
    cluster.add_argument("--topic-prefix", default="domino/v1",
                         help="MQTT topic prefix (default: %(default)s)")
    cluster.add_argument("--partitions", type=int, default=64,
                         help="inference partitions the work is hashed into; the same number "
                         "as every worker's --partitions (default: %(default)s)")
    cluster.add_argument("--lease-seconds", type=float, default=10.0,
                         help="table lease: how long a dead owner's tables wait before "
                              "another server takes them over (default: %(default)s)")
    parser.add_argument("--inference-processes", type=int, default=None, metavar="N",
                        help="compute beliefs in N child processes, tables sharded among "
                             "them (0: in the server process; default: 1, or 0 on a single "
                             "core, measured in docs/operations.md; ignored with --mqtt)")
    parser.add_argument("--event-loop", default="auto", choices=["auto", "uvloop", "asyncio"],
                        help="the event loop: uvloop where installed (auto), or asyncio's "
                             "own (default: %(default)s)")
    parser.add_argument("--commit-window-ms", type=float, default=DEFAULT_COMMIT_WINDOW_MS,
                        metavar="MS",
                        help="how long the store waits after a move for other tables' moves "
                             "to share its commit (0: commit at once; default: %(default)s, "
                             "measured in docs/operations.md)")
    parser.add_argument("--stage-clock", action="store_true",
                        help="count the event loop's CPU by stage of a move, for /healthz "
                             "and the load test (server/stages.py; ~2 us a clock read)")
    parser.add_argument("--log-level", default="INFO")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from clients.store_option import cannot_open, shown
    from server.app import (
        DEFAULT_INFERENCE_PROCESSES,
        DominoServer,
        ServerConfig,
        run_server,
        run_until_signalled,
    )
    from server.collector import tune_collector
    from server.logs import configure
    from server.tables.local import TableOptions
    from storage import StorageError

    configure(args.log_level.upper())
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port {args.port}: a port is 0 to 65535")
    if min(args.grace, args.bot_delay, args.hand_pause, args.abandon_after,
           args.close_empty_after) < 0:
        raise CommandError("--grace, --abandon-after, --close-empty-after, --bot-delay and "
                           "--hand-pause must be >= 0")
    if args.mqtt and not args.db.startswith(("postgresql://", "postgres://", "postgresql+")):
        raise CommandError("--mqtt needs a shared PostgreSQL store: --db postgresql://...")
    if args.mqtt:
        private_bus(args.mqtt, args.insecure_bus, "server")
    if not 0 <= args.commit_window_ms <= 1000:
        raise CommandError("--commit-window-ms must be 0 to 1000")
    if args.lease_seconds < 1:
        raise CommandError("--lease-seconds must be >= 1")
    processes = (DEFAULT_INFERENCE_PROCESSES if args.inference_processes is None
                 else args.inference_processes)
    if processes < 0:
        raise CommandError("--inference-processes must be >= 0")
    if args.partitions < 1:
        raise CommandError("--partitions must be >= 1")
    if min(args.tables_per_connection, args.tables_per_address, args.outbox_bytes,
           args.connections_per_address) < 1:
        raise CommandError("--tables-per-connection, --tables-per-address, "
                           "--connections-per-address and --outbox-bytes must be >= 1")
    key_file = None if args.store_key_file.lower() == "none" else args.store_key_file
    config = ServerConfig(
        host=args.host,
        port=args.port,
        db=args.db,
        mqtt=args.mqtt,
        node=args.node,
        topic_prefix=args.topic_prefix,
        lease_seconds=args.lease_seconds,
        partitions=args.partitions,
        inference_processes=processes,
        commit_window=args.commit_window_ms / 1000,
        store_key_file=key_file,
        tables_per_connection=args.tables_per_connection,
        tables_per_address=args.tables_per_address,
        connections_per_address=args.connections_per_address,
        outbox_bytes=args.outbox_bytes,
        tables=TableOptions(
            grace=args.grace, bot_delay=args.bot_delay, hand_pause=args.hand_pause,
            abandon_after=args.abandon_after, close_empty_after=args.close_empty_after,
        ),
    )

    async def opened(server: DominoServer) -> None:
        tune_collector()  # the long-running process only, not servers embedded in tests
        if args.stage_clock:
            from server.stages import CLOCK

            CLOCK.enable()
        if not args.open:
            return
        bots = {seat: "greedy" for seat in ("S", "W", "N", "E") if seat != args.seat}
        table = await server.create_table(bots=bots, advice=True)
        host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
        url = f"http://{host}:{server.port}/#table={table.table_id}&seat={args.seat}"
        print(f"opening {url}", flush=True)
        await asyncio.to_thread(webbrowser.open, url)

    try:
        run_server(run_until_signalled(DominoServer(config), opened), args.event_loop)
    except SQLAlchemyError as error:
        raise CommandError(cannot_open(args.db, error)) from None
    except StorageError as error:  # locked by another server, or not this key's store
        raise CommandError(f"cannot serve {shown(args.db)}: {error}") from None
    except ImportError as error:  # --event-loop uvloop without uvloop installed
        raise CommandError(f"cannot serve: {error}") from None
    except (OSError, ValueError) as error:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {error}") from error
    return 0
