"""`domino-oracle bench solver42`: the speed of Texas 42's perfect-information solver.

Seeded random deals, a random trump each (follow-me included), the bidder's seat leading:
each whole 7-trick hand is solved from scratch (a fresh table of bounds). Printed: nodes
(plays searched) per second over all solves, and the full-solve time's p50 / p95 / max, in
CPU time of the thread (so a loaded machine changes them less than wall time would).
Times are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.texas42.dominoes import SEATS, TILES
from games.texas42.solver import Solver, mask_of
from games.texas42.suits import TRUMPS, trump_name


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=int, default=40, help="whole hands to solve")
    parser.add_argument("--seed", type=int, default=1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    times: list[float] = []
    nodes = 0
    for _ in range(args.deals):
        tiles = list(TILES)
        rng.shuffle(tiles)
        hands = tuple(mask_of(tiles[k * 7:(k + 1) * 7]) for k in range(4))
        trump, leader = rng.choice(TRUMPS), rng.randrange(4)
        solver = Solver(trump)
        start = time.thread_time()
        solver.value(hands, leader)  # type: ignore[arg-type]
        times.append(time.thread_time() - start)
        nodes += solver.nodes
    total = sum(times)
    print(f"texas 42 solver: {args.deals} whole hands (seed {args.seed}, random trump of "
          f"{', '.join(trump_name(t) for t in TRUMPS)}; leader random of {', '.join(SEATS)})")
    print(f"  positions/s      {nodes / total:,.0f}  ({nodes:,} plays searched in "
          f"{total:.2f} s of CPU)")
    print(f"  full solve p50   {percentile(times, 0.5) * 1000:.0f} ms")
    print(f"  full solve p95   {percentile(times, 0.95) * 1000:.0f} ms")
    print(f"  full solve max   {max(times) * 1000:.0f} ms;  mean "
          f"{statistics.mean(times) * 1000:.0f} ms")
    return 0
