"""Exact uniform sampling of whole deals from the posterior (no rejection, no bias).

Walk the classes in the programme's order: from state g choose class k's split with
probability w(split)·B_{k+1}(g+split) / B_k(g) (exact integer weights), the last class
takes what is left; then deal each class's tiles to its split uniformly by a shuffle.
The product of the choice probabilities is (Π_c w_c)/|Ω| for the chosen splits, and each
split stands for exactly Π_c w_c labelled deals, so every deal has probability 1/|Ω|.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from inference.classes import Item, Position
from inference.counting import Solution, Tail, decode, encode, solve, splits
from inference.errors import Infeasible
from inference.parts import Disjunction


def sample_deal(
    position: Position[Item], rng: random.Random, solution: Solution | None = None
) -> dict[str, list[Item]]:
    """One deal drawn uniformly from the consistent deals: holder -> its unseen items."""
    solution = solution if solution and solution.backward else solve(position, tables=True)
    holders = position.holders
    m = len(holders)
    deal: dict[str, list[Item]] = {h: [] for h in holders}
    classes = position.classes()
    for mask, tiles in classes.items():
        if mask & (mask - 1) == 0:
            deal[holders[mask.bit_length() - 1]].extend(tiles)
    order, r = solution.order, solution.counts
    g = 0
    chosen: list[tuple[int, ...]] = []
    enumerated = len(order) - solution.tail
    for k, (mask, n) in enumerate(order[:enumerated]):
        nxt = solution.backward[k + 1]
        x = rng.randrange(solution.backward[k][g])
        for s, w, vec in splits(mask, n, r):
            b = nxt.get(g + s)
            if b:
                x -= w * b
                if x < 0:
                    g += s
                    chosen.append(vec)
                    break
        else:  # pragma: no cover - the weights sum to backward[k][g] by construction
            raise AssertionError("sampler weights do not add up")
    if order:  # the closed-form tail: each class's spread over its atoms, then its holders
        closed = solution.closed or Tail(order[enumerated:], m)
        chosen.extend(closed.sample(list(decode(encode(r) - g, m)), rng))
    for (mask, _), vec in zip(order, chosen, strict=True):
        tiles = list(classes[mask])
        rng.shuffle(tiles)
        start = 0
        for h in range(m):
            if vec[h]:
                deal[holders[h]].extend(tiles[start : start + vec[h]])
                start += vec[h]
    for hand in deal.values():
        hand.sort()
    return deal


class Posterior(Protocol):
    """What the sampler reads from a belief: plain data, so it need not know Belief."""

    @property
    def condition(self) -> Disjunction | None: ...

    def position(self) -> Position: ...


def _solution(position: Position) -> Solution | None:
    try:
        return solve(position, tables=True)
    except Infeasible:
        return None


class DealSampler:
    """Draws of a belief's unseen tiles, exact and uniform, parts included (inference.parts).

    Without a pending condition this is sample_deal on the position; with one, a part is
    chosen with probability |part| / |union| and a deal drawn uniformly inside it, so every
    deal of the (disjoint) union has probability 1 / |union|.
    """

    def __init__(self, parts: list[Position], solutions: list[Solution]) -> None:
        self.parts = parts
        self.solutions = solutions
        self.totals = [s.total for s in solutions]
        self.total = sum(self.totals)

    @classmethod
    def over(cls, position: Position, condition: Disjunction | None = None) -> DealSampler:
        """The sampler of `position`'s deals, restricted to `condition` when one is pending."""
        parts = condition.parts(position) if condition is not None else [position]
        solutions = [_solution(p) for p in parts]
        kept = [(p, s) for p, s in zip(parts, solutions, strict=True) if s is not None]
        return cls([p for p, _ in kept], [s for _, s in kept])

    @classmethod
    def of(cls, posterior: Posterior) -> DealSampler:
        """The sampler of a belief (anything with a position and a pending condition)."""
        return cls.over(posterior.position(), posterior.condition)

    def __call__(self, rng: random.Random) -> dict[str, list[Any]]:
        k = 0
        if len(self.parts) > 1:
            x = rng.randrange(self.total)
            while x >= self.totals[k]:
                x -= self.totals[k]
                k += 1
        return sample_deal(self.parts[k], rng, self.solutions[k])
