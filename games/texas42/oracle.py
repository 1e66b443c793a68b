"""The bidding oracle of seed 003, Part V: what a bid is worth, with every number labelled.

For the seat to bid, holding seven dominoes:
 1. completions: the other 21 dominoes dealt to the other three hands, drawn exactly and
    uniformly from the seat's belief (the bids so far are ignored: that is the model, and the
    label says so); the same completions serve every trump (common random numbers);
 2. each trump is fixed *before* evaluation and every completion solved with it by the
    perfect-information solver (the bidder leads): V(d, trump), the bidder's team's points;
 3. per (trump, bid level): P_upper(make) = the share of completions where the solver's
    score reaches the bid, with its Wilson interval; the score's mean, q5, q50, q95 and the
    robustness gap mean - q5; the trump to name is argmax_trump mean (max_trump E[V]), never
    the per-deal best (E[max_trump V], reported only to show the gap);
 4. the lower bracket: the same completions with the bidder's team playing the fixed greedy
    policy (games.texas42.greedy: a seat sees only its own hand and the plays) against
    defenders who reply perfectly; so deal by deal it never beats the solver's score and
    P_lower <= P_upper in every cell; the fusion gap is P_upper - P_lower;
 5. strategy stability: whether one opening lead is optimal in at least 70% of completions;
 6. sequential sampling: completions until the chosen trump's intervals are narrow enough,
    a maximum N, or the caller's budget says stop (the caller owns the clock: this stays
    pure; a completion the budget cannot finish is left out whole, for every trump).

Speed: each trump's value is found by null-window searches (MTD(f)) starting from the greedy
policy's score on the same deal, a proven lower bound, with the solver's table of bounds
shared between those searches and the opening-lead tests (`bench solver42 --oracle`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.texas42.dominoes import INDEX, SEATS, TILES, Tile, partner_of, team_of
from games.texas42.greedy import choose_play
from games.texas42.scoring import MARK_BIDS, POINT_BIDS, needed
from games.texas42.solver import OutOfNodes, Solver, bits, mask_of
from games.texas42.suits import TRUMPS, trump_name
from inference.classes import Position
from inference.sampler import sample_deal

COMPLETION_MODEL = ("uniform over deals consistent with the bidder's own hand (the bids so far "
                    "are ignored)")
UPPER = "perfect-information solver, trump fixed before aggregation (optimistic upper bound)"
LOWER = ("the bidder's team plays the greedy imperfect-information policy "
         "(games.texas42.greedy), the defenders reply perfectly (pessimistic lower bracket)")
LEVELS = (*POINT_BIDS, *MARK_BIDS)
Z95 = 1.959963984540054
STABLE_SHARE = 0.7


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval for k successes in n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(values: Sequence[int], q: float) -> int:
    """The nearest-rank q-quantile (a score that occurred)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def completions(hand: Sequence[Tile], seat: str, n: int, rng: random.Random
                ) -> list[dict[str, tuple[Tile, ...]]]:
    """n whole deals drawn exactly uniformly given `seat`'s hand (inference.sampler)."""
    others = tuple(s for s in SEATS if s != seat)
    unseen = [t for t in TILES if t not in set(hand)]
    position = Position(others, dict.fromkeys(unseen, 0b111), (7, 7, 7))
    out = []
    for _ in range(n):
        drawn = sample_deal(position, rng)
        out.append({seat: tuple(sorted(hand)), **{s: tuple(drawn[s]) for s in others}})
    return out


@dataclass
class Evaluation:
    """Per completion, per trump: the solver's and the greedy policy's bidder-team score."""

    upper: list[int] = field(default_factory=list)
    lower: list[int] = field(default_factory=list)
    stable_leads: list[frozenset[int]] = field(default_factory=list)


def solver_score(deal: dict[str, Sequence[Tile]], trump: int, bidder: str,
                 with_leads: bool = True, at_least: int = 0) -> tuple[int, frozenset[int]]:
    """The bidder's team's points under perfect play, and the set of optimal opening leads.

    `at_least`: a score the bidders are known to reach (the greedy policy's, on the same
    deal): the solver's null-window searches (MTD(f)) start there, which costs far less
    than one full-window search."""
    return _solve(Solver(trump), deal, bidder, with_leads, at_least)


def _solve(solver: Solver, deal: dict[str, Sequence[Tile]], bidder: str, with_leads: bool,
           at_least: int) -> tuple[int, frozenset[int]]:
    hands = tuple(mask_of(deal[s]) for s in SEATS)
    leader = SEATS.index(bidder)
    ours = team_of(bidder) == "NS"
    if ours:
        ns = solver.mtdf(hands, leader, at_least, low=at_least)  # type: ignore[arg-type]
    else:
        ns = solver.mtdf(hands, leader, 42 - at_least, high=42 - at_least)  # type: ignore[arg-type]
    score = ns if ours else 42 - ns
    if not with_leads:
        return score, frozenset()
    best = set()
    for tile in bits(hands[leader]):
        after = list(hands)
        after[leader] ^= 1 << tile
        # a null window around the optimum says whether this lead reaches it
        lo, hi = (ns - 1, ns) if ours else (ns, ns + 1)
        value = solver.bounded(tuple(after), leader, ((leader, tile),), lo, hi)  # type: ignore[arg-type]
        if value == ns:
            best.add(tile)
    return score, frozenset(best)


def greedy_policy(trump: int) -> Callable[[int, int, tuple[tuple[int, int], ...]], int]:
    """The greedy policy as the solver's fixed policy (tile indices in and out)."""

    chosen: dict[tuple[int, int, tuple[tuple[int, int], ...]], int] = {}

    def choose(seat: int, moves: int, trick: tuple[tuple[int, int], ...]) -> int:
        key = (seat, moves, trick)  # the search meets one situation many times: decide once
        found = chosen.get(key)
        if found is None:
            legal = [TILES[i] for i in bits(moves)]
            played = tuple((SEATS[s], TILES[i]) for s, i in trick)
            found = chosen[key] = INDEX[choose_play(SEATS[seat], legal, played, trump)]
        return found

    return choose


def greedy_score(deal: dict[str, Sequence[Tile]], trump: int, bidder: str) -> int:
    """The bidder's team's points when it plays the greedy policy and the defenders, seeing
    every hand, reply perfectly: never above the solver's score, deal by deal."""
    return _greedy(deal, trump, bidder, None)[0]


def _greedy(deal: dict[str, Sequence[Tile]], trump: int, bidder: str, limit: int | None
            ) -> tuple[int, int]:
    """greedy_score and the plays searched for it (OutOfNodes past `limit`)."""
    leader = SEATS.index(bidder)
    solver = Solver(trump, fixed=greedy_policy(trump), fixed_team=leader % 2,
                    limit=None if limit is None else max(1, limit))
    ns = solver.value(tuple(mask_of(deal[s]) for s in SEATS), leader)  # type: ignore[arg-type]
    return (ns if team_of(bidder) == "NS" else 42 - ns), solver.nodes


def cell(upper: list[int], lower: list[int], level: int, stable: bool) -> dict[str, Any]:
    """One (trump, bid level) cell in the seed's JSON shape."""
    n = len(upper)
    need = needed(level)
    made_up = sum(1 for s in upper if s >= need)
    made_low = sum(1 for s in lower if s >= need)
    mean = sum(upper) / n
    q5 = quantile(upper, 0.05)
    p_up, p_low = made_up / n, made_low / n
    flags = [] if stable else ["strategy fusion susceptible: no opening lead is optimal in "
                               f"{STABLE_SHARE:.0%} of completions"]
    if p_up < p_low:
        flags.append("P_upper < P_lower: the solver or the greedy policy is wrong")
    return {"completion_model": COMPLETION_MODEL, "evaluator": UPPER, "lower_evaluator": LOWER,
            "N": n, "bid": level, "P_upper": p_up, "P_upper_CI": list(wilson(made_up, n)),
            "P_lower": p_low, "P_lower_CI": list(wilson(made_low, n)),
            "fusion_gap": p_up - p_low, "score_mean": mean, "score_q5": q5,
            "score_q50": quantile(upper, 0.5), "score_q95": quantile(upper, 0.95),
            "robustness_gap": mean - q5, "lower_score_mean": sum(lower) / n,
            "strategy_stable": stable, "flags": flags}


def stable(leads: list[frozenset[int]]) -> bool:
    if not leads:
        return True
    counts: dict[int, int] = {}
    for best in leads:
        for tile in best:
            counts[tile] = counts.get(tile, 0) + 1
    return max(counts.values(), default=0) >= STABLE_SHARE * len(leads)


def bidding_oracle(hand: Sequence[Tile], seat: str, rng: random.Random, *,
                   trumps: Sequence[int] = TRUMPS, batch: int = 10, n_min: int = 20,
                   n_max: int = 100, target_width: float = 0.2,
                   budget: Callable[[], bool] | None = None,
                   nodes_left: Callable[[], int | None] | None = None,
                   with_leads: bool = True) -> dict[str, Any]:
    """The oracle's table for `seat` bidding with `hand` (see the module docstring).

    Stops once the chosen trump's widest P_upper interval over the levels is at most
    `target_width` (after at least `n_min` completions), at `n_max`, or when `budget()` turns
    False (checked after each completion). `nodes_left()`: the plays the solver may still
    search (the caller's clock turned into a count); a completion that would need more is
    left out whole, so every trump keeps the same completions (the first is always solved)."""
    evaluations = {t: Evaluation() for t in trumps}
    n = 0
    stop = "n_max"
    while n < n_max and stop == "n_max":
        for deal in completions(hand, seat, min(batch, n_max - n), rng):
            limit = nodes_left() if nodes_left is not None and n > 0 else None
            scored = _evaluate(deal, trumps, seat, with_leads, limit)
            if scored is None:
                stop = "budget"
                break
            for trump, (lower, score, leads) in scored.items():
                evaluation = evaluations[trump]
                evaluation.upper.append(score)
                evaluation.lower.append(lower)
                if with_leads:
                    evaluation.stable_leads.append(leads)
            n += 1
            if n >= n_min and _narrow(evaluations, n, target_width):
                stop = "interval narrow enough"
                break
            if budget is not None and not budget():
                stop = "budget"
                break
    return report(hand, seat, evaluations, n, stop)


def _narrow(evaluations: dict[int, Evaluation], n: int, target_width: float) -> bool:
    """Whether the chosen trump's widest P_upper interval over the levels is narrow enough."""
    upper = evaluations[_chosen(evaluations)].upper
    return all(hi - lo <= target_width
               for lo, hi in (wilson(sum(1 for s in upper if s >= needed(k)), n)
                              for k in LEVELS))


def _evaluate(deal: dict[str, tuple[Tile, ...]], trumps: Sequence[int], seat: str,
              with_leads: bool, limit: int | None
              ) -> dict[int, tuple[int, int, frozenset[int]]] | None:
    """Per trump: (greedy score, solver score, optimal leads); None if `limit` plays of
    search do not suffice."""
    out = {}
    used = 0
    try:
        for trump in trumps:
            lower, nodes = _greedy(deal, trump, seat, None if limit is None else limit - used)
            used += nodes
            solver = Solver(trump, limit=None if limit is None else max(1, limit - used))
            try:
                score, leads = _solve(solver, deal, seat, with_leads, lower)
            finally:
                used += solver.nodes
            out[trump] = (lower, score, leads)
    except OutOfNodes:
        return None
    return out


def _chosen(evaluations: dict[int, Evaluation]) -> int:
    return max(evaluations, key=lambda t: sum(evaluations[t].upper))


def report(hand: Sequence[Tile], seat: str, evaluations: dict[int, Evaluation], n: int,
           stop: str) -> dict[str, Any]:
    chosen = _chosen(evaluations)
    means = {t: sum(e.upper) / n for t, e in evaluations.items()}
    per_deal_best = [max(evaluations[t].upper[i] for t in evaluations) for i in range(n)]
    max_of_means = max(means.values())
    mean_of_max = sum(per_deal_best) / n
    cells = {trump_name(t): {str(k): cell(e.upper, e.lower, k, stable(e.stable_leads))
                             for k in LEVELS}
             for t, e in evaluations.items()}
    gaps = [c["fusion_gap"] for row in cells.values() for c in row.values()]
    return {
        "seat": seat, "hand": [str(t) for t in sorted(hand)], "partner": partner_of(seat),
        "completion_model": COMPLETION_MODEL, "evaluator": UPPER, "lower_evaluator": LOWER,
        "N": n, "stopped": stop,
        "trump": trump_name(chosen),
        "max_trump_E_score": max_of_means,
        "E_max_trump_score": mean_of_max,
        "trump_fusion_gap": mean_of_max - max_of_means,
        "score_means": {trump_name(t): m for t, m in means.items()},
        "large_fusion_gaps": sum(1 for g in gaps if g > 0.2),
        "cells": cells,
        "note": "P_upper assumes every seat sees every hand; E_max_trump_score lets the oracle "
                "pick trump per deal and is never the value of a bid",
    }

