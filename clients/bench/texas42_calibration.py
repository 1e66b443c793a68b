"""`domino-oracle bench texas42-calibration`: how often the oracle's "makes it" comes true
when the hand is really played, per evaluator; and the seed's validation figures.

For H seeded hands (South bids first and leads): the oracle at N completions (seeded from the
position, as at a table) names its trump; the first M of those same completions are then
played out with that trump by PIMC players at all four seats (games.texas42.playout: each
sees its own hand and the plays only). Printed:
 - the calibration table per evaluator: the predicted P(make L) of each (hand, level L)
   binned by tenths, against the share of its play-outs that reached L (Wilson 95%);
 - deal by deal: of the completions where an evaluator says the bid is made, the share the
   play-out made (and of those it says are set, the share set);
 - the seed's validation: the mean fusion gap P_dd - P_greedy at each level over the hands,
   and the chosen trump's P_dd(make 30) interval width against N (25, 50, ... N).
Printed, never asserted; a run takes minutes (`--hands 2 --playouts 2` to try it).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from games.texas42.dominoes import TILES, Tile, parse_tile
from games.texas42.oracle import COMPLETION_MODEL as UNIFORM
from games.texas42.oracle import (
    N_DEFAULT,
    completions,
    dd_score,
    greedy_score,
    oracle_steps,
    position_seed,
    wilson,
)
from games.texas42.playout import play_out
from games.texas42.scoring import needed
from games.texas42.solver import hands_of
from games.texas42.suits import parse_trump

LEVELS = (30, 31, 32, 34, 36, 42)
EVALUATORS = ("P_dd", "P_greedy")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--playouts", type=int, default=8, help="completions played out per hand")
    parser.add_argument("--n", type=int, default=N_DEFAULT, help="the oracle's completions")
    parser.add_argument("--samples", type=int, default=8, help="PIMC samples per decision")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--hand", help="one hand ('1-1 0-2 ...'): its oracle row and play-outs")
    parser.add_argument("--trump", help="--hand: the trump to play it in (default: the oracle's)")


def hands(count: int, seed: int) -> list[list[Tile]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        tiles = list(TILES)
        rng.shuffle(tiles)
        out.append(sorted(tiles[:7]))
    return out


def one_hand(hand: list[Tile], args: argparse.Namespace, trump: str | None = None
             ) -> dict[str, Any]:
    """The oracle's table (and its widths as N grows) and the play-outs of one hand."""
    steps = list(oracle_steps(hand, "S", n=args.n, every=25, with_leads=False))
    report = steps[-1]
    trump = trump or report["trump"]
    widths = {s["N"]: (lambda c: c[1] - c[0])(s["cells"][trump]["30"]["P_dd_CI"])
              for s in steps}
    deals = completions(hand, "S", args.n,
                        random.Random(position_seed(hand, "S", UNIFORM, args.n)))
    played = []
    for k, deal in enumerate(deals[:args.playouts]):
        masks = hands_of([deal[s] for s in ("S", "W", "N", "E")])
        rng = random.Random(position_seed(hand, "S", f"playout:{k}", args.n))
        played.append(play_out(masks, parse_trump(trump), 0, rng, args.samples))
    return {"hand": report["hand"], "trump": trump, "report": report, "played": played,
            "widths": widths}


def _table(rows: list[tuple[float, int, int]]) -> list[str]:
    """rows: (predicted p, made, played) per (hand, level): binned by tenths."""
    out = []
    for b in range(10):
        inside = [r for r in rows if min(int(r[0] * 10), 9) == b]
        if not inside:
            continue
        made = sum(r[1] for r in inside)
        total = sum(r[2] for r in inside)
        mean = sum(r[0] for r in inside) / len(inside)
        low, high = wilson(made, total)
        out.append(f"    {b / 10:.1f}-{(b + 1) / 10:.1f}  {len(inside):>5}  {mean:>9.2f}  "
                   f"{made / total:>8.2f}  [{low:.2f}, {high:.2f}]  ({made}/{total})")
    return out


def single(args: argparse.Namespace) -> int:
    """--hand: one hand's row (P_dd, P_greedy per level) beside its play-outs' make rates."""
    hand = sorted(parse_tile(t) for t in args.hand.split())
    r = one_hand(hand, args, args.trump)
    cells = r["report"]["cells"][r["trump"]]
    print(f"texas 42, hand {' '.join(r['hand'])} in {r['trump']}, South bids and leads; oracle "
          f"N = {args.n}; {args.playouts} of its completions played out by PIMC at all four "
          f"seats ({args.samples} samples per decision)")
    print(f"  {'bid':>4} {'P_dd':>6} {'P_greedy':>9} {'play-outs':>10}  95% CI")
    for level in LEVELS:
        made = sum(1 for p in r["played"] if p >= needed(level))
        low, high = wilson(made, len(r["played"]))
        print(f"  {level:>4} {cells[str(level)]['P_dd']:>6.3f} "
              f"{cells[str(level)]['P_greedy']:>9.3f} {made / len(r['played']):>10.3f}  "
              f"[{low:.2f}, {high:.2f}]")
    print(f"  play-out scores: {r['played']}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.hand:
        return single(args)
    started = time.perf_counter()
    results = []
    for i, hand in enumerate(hands(args.hands, args.seed)):
        results.append(one_hand(hand, args))
        r = results[-1]
        print(f"  hand {i + 1}: {' '.join(r['hand'])}: trump {r['trump']}, P_dd(30) "
              f"{r['report']['cells'][r['trump']]['30']['P_dd']:.2f}, play-outs "
              f"{r['played']}", flush=True)
    print(f"texas 42 calibration: {args.hands} hands (seed {args.seed}), oracle N = {args.n}, "
          f"{args.playouts} play-outs per hand by PIMC at all four seats ({args.samples} "
          f"samples per decision), South bids and leads; load average "
          f"{os.getloadavg()[0]:.1f}; {time.perf_counter() - started:.0f} s")
    for evaluator in EVALUATORS:
        rows = []
        says_make = [0, 0]  # play-outs made, of the deals the evaluator says are made
        says_set = [0, 0]
        for r in results:
            cells = r["report"]["cells"][r["trump"]]
            for level in LEVELS:
                made = sum(1 for p in r["played"] if p >= needed(level))
                rows.append((cells[str(level)][evaluator], made, len(r["played"])))
        for r in results:
            hand = [t for t in TILES if str(t) in r["hand"]]
            deals = completions(hand, "S", args.n, random.Random(
                position_seed(hand, "S", UNIFORM, args.n)))[:args.playouts]
            for deal, points in zip(deals, r["played"], strict=True):
                trump = parse_trump(r["trump"])
                value = (dd_score(deal, trump, "S", with_leads=False)[0]
                         if evaluator == "P_dd" else greedy_score(deal, trump, "S"))
                tally = says_make if value >= 30 else says_set
                tally[0] += (points >= 30) == (value >= 30)
                tally[1] += 1
        print(f"  {evaluator}: predicted P(make L), L in {LEVELS}, per (hand, level), "
              "binned; observed: share of play-outs reaching L")
        print(f"    {'bin':8}  {'cells':>5}  {'predicted':>9}  {'observed':>8}  95% CI")
        for line in _table(rows):
            print(line)
        print(f"    deal by deal at 30: says made -> made in play {says_make[0]}/{says_make[1]}"
              f"; says set -> set in play {says_set[0]}/{says_set[1]}")
    print("  validation: mean fusion gap P_dd - P_greedy (the chosen trump) by level:")
    print("    " + "  ".join(
        f"{level}: {sum(r['report']['cells'][r['trump']][str(level)]['fusion_gap'] for r in results) / len(results):.2f}"  # noqa: E501
        for level in LEVELS))
    ns = sorted(results[0]["widths"])
    print("  validation: the chosen trump's P_dd(make 30) 95% interval width against N "
          "(mean over hands):")
    print("    " + "  ".join(
        f"N={n}: {sum(r['widths'][n] for r in results) / len(results):.3f}" for n in ns))
    return 0
