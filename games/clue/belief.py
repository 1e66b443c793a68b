"""Exact beliefs of one observer: P(holder has card) for every seat and the envelope, and
P(envelope = each suspect, weapon, room), under the uniform deal.

The model: the envelope is three holders of one card each, each restricted to one type; the
seats hold their public hand sizes; every deal consistent with what the observer has seen is
equally likely (how players pick suggestions, and which card a refuter picks, is ignored).
"Could not refute" strikes a seat from three cards' allowed sets; "showed one of three" and
"the envelope is not these three" are disjunctions, counted exactly in one programme over
the cards whose state carries the open disjunctions (`inference.frontier`). Past
`WORK_BUDGET` transitions of that programme, the snapshot is an estimate from the exact
sampler, with its error bar, and says so in `model` and `status`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.clue.cards import TYPES
from games.clue.events import ClueEvent
from games.clue.fact_lines import fact_groups
from games.clue.facts import deduce
from games.clue.knowledge import ENVELOPE, Knowledge
from inference.classes import Position
from inference.errors import Infeasible
from inference.frontier import count_frontier
from inference.inclusion_exclusion import NotAll, TooManyTerms, estimate

SLOTS = {kind: f"{ENVELOPE}:{kind}" for kind in TYPES}
WORK_BUDGET = 1_000_000
"""Transitions (state × holder, forward and backward) of the exact programme allowed per
update before the belief falls back to the labelled sampling estimate: counted in work, so a
position gets the same answer on any machine (about 0.4 µs each here)."""
SAMPLE_DRAWS = 2000
MODEL = ("uniform over the deals consistent with what this observer has seen "
         "(how players choose suggestions and cards to show is ignored)")


def position_of(knowledge: Knowledge) -> tuple[Position[str], list[NotAll[str]]]:
    """The counting problem: allowed holders per card and the open disjunctions."""
    deck = knowledge.deck
    assert deck is not None
    holders = (*knowledge.seats, *SLOTS.values())
    index = {h: i for i, h in enumerate(holders)}
    observer_bit = 1 << index[knowledge.observer] if knowledge.observer in index else 0
    seat_bits = sum(1 << index[s] for s in knowledge.seats)
    allowed: dict[str, int] = {}
    for card in deck.cards:
        slot = 1 << index[SLOTS[deck.type_of(card)]]
        holder = knowledge.seen.get(card)
        if holder is not None:
            allowed[card] = slot if holder == ENVELOPE else 1 << index[holder]
            continue
        mask = (seat_bits & ~observer_bit) | slot
        for seat, cards in knowledge.excluded.items():
            if card in cards:
                mask &= ~(1 << index[seat])
        allowed[card] = mask
    counts = (*(knowledge.hand_sizes[s] for s in knowledge.seats), 1, 1, 1)
    position = Position(holders, allowed, counts)
    constraints = [NotAll.holds_one_of(position, r.seat, r.cards) for r in knowledge.refutations]
    constraints += [NotAll.not_all_with((c, 1 << index[SLOTS[deck.type_of(c)]]) for c in triple)
                    for _, triple in knowledge.wrong_accusations]
    return position, constraints


@dataclass(frozen=True)
class Solved:
    """Per card, per holder (seats, then ENVELOPE): a probability; exact ones as Fractions."""

    exact: bool
    probabilities: dict[str, dict[str, Fraction | float]]
    total: int | None = None
    terms: int = 0
    """The exact programme's work (transitions), reported as `terms`."""
    open_disjunctions: int = 0
    accepted: int = 0
    drawn: int = 0
    half_width: float = 0.0


def solve(knowledge: Knowledge, budget: int = WORK_BUDGET, rng: random.Random | None = None
          ) -> Solved:
    position, constraints = position_of(knowledge)
    holders = position.holders
    n_seats = len(knowledge.seats)

    def fold(row: list[Any]) -> dict[str, Any]:
        out = {s: row[i] for i, s in enumerate(knowledge.seats)}
        out[ENVELOPE] = sum(row[n_seats:])
        return out

    try:
        counted = count_frontier(position, constraints, budget)
    except TooManyTerms:
        sampled = estimate(position, constraints, rng or random.Random(knowledge.seq),
                           SAMPLE_DRAWS)
        probs = {c: fold(row) for c, row in sampled.probabilities.items()}
        return Solved(False, probs, None, 0, len(constraints), sampled.accepted, sampled.drawn,
                      sampled.half_width)
    assert len(holders) == n_seats + 3
    probs = {c: fold([Fraction(v, counted.total) for v in row])
             for c, row in counted.rows.items()}
    return Solved(True, probs, counted.total, counted.terms, counted.constraints)


class ClueBelief:
    """One observer's belief, folded from its own view, solved on demand (cached per seq)."""

    costly = True
    """An update can take seconds (the count grows with the players): off the event loop."""

    def __init__(self, observer: str, budget: int = WORK_BUDGET) -> None:
        self.knowledge = Knowledge(observer)
        self.budget = budget
        self._cache: tuple[int, Solved | None] | None = None

    @property
    def observer(self) -> str:
        return self.knowledge.observer

    def apply(self, event: ClueEvent) -> None:
        self.knowledge.apply(event)
        self._cache = None

    def solved(self) -> Solved | None:
        if self._cache is None or self._cache[0] != self.knowledge.seq:
            result = solve(self.knowledge, self.budget) if self.knowledge.dealt else None
            self._cache = (self.knowledge.seq, result)
        return self._cache[1]

    def envelope_odds(self) -> dict[str, dict[str, float]]:
        solved = self.solved()
        deck = self.knowledge.deck
        if solved is None or deck is None:
            return {}
        return {kind: {c: float(solved.probabilities[c][ENVELOPE]) for c in deck.of_type(kind)}
                for kind in TYPES}

    def snapshot_dict(self) -> dict[str, Any]:
        k = self.knowledge
        head: dict[str, Any] = {"seq": k.seq, "observer": k.observer, "model": MODEL,
                                "facts": []}
        try:
            solved = self.solved()
        except Infeasible as error:
            return {**head, "status": "inconsistent", "error": str(error), "marginals": {}}
        if solved is None or k.deck is None:  # solved only once dealt, with its deck
            return {**head, "status": "waiting for the deal", "marginals": {}}
        marginals = {h: {c: float(solved.probabilities[c][h]) for c in k.deck.cards}
                     for h in k.holders}
        odds = self.envelope_odds()
        envelope_bits = sum(-p * math.log2(p) for row in odds.values() for p in row.values()
                            if 0 < p < 1)
        out = {**head, "marginals": marginals, "envelope": odds,
               "envelope_entropy_bits": round(envelope_bits, 6),
               **_facts(k, marginals.get(ENVELOPE, {})),
               "hand_sizes": dict(k.hand_sizes),
               "open_disjunctions": solved.open_disjunctions}
        if k.observer in k.hand_sizes:
            out["hand"] = sorted(c for c, h in k.seen.items() if h == k.observer)
        if solved.exact:
            assert solved.total is not None
            return {**out, "status": "exact", "consistent_deals": solved.total,
                    "entropy_bits": round(math.log2(solved.total), 6),
                    "terms": solved.terms}
        return {**out, "status": "estimate",
                "model": (f"estimate: {solved.accepted} of {solved.drawn} uniform deals from the "
                          f"exact sampler kept (rejection on {solved.open_disjunctions} "
                          f"disjunctions), each probability ±{solved.half_width:.3f} (95%); "
                          f"exact counting needs over {self.budget} transitions; {MODEL}"),
                "error_95": solved.half_width}


def _facts(k: Knowledge, envelope: dict[str, float]) -> dict[str, Any]:
    """The facts as a player reads them: a line per card, then a line per rule (each
    deduction once), and the same lines grouped (`fact_groups`)."""
    groups = fact_groups(k, deduce(k), envelope)
    return {"facts": [c["text"] for c in groups["cards"]] + groups["rules"],
            "fact_groups": groups}
