"""`bench store`: the event store's durable throughput, then the time to fold a full match.

The fold is the other half of "events are the only truth": every replay, recovery and audience
view rebuilds state by folding, so its cost per match matters as much as the write rate.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.dominoes.rules import fold
from games.dominoes.selfplay import random_match_events
from storage import bench as store_bench


def add_arguments(parser: argparse.ArgumentParser) -> None:
    store_bench.add_arguments(parser)
    parser.add_argument("--fold-matches", type=int, default=200,
                        help="random 100-point matches to fold per variant")


def run(args: argparse.Namespace) -> int:
    code = store_bench.run(args)
    if args.fold_matches <= 0:
        return code
    print()
    print(f"{'variant':<15} {'matches':>8} {'events/match':>13} {'fold p50 ms':>12} "
          f"{'fold p99 ms':>12} {'fold max ms':>12}")
    for variant in ("partnership-6", "partnership-9"):
        rng = random.Random(2026)
        matches = [random_match_events(rng, variant) for _ in range(args.fold_matches)]
        times = []
        for events in matches:
            started = time.perf_counter()
            fold(events)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        mean_events = statistics.mean(len(m) for m in matches)
        print(f"{variant:<15} {len(matches):>8} {mean_events:>13.0f} "
              f"{statistics.median(times):>12.2f} {p99:>12.2f} {times[-1]:>12.2f}")
    return code
