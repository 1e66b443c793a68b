"""A belief's result at one position, by any method, in one JSON-able shape."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from games.dominoes.conditions import WordedCondition
from games.dominoes.facts import Fact, facts
from games.dominoes.tiles import Tile
from inference.classes import Position
from inference.counting import entropy, solve
from inference.parts import Count

METHODS = ("exact", "enumerate", "rejection", "rejection-seed", "constrained", "mcmc")
"""exact (default, the DP); the rest are the seed's references (inference.references)."""

_NAMES: dict[Tile, str] = {}


def tile_name(t: Tile) -> str:
    text = _NAMES.get(t)
    if text is None:
        text = _NAMES[t] = f"{t.low}-{t.high}"
    return text


@dataclass(frozen=True)
class Observation:
    """An observer's position after event `seq`, as plain data (what a Belief knows now).

    The snapshot is computed from this, not from a Belief, so this module needs no Belief.
    """

    seq: int
    observer: str
    hand: int | None
    status: str
    position: Position
    remaining: dict[str, int]
    tight_sets: tuple[int, ...] = ()
    condition: WordedCondition | None = None
    condition_count: Count | None = None


@dataclass(frozen=True)
class BeliefSnapshot:
    """Marginals and facts of one observer after event `seq`.

    consistent_deals is exact for `exact` and `enumerate`, None for the samplers (they
    estimate marginals only). Outside a hand in play (status idle/waiting/ended) there is
    nothing unseen: marginals are empty and consistent_deals is None (idle, waiting) or 1
    (ended: every tile was revealed by hand_ended).
    """

    seq: int
    observer: str
    hand: int | None
    status: str
    method: str
    consistent_deals: int | None
    log2_deals: float | None
    marginals: dict[str, dict[str, float]]
    tile_entropy: dict[str, float]
    facts: list[str]
    remaining: dict[str, int]
    samples: int | None = None
    fact_items: list[Fact] = field(default_factory=list, repr=False)

    @property
    def marginal_entropy(self) -> float:
        """Σ_t H(t): per-tile entropies added up (an upper bound of log2 |Ω|)."""
        return sum(self.tile_entropy.values())

    def to_json_dict(self) -> dict:
        return {
            "seq": self.seq,
            "observer": self.observer,
            "hand": self.hand,
            "status": self.status,
            "method": self.method,
            "consistent_deals": self.consistent_deals,
            "entropy_bits": self.log2_deals,
            "marginal_entropy_bits": self.marginal_entropy,
            "tile_entropy_bits": self.tile_entropy,
            "remaining": self.remaining,
            "samples": self.samples,
            "marginals": self.marginals,
            "facts": self.facts,
        }


def exact_tables(position: Position) -> tuple[int, dict[str, dict[str, float]], dict[str, float]]:
    """(|Ω|, marginals by holder and tile name, entropy by tile name) by the exact DP."""
    solution = solve(position)
    holders = position.holders
    m = len(holders)
    total = solution.total
    per_class: dict[int, tuple[list[float], float]] = {}
    for mask, tiles in position.classes().items():
        if mask & (mask - 1) == 0:
            probs = [float(mask >> h & 1) for h in range(m)]
        else:
            denom = len(tiles) * total
            probs = [num / denom for num in solution.numerators[solution.class_index(mask)]]
        per_class[mask] = (probs, entropy(probs))
    allowed = position.allowed
    rows = [(tile_name(t), per_class[allowed[t]]) for t in sorted(allowed)]
    out = {holder: {key: probs[h] for key, (probs, _) in rows}
           for h, holder in enumerate(holders)}
    ent = {key: e for key, (_, e) in rows}
    return total, out, ent


def condition_tables(
    position: Position, count: Count
) -> tuple[int, dict[str, dict[str, float]], dict[str, float]]:
    """exact_tables under a pending disjunction (inference.parts), from its exact counts."""
    total = count.total
    out: dict[str, dict[str, float]] = {h: {} for h in position.holders}
    columns = [out[h] for h in position.holders]
    ent: dict[str, float] = {}
    for t in sorted(position.allowed):
        probs = [c / total for c in count.counts[t]]
        key = tile_name(t)
        ent[key] = entropy(probs)
        for h, p in enumerate(probs):
            columns[h][key] = p
    return total, out, ent


def _named(estimate: dict[str, dict[Tile, float]]) -> tuple[dict, dict[str, float]]:
    out = {h: {tile_name(t): p for t, p in sorted(col.items())} for h, col in estimate.items()}
    tiles = sorted({t for col in estimate.values() for t in col})
    ent = {tile_name(t): entropy([estimate[h][t] for h in estimate]) for t in tiles}
    return out, ent


def build_snapshot(
    seen: Observation,
    method: str = "exact",
    *,
    samples: int = 10_000,
    rng: random.Random | None = None,
    budget: int = 2_000_000,
) -> BeliefSnapshot:
    """Run `method` on the observed position; facts always come from propagation."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (one of {', '.join(METHODS)})")
    position, remaining = seen.position, seen.remaining
    if seen.status != "live":
        deals = 1 if seen.status == "ended" else None
        return BeliefSnapshot(
            seen.seq, seen.observer, seen.hand, seen.status, method, deals,
            0.0 if deals else None, {}, {}, [], remaining,
        )
    items = facts(position, seen.tight_sets)
    condition, counted = seen.condition, seen.condition_count
    if condition is not None:
        items.append(condition.fact(position))
    count: int | None
    n_samples: int | None = None
    if method == "exact":
        count, marg, ent = (condition_tables(position, counted) if counted is not None
                            else exact_tables(position))
    else:
        from inference import references

        rng = rng or random.Random(0)
        if method == "enumerate":
            result = references.enumerate_deals(position, budget=budget)
        elif method == "rejection":
            result = references.rejection(position, rng, samples=samples)
        elif method == "rejection-seed":
            result = references.rejection_seed(position, rng, samples=samples)
        elif method == "constrained":
            result = references.constrained(position, rng, samples=samples)
        else:
            result = references.mcmc(position, rng, samples=samples)
        count, n_samples = result.consistent_deals, result.samples
        marg, ent = _named(result.marginals)
    return BeliefSnapshot(
        seen.seq, seen.observer, seen.hand, seen.status, method, count,
        math.log2(count) if count else None, marg, ent, [f.text for f in items],
        remaining, n_samples, items,
    )
