"""Pooling tournament reports: runs with different seeds (disjoint deals), same two bots,
same variant.

Long match-ups (pimc) are played in several runs so that each finishes in its own time; this
gives the figures of all their matches together. Each run's report carries its pairs' count,
mean score and spread (`pair_sd`; in reports without it, the spread is recovered from the
printed 95% interval, half-width = Z95 · sd / √pairs, to the interval's 4 decimals). The
pooled spread adds the runs' within-run and between-run sums of squares, so the interval is
the one a single run over all the pairs would print. Decision times cannot be pooled from
percentiles: each run's p50/p95 is listed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.dominoes.variants import DEFAULT_VARIANT
from games.intervals import Z95, win_rate_interval


class PoolError(ValueError):
    """The reports cannot be pooled (different bots, or not tournament reports)."""


def _spread(side: dict, mean: float, n: int, key: str, sd_key: str) -> float:
    if sd_key in side:
        return float(side[sd_key])
    lo, hi = side[key]
    half = max(hi - mean, mean - lo)  # (the interval may be clipped at 0 or 1 on one side)
    return half * math.sqrt(n) / Z95 if n > 1 else 0.0


def _pool(groups: Sequence[tuple[int, float, float]]) -> tuple[int, float, float]:
    """(count, mean, sd) of the union of groups given as (count, mean, sd)."""
    total = sum(n for n, _, _ in groups)
    mean = sum(n * m for n, m, _ in groups) / total
    squares = sum((n - 1) * sd * sd + n * (m - mean) ** 2 for n, m, sd in groups)
    return total, mean, math.sqrt(squares / (total - 1)) if total > 1 else 0.0


def pool(reports: Sequence[dict]) -> dict:
    """One report for all the matches of `reports` (the shape `tournament --json` prints)."""
    if not reports:
        raise PoolError("nothing to pool")
    try:
        # reports from before two-player variants name none: they are partnership-6
        bots = {(r["a"]["bot"], r["b"]["bot"], r.get("variant", DEFAULT_VARIANT))
                for r in reports}
        if len(bots) != 1:
            raise PoolError(f"reports of different match-ups: {sorted(bots)}")
        budgets = {repr(r.get("budgets")) for r in reports if r.get("budgets") is not None}
        if len(budgets) > 1:
            raise PoolError(f"reports played under different work budgets: {sorted(budgets)}")
        variant = next(iter(bots))[2]
        matches = sum(r["matches"] for r in reports)
        pairs = sum(r["pairs"] for r in reports)
        hands = sum(r["hands"] for r in reports)

        def side(key: str) -> dict:
            sides = [(r[key], r["pairs"], r["hands"]) for r in reports]
            _, rate, pair_sd = _pool([(n, s["win_rate"],
                                       _spread(s, s["win_rate"], n, "ci95", "pair_sd"))
                                      for s, n, _ in sides])
            _, ppm, hand_sd = _pool([(h, s["points_per_hand"],
                                      _spread(s, s["points_per_hand"], h,
                                              "points_per_hand_ci95", "points_sd"))
                                     for s, _, h in sides])
            wins = sum(s["wins"] for s, _, _ in sides)
            lo, hi = win_rate_interval(wins, matches, pairs, round(pair_sd, 9))
            ppm_half = Z95 * hand_sd / math.sqrt(hands)
            return {
                "bot": sides[0][0]["bot"],
                "wins": wins,
                "win_rate": rate,
                "ci95": [round(lo, 4), round(hi, 4)],
                "pair_sd": round(pair_sd, 6),
                "points_per_hand": round(ppm, 3),
                "points_per_hand_ci95": [round(ppm - ppm_half, 3), round(ppm + ppm_half, 3)],
                "decisions": sum(s["decisions"] for s, _, _ in sides),
                "decision_ms_p50_runs": [s["decision_ms_p50"] for s, _, _ in sides],
                "decision_ms_p95_runs": [s["decision_ms_p95"] for s, _, _ in sides],
            }

        pooled = {"variant": variant, "matches": matches, "pairs": pairs, "hands": hands,
                  "runs": len(reports), "a": side("a"), "b": side("b")}
        recorded = [r["budgets"] for r in reports if r.get("budgets") is not None]
        if recorded:
            pooled["budgets"] = recorded[0]
        return pooled
    except (KeyError, TypeError) as error:
        raise PoolError(f"not a tournament report: missing {error}") from error
