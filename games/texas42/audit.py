"""Seed 003's adversarial audit of the double-dummy evaluator: random completions say how
often a bid is made; this searches the completions near them for where that verdict breaks.

A neighbour of a completion exchanges one domino between two of the hidden hands (the
bidder's own hand never changes: every neighbour is a deal the bidder cannot tell apart).
 - `fragility`: the share of completions whose make/set verdict at a bid flips under some
   single exchange (of `tries` drawn): verdicts that rest on one domino's place;
 - `worst_case`: a descent from a completion, one exchange at a time, towards the bidders'
   lowest double-dummy score: how bad an indistinguishable deal gets (the seed's worst-case
   model, as a search, not a proof of the minimum).
Seeded and counted in exchanges tried (work), never time. Pure.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.texas42.dominoes import SEATS, Tile, team_of
from games.texas42.kernel import FastSolver
from games.texas42.scoring import needed
from games.texas42.solver import hands_of

Deal = Mapping[str, Sequence[Tile]]


def score(deal: Deal, trump: int, bidder: str) -> int:
    """The bidder's team's double-dummy points, the bidder leading."""
    ns = FastSolver(trump).value(hands_of([deal[s] for s in SEATS]), SEATS.index(bidder))
    return ns if team_of(bidder) == "NS" else 42 - ns


def exchange(deal: Deal, bidder: str, rng: random.Random) -> dict[str, tuple[Tile, ...]]:
    """The deal with one domino of one hidden hand swapped with one of another."""
    a, b = rng.sample([s for s in SEATS if s != bidder], 2)
    x, y = rng.choice(list(deal[a])), rng.choice(list(deal[b]))
    out: dict[str, tuple[Tile, ...]] = {s: tuple(deal[s]) for s in SEATS}
    out[a] = tuple(sorted(y if t == x else t for t in deal[a]))
    out[b] = tuple(sorted(x if t == y else t for t in deal[b]))
    return out


def fragility(deals: Sequence[Deal], trump: int, bidder: str, bid: int, rng: random.Random,
              tries: int = 8) -> float:
    """The share of `deals` whose verdict at `bid` flips under one of `tries` exchanges."""
    flipped = 0
    for deal in deals:
        made = score(deal, trump, bidder) >= needed(bid)
        for _ in range(tries):
            if (score(exchange(deal, bidder, rng), trump, bidder) >= needed(bid)) != made:
                flipped += 1
                break
    return flipped / len(deals) if deals else 0.0


def worst_case(deal: Deal, trump: int, bidder: str, rng: random.Random, steps: int = 10,
               tries: int = 8) -> tuple[int, int]:
    """(the lowest bidder score found, exchanges kept) by descent from `deal`: at each step
    the best of `tries` exchanges, kept while it lowers the score."""
    current: Deal = deal
    best = score(deal, trump, bidder)
    kept = 0
    for _ in range(steps):
        candidates = [exchange(current, bidder, rng) for _ in range(tries)]
        scored = min(((score(c, trump, bidder), k) for k, c in enumerate(candidates)))
        if scored[0] >= best:
            break
        best, current, kept = scored[0], candidates[scored[1]], kept + 1
    return best, kept


def audit(deals: Sequence[Deal], trump: int, bidder: str, bid: int, rng: random.Random,
          starts: int = 4, tries: int = 8, steps: int = 10) -> dict[str, Any]:
    """The audit of one (trump, bid) over `deals`: fragility, and worst cases from the first
    `starts` completions (with their random-sample scores beside them)."""
    worst = [worst_case(d, trump, bidder, rng, steps, tries) for d in deals[:starts]]
    return {"bid": bid, "completions": len(deals), "tries": tries,
            "fragility": fragility(deals, trump, bidder, bid, rng, tries),
            "start_scores": [score(d, trump, bidder) for d in deals[:starts]],
            "worst_scores": [w[0] for w in worst], "exchanges_kept": [w[1] for w in worst]}
