"""What a suggestion is expected to teach about the envelope, over deals drawn from a belief.

Shared by the `infomax` bot (games.clue.bots), which suggests the triple that teaches most,
and the advisor (games.clue.advisor), which shows the ranking with its figures: one scoring,
so the advice says exactly what the bot does.

The outcome of a suggestion is who refutes it and the card shown to the suggester (the
refuter's choice among the cards it holds taken as uniform); the figure is the mutual
information I(outcome; envelope) in bits, H(envelope) - H(envelope | outcome), both plug-in
estimates over the same deals, each drawn uniformly from those consistent with the view
(the exact sampler of the simplified position, kept when every open disjunction holds).
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.clue.belief import SLOTS, position_of
from games.clue.cards import TYPES
from games.clue.knowledge import Knowledge
from games.clue.state import ClueState
from inference.inclusion_exclusion import simplify
from inference.sampler import sample_deal

Triple = tuple[str, str, str]
DRAW_LIMIT = 1500
"""Proposals of the exact sampler per call at most (rejection on the disjunctions)."""


def draw_deals(knowledge: Knowledge, rng: random.Random, samples: int,
               limit: int = DRAW_LIMIT) -> list[dict[str, int]]:
    """Up to `samples` deals (card -> holder index) uniform over the observer's consistent
    deals: the exact sampler of the simplified position, kept when every disjunction holds."""
    position, constraints = position_of(knowledge)
    simple = simplify(position, constraints)
    holders = simple.position.holders
    out: list[dict[str, int]] = []
    for _ in range(limit):
        deal = sample_deal(simple.position, rng)
        where = {t: holders.index(h) for h, items in deal.items() for t in items}
        if all(c.satisfied_by(where) for c in simple.constraints):
            out.append(where)
            if len(out) == samples:
                break
    return out


@dataclass(frozen=True)
class Drawn:
    """Deals for one seat's suggestion: each deal's holders and envelope, and the seats
    asked to refute in order (with their holder index)."""

    wheres: list[dict[str, int]]
    envelopes: list[tuple[str, ...]]
    order: tuple[str, ...]
    seat_index: dict[str, int]


def prepare(state: ClueState, knowledge: Knowledge, seat: str,
            deals: Sequence[dict[str, int]]) -> Drawn:
    """The deals with their envelopes read off, for `seat`'s suggestion."""
    deck = state.deck
    position, _ = position_of(knowledge)
    holders = position.holders
    slot_index = [holders.index(SLOTS[kind]) for kind in TYPES]
    order = state.refute_order(seat)
    envelopes = [tuple(sorted((c for c, h in where.items() if h in slot_index),
                              key=lambda c: TYPES.index(deck.type_of(c))))
                 for where in deals]
    return Drawn(list(deals), envelopes, order, {s: holders.index(s) for s in order})


def entropy(counter: Counter[Any] | dict[Any, float], total: float) -> float:
    return -sum(v / total * math.log2(v / total) for v in counter.values() if v > 0)


def conditional_entropy(triple: Triple, drawn: Drawn,
                        picks: Sequence[int] | None = None) -> float:
    """H(envelope | outcome of suggesting `triple`) over the deals (`picks`: their indices,
    e.g. a bootstrap resample; all by default)."""
    indices = range(len(drawn.wheres)) if picks is None else picks
    n = len(indices)
    joint: dict[tuple[Any, ...], dict[tuple[str, ...], float]] = defaultdict(
        lambda: defaultdict(float))
    for k in indices:
        where, env = drawn.wheres[k], drawn.envelopes[k]
        outcome: tuple[Any, ...] = ("none",)
        for other in drawn.order:
            i = drawn.seat_index[other]
            held = [c for c in triple if where[c] == i]
            if held:
                for c in held:
                    joint[(other, c)][env] += 1 / len(held)
                break
        else:
            joint[outcome][env] += 1.0
    return sum(sum(row.values()) / n * entropy(row, sum(row.values())) for row in joint.values())


def envelope_entropy(drawn: Drawn, picks: Sequence[int] | None = None) -> float:
    """H(envelope) over the deals (plug-in)."""
    envs = drawn.envelopes if picks is None else [drawn.envelopes[k] for k in picks]
    return entropy(Counter(envs), len(envs))


def triples(state: ClueState) -> list[Triple]:
    """Every suggestion, in the deck's order (suspect, then weapon, then room)."""
    deck = state.deck
    return [(s, w, r) for s in deck.suspects for w in deck.weapons for r in deck.rooms]


def suggestion_entropies(state: ClueState, drawn: Drawn) -> list[tuple[Triple, float]]:
    """Every triple with H(envelope | its outcome), in the deck's order (lower: more
    information; I = envelope_entropy - this)."""
    return [(t, conditional_entropy(t, drawn)) for t in triples(state)]
