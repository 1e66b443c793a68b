"""Exact counts under "not all of these" constraints, by inclusion–exclusion over the class DP.

Some knowledge is not a per-item allowed set but a disjunction: "Plum showed one of Rope,
Hall, Green" (Clue), "the envelope is not Rope-Hall-Green" (a wrong accusation). Each is
`NotAll`: NOT (every listed item lies in its listed mask). Its indicator is 1 - [R] where
[R] is the indicator of a plain restriction of allowed masks, so a set C of them counts as

    |Ω ∩ C| = Σ_{T ⊆ C} (-1)^{|T|} |Ω restricted by ∩_{i∈T} R_i|

and every term is an ordinary Position for the same DP (`inference.counting`): counts and
per-item rows are sums of signed exact integers. Two cheap reductions keep T small, and both
are exact:

* simplification to a fixed point: a constraint one of whose items already lies outside its
  mask always holds (dropped); one that names a single free item is an allowed-set
  restriction (folded into the position); Hall-type propagation (`inference.propagation`)
  tightens the position, which fires both rules again; a constraint implied by another is
  dropped;
* cancellation: terms whose restrictions intersect to the same masks are added before any
  count is run (e.g. the three ways to refute the same triple collapse), and a term whose
  restriction leaves an item nowhere to go is zero and never expanded.

Cost: one DP solve per surviving term, at most 2^k for k open constraints. `split` is the
other exact method: disjoint parts, one plain position each, no signs; `count_cheapest`
enumerates both (no solve needed for that) and runs the one with fewer DP solves. Beyond
`budget` the caller gets `TooManyTerms` and falls back to `estimate`: exact parts as deep as a
budget allows, the exact uniform sampler inside them, rejection on the constraints left open
— unbiased, with a binomial error bar.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic

from inference.classes import Item, Position
from inference.counting import solve, tile_counts
from inference.errors import Infeasible
from inference.propagation import propagate
from inference.sampler import sample_deal

Restriction = tuple[tuple[Item, int], ...]
"""(item, mask) pairs, sorted by item: each item kept inside its mask."""


@dataclass(frozen=True)
class NotAll(Generic[Item]):
    """Not every item of `within` lies in its mask (at least one lies outside it)."""

    within: Restriction

    @classmethod
    def holds_one_of(cls, position: Position[Item], holder: str,
                     items: Iterable[Item]) -> NotAll[Item]:
        """`holder` holds at least one of `items` (= not all of them lie elsewhere)."""
        full = (1 << len(position.holders)) - 1
        bit = 1 << position.holder_index(holder)
        return cls(tuple(sorted((t, full ^ bit) for t in set(items))))

    @classmethod
    def not_all_with(cls, pairs: Iterable[tuple[Item, int]]) -> NotAll[Item]:
        return cls(tuple(sorted(pairs)))

    def satisfied_by(self, where: dict[Item, int]) -> bool:
        """Whether a deal (item -> holder index) satisfies the constraint."""
        return _outside(self, where)


FEW_TERMS = 128
"""Up to this many inclusion–exclusion terms, `count_cheapest` does not try the parts: their
enumeration (a simplification per part) costs more than the solves it could save."""


class TooManyTerms(Exception):
    """The inclusion–exclusion would run more DP solves than the budget allows."""


@dataclass(frozen=True)
class Simplified(Generic[Item]):
    position: Position[Item]
    constraints: tuple[NotAll[Item], ...]


def simplify(position: Position[Item], constraints: Sequence[NotAll[Item]]) -> Simplified[Item]:
    """An equivalent position and fewer, shorter constraints (raises Infeasible if none fit)."""
    allowed = dict(position.allowed)
    pending = list(constraints)
    while True:
        changed = False
        kept: list[NotAll[Item]] = []
        for constraint in pending:
            inside: list[tuple[Item, int]] = []
            always = False
            for t, mask in constraint.within:
                if t not in allowed:
                    raise KeyError(f"{t!r} is not an item of the position")
                m = allowed[t] & mask
                if m == 0:
                    always = True
                    break
                if m != allowed[t]:
                    inside.append((t, m))
            if always:
                continue
            if not inside:
                raise Infeasible("a disjunction no deal can satisfy")
            if len(inside) == 1:
                t, m = inside[0]
                allowed[t] &= ~m
                changed = True
                continue
            kept.append(NotAll(tuple(inside)))
        kept = _without_implied(list(dict.fromkeys(kept)))
        tightened = propagate(Position(position.holders, allowed, position.counts)).position
        if dict(tightened.allowed) != allowed:
            allowed = dict(tightened.allowed)
            changed = True
        pending = kept
        if not changed:
            return Simplified(Position(position.holders, allowed, position.counts), tuple(kept))


def _implies(a: NotAll, b: NotAll) -> bool:
    """[R_a] ⊆ [R_b]: then NOT-b implies NOT-a, and a is redundant beside b."""
    masks = dict(a.within)
    return all(t in masks and masks[t] & ~m == 0 for t, m in b.within)


def _without_implied(constraints: list[NotAll]) -> list[NotAll]:
    out: list[NotAll] = []
    for i, a in enumerate(constraints):
        if any(j != i and _implies(a, b) and (not _implies(b, a) or j < i)
               for j, b in enumerate(constraints)):
            continue
        out.append(a)
    return out


def terms(position: Position[Item], constraints: Sequence[NotAll[Item]],
          budget: int) -> dict[Restriction, int]:
    """The signed inclusion–exclusion terms, equal restrictions added up (zeros dropped)."""
    allowed = position.allowed
    out: dict[Restriction, int] = {(): 1}
    for constraint in constraints:
        grown = dict(out)
        for key, coefficient in out.items():
            merged = dict(key)
            for t, mask in constraint.within:
                m = merged.get(t, allowed[t]) & mask
                if m == 0:
                    break
                merged[t] = m
            else:
                new_key = tuple(sorted(merged.items()))
                value = grown.get(new_key, 0) - coefficient
                if value:
                    grown[new_key] = value
                else:
                    grown.pop(new_key, None)
        out = grown
        if len(out) > budget:
            raise TooManyTerms(f"over {budget} inclusion–exclusion terms")
    return out


@dataclass(frozen=True)
class Counted(Generic[Item]):
    """Exact: the consistent deals and, per item and holder index, the deals giving it there."""

    total: int
    rows: dict[Item, list[int]]
    terms: int
    constraints: int


def count(position: Position[Item], constraints: Sequence[NotAll[Item]],
          budget: int = 4096) -> Counted[Item]:
    """Exact counts by inclusion–exclusion (Infeasible if none; TooManyTerms past `budget`)."""
    simple = simplify(position, constraints)
    return _by_terms(simple, terms(simple.position, simple.constraints, budget))


def count_cheapest(position: Position[Item], constraints: Sequence[NotAll[Item]],
                   budget: int) -> Counted[Item]:
    """Exact counts by whichever method needs fewer DP solves: inclusion–exclusion's terms or
    the disjoint parts (enumerating either costs no solve; the parts are not tried for
    FEW_TERMS terms or fewer). TooManyTerms when both need more than `budget`."""
    simple = simplify(position, constraints)
    try:
        expansion: dict[Restriction, int] | None = terms(simple.position, simple.constraints,
                                                         budget)
    except TooManyTerms:
        expansion = None
    if expansion is not None and len(expansion) <= FEW_TERMS:
        return _by_terms(simple, expansion)  # enumerating parts would cost more than this
    limit = budget if expansion is None else len(expansion) - 1
    try:
        parts = split(position, constraints, limit) if limit > 0 else None
    except TooManyTerms:
        parts = None
    if parts is not None:
        return _by_parts(position, parts, len(simple.constraints))
    if expansion is None:
        raise TooManyTerms(f"over {budget} DP solves either way")
    return _by_terms(simple, expansion)


def _by_terms(simple: Simplified[Item], expansion: dict[Restriction, int]) -> Counted[Item]:
    base = simple.position
    m = len(base.holders)
    total = 0
    rows: dict[Item, list[int]] = {t: [0] * m for t in base.allowed}
    for key, coefficient in expansion.items():
        part = Position(base.holders, {**base.allowed, **dict(key)}, base.counts)
        try:
            n, part_rows = tile_counts(part)
        except Infeasible:
            continue
        total += coefficient * n
        for t, row in part_rows.items():
            acc = rows[t]
            for h in range(m):
                if row[h]:
                    acc[h] += coefficient * row[h]
    if total <= 0:
        raise Infeasible("no deal satisfies every disjunction")
    return Counted(total, rows, len(expansion), len(simple.constraints))


@dataclass(frozen=True)
class Estimate(Generic[Item]):
    """Marginals by rejection sampling from the exact sampler; `half_width` is the largest
    95% binomial half-width over all (item, holder) cells."""

    probabilities: dict[Item, list[float]]
    accepted: int
    drawn: int
    half_width: float


def estimate(position: Position[Item], constraints: Sequence[NotAll[Item]],
             rng: random.Random, draws: int = 4000, parts_budget: int = 256) -> Estimate[Item]:
    """Unbiased marginals by sampling. The deals satisfying the first constraints are split
    exactly into disjoint parts (as deep as `parts_budget` allows); a part is drawn with
    probability |part| / |union|, a deal uniformly inside it (the exact sampler), and kept
    when the constraints left open hold. Each kept deal is uniform over the consistent deals,
    so the frequencies are unbiased; the error bar is binomial (95%)."""
    parts = [simplify(position, constraints)]
    depth = 1
    while any(p.constraints for p in parts):
        try:
            deeper = split(position, constraints, parts_budget, depth)
        except TooManyTerms:
            break
        parts, depth = deeper, depth + 1
    weights = [solve(p.position, tables=True) for p in parts]
    totals = [w.total for w in weights]
    grand = sum(totals)
    holders = position.holders
    m = len(holders)
    hits: dict[Item, list[int]] = {t: [0] * m for t in position.allowed}
    accepted = 0
    for _ in range(draws):
        x = rng.randrange(grand)
        k = 0
        while x >= totals[k]:
            x -= totals[k]
            k += 1
        deal = sample_deal(parts[k].position, rng, weights[k])
        where = {t: holders.index(h) for h, items in deal.items() for t in items}
        if all(_outside(c, where) for c in parts[k].constraints):
            accepted += 1
            for t, h in where.items():
                hits[t][h] += 1
    if accepted == 0:
        raise Infeasible(f"no deal of {draws} drawn satisfies the disjunctions")
    probabilities = {t: [c / accepted for c in row] for t, row in hits.items()}
    half = max((1.96 * math.sqrt(p * (1 - p) / accepted) for row in probabilities.values()
                for p in row), default=0.0)
    # a cell never (or always) hit has no binomial spread: the rule of three bounds it instead
    return Estimate(probabilities, accepted, draws, max(half, 3 / accepted))


def _outside(constraint: NotAll, where: dict) -> bool:
    return not all(mask >> where[t] & 1 for t, mask in constraint.within)



def split(position: Position[Item], constraints: Sequence[NotAll[Item]], budget: int,
          depth: int | None = None) -> list[Simplified[Item]]:
    """Disjoint parts whose union is exactly the constrained deals (no signs).

    Branch on the constraint with the fewest items (ties: the one sharing most (item, mask)
    pairs with the others): part i keeps items 1..i-1 inside their masks and puts item i outside
    its mask, the items ordered so the first part settles the most other constraints. Each part
    is simplified again, which drops the constraints it satisfies (a seat forced to hold a card
    satisfies every other disjunction naming it) and prunes parts no deal fits (a hand over its
    size), so the parts are far fewer than the 3^k of a blind split. With `depth`, branching
    stops that deep and a part keeps its pending constraints (for the sampler). Raises
    TooManyTerms past `budget` parts.
    """
    out: list[Simplified[Item]] = []
    _split_walk(position, constraints, 0, depth, budget, out)
    return out


def _split_walk(pos: Position[Item], pending: Sequence[NotAll[Item]], level: int,
                depth: int | None, budget: int, out: list[Simplified[Item]]) -> None:
    """`split`'s branching below one part, appending the finished parts to `out`. Module
    level, not a closure: a recursive closure is a reference cycle."""
    try:
        simple = simplify(pos, pending)
    except Infeasible:
        return
    if not simple.constraints or (depth is not None and level >= depth):
        out.append(simple)
        if len(out) > budget:
            raise TooManyTerms(f"over {budget} parts")
        return
    shared: dict[tuple[Item, int], int] = {}
    for c in simple.constraints:
        for pair in c.within:
            shared[pair] = shared.get(pair, 0) + 1
    # the shortest constraint, among those the one sharing the most with the others
    pivot = min(simple.constraints, key=lambda c: (len(c.within),
                                                   -sum(shared[p] for p in c.within)))
    rest = [c for c in simple.constraints if c is not pivot]
    allowed = dict(simple.position.allowed)
    # first the item whose placement outside its mask settles the most other constraints
    for t, mask in sorted(pivot.within, key=lambda pair: -shared.get(pair, 0)):
        part = {**allowed, t: allowed[t] & ~mask}
        _split_walk(Position(pos.holders, part, pos.counts), rest, level + 1, depth, budget, out)
        allowed[t] &= mask


def count_by_parts(position: Position[Item], constraints: Sequence[NotAll[Item]],
                   budget: int) -> Counted[Item]:
    """The same exact counts as `count`, summed over the disjoint parts of `split`."""
    open_ = len(simplify(position, constraints).constraints)
    return _by_parts(position, split(position, constraints, budget), open_)


def _by_parts(position: Position[Item], parts: list[Simplified[Item]], open_: int
              ) -> Counted[Item]:
    m = len(position.holders)
    total = 0
    rows: dict[Item, list[int]] = {t: [0] * m for t in position.allowed}
    for part in parts:
        n, part_rows = tile_counts(part.position)
        total += n
        for t, row in part_rows.items():
            acc = rows[t]
            for h in range(m):
                acc[h] += row[h]
    if total == 0:
        raise Infeasible("no deal satisfies every disjunction")
    return Counted(total, rows, len(parts), open_)
