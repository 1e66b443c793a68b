"""Uno figures: per-update time of the exact belief by kind of position, how often it stays
exact, how far seed 004's approximate update is from it, and how far the over-budget
relaxation is from the exact count (computed here with a larger budget).

    python -m inference.bench_uno --matches 20 --seed 1

Figures, not assertions (timing depends on the machine and its load).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from games.interface import SPECTATOR
from games.play import play_match
from games.uno.belief import STATE_BUDGET, UnoBelief
from games.uno.counting import Programme, state_bound
from games.uno.game import UNO
from games.uno.seed_belief import SeedBelief

VARIANT = "uno-2"
EXACT_LIMIT = STATE_BUDGET * 8
"""Over-budget positions up to this size are also counted exactly, to measure the relaxation."""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _group(belief: UnoBelief, event: Any) -> str:
    """The kind of position: after a reshuffle, in a long draw sequence, or ordinary."""
    ledger = belief.ledger
    draws = sum(1 for steps in ledger.timelines.values() for s in steps if s.what == "draw")
    if len(ledger.sources) > 1 or event.type == "deck_reshuffled":
        return "after a reshuffle"
    if draws - len(ledger.unknown) >= 4:
        return "4+ draws by unknown hands"
    return "ordinary"


def _max_gap(a: dict[str, float], b: dict[str, float]) -> float:
    return max((abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in {*a, *b}), default=0.0)


def _matches(count: int, rng: random.Random, seed: int, reshuffled: bool) -> list[list[Any]]:
    """Seeded selfplay matches; with `reshuffled`, only those whose deck ran out (tried up to
    500 times the count)."""
    bots = UNO.bots()
    kept: list[list[Any]] = []
    for m in range(500 * count if reshuffled else count):
        pair = ("greedy", "random") if m % 2 == 0 else ("random", "greedy")
        events = play_match(UNO, VARIANT, {"S": bots[pair[0]], "N": bots[pair[1]]}, rng,
                            match_id=f"bench-{seed}-{m}")
        if not reshuffled or any(e.type == "deck_reshuffled" for e in events):
            kept.append(events)
        if len(kept) == count:
            break
    return kept


def run(matches: int, seed: int, reshuffled: bool = False) -> str:
    rng = random.Random(seed)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    statuses: dict[str, int] = defaultdict(int)
    seed_gap: dict[str, list[float]] = defaultdict(list)
    relaxed_gap: list[float] = []
    for events in _matches(matches, rng, seed, reshuffled):
        for observer in ("S", "N", SPECTATOR):
            belief = UnoBelief(observer, VARIANT)
            approx = SeedBelief(observer) if observer != SPECTATOR else None
            after_draw = False
            for event in events[:-1]:
                seen = UNO.view(event, observer)
                started = time.process_time()
                belief.apply(seen)
                snapshot = belief.snapshot_dict()
                spent = time.process_time() - started
                if approx is not None:
                    approx.apply(seen)
                if not belief.ledger.ready:
                    continue
                view = "spectator" if observer == SPECTATOR else "seat"
                group = _group(belief, event)
                times[(view, group)].append(spent)
                statuses[snapshot["status"]] += 1
                if getattr(seen, "seat", None) in belief.ledger.unknown:
                    after_draw = seen.type == "cards_drawn" and not seen.penalty
                if approx is not None and snapshot["status"] == "exact":
                    opponent = belief.ledger.unknown[0]
                    gap = _max_gap(snapshot["marginals"][opponent],
                                   approx.marginals()["at_least_one"])
                    where = "after a reshuffle" if group == "after a reshuffle" else (
                        "after a draw with nothing to play" if after_draw else "otherwise")
                    seed_gap[where].append(gap)
                if snapshot["status"] == "relaxed":
                    position = belief.ledger.position()
                    if state_bound(position) <= EXACT_LIMIT:
                        exact = Programme(position, exact=False).result()
                        for owner in belief.ledger.unknown:
                            truth = {k: float(p) for k, p in exact.at_least_one[owner].items()}
                            relaxed_gap.append(_max_gap(snapshot["marginals"][owner], truth))
    which = " that reached a reshuffle" if reshuffled else ""
    lines = [f"uno-2 belief, {matches} matches{which} (greedy vs random, seats alternated), "
             f"seed {seed}: apply + snapshot_dict at every event, CPU time",
             f"{'view':10} {'position':28} {'updates':>7} {'p50 ms':>8} {'p99 ms':>8}"]
    for (view, group), values in sorted(times.items()):
        lines.append(f"{view:10} {group:28} {len(values):7d} "
                     f"{1000 * statistics.median(values):8.2f} "
                     f"{1000 * _percentile(values, 0.99):8.2f}")
    total = sum(statuses.values())
    lines.append("status: " + ", ".join(f"{k} {v} ({v / total:.1%})"
                                         for k, v in sorted(statuses.items())))
    lines.append("seed 004's update vs exact, max |P(holds >= 1)| gap over kinds, per position:")
    for where, gaps in sorted(seed_gap.items()):
        lines.append(f"  {where:34} {len(gaps):5d} positions  mean {statistics.mean(gaps):.3f}"
                     f"  p90 {_percentile(gaps, 0.9):.3f}  max {max(gaps):.3f}")
    if relaxed_gap:
        lines.append(f"relaxed (over budget {STATE_BUDGET}) vs exact (counted up to "
                     f"{EXACT_LIMIT} states): {len(relaxed_gap)} hands, max |P(>= 1)| gap "
                     f"mean {statistics.mean(relaxed_gap):.3f}, p90 "
                     f"{_percentile(relaxed_gap, 0.9):.3f}, max {max(relaxed_gap):.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-reshuffled", action="store_true",
                        help="time only matches whose deck ran out (long draw sequences)")
    args = parser.parse_args()
    print(run(args.matches, args.seed, args.only_reshuffled))


if __name__ == "__main__":
    main()
