"""`domino-oracle bench texas42`: Texas 42's compiled solver against the pure-Python reference
(and, with `--against REV`, against the compiled solver of an earlier commit) on the same
deals in one run, and the bidding oracle at N = 150 for every trump.

Seeded random whole deals, a random trump each (follow-me included), a random leader. Each
deal is solved from scratch by the reference (games.texas42.solver, full window) and by the
compiled kernel (games.texas42.kernel: the same full window, and `mtdf` from a first guess of
21: MTD(f)'s null windows in kernels before 76265a4, a null window and then one search within
the bounds it left since), the solvers taking turns deal by deal; every value must be
identical (a mismatch is printed and the command fails). `--against REV`:
games/texas42/kernel.py as it was at REV (read with `git show`, compiled once into a cache
beside a copy of it in the temporary directory) solves the same deals the same two ways, and
the oracle's work on the first hand is timed with it too (`compare_oracle`: today's oracle
loop against that kernel doing the work as the oracle did then, every figure and stability
flag compared). Times are CPU time of this thread (a shared machine changes them less than
wall time); the ratios are what compare, all measured side by side. The kernels are compiled
(or loaded from their cache) before timing. `--oracle H`: the bidding oracle
(games.texas42.oracle) for H seeded hands at N = 150, all nine trumps, with and without the
opening-lead stability test, CPU seconds per hand; `--audit C` adds the adversarial audit
(games.texas42.audit) of each hand's chosen trump at a bid of 30. Times are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from games.texas42.audit import audit
from games.texas42.dominoes import TILES, Tile, parse_tile
from games.texas42.greedy import choose_bid
from games.texas42.kernel import FastSolver
from games.texas42.models import conditioned_completions
from games.texas42.oracle import (
    COMPLETION_MODEL,
    N_DEFAULT,
    bidding_oracle,
    completions,
    position_seed,
)
from games.texas42.solver import Hands, Solver, bits, four, hands_of
from games.texas42.suits import TRUMPS, parse_trump

WALT_HAND = "1-1 0-2 0-5 2-5 3-5 1-6 4-6"
"""A hand from the issue (its public bid curve is in docs/games/texas42.md)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=int, default=100,
                        help="whole deals solved by both (1000 for the full check)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--oracle", type=int, default=1, metavar="H",
                        help="also time the oracle at N for H hands (the first is WALT_HAND)")
    parser.add_argument("--n", type=int, default=N_DEFAULT, help="the oracle's completions")
    parser.add_argument("--sensitivity", type=int, default=0, metavar="H",
                        help="also compare the uniform and bids:greedy completion models on H "
                             "seeded deals where South bids last after greedy bidders")
    parser.add_argument("--against", metavar="REV",
                        help="also time games/texas42/kernel.py as it was at this git commit")
    parser.add_argument("--audit", type=int, default=0, metavar="C",
                        help="also audit the oracle hands' chosen trump at 30 over C of their "
                             "completions (games.texas42.audit)")


def deals(count: int, seed: int) -> list[tuple[Hands, int, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        tiles = list(TILES)
        rng.shuffle(tiles)
        hands = hands_of([tiles[k * 7:(k + 1) * 7] for k in range(4)])
        out.append((hands, rng.choice(TRUMPS), rng.randrange(4)))
    return out


def oracle_hands(count: int, seed: int) -> list[list[Tile]]:
    rng = random.Random(seed + 7)
    out = [[parse_tile(t) for t in WALT_HAND.split()]]
    while len(out) < count:
        tiles = list(TILES)
        rng.shuffle(tiles)
        out.append(sorted(tiles[:7]))
    return out[:count]


def kernel_at(rev: str) -> ModuleType:
    """games/texas42/kernel.py as it was at git commit `rev`, imported from a copy in the
    temporary directory (a fixed path per commit, so numba's cache is reused across runs)."""
    root = Path(__file__).resolve().parents[2]
    text = subprocess.run(["git", "show", f"{rev}:games/texas42/kernel.py"], cwd=root,
                          capture_output=True, text=True, check=True).stdout
    name = "texas42_kernel_" + re.sub(r"\W", "_", rev)
    folder = Path(tempfile.gettempdir()) / name
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache finds the module's globals by its name
    spec.loader.exec_module(module)
    return module


def evaluate_one_by_one(kernel: Any, hands: Hands, leader: int
                        ) -> dict[int, tuple[int, int, int]]:
    """The oracle's figures per trump as it computed them before evaluate_deal: a greedy-floor
    solver, MTD(f) from the floor and a null window per opening lead, one call at a time."""
    out = {}
    ours = leader % 2 == 0
    for trump in TRUMPS:
        floor = kernel.FastSolver(trump, fixed_team=leader % 2).value(hands, leader)
        search = kernel.FastSolver(trump)
        if ours:
            ns = search.mtdf(hands, leader, floor, low=floor)
        else:
            ns = search.mtdf(hands, leader, floor, high=floor)
        leads = 0
        for tile in bits(hands[leader]):
            after = list(hands)
            after[leader] ^= 1 << tile
            lo, hi = (ns - 1, ns) if ours else (ns, ns + 1)
            if search.bounded(four(after), leader, ((leader, tile),), lo, hi) == ns:
                leads |= 1 << tile
        out[trump] = (floor if ours else 42 - floor, ns if ours else 42 - ns, leads)
    return out


def run(args: argparse.Namespace) -> int:
    chosen = deals(args.deals, args.seed)
    kernels: dict[str, Any] = {"kernel": FastSolver}
    if args.against:
        kernels[f"kernel at {args.against}"] = kernel_at(args.against).FastSolver
    for solver in kernels.values():  # compile or load each kernel's calls first
        solver(0).value(chosen[0][0], chosen[0][2])
        solver(0).mtdf(chosen[0][0], chosen[0][2], 21)
    print(f"texas 42 solvers: {args.deals} whole deals (seed {args.seed}; random trump of all "
          f"nine, random leader); load average {os.getloadavg()[0]:.1f}; CPU time")
    names = ["reference (pure Python, full window)"]
    for name in kernels:
        names += [f"{name} (numba, full window)", f"{name} (numba, mtdf from 21)"]
    cpu = dict.fromkeys(names, 0.0)
    nodes = dict.fromkeys(names, 0)
    values: dict[str, list[int]] = {name: [] for name in names}
    for i, (hands, trump, leader) in enumerate(chosen):
        turns = [(names[0], None, False)]
        for k, solver in enumerate(kernels.values()):
            turns += [(names[1 + 2 * k], solver, False), (names[2 + 2 * k], solver, True)]
        for name, solver, mtdf in turns[i % len(turns):] + turns[:i % len(turns)]:
            start = time.thread_time()
            if solver is None:
                reference = Solver(trump)
                value = reference.value(hands, leader)
                searched = reference.nodes
            else:
                fast = solver(trump)
                value = fast.mtdf(hands, leader, 21) if mtdf else fast.value(hands, leader)
                searched = fast.nodes
            cpu[name] += time.thread_time() - start
            nodes[name] += searched
            values[name].append(value)
    wrong = [(i, [values[name][i] for name in names]) for i in range(len(chosen))
             if len({values[name][i] for name in names}) > 1]
    n = len(chosen)
    before = names[3] if args.against else None
    print(f"  {'solver':52} {'solves/s':>9} {'ms/solve':>9} {'plays/solve':>11} {'x ref':>7}"
          + (f" {'x before':>8}" if before else ""))
    for name in names:
        ratio = ""
        if before:
            twin = name.replace("kernel (", f"kernel at {args.against} (")
            if name.startswith("kernel (") and twin in cpu:
                ratio = f" {cpu[twin] / cpu[name]:>7.2f}x"
        print(f"  {name:52} {n / cpu[name]:>9,.1f} {1000 * cpu[name] / n:>9.2f} "
              f"{nodes[name] / n:>11,.0f} {cpu[names[0]] / cpu[name]:>6.1f}x{ratio}")
    print(f"  identical values: {n - len(wrong)} of {n} deals"
          + ("" if not wrong else f"; MISMATCHES (deal, values in the order above): "
                                  f"{wrong[:10]}"))
    if args.against and args.oracle and not compare_oracle(args, kernel_at(args.against)):
        wrong.append((-1, []))
    for hand in oracle_hands(args.oracle, args.seed):
        times = {}
        for leads in (False, True):
            start = time.thread_time()
            report = bidding_oracle(hand, "S", n=args.n, with_leads=leads)
            times[leads] = time.thread_time() - start
        print(f"  oracle N = {report['N']}, 9 trumps, hand {' '.join(report['hand'])}: "
              f"{times[False]:.2f} s CPU ({times[False] / (9 * args.n) * 1000:.2f} ms per "
              f"completion x trump: greedy floor + double-dummy); with the opening-lead test "
              f"{times[True]:.2f} s; names {report['trump']} (mean "
              f"{report['max_trump_E_score']:.1f})")
        if args.audit:
            trump = parse_trump(report["trump"])
            drawn = completions(hand, "S", args.audit, random.Random(position_seed(
                hand, "S", COMPLETION_MODEL, args.n)))
            start = time.thread_time()
            found = audit(drawn, trump, "S", 30, random.Random(args.seed))
            print(f"    audit at 30 in {report['trump']} over {args.audit} completions: "
                  f"{found['fragility']:.0%} flip make/set under one of {found['tries']} "
                  f"single exchanges; descents from 4 completions: "
                  f"{found['start_scores']} -> {found['worst_scores']} "
                  f"({time.thread_time() - start:.1f} s CPU)")
    if args.sensitivity:
        sensitivity(args)
    return 1 if wrong else 0


def sensitivity(args: argparse.Namespace) -> None:
    """South, the dealer, bids last after W, N and E bid as the greedy bidder: its oracle under
    `uniform` (the bids ignored) and `bids:greedy` (completions that agree with them)."""
    rng = random.Random(args.seed + 11)
    n = min(args.n, 60)
    print(f"  completion-model sensitivity: South bids last after greedy W, N, E; N = {n}")
    moved = 0
    for _ in range(args.sensitivity):
        tiles = list(TILES)
        rng.shuffle(tiles)
        deal = {s: tuple(sorted(tiles[k * 7:(k + 1) * 7])) for k, s in enumerate("SWNE")}
        bids, high = [], 0
        for seat in "WNE":
            bid = choose_bid(deal[seat], high, False)
            bids.append((seat, bid))
            high = max(high, bid)
        hand = list(deal["S"])
        uniform = bidding_oracle(hand, "S", n=n, with_leads=False)
        label = f"bids:greedy {bids}"
        drawn = conditioned_completions(hand, "S", bids, n, random.Random(
            position_seed(hand, "S", label, n)))
        conditioned = bidding_oracle(hand, "S", n=n, deals=drawn, model=label,
                                     with_leads=False)
        moved += uniform["trump"] != conditioned["trump"]
        words = ", ".join(f"{s} {b or 'pass'}" for s, b in bids)
        print(f"    {' '.join(uniform['hand'])} after {words}: uniform names "
              f"{uniform['trump']} (P_dd(30) "
              f"{uniform['cells'][uniform['trump']]['30']['P_dd']:.2f}, mean "
              f"{uniform['max_trump_E_score']:.1f}); bids:greedy names {conditioned['trump']} "
              f"(P_dd(30) {conditioned['cells'][conditioned['trump']]['30']['P_dd']:.2f}, "
              f"mean {conditioned['max_trump_E_score']:.1f})")
    print(f"    the named trump moved in {moved} of {args.sensitivity} hands")


def compare_oracle(args: argparse.Namespace, kernel: Any) -> bool:
    """The oracle's work (greedy floor, double-dummy value, opening-lead test; every trump) on
    the first oracle hand's N completions, taking turns completion by completion: today's
    (games.texas42.oracle.evaluated: MTD(f) from the floor plus the mean gap so far, only the
    leads that can still change the stability flag tested) against the kernel at REV doing it
    as the oracle did then (its evaluate_deal, every lead tested, MTD(f) from the floor; one
    solver call at a time if it has none). The floors and values must be equal completion by
    completion, and the stability flag of every trump at every count."""
    from games.texas42.kernel import evaluate_deal
    from games.texas42.oracle import evaluated, stable

    hand = oracle_hands(1, args.seed)[0]
    drawn = completions(hand, "S", args.n, random.Random(position_seed(
        hand, "S", COMPLETION_MODEL, args.n)))
    warm = hands_of([drawn[0][s] for s in ("S", "W", "N", "E")])
    evaluate_deal(warm, 0, TRUMPS[:1])  # compile or load both kernels' calls before timing
    if hasattr(kernel, "evaluate_deal"):
        kernel.evaluate_deal(warm, 0, TRUMPS[:1])
    cpu = [0.0, 0.0, 0.0]
    stream = evaluated(drawn, TRUMPS, "S")
    before: dict[int, list[tuple[int, int, frozenset[int]]]] = {t: [] for t in TRUMPS}
    now: dict[int, Any] = {}
    same = 0
    for i, deal in enumerate(drawn):
        hands = hands_of([deal[s] for s in ("S", "W", "N", "E")])
        found: list[dict[int, tuple[int, int, int]]] = [{}, {}, {}]
        for which in ((0, 1, 2) if i % 2 else (2, 1, 0)):
            start = time.thread_time()
            if which == 0:
                now = next(stream)
            elif which == 1:
                found[1] = evaluate_deal(hands, 0, TRUMPS)
            elif hasattr(kernel, "evaluate_deal"):
                found[2] = kernel.evaluate_deal(hands, 0, TRUMPS)
            else:
                found[2] = evaluate_one_by_one(kernel, hands, 0)
            cpu[which] += time.thread_time() - start
        for t in TRUMPS:
            before[t].append((found[2][t][0], found[2][t][1], frozenset(bits(found[2][t][2]))))
        same += all(found[1][t] == found[2][t] and (now[t].greedy[-1], now[t].dd[-1])
                    == found[2][t][:2] for t in TRUMPS)
    flags = all(stable(now[t].leads[:d]) == stable([x[2] for x in before[t][:d]])
                for t in TRUMPS for d in range(1, len(drawn) + 1))
    print(f"  oracle work, N = {args.n}, 9 trumps, hand {' '.join(map(str, hand))}: today's "
          f"oracle {cpu[0]:.2f} s CPU; today's kernel doing it as before (evaluate_deal, every "
          f"lead, MTD(f) from the floor) {cpu[1]:.2f} s; the kernel at {args.against} "
          f"{cpu[2]:.2f} s ({cpu[2] / cpu[0]:.2f}x today's oracle, {cpu[2] / cpu[1]:.2f}x "
          f"today's kernel); equal floors and values on {same} of {len(drawn)} completions; "
          f"stability flags {'equal' if flags else 'DIFFERENT'} at every count")
    return same == len(drawn) and flags
