"""What a dominoes pimc decision costs under a node budget: CPU and wall time per decision and
the solver's nodes per CPU second, on hands' early plays (no deal solved exactly there, so
the whole budget is spent). The figures the default budgets were chosen by
(games.dominoes.strategy.bots.PIMC_NODES, advisor.NODES; docs/strategy.md).

    python -m clients.bench.dominoes_budgets --nodes 20000,150000 --matches 8

Positions: the second hand's opening lead and fifth play of seeded random matches of
partnership-6 (the same seed, the same positions); each decision draws its deals with
random.Random(1). Nodes and deals are counted (the same on any machine); times are printed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator

from games.dominoes.commands import Move
from games.dominoes.events import HandStarted
from games.dominoes.rules import fold, legal_moves
from games.dominoes.seat_view import SeatView
from games.dominoes.selfplay import random_match_events
from games.dominoes.strategy.sampling import sample_values


def positions(matches: int) -> Iterator[tuple[SeatView, list[Move]]]:
    """The seat to play's view and moves at the second hand's first and fifth plays."""
    for match in range(matches):
        events = random_match_events(random.Random(match), target=100)
        second = next(i for i, e in enumerate(events)
                      if isinstance(e, HandStarted) and e.hand == 2)
        for cut in (5, 9):  # hand_started and four hand_dealt, then four plays or passes
            seen = events[: second + cut]
            state = fold(seen)
            if state is None or state.phase != "playing" or state.hand is None:
                continue
            seat = state.hand.turn
            moves = legal_moves(state, seat)
            if len(moves) > 1:
                yield SeatView.from_events(seen, seat), moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="150000", help="comma-separated node budgets")
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--matches", type=int, default=8)
    args = parser.parse_args()
    points = list(positions(args.matches))
    for nodes in (int(x) for x in args.nodes.split(",")):
        cpu = wall = 0.0
        searched = deals = 0
        for view, moves in points:
            c0, w0 = time.process_time(), time.perf_counter()
            sampled = sample_values(view, moves, random.Random(1), args.samples, nodes)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            searched += sampled.nodes
            deals += len(sampled.values)
        n = len(points)
        print(f"{nodes} nodes, {args.samples} deals at most: {n} decisions, "
              f"{searched / n:.0f} nodes and {deals / n:.1f} deals a decision, "
              f"CPU {cpu / n:.3f} s, wall {wall / n:.3f} s, {searched / cpu:,.0f} nodes a CPU "
              "second")


if __name__ == "__main__":
    main()
