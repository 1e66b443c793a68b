"""`domino-oracle loadtest`: tables of bot clients over real sockets; prints the figures.

`--tables` and `--workers` take comma lists, and `--both-modes` runs each table count in the
one-process mode too: every combination runs one after another in this one command (each
with a server of its own, a fresh schema and topic prefix), so figures taken on a noisy
machine can be read side by side, as ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from clients.cli import CommandError
from clients.table_options import add_table_options, chosen_options


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected positive numbers: {text!r}")
    return counts


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "loadtest", help="play N tables flat out over WebSockets and print moves/s and latencies"
    )
    parser.add_argument("--url", help="ws://HOST:PORT/ws of a running server "
                                      "(default: start one on a free port with a temp db)")
    parser.add_argument("--variant", default="partnership-6",
                        help="any registered game's variant (default: %(default)s)")
    add_table_options(parser)  # e.g. --variant clue --players 5
    parser.add_argument("--tables", type=_counts, default=[50],
                        help="tables (a comma list runs each in turn: 10,50)")
    parser.add_argument("--spectators", type=int, default=0, help="spectators per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--mqtt", metavar="URL",
                        help="without --url: start the server in MQTT mode with this broker, "
                             "plus --workers inference worker processes (needs --db)")
    parser.add_argument("--db", help="with --mqtt: the PostgreSQL database URL (each run "
                                     "gets a fresh schema in it, dropped afterwards)")
    parser.add_argument("--workers", type=_counts, default=[2],
                        help="with --mqtt: inference worker processes (a comma list runs "
                             "each in turn: 1,2,4; default: 2)")
    parser.add_argument("--pace", type=float, metavar="SECONDS",
                        help="human pace: each seat thinks an exponential time with this "
                             "mean (seeded); tables ramp up from --tables until play -> ack "
                             "p99 > 50 ms or play -> beliefs p99 > 100 ms; reports the most "
                             "tables and connections held")
    parser.add_argument("--ramp", type=float, default=1.5,
                        help="with --pace: each step multiplies the tables by this")
    parser.add_argument("--max-tables", type=int, default=2500,
                        help="with --pace: stop ramping here (default: %(default)s)")
    parser.add_argument("--window", type=float, default=15.0,
                        help="with --pace: seconds measured per step (default: %(default)s)")
    parser.add_argument("--settle", type=float, metavar="SECONDS",
                        help="with --pace: seconds after a step's tables are seated before "
                             "its window (default: two think times, 2 s to --window)")
    parser.add_argument("--generator-processes", type=int, default=1, metavar="K",
                        help="with --pace: play the tables in K load generator processes, "
                             "each with its own event loop (latencies merged exactly, their "
                             "CPU summed; default: %(default)s, this process)")
    parser.add_argument("--stages", action="store_true",
                        help="without --url: start the server with --stage-clock, and report "
                             "its CPU per move by stage (a server given by --url reports "
                             "them when it was started so)")
    parser.add_argument("--inference-processes", type=int, metavar="N",
                        help="without --url: the server's --inference-processes")
    parser.add_argument("--both-modes", action="store_true",
                        help="with --mqtt: run each table count in the one-process mode too")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from clients.python.loadtest import Deployment, local_server, report, run_load
    from clients.python.loadtest_paced import paced_report, run_paced
    from games.interface import UnknownGame
    from games.registry import GAMES

    if args.seconds <= 0 or args.spectators < 0:
        raise CommandError("--seconds must be > 0, --spectators >= 0")
    try:
        options = chosen_options(args, GAMES.variant(args.variant))
    except UnknownGame as error:
        raise CommandError(str(error)) from None
    if args.mqtt and (not args.db or args.url):
        raise CommandError("--mqtt needs --db postgresql://... and no --url")
    if args.both_modes and not args.mqtt:
        raise CommandError("--both-modes needs --mqtt and --db")
    if args.pace is not None and (args.pace <= 0 or args.ramp <= 1 or args.window <= 0
                                  or args.max_tables < 1):
        raise CommandError("--pace and --window must be > 0, --ramp > 1, --max-tables >= 1")
    if args.generator_processes < 1:
        raise CommandError("--generator-processes must be >= 1")
    if args.url and len(args.tables) > 1:
        raise CommandError("--url takes one --tables count")

    plans: list[tuple[int, Deployment | None]] = []
    for tables in args.tables:
        if not args.mqtt or args.both_modes:
            plans.append((tables, None))
        if args.mqtt:
            plans += [(tables, Deployment(args.mqtt, args.db, workers))
                      for workers in args.workers]

    def go(url: str, tables: int, worker_pids: list[int] | None = None,
           server_pid: int | None = None) -> dict:
        if args.pace is not None:
            return asyncio.run(run_paced(
                url, args.pace, start_tables=tables, ramp=args.ramp,
                max_tables=args.max_tables, window=args.window, spectators=args.spectators,
                variant=args.variant, worker_pids=worker_pids, options=options,
                settle=args.settle, generator_processes=args.generator_processes,
                server_pid=server_pid))
        return asyncio.run(run_load(url, tables, args.spectators, args.seconds,
                                    variant=args.variant, options=options,
                                    server_pid=server_pid))

    describe = paced_report if args.pace is not None else report

    results: list[dict[str, Any]] = []
    try:
        if args.url:
            results.append(go(args.url, args.tables[0]))
        else:
            for tables, deployment in plans:
                workers: dict[str, Any] = {}
                serve_args = ["--stage-clock"] if args.stages else []
                if args.inference_processes is not None:
                    serve_args += ["--inference-processes", str(args.inference_processes)]
                with local_server(deployment, workers, serve_args) as url:
                    figures = go(url, tables, workers.pop("pids", None),
                                 workers.pop("server_pid", None))
                figures["mode"] = ("one-process" if deployment is None
                                   else f"mqtt+{deployment.workers}w")
                if deployment is not None:
                    figures.update(workers)
                    events = figures.get("server_events") or 0
                    figures["worker_cpu_ms_per_event"] = (
                        round(workers["worker_cpu_s"] * 1000 / events, 3) if events else None)
                    figures["worker_folds_per_event"] = (
                        round(workers["worker_folds"] / events, 3) if events else None)
                results.append(figures)
                if not args.json and len(plans) > 1:
                    print(f"[{figures['mode']}] {describe(figures)}\n", flush=True)
    except (OSError, RuntimeError) as error:
        raise CommandError(str(error)) from error
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))
    elif len(results) == 1:
        print(describe(results[0]))
    elif args.pace is None:
        print(side_by_side(results))
    return 0


def side_by_side(results: list[dict[str, Any]]) -> str:
    """One line per run: the figures to compare, in one table."""
    head = (f"{'mode':<14}{'tables':>7}{'moves/s':>9}{'ack p50':>9}{'ack p99':>9}"
            f"{'bel p50':>9}{'bel p99':>9}{'missing':>8}{'srv ms/mv':>10}{'wrk ms/ev':>10}"
            f"{'folds/ev':>9}")
    lines = [head]
    for f in results:
        ack, bel = f["play_to_ack_ms"], f["play_to_all_beliefs_ms"]
        lines.append(
            f"{f.get('mode', '-'):<14}{f['tables']:>7}{f['moves_per_s']:>9}{ack['p50']:>9}"
            f"{ack['p99']:>9}{bel['p50']:>9}{bel['p99']:>9}{f['beliefs_never_arrived']:>8}"
            f"{f['server_cpu_ms_per_move'] or '-':>10}"
            f"{f.get('worker_cpu_ms_per_event') or '-':>10}"
            f"{f.get('worker_folds_per_event') or '-':>9}")
    return "\n".join(lines)
