"""Clue's belief per update as disjunctions accumulate: `python -m clients.bench.clue`.

Plays seeded matches of a Clue variant with the game's own bots (games.play), then folds each
audience's view (every seat and the spectator) into a fresh belief, timing apply +
snapshot_dict per event in CPU time, as the server's belief workers run them. Rows group the
updates by how many disjunctions are open after simplification ("showed one of three",
"not these three"), with the share that fell back to the labelled sampling estimate.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from clients.cli import CommandError
from clients.table_options import add_table_options, seats_and_options
from games.clue.belief import WORK_BUDGET, ClueBelief
from games.clue.game import CLUE
from games.interface import SPECTATOR
from games.play import play_match
from inference.counting import clear_caches


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="clue")
    parser.add_argument("--bot", default="infomax", help="random or infomax, in every seat")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    add_table_options(parser)  # --players N: clue at 3-6
    parser.add_argument("--budgets", metavar="N,N,...",
                        help="instead: the spectator's updates under each work budget "
                             "(transitions), on the same matches, budgets alternated per "
                             "match and the DP "
                             "caches emptied before each pass (side by side, one run)")
    args = parser.parse_args(argv)
    try:
        seats, options = seats_and_options(args, CLUE, args.variant)
    except CommandError as error:
        parser.error(str(error))
    bot = CLUE.bots()[args.bot]
    if args.budgets:
        return compare_budgets(args, seats, options,
                               [int(b) for b in args.budgets.split(",") if b.strip()])
    rows: dict[int, list[float]] = defaultdict(list)
    estimates: dict[int, int] = defaultdict(int)
    terms: dict[int, int] = defaultdict(int)
    events_total = 0
    for m in range(args.matches):
        events = play_match(CLUE, args.variant, dict.fromkeys(seats, bot),
                            random.Random(f"bench:{args.seed}:{m}"), options)
        events_total += len(events)
        for audience in (*seats, SPECTATOR):
            belief = ClueBelief(audience)
            for event in events:
                started = time.thread_time()
                belief.apply(CLUE.view(event, audience))
                snapshot = belief.snapshot_dict()
                spent = time.thread_time() - started
                k = int(snapshot.get("open_disjunctions", 0))
                rows[k].append(spent)
                estimates[k] += snapshot.get("status") == "estimate"
                terms[k] = max(terms[k], int(snapshot.get("terms", 0)))
    every = [t for ts in rows.values() for t in ts]
    print(f"clue belief per update: {args.variant} ({len(seats)} players), "
          f"{args.matches} matches of {args.bot} bots "
          f"({events_total} events), every seat and the spectator, CPU ms")
    print(f"{'open disjunctions':>18} {'updates':>8} {'p50':>8} {'p99':>8} {'max':>8} "
          f"{'estimates':>10} {'max work':>14}")
    for k in sorted(rows):
        ts = rows[k]
        print(f"{k:>18} {len(ts):>8} {1000 * _pct(ts, .5):>8.2f} {1000 * _pct(ts, .99):>8.1f} "
              f"{1000 * max(ts):>8.1f} {estimates[k]:>10} {terms[k]:>14}")
    print(f"{'all':>18} {len(every):>8} {1000 * _pct(every, .5):>8.2f} "
          f"{1000 * _pct(every, .99):>8.1f} {1000 * max(every):>8.1f} "
          f"{sum(estimates.values()):>10}")
    return 0


def compare_budgets(args: argparse.Namespace, seats: tuple[str, ...], options: dict,
                    budgets: list[int]) -> int:
    """The spectator's update times and estimates under each budget (the server runs the
    belief's default, games.clue.belief.WORK_BUDGET)."""
    bot = CLUE.bots()[args.bot]
    times: dict[int, list[float]] = {b: [] for b in budgets}
    estimates = dict.fromkeys(budgets, 0)
    for m in range(args.matches):
        events = play_match(CLUE, args.variant, dict.fromkeys(seats, bot),
                            random.Random(f"bench:{args.seed}:{m}"), options)
        for budget in budgets if m % 2 == 0 else budgets[::-1]:
            clear_caches()
            belief = ClueBelief(SPECTATOR, budget)
            for event in events:
                started = time.thread_time()
                belief.apply(CLUE.view(event, SPECTATOR))
                snapshot = belief.snapshot_dict()
                times[budget].append(time.thread_time() - started)
                estimates[budget] += snapshot.get("status") == "estimate"
    print(f"clue spectator per update by work budget (transitions): {args.variant} ({len(seats)} "
          f"players), {args.matches} matches of {args.bot} bots, CPU ms (the server's "
          f"budget: {WORK_BUDGET})")
    print(f"{'budget':>7} {'updates':>8} {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8} "
          f"{'total s':>8} {'estimates':>10}")
    for budget in budgets:
        ts = times[budget]
        print(f"{budget:>7} {len(ts):>8} {1000 * _pct(ts, .5):>8.1f} {1000 * _pct(ts, .9):>8.0f} "
              f"{1000 * _pct(ts, .99):>8.0f} {1000 * max(ts):>8.0f} {sum(ts):>8.1f} "
              f"{estimates[budget]:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
