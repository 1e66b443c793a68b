"""The bidding oracle of seed 003, Part V: what a bid is worth, every number labelled with
what produced it.

For the seat to bid, holding seven dominoes:
 1. completions: the other 21 dominoes dealt to the other three hands, drawn exactly and
    uniformly given the seat's hand (`completion_model`; the bids so far are ignored unless a
    conditioned model is asked for, games.texas42.models); the same completions serve every
    trump (common random numbers). The sampler is seeded from the position (the seat, its
    hand, the model, N), so the same position gives the same figures on any machine, at a
    table and in a replay. The seed names N, so the answer at N = k draws other completions
    than the first k of N = 150; a caller may stream the partial tables over the first k of
    the answer's N (`oracle_steps`: the interval narrows as k grows);
 2. each trump is fixed *before* evaluation and every completion solved with it, the bidder
    leading, by two evaluators (`EVALUATORS`):
    - `dd`: double-dummy: all four hands open, both teams perfect. Not a bound on real play
      in either direction: the bidders' clairvoyance flatters them, the defenders' hurts
      them (so it is no "upper bound": it was once labelled one);
    - `greedy`: the bidder's team plays the greedy policy (games.texas42.greedy: its own hand
      and the plays only) against defenders who see every hand and reply perfectly: a floor
      for greedy bidders against any defence, deal by deal never above `dd`;
 3. per (trump, bid level): P_dd(make) and P_greedy(make) with Wilson intervals, the dd
    score's mean, q5/q50/q95, robustness gap (mean - q5) and CVaR (the mean of its worst
    10%), the gap P_dd - P_greedy; the trump to name is argmax_trump mean dd score
    (max_trump E[V]), never the per-deal best (E[max_trump V], reported to show that gap);
 4. strategy stability: whether one opening lead is optimal in at least 70% of completions.

Budgets are work, not time: N completions, each solved to the end (a whole-hand solve is a
few thousand plays searched by the compiled solver, games.texas42.kernel). Pure: no clock.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.texas42.dominoes import INDEX, SEATS, TILES, Tile, partner_of, team_of
from games.texas42.greedy import choose_play
from games.texas42.scoring import MARK_BIDS, POINT_BIDS, needed
from games.texas42.solver import bits, four, hands_of
from games.texas42.suits import TRUMPS, trump_name
from inference.classes import Position
from inference.sampler import sample_deal

if TYPE_CHECKING:
    from games.texas42.kernel import FastSolver

VERSION = 2
"""Changes whenever the same position would give other figures (part of the cache key)."""
COMPLETION_MODEL = ("uniform over deals consistent with the bidder's own hand (the bids so far "
                    "are ignored)")
DD = ("double-dummy: all four hands open, both teams play perfectly, trump fixed before "
      "aggregation (not a bound on real play: the bidders' clairvoyance flatters them, the "
      "defenders' hurts them)")
GREEDY = ("greedy bidders against clairvoyant defenders: the bidder's team plays the greedy "
          "policy (games.texas42.greedy: its own hand and the plays only), the defenders see "
          "every hand and reply perfectly (a floor for greedy bidders against any defence)")
EVALUATORS = {"dd": DD, "greedy": GREEDY}
LEVELS = (*POINT_BIDS, *MARK_BIDS)
N_DEFAULT = 150
Z95 = 1.959963984540054
STABLE_SHARE = 0.7
CVAR_SHARE = 0.1


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


def cvar(values: Sequence[int], share: float = CVAR_SHARE) -> float:
    """The mean of the worst `share` of the scores (at least one)."""
    ordered = sorted(values)
    worst = ordered[:max(1, math.ceil(share * len(ordered)))]
    return sum(worst) / len(worst)


def position_seed(hand: Sequence[Tile], seat: str, model: str, n: int) -> int:
    """The completion sampler's seed: a function of the position only (never the clock, the
    table or the asker), so every machine and every replay draws the same completions."""
    text = f"texas42-oracle:{VERSION}:{seat}:{' '.join(str(t) for t in sorted(hand))}:" \
           f"{model}:{n}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def cache_key(hand: Sequence[Tile], seat: str, model: str, n: int) -> str:
    """A key that names the oracle's whole answer for a position (store it under this)."""
    return f"t42o{VERSION}-{position_seed(hand, seat, model, n):016x}"


def completions(hand: Sequence[Tile], seat: str, n: int, rng: random.Random
                ) -> list[dict[str, tuple[Tile, ...]]]:
    """n whole deals drawn exactly uniformly given `seat`'s hand (inference.sampler)."""
    others = tuple(s for s in SEATS if s != seat)
    unseen = [t for t in TILES if t not in set(hand)]
    position = Position(others, dict.fromkeys(unseen, 0b111), (7, 7, 7))
    out: list[dict[str, tuple[Tile, ...]]] = []
    for _ in range(n):
        drawn = sample_deal(position, rng)
        out.append({seat: tuple(sorted(hand)), **{s: tuple(drawn[s]) for s in others}})
    return out


@dataclass
class Evaluation:
    """Per completion, for one trump: each evaluator's bidder-team score, the optimal leads
    among those tested (`LeadTest`)."""

    dd: list[int] = field(default_factory=list)
    greedy: list[int] = field(default_factory=list)
    leads: list[frozenset[int]] = field(default_factory=list)

    def gap_guess(self) -> int:
        """Where MTD(f) starts above the greedy floor: the mean gap of the completions so far
        (rounded; 0 at first). It changes the solver's work, never a figure."""
        if not self.dd:
            return 0
        return round((sum(self.dd) - sum(self.greedy)) / len(self.dd))


class LeadTest:
    """Which opening leads still need testing for the 70% stability flag over `total`
    completions (`stable`): none once one lead has been optimal in STABLE_SHARE of all
    `total` (the flag is then true at every count after), and only the leads that could still
    reach that share if optimal in every completion left (a lead that cannot reach it by the
    end cannot reach it at any earlier count either: its count so far is below STABLE_SHARE of
    that count). So `stable` gives the same flag at every count as testing every lead, with a
    margin against rounding that only ever tests more."""

    def __init__(self, hand: int, total: int) -> None:
        self.hand, self.total = hand, total
        self.counts = dict.fromkeys(bits(hand), 0)

    def to_test(self, done: int) -> int:
        """The mask of the leads to test in completion `done` (0-based)."""
        need = STABLE_SHARE * self.total
        if max(self.counts.values(), default=0) >= need:
            return 0
        left = self.total - done
        return sum(1 << tile for tile, count in self.counts.items()
                   if count + left >= need - 1e-6)

    def add(self, leads: frozenset[int]) -> None:
        for tile in leads:
            self.counts[tile] += 1


def solver(trump: int, fixed_team: int | None = None, limit: int | None = None) -> FastSolver:
    """The compiled solver, imported on first use: numba's import and the kernel's cache load
    cost seconds, which a process that never solves (a server, a test) should not pay."""
    from games.texas42.kernel import FastSolver

    return FastSolver(trump, fixed_team=fixed_team, limit=limit)


def _hands(deal: Mapping[str, Sequence[Tile]]) -> tuple[int, int, int, int]:
    return hands_of([deal[s] for s in SEATS])


def greedy_score(deal: Mapping[str, Sequence[Tile]], trump: int, bidder: str) -> int:
    """The bidder's team's points when it plays the greedy policy and the defenders, seeing
    every hand, reply perfectly: never above the double-dummy score, deal by deal."""
    leader = SEATS.index(bidder)
    ns = solver(trump, fixed_team=leader % 2).value(_hands(deal), leader)
    return ns if team_of(bidder) == "NS" else 42 - ns


def dd_score(deal: Mapping[str, Sequence[Tile]], trump: int, bidder: str,
             with_leads: bool = True, at_least: int = 0) -> tuple[int, frozenset[int]]:
    """The bidder's team's double-dummy points and the set of optimal opening leads.

    `at_least`: a score the bidders are known to reach (the greedy floor on the same deal):
    the null-window searches (MTD(f)) start there."""
    hands = _hands(deal)
    leader = SEATS.index(bidder)
    ours = team_of(bidder) == "NS"
    search = solver(trump)
    if ours:
        ns = search.mtdf(hands, leader, at_least, low=at_least)
    else:
        ns = search.mtdf(hands, leader, 42 - at_least, high=42 - at_least)
    score = ns if ours else 42 - ns
    if not with_leads:
        return score, frozenset()
    best = set()
    for tile in bits(hands[leader]):
        after = list(hands)
        after[leader] ^= 1 << tile
        # a null window beside the optimum says whether this lead reaches it
        lo, hi = (ns - 1, ns) if ours else (ns, ns + 1)
        value = search.bounded(four(after), leader, ((leader, tile),), lo, hi)
        if value == ns:
            best.add(tile)
    return score, frozenset(best)


def greedy_policy(trump: int) -> Callable[[int, int, tuple[tuple[int, int], ...]], int]:
    """The greedy policy on tile indices, as the reference solver's fixed policy."""

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


def evaluate(deal: Mapping[str, Sequence[Tile]], trumps: Sequence[int], bidder: str,
             with_leads: bool = True, leads: Sequence[int] | None = None,
             gaps: Sequence[int] | None = None) -> dict[int, tuple[int, int, frozenset[int]]]:
    """Per trump: (greedy floor, double-dummy score, optimal opening leads) of one deal: the
    figures of `greedy_score` and `dd_score`, every trump in one call of the compiled
    solver (games.texas42.kernel.evaluate_deal; imported on first use, as `solver`).
    `leads`: per trump, the mask of the opening leads to test (the set returned holds only
    those); `gaps`: per trump, where MTD(f) starts above the floor (work only, never the
    figures)."""
    from games.texas42.kernel import evaluate_deal

    found = evaluate_deal(_hands(deal), SEATS.index(bidder), trumps, with_leads, leads, gaps)
    return {trump: (floor, score, frozenset(bits(leads)))
            for trump, (floor, score, leads) in found.items()}


def cell(dd: list[int], greedy: list[int], level: int, stable: bool) -> dict[str, Any]:
    """One (trump, bid level) cell in the seed's JSON shape, relabelled honestly."""
    n = len(dd)
    need = needed(level)
    made_dd = sum(1 for s in dd if s >= need)
    made_greedy = sum(1 for s in greedy if s >= need)
    mean = sum(dd) / n
    q5 = quantile(dd, 0.05)
    p_dd, p_greedy = made_dd / n, made_greedy / n
    flags = [] if stable else ["strategy fusion susceptible: no opening lead is optimal in "
                               f"{STABLE_SHARE:.0%} of completions"]
    if p_dd < p_greedy:
        flags.append("P_dd < P_greedy: the solver or the greedy policy is wrong")
    return {"completion_model": COMPLETION_MODEL, "evaluator": DD, "lower_evaluator": GREEDY,
            "N": n, "bid": level, "P_dd": p_dd, "P_dd_CI": list(wilson(made_dd, n)),
            "P_greedy": p_greedy, "P_greedy_CI": list(wilson(made_greedy, n)),
            "fusion_gap": p_dd - p_greedy, "score_mean": mean, "score_q5": q5,
            "score_q50": quantile(dd, 0.5), "score_q95": quantile(dd, 0.95),
            "robustness_gap": mean - q5, "score_cvar10": cvar(dd),
            "greedy_score_mean": sum(greedy) / n, "strategy_stable": stable, "flags": flags}


def stable(leads: list[frozenset[int]]) -> bool:
    if not leads:
        return True
    counts: dict[int, int] = {}
    for best in leads:
        for tile in best:
            counts[tile] = counts.get(tile, 0) + 1
    return max(counts.values(), default=0) >= STABLE_SHARE * len(leads)


def oracle_steps(hand: Sequence[Tile], seat: str, *, trumps: Sequence[int] = TRUMPS,
                 n: int = N_DEFAULT, every: int = 25, with_leads: bool = True,
                 deals: Sequence[dict[str, tuple[Tile, ...]]] | None = None,
                 model: str = COMPLETION_MODEL) -> Iterator[dict[str, Any]]:
    """The oracle's table after every `every` completions and at N (the last one yielded is
    the answer): a caller streams the interval narrowing. `deals`: completions drawn by a
    caller (another completion model, named by `model`); default: uniform, seeded from the
    position."""
    if deals is None:
        deals = completions(hand, seat, n, random.Random(position_seed(hand, seat, model, n)))
    chosen = deals[:n]
    for done, evaluations in enumerate(evaluated(chosen, trumps, seat, with_leads), start=1):
        if done % every == 0 or done == len(chosen):
            yield report(hand, seat, evaluations, done, n, model)


def evaluated(deals: Sequence[dict[str, tuple[Tile, ...]]], trumps: Sequence[int], seat: str,
              with_leads: bool = True) -> Iterator[dict[int, Evaluation]]:
    """The per-trump evaluations after each of `deals` (the same dict, grown): MTD(f) starts
    at the floor plus the mean gap so far (`Evaluation.gap_guess`) and only the opening leads
    that can still change the stability flag over all `deals` are tested (`LeadTest`); the
    figures, and the flag at every count, are those of testing every lead from the floor."""
    evaluations = {t: Evaluation() for t in trumps}
    total = len(deals)
    bidder_hand = _hands(deals[0])[SEATS.index(seat)] if total else 0
    tests = {t: LeadTest(bidder_hand, total) for t in trumps}
    for done, deal in enumerate(deals):
        masks = [tests[t].to_test(done) if with_leads else 0 for t in trumps]
        gaps = [evaluations[t].gap_guess() for t in trumps]
        for trump, (floor, score, leads) in evaluate(deal, trumps, seat, with_leads, masks,
                                                     gaps).items():
            evaluation = evaluations[trump]
            evaluation.dd.append(score)
            evaluation.greedy.append(floor)
            if with_leads:
                evaluation.leads.append(leads)
                tests[trump].add(leads)
        yield evaluations


def bidding_oracle(hand: Sequence[Tile], seat: str, *, trumps: Sequence[int] = TRUMPS,
                   n: int = N_DEFAULT, with_leads: bool = True,
                   deals: Sequence[dict[str, tuple[Tile, ...]]] | None = None,
                   model: str = COMPLETION_MODEL) -> dict[str, Any]:
    """The oracle's table for `seat` bidding with `hand` at N = n (see the module docstring)."""
    *_, last = oracle_steps(hand, seat, trumps=trumps, n=n, every=n, with_leads=with_leads,
                            deals=deals, model=model)
    return last


def _chosen(evaluations: dict[int, Evaluation]) -> int:
    return max(evaluations, key=lambda t: sum(evaluations[t].dd))


def report(hand: Sequence[Tile], seat: str, evaluations: dict[int, Evaluation], done: int,
           n: int, model: str = COMPLETION_MODEL) -> dict[str, Any]:
    chosen = _chosen(evaluations)
    means = {t: sum(e.dd) / done for t, e in evaluations.items()}
    per_deal_best = [max(evaluations[t].dd[i] for t in evaluations) for i in range(done)]
    cells = {trump_name(t): {str(k): cell(e.dd, e.greedy, k, stable(e.leads)) for k in LEVELS}
             for t, e in evaluations.items()}
    gaps = [c["fusion_gap"] for row in cells.values() for c in row.values()]
    return {
        "seat": seat, "hand": [str(t) for t in sorted(hand)], "partner": partner_of(seat),
        "completion_model": model, "evaluator": DD, "lower_evaluator": GREEDY,
        "evaluators": EVALUATORS, "N": done, "N_target": n,
        "stopped": "N reached (a fixed work budget)" if done >= n else "in progress",
        "seed": position_seed(hand, seat, model, n), "cache_key": cache_key(hand, seat, model, n),
        "trump": trump_name(chosen),
        "max_trump_E_score": max(means.values()),
        "E_max_trump_score": sum(per_deal_best) / done,
        "trump_fusion_gap": sum(per_deal_best) / done - max(means.values()),
        "score_means": {trump_name(t): m for t, m in means.items()},
        "greedy_means": {trump_name(t): sum(e.greedy) / done for t, e in evaluations.items()},
        "large_fusion_gaps": sum(1 for g in gaps if g > 0.2),
        "cells": cells,
        "note": "P_dd: the share of completions the bidders make double-dummy (every seat sees "
                "every hand); P_greedy: greedy bidders against clairvoyant defenders; real "
                "play lies between neither for sure (docs/games/texas42.md has the calibration "
                "against play-outs); E_max_trump_score lets the oracle pick trump per deal and "
                "is never the value of a bid",
    }
