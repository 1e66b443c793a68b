"""`domino-oracle worker`: an inference worker process for the MQTT deployment.

Start as many as the load needs. The tables are split into partitions (64 by default, the
same number on every server and worker); the workers hold partitions by lease in the
PostgreSQL store (server/cluster/partitions.py), spread evenly, and each folds only its
partitions' tables, reading the matches from the same event store as the servers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import signal
import socket

from clients.cli import CommandError
from clients.commands.serve import private_bus


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "worker", help="run an inference worker (beliefs over MQTT, events from the store)"
    )
    parser.add_argument("--mqtt", required=True, help="broker URL, e.g. mqtt://127.0.0.1:1883")
    parser.add_argument("--db", required=True,
                        help="the servers' event store (postgresql://... or a SQLite file)")
    parser.add_argument("--topic-prefix", default="domino/v1",
                        help="MQTT topic prefix shared with the servers (default: %(default)s)")
    parser.add_argument("--partitions", type=int, default=64,
                        help="table partitions; every server and worker must agree "
                             "(default: %(default)s)")
    parser.add_argument("--lease-seconds", type=float, default=5.0,
                        help="how long a silent worker keeps its partitions before the "
                             "others take them over (default: %(default)s)")
    parser.add_argument("--insecure-bus", action="store_true",
                        help="run without a broker login or a signing key (refused "
                             "otherwise): only for a broker nobody else can reach; logged at "
                             "WARNING")
    parser.add_argument("--name", help="client id (default: worker-HOST-PID-RANDOM)")
    parser.add_argument("--log-level", default="INFO")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from clients.store_option import open_store
    from server.beliefs.worker_service import InferenceService, Partitions, SoleWorker
    from server.cluster.partitions import PartitionLeases
    from server.collector import tune_collector
    from server.feeds.topics import Topics
    from server.logs import configure
    from storage import store_url

    configure(args.log_level.upper())
    private_bus(args.mqtt, args.insecure_bus, "worker")
    if args.partitions < 1 or args.lease_seconds <= 0:
        raise CommandError("--partitions must be >= 1 and --lease-seconds > 0")
    name = args.name or f"worker-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        with open_store(args.db, create=True) as store:
            partitions: Partitions
            if store_url(args.db).startswith("postgresql"):
                partitions = await asyncio.to_thread(
                    PartitionLeases, args.db, name, args.lease_seconds, args.partitions)
            else:  # SQLite: no leases, so one worker, holding every partition
                partitions = SoleWorker(args.partitions)
            service = InferenceService(store, args.mqtt,
                                       Topics(args.topic_prefix, args.partitions), name,
                                       partitions)
            tune_collector()  # short pauses, as the server's (server/collector.py)
            await service.run(stop)

    try:
        asyncio.run(main())
    except (ConnectionError, ValueError) as error:
        raise CommandError(str(error)) from error
    return 0
