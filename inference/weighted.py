"""The behaviour-aware belief: exact uniform posterior deals, reweighted by a player model.

P_b(deal | moves) ∝ P_u(deal | moves) · L(deal), with L the likelihood of the plays seen
(a game's behaviour model, games.behaviour). Two ways to get its marginals:
  - exact: when the consistent deals are few (at most `budget`, late in a hand), every one
    is listed and weighted; the marginals are exact and their error is 0;
  - importance sampling: n deals drawn exactly and uniformly (inference.sampler), weights
    w_i = L(deal_i), marginal p̂ = Σ w_i·[h holds t] / Σ w_i (self-normalised), effective
    sample size ESS = (Σw)²/Σw², and a delta-method standard error per marginal,
    se² = Σ w_i²·([h holds t] − p̂)² / (Σw)².
A self-normalised estimate from a few effective samples says 0 for things the uniform belief
knows are possible; the shown estimate is therefore the defensive mixture
(1 − λ)·p̂ + λ·p_uniform with λ = k/(k + ESS) (k = `shrink`, 1 unless asked), which keeps
every possible holder possible and fades out as the sample grows (exact listings use λ = 0).

Listing is exact only when the listed deals are the consistent ones: every assignment that
gives each tile a holder the uniform belief allows and each holder its count is consistent
exactly when their number equals the uniform belief's `consistent_deals` (the supports are the
allowed sets; a pending disjunction makes the listing larger, and the sampler is used).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inference.classes import Position
from inference.counting import solve
from inference.errors import Infeasible

Deal = Mapping[str, Sequence[Any]]
"""Holder -> the unseen items it holds (as the exact sampler returns them)."""


@dataclass(frozen=True)
class Budget:
    """How hard `behaviour_belief` works at one position (its arguments of the same names)."""

    samples: int = 64
    exact_budget: int = 2000
    ess_target: float = 0.0
    max_samples: int = 0
    moves: int = 0
    shrink: float = 1.0


@dataclass(frozen=True)
class Weighted:
    """Marginals (item -> holder -> p), their standard errors, and how they were made."""

    marginals: dict[str, dict[str, float]]
    stderr: dict[str, dict[str, float]]
    ess: float
    samples: int
    exact: bool
    moved: bool = False
    """Resampled and moved (`resample_move`): `ess` is then the draws' before resampling,
    and `stderr` treats the moved deals as independent (they are not quite)."""

    def to_dict(self) -> dict[str, object]:
        return {"exact": self.exact, "samples": self.samples, "ess": round(self.ess, 2),
                "marginals": self.marginals, "stderr": self.stderr}

    def by_holder(self, places: int = 6) -> tuple[dict[str, dict[str, float]],
                                                  dict[str, dict[str, float]], float]:
        """The marginals and standard errors as a belief shows them (holder -> item), rounded,
        and the largest standard error: what an `odds` answer sends."""
        marginals: dict[str, dict[str, float]] = {}
        stderr: dict[str, dict[str, float]] = {}
        for item, row in self.marginals.items():
            for holder, p in row.items():
                marginals.setdefault(holder, {})[item] = round(p, places)
                stderr.setdefault(holder, {})[item] = round(self.stderr[item][holder], places)
        worst = max((e for row in stderr.values() for e in row.values()), default=0.0)
        return marginals, stderr, worst


def _normalised(log_weights: Sequence[float]) -> list[float]:
    top = max(log_weights)
    return [math.exp(x - top) for x in log_weights]


def weigh(deals: Sequence[Deal], log_weights: Sequence[float], name: Callable[[Any], str],
          uniform: Mapping[str, Mapping[str, float]] | None, exact: bool,
          shrink: float = 1.0) -> Weighted:
    """Weighted marginals of `deals` (item names by `name`); `uniform` (item -> holder -> p)
    is the exact uniform belief the defensive mixture falls back on (module docstring)."""
    w = _normalised(log_weights)
    total = sum(w)
    squares = sum(x * x for x in w)
    ess = total * total / squares
    first: dict[tuple[str, str], float] = {}
    second: dict[tuple[str, str], float] = {}
    for wi, deal in zip(w, deals, strict=True):
        for holder, held in deal.items():
            for item in held:
                key = (name(item), holder)
                first[key] = first.get(key, 0.0) + wi
                second[key] = second.get(key, 0.0) + wi * wi
    if uniform is not None:  # the belief's own items and holders (a draw-2 deal also
        items = sorted(uniform)  # lists the hidden draws already played: not unseen)
        holders = _holders(uniform)
    else:
        items = sorted({i for i, _ in first})
        holders = sorted({h for deal in deals for h in deal})
    lam = 0.0 if exact or uniform is None else shrink / (shrink + ess)
    marginals: dict[str, dict[str, float]] = {}
    stderr: dict[str, dict[str, float]] = {}
    for item in items:
        row, err = {}, {}
        for h in holders:
            p = first.get((item, h), 0.0) / total
            hits = second.get((item, h), 0.0)  # Σ w² over the deals giving item to h
            var = ((1 - p) ** 2 * hits + p * p * (squares - hits)) / (total * total)
            base = uniform.get(item, {}).get(h, 0.0) if uniform is not None else 0.0
            row[h] = (1 - lam) * p + lam * base
            err[h] = 0.0 if exact else math.sqrt(max(var, 0.0))
        marginals[item] = row
        stderr[item] = err
    return Weighted(marginals, stderr, ess, len(deals), exact)


def list_deals(support: Mapping[Any, Sequence[str]], counts: Mapping[str, int],
               budget: int) -> list[dict[str, list[Any]]] | None:
    """Every assignment of each item to a holder of its support with each holder getting
    exactly its count; None when there are more than `budget`."""
    items = sorted(support, key=lambda t: (len(support[t]), t))
    left = dict(counts)
    out: list[dict[str, list[Any]]] = []
    chosen: list[str] = []
    for _ in _walk_deals(0, items, support, left, chosen):
        deal: dict[str, list[Any]] = {h: [] for h in counts}
        for item, h in zip(items, chosen, strict=True):
            deal[h].append(item)
        out.append(deal)
        if len(out) > budget:
            return None
    return out


def _walk_deals(k: int, items: Sequence[Any], support: Mapping[Any, Sequence[str]],
                left: dict[str, int], chosen: list[str]) -> Iterator[None]:
    """`list_deals`' search from item `k` on: yields once per complete assignment, with the
    holders of `items` in `chosen` (and `left` all zero) at that moment. Module level, not a
    closure: a recursive closure is a reference cycle."""
    if k == len(items):
        if all(v == 0 for v in left.values()):
            yield None
        return
    for h in support[items[k]]:
        if left.get(h, 0) > 0:
            left[h] -= 1
            chosen.append(h)
            yield from _walk_deals(k + 1, items, support, left, chosen)
            chosen.pop()
            left[h] += 1


def behaviour_belief(uniform: Mapping[str, Mapping[str, float]], consistent: int | None,
                     counts: Mapping[str, int], parse: Callable[[str], Any],
                     name: Callable[[Any], str], draw: Callable[[random.Random], Deal],
                     log_weight: Callable[[Deal], float], rng: random.Random,
                     samples: int, exact_budget: int, ess_target: float = 0.0,
                     max_samples: int = 0, moves: int = 0, shrink: float = 1.0) -> Weighted:
    """The behaviour belief at one position: exact listing when the consistent deals number
    at most `exact_budget`, else `samples` importance-weighted exact uniform draws, and
    `samples` more at a time while the ESS is under `ess_target` (up to `max_samples`);
    `moves` > 0: then resampled and moved (`resample_move`) where that is valid. `shrink`:
    the defensive mixture's weight on the uniform belief is shrink / (shrink + ESS).

    `uniform`: item -> holder -> p (the exact uniform marginals); `consistent`: their
    consistent deal count; `counts`: each holder's number of unseen items; `draw`: one
    exact uniform deal; `log_weight`: ln L(deal)."""
    if consistent is not None and consistent <= exact_budget:
        support = {parse(item): [h for h, p in row.items() if p > 0]
                   for item, row in uniform.items()}
        listed = list_deals(support, {h: counts[h] for h in _holders(uniform)}, exact_budget)
        if listed is not None and len(listed) == consistent:
            return weigh(listed, [log_weight(d) for d in listed], name, uniform, exact=True)
    deals: list[Deal] = []
    logs: list[float] = []
    while True:  # draw `samples` more until the ESS reaches its target or the cap
        fresh = [draw(rng) for _ in range(samples)]
        deals += fresh
        logs += [log_weight(d) for d in fresh]
        if len(deals) >= max_samples or _ess(logs) >= ess_target:
            break
    if moves > 0:
        holders_of = {parse(item): tuple(h for h, p in row.items() if p > 0)
                      for item, row in uniform.items()}
        sizes = {h: counts[h] for h in _holders(uniform)}
        if consistent is not None and assignments(holders_of, sizes) == consistent:
            moved = resample_move(deals, logs, holders_of, log_weight, rng, moves)
            result = weigh(moved, [0.0] * len(moved), name, uniform, exact=False,
                           shrink=shrink)
            return Weighted(result.marginals, result.stderr, _ess(logs), len(deals), False,
                            moved=True)
    return weigh(deals, logs, name, uniform, exact=False, shrink=shrink)


def assignments(support: Mapping[Any, Sequence[str]], counts: Mapping[str, int]) -> int:
    """How many ways give each item a holder of its support and each holder its count
    (the class-count DP); 0 when none."""
    holders = tuple(sorted(counts))
    allowed = {item: sum(1 << holders.index(h) for h in hs) for item, hs in support.items()}
    try:
        return solve(Position(holders, allowed, tuple(counts[h] for h in holders))).total
    except Infeasible:
        return 0


def resample_move(deals: Sequence[Deal], log_weights: Sequence[float],
                  support: Mapping[Any, Sequence[str]], log_weight: Callable[[Deal], float],
                  rng: random.Random, moves: int) -> list[Deal]:
    """Resample-move: draw len(deals) deals in proportion to their weights, then move each
    by `moves` Metropolis proposals per item — swap two items between holders that may hold
    them, accepted with probability min(1, L(new) / L(old)). The swap keeps every count and
    is its own inverse (a symmetric proposal), so the chain leaves the behaviour posterior
    over the assignments within the supports invariant: valid when those assignments are
    exactly the consistent deals (the caller checks that their number is `consistent`)."""
    w = _normalised(log_weights)
    picks = rng.choices(range(len(deals)), weights=w, k=len(deals))
    out: list[Deal] = []
    for k in picks:
        holder_of = {item: h for h, held in deals[k].items() for item in held}
        names = list(deals[k])
        items = sorted(holder_of)
        current = log_weights[k]
        for _ in range(moves * len(items)):
            a, b = rng.sample(items, 2)
            ha, hb = holder_of[a], holder_of[b]
            if ha == hb or hb not in support[a] or ha not in support[b]:
                continue
            holder_of[a], holder_of[b] = hb, ha
            proposed = log_weight(_deal(holder_of, names))
            if proposed >= current or rng.random() < math.exp(proposed - current):
                current = proposed
            else:
                holder_of[a], holder_of[b] = ha, hb
        out.append(_deal(holder_of, names))
    return out


def _deal(holder_of: Mapping[Any, str], names: Sequence[str]) -> dict[str, list[Any]]:
    deal: dict[str, list[Any]] = {h: [] for h in names}
    for item, h in holder_of.items():
        deal[h].append(item)
    return deal


def _ess(log_weights: Sequence[float]) -> float:
    w = _normalised(log_weights)
    return sum(w) ** 2 / sum(x * x for x in w)


def _holders(uniform: Mapping[str, Mapping[str, float]]) -> list[str]:
    return sorted({h for row in uniform.values() for h in row})
