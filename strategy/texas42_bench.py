"""`domino-oracle bench solver42`: the speed of Texas 42's perfect-information solver and of
the bidding oracle built on it.

Seeded random deals, a random trump each (follow-me included), the bidder's seat leading:
each whole 7-trick hand is solved from scratch (a fresh table of bounds). Printed: nodes
(plays searched) per second over all solves, and the full-solve time's p50 / p95 / max, in
CPU time of the thread (so a loaded machine changes them less than wall time would). With
`--oracle N`: the bidding oracle's CPU time per completion (every trump, the greedy lower
bracket and the opening-lead stability included) over N completions of seeded hands.

`--against TREE` runs the same measurements on another checkout of the project (e.g. the
commit before a change, `git archive <rev> | tar -x -C TREE`) and on this one, alternating
in subprocesses round by round, and prints the ratios: the machine is shared, so only figures
taken side by side compare. Times are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from games.texas42.dominoes import SEATS, TILES
from games.texas42.solver import Solver, mask_of
from games.texas42.suits import TRUMPS, trump_name

HERE = Path(__file__).resolve().parent.parent


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=int, default=40, help="whole hands to solve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--oracle", type=int, default=0, metavar="N",
                        help="also time the bidding oracle over N completions")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="another checkout: measure it and this one side by side")
    parser.add_argument("--rounds", type=int, default=2, help="--against: alternations")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(deals: int, seed: int, oracle: int) -> dict[str, Any]:
    """The figures of this checkout (only APIs older checkouts have too)."""
    rng = random.Random(seed)
    times: list[float] = []
    nodes = 0
    for _ in range(deals):
        tiles = list(TILES)
        rng.shuffle(tiles)
        hands = tuple(mask_of(tiles[k * 7:(k + 1) * 7]) for k in range(4))
        trump, leader = rng.choice(TRUMPS), rng.randrange(4)
        solver = Solver(trump)
        start = time.thread_time()
        solver.value(hands, leader)  # type: ignore[arg-type]
        times.append(time.thread_time() - start)
        nodes += solver.nodes
    out: dict[str, Any] = {"deals": deals, "nodes": nodes, "cpu": sum(times),
                           "p50": percentile(times, 0.5), "p95": percentile(times, 0.95),
                           "max": max(times), "mean": statistics.mean(times)}
    if oracle:
        from games.texas42.oracle import bidding_oracle

        hand_rng = random.Random(seed + 7)
        done, cpu = 0, 0.0
        while done < oracle:
            tiles = list(TILES)
            hand_rng.shuffle(tiles)
            n = min(4, oracle - done)
            start = time.thread_time()
            bidding_oracle(sorted(tiles[:7]), "S", random.Random(seed + done), batch=n,
                           n_min=n, n_max=n)
            cpu += time.thread_time() - start
            done += n
        out["oracle_completions"] = done
        out["oracle_cpu_per_completion"] = cpu / done
    return out


def _print(figures: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"texas 42 solver: {figures['deals']} whole hands (seed {args.seed}, random trump of "
          f"{', '.join(trump_name(t) for t in TRUMPS)}; leader random of {', '.join(SEATS)})")
    print(f"  positions/s      {figures['nodes'] / figures['cpu']:,.0f}  ({figures['nodes']:,} "
          f"plays searched in {figures['cpu']:.2f} s of CPU)")
    print(f"  full solve p50   {figures['p50'] * 1000:.0f} ms")
    print(f"  full solve p95   {figures['p95'] * 1000:.0f} ms")
    print(f"  full solve max   {figures['max'] * 1000:.0f} ms;  mean "
          f"{figures['mean'] * 1000:.0f} ms")
    if "oracle_cpu_per_completion" in figures:
        print(f"  oracle           {figures['oracle_cpu_per_completion']:.2f} s of CPU per "
              f"completion (9 trumps, lower bracket, leads; "
              f"{figures['oracle_completions']} completions)")


def _in_tree(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    """measure() run by `tree`'s own code, in a subprocess."""
    code = ("import importlib.util, json, sys; sys.path.insert(0, '.'); "
            # this file's measure(), with `tree`'s games package under it
            f"spec = importlib.util.spec_from_file_location('bench42', {__file__!r}); "
            "bench = importlib.util.module_from_spec(spec); sys.modules['bench42'] = bench; "
            "spec.loader.exec_module(bench); "
            f"print(json.dumps(bench.measure({args.deals}, {args.seed}, {args.oracle})))")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def side_by_side(args: argparse.Namespace) -> int:
    trees = {"other": args.against.resolve(), "this": HERE}
    figures: dict[str, list[dict[str, Any]]] = {"other": [], "this": []}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            figures[name].append(_in_tree(tree, args))
    print(f"texas 42 solver side by side: {args.deals} whole hands (seed {args.seed}), "
          f"{args.rounds} alternating rounds; other = {trees['other']}, this = {trees['this']}")
    keys = ["nodes", "cpu", "p50", "p95"] + (["oracle_cpu_per_completion"] if args.oracle else [])
    print(f"  {'figure':28} {'other':>12} {'this':>12} {'other/this':>11}")
    for key in keys:
        a = statistics.median(f[key] for f in figures["other"])
        b = statistics.median(f[key] for f in figures["this"])
        unit = "" if key == "nodes" else " s"
        print(f"  {key:28} {a:>10,.3f}{unit:2} {b:>10,.3f}{unit:2} {a / b:>10.2f}x")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.against is not None:
        return side_by_side(args)
    _print(measure(args.deals, args.seed, args.oracle), args)
    return 0
