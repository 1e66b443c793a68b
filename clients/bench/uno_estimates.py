"""Uno's estimates at every position: how many are exact, and the estimates' effective sample
size, bars and cost.

`python -m clients.bench.uno_estimates --matches 3 --seed 31 --policy random`: the matches
`domino-oracle selfplay --variant uno-2 --policy random --matches 3 --seed 31` stores (the
same seeded generator, match after match; `--reshuffled`: only those whose deck ran out),
each folded for S, N and the spectator; at every
position after the deal, `snapshot_dict()` timed in CPU time. Printed: per view, positions,
exact, estimates; the estimates' ESS (min, p10, p50), largest 95% half-width per update
(p50, p90, max), how many have ESS >= 100 and bars <= 0.1, how many said too few effective
samples in words, those after a reshuffle, their chain steps and CPU ms (p50, p99, max);
`--compare`: the importance-weighted estimate's ESS and bars on the same positions.
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
from games.uno.belief import UnoBelief
from games.uno.game import UNO


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _matches(count: int, seed: int, policy: str, variant: str, reshuffled: bool
             ) -> list[list[Any]]:
    """The seeded matches; with `reshuffled`, the first `count` whose deck ran out (of at
    most 500 x count)."""
    rng = random.Random(seed)
    bot = UNO.bots()[policy]
    kept: list[list[Any]] = []
    for _ in range(500 * count if reshuffled else count):
        events = play_match(UNO, variant, {"S": bot, "N": bot}, rng)
        if not reshuffled or any(e.type == "deck_reshuffled" for e in events):
            kept.append(events)
        if len(kept) == count:
            break
    return kept


def run(matches: int, seed: int, policy: str, variant: str = "uno-2",
        reshuffled: bool = False, compare: bool = False) -> str:
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    played = _matches(matches, seed, policy, variant, reshuffled)
    for events in played:
        for observer in ("S", "N", SPECTATOR):
            belief = UnoBelief(observer, variant)
            view = "spectator" if observer == SPECTATOR else "seat"
            for event in events[:-1]:
                belief.apply(UNO.view(event, observer))
                if not belief.ledger.ready:
                    continue
                started = time.process_time()
                snapshot = belief.snapshot_dict()
                spent = 1000 * (time.process_time() - started)
                row = {**{k: snapshot.get(k) for k in
                          ("status", "ess", "error_95", "steps", "informative", "chains")},
                       "ms": spent, "group": belief.bench_group()}
                if compare and snapshot.get("status") == "estimate":
                    old = belief.importance_estimate()
                    row.update(old_ess=old["ess"], old_error=old["error_95"])
                rows[view].append(row)
    which = " whose deck ran out" if reshuffled else ""
    lines = [f"{variant}, {len(played)} matches{which} of --policy {policy}, --seed {seed}: "
             f"every position of S, N and the spectator"]
    for view, found in sorted(rows.items()):
        estimates = [r for r in found if r["status"] == "estimate"]
        exact = sum(1 for r in found if r["status"] == "exact")
        lines.append(f"{view}: {len(found)} positions, {exact} exact "
                     f"({exact / len(found):.1%}), {len(estimates)} estimates")
        if not estimates:
            continue
        ess = [float(r["ess"]) for r in estimates]
        bars = [float(r["error_95"]) for r in estimates]
        good = sum(1 for r in estimates if r["ess"] >= 100 and r["error_95"] <= 0.1)
        words = sum(1 for r in estimates if r.get("informative") is False)
        ms = [float(r["ms"]) for r in estimates]
        steps = [int(r["steps"] or 0) for r in estimates]
        lines += [
            f"  ESS min {min(ess):.1f}, p10 {_pct(ess, 0.1):.1f}, p50 {statistics.median(ess):.1f}"
            f"; largest 95% half-width p50 {statistics.median(bars):.3f}, "
            f"p90 {_pct(bars, 0.9):.3f}, max {max(bars):.3f}",
            f"  ESS >= 100 and bars <= 0.1: {good} of {len(estimates)}; too few effective "
            f"samples (said in words): {words}; a chain found no consistent arrangement: "
            f"{sum(1 for r in estimates if r.get('chains', 4) < 4)}",
            "  after a reshuffle: " + _reshuffled(estimates),
            *_before(estimates),
            f"  chain steps p50 {statistics.median(steps):.0f}, max {max(steps)}; CPU ms per "
            f"estimate p50 {statistics.median(ms):.0f}, p99 {_pct(ms, 0.99):.0f}, "
            f"max {max(ms):.0f}"]
    return "\n".join(lines)


def _before(estimates: list[dict[str, Any]]) -> list[str]:
    """The importance-weighted estimate on the same positions (with --compare)."""
    if "old_ess" not in estimates[0]:
        return []
    ess = [float(r["old_ess"]) for r in estimates]
    bars = [float(r["old_error"]) for r in estimates]
    good = sum(1 for e, b in zip(ess, bars, strict=True) if e >= 100 and b <= 0.1)
    return [f"  before (importance weights, same positions): ESS min {min(ess):.1f}, p10 "
            f"{_pct(ess, 0.1):.1f}, p50 {statistics.median(ess):.1f}; largest half-width "
            f"p50 {statistics.median(bars):.3f}, p90 {_pct(bars, 0.9):.3f}, max "
            f"{max(bars):.3f}; ESS >= 100 and bars <= 0.1: {good}; ESS < 30: "
            f"{sum(1 for e in ess if e < 30)}"]


def _reshuffled(estimates: list[dict[str, Any]]) -> str:
    after = [r for r in estimates if r["group"] == "after a reshuffle"]
    if not after:
        return "no estimates"
    return (f"{len(after)} estimates, ESS min {min(float(r['ess']) for r in after):.1f}, "
            f"largest half-width max {max(float(r['error_95']) for r in after):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--policy", default="random")
    parser.add_argument("--variant", default="uno-2")
    parser.add_argument("--reshuffled", action="store_true",
                        help="only matches whose deck ran out")
    parser.add_argument("--compare", action="store_true",
                        help="also the importance-weighted estimate on the same positions")
    args = parser.parse_args()
    print(run(args.matches, args.seed, args.policy, args.variant, args.reshuffled,
              args.compare))


if __name__ == "__main__":
    main()
