"""Uno figures: per-update time of the belief by kind of position, beside the old rule's
(per-batch count within 32768 states, else the relaxed count) in the same run; how often it
is exact now and under the old rule on the same updates; how far seed 004's approximate
update is from the exact one.

    python -m clients.bench.uno --matches 20 --seed 1

Figures, not assertions (timing depends on the machine and its load).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from games.interface import SPECTATOR
from games.play import play_match
from games.uno.belief import ORDERS, STATE_BUDGET, UnoBelief, _exact_body
from games.uno.blocks import BlockProgramme, OverBudget
from games.uno.counting import Programme, state_bound
from games.uno.estimate import relaxed
from games.uno.game import UNO
from games.uno.seed_belief import SeedBelief

VARIANT = "uno-2"


def _old_rule(belief: UnoBelief) -> bool:
    """The belief as it was before the block count: the per-batch programme within the
    budget, else the relaxed count (returns whether that was exact)."""
    position = belief.ledger.position()
    if state_bound(position) <= STATE_BUDGET:
        Programme(position, exact=False).result()
        return True
    loose, _ = relaxed(belief.ledger, STATE_BUDGET)
    Programme(loose, exact=False).result()
    return False


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


def run(matches: int, seed: int, reshuffled: bool = False, only: int | None = None,
        records: list[dict[str, Any]] | None = None) -> str:
    """The table; `only`: time just that match of the seeded sequence; `records`: filled
    with one dict per update (for an A/B driver alternating two checkouts match by match)."""
    rng = random.Random(seed)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    old_times: dict[tuple[str, str], list[float]] = defaultdict(list)
    statuses: dict[str, int] = defaultdict(int)
    old_exact = 0
    bars: list[float] = []
    seed_gap: dict[str, list[float]] = defaultdict(list)
    played = _matches(matches, rng, seed, reshuffled)
    for m, events in enumerate(played):
        if only is not None and m != only:
            continue
        for observer in ("S", "N", SPECTATOR):
            belief = UnoBelief(observer, VARIANT)
            approx = SeedBelief(observer) if observer != SPECTATOR else None
            after_draw = False
            for event in events[:-1]:
                seen = UNO.view(event, observer)
                started = time.process_time()
                belief.apply(seen)
                applied = time.process_time() - started
                snapshot = belief.snapshot_dict()
                spent = time.process_time() - started
                if approx is not None:
                    approx.apply(seen)
                if not belief.ledger.ready:
                    continue
                view = "spectator" if observer == SPECTATOR else "seat"
                group = _group(belief, event)
                times[(view, group)].append(spent)
                started = time.process_time()
                was_exact = _old_rule(belief)
                old_exact += was_exact
                old_times[(view, group)].append(applied + time.process_time() - started)
                status = snapshot["status"]
                if status == "exact" and "blocks" in snapshot["arithmetic"]:
                    status = "exact (blocks)"
                statuses[status] += 1
                if status == "estimate":
                    bars.append(snapshot["error_95"])
                if records is not None:
                    records.append({"match": m, "view": view, "group": group, "ms": 1000 * spent,
                                    "status": status, "error_95": snapshot.get("error_95"),
                                    "ess": snapshot.get("ess"), "samples": snapshot.get("samples"),
                                    "old_exact": was_exact})
                if getattr(seen, "seat", None) in belief.ledger.unknown:
                    after_draw = seen.type == "cards_drawn" and not seen.penalty
                if approx is not None and snapshot["status"] == "exact":
                    opponent = belief.ledger.unknown[0]
                    gap = _max_gap(snapshot["marginals"][opponent],
                                   approx.marginals()["at_least_one"])
                    where = "after a reshuffle" if group == "after a reshuffle" else (
                        "after a draw with nothing to play" if after_draw else "otherwise")
                    seed_gap[where].append(gap)
    which = " that reached a reshuffle" if reshuffled else ""
    lines = [f"uno-2 belief, {matches} matches{which} (greedy vs random, seats alternated), "
             f"seed {seed}: apply + snapshot_dict at every event, CPU time",
             f"{'view':10} {'position':28} {'updates':>7} {'p50 ms':>8} {'p99 ms':>8}"
             f" {'old p50':>8} {'old p99':>8}"]
    for (view, group), values in sorted(times.items()):
        old = old_times[(view, group)]
        lines.append(f"{view:10} {group:28} {len(values):7d} "
                     f"{1000 * statistics.median(values):8.2f} "
                     f"{1000 * _percentile(values, 0.99):8.2f} "
                     f"{1000 * statistics.median(old):8.2f} {1000 * _percentile(old, 0.99):8.2f}")
    total = sum(statuses.values())
    lines.append("status now: " + ", ".join(f"{k} {v} ({v / total:.1%})"
                                             for k, v in sorted(statuses.items())))
    lines.append(f"exact under the old rule (per-batch count within {STATE_BUDGET} states, "
                 f"else relaxed): {old_exact} ({old_exact / total:.1%})")
    if bars:
        lines.append(f"estimates: {len(bars)} updates, largest 95% half-width per update "
                     f"p50 {statistics.median(bars):.3f}, p90 {_percentile(bars, 0.9):.3f}, "
                     f"max {max(bars):.3f}")
    lines.append("seed 004's update vs exact, max |P(holds >= 1)| gap over kinds, per position:")
    for where, gaps in sorted(seed_gap.items()):
        lines.append(f"  {where:34} {len(gaps):5d} positions  mean {statistics.mean(gaps):.3f}"
                     f"  p90 {_percentile(gaps, 0.9):.3f}  max {max(gaps):.3f}")
    return "\n".join(lines)


def honesty(matches: int, seed: int, budget: int, most: int) -> str:
    """On estimated updates that a larger block budget still counts exactly (up to `most` of
    them, every 5th estimated update): the share of probabilities within their 95% bars,
    within three bars, and the bars' median half-width."""
    rng = random.Random(seed)
    inside = within3 = total = positions = 0
    widths: list[float] = []
    for events in _matches(matches, rng, seed, False):
        for observer in ("S", "N", SPECTATOR):
            belief = UnoBelief(observer, VARIANT)
            seen_estimates = 0
            for event in events[:-1]:
                belief.apply(UNO.view(event, observer))
                if not belief.ledger.ready or positions >= most:
                    continue
                snapshot = belief.snapshot_dict()
                if snapshot["status"] != "estimate":
                    continue
                seen_estimates += 1
                if seen_estimates % 5:
                    continue
                truth = None
                for order in ORDERS:
                    try:
                        truth = BlockProgramme(belief.ledger.position(), budget=budget,
                                               order=order).result()
                        break
                    except OverBudget:
                        continue
                if truth is None:
                    continue
                positions += 1
                exact = _exact_body(truth.expected, truth.at_least)["marginals"]
                for holder, row in exact.items():
                    for item, p in row.items():
                        q = snapshot["marginals"].get(holder, {}).get(item, 0.0)
                        bar = snapshot["marginal_error_95"].get(holder, {}).get(
                            item, snapshot["error_95"])
                        total += 1
                        inside += abs(p - q) <= bar
                        within3 += abs(p - q) <= 3 * bar
                        widths.append(bar)
    if not total:
        return "no estimated update was within the larger budget"
    return (f"honesty: {positions} estimated updates counted exactly with {budget} block "
            f"states; {total} probabilities: {inside / total:.1%} within their 95% bars, "
            f"{within3 / total:.1%} within three; bar half-width p50 "
            f"{statistics.median(widths):.3f}, p90 {_percentile(widths, 0.9):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-reshuffled", action="store_true",
                        help="time only matches whose deck ran out (long draw sequences)")
    parser.add_argument("--only", type=int, default=None,
                        help="time only this match (0-based) of the seeded sequence")
    parser.add_argument("--honesty", type=int, default=0, metavar="N",
                        help="instead: check the estimates' bars on up to N estimated updates "
                        "a 20000-state block count still reaches")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON line per update instead of the table")
    args = parser.parse_args()
    if args.honesty:
        print(honesty(args.matches, args.seed, 20000, args.honesty))
        return
    records: list[dict[str, Any]] = []
    table = run(args.matches, args.seed, args.only_reshuffled, args.only, records)
    if args.json:
        for record in records:
            print(json.dumps(record))
    else:
        print(table)


if __name__ == "__main__":
    main()
