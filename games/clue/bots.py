"""Bots for a Clue seat, each seeing only its own view.

- `random`: suggests a random triple among cards it has not seen in another hand, shows a
  random matching card, and accuses once the seed's rules (games.clue.facts) pin the
  envelope (sound rules, so it never accuses wrongly).
- `infomax`: accuses when its exact belief puts probability 1 on one card of each type;
  otherwise suggests the triple whose outcome (who refutes, and the card it is shown)
  carries the most expected information about the envelope, I(outcome; envelope), estimated
  over a fixed budget of deals drawn uniformly from its belief (exact sampler plus rejection
  on the disjunctions). Bounded per move: one exact solve within a small term budget and
  `SAMPLES` deals.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from games.clue.belief import SLOTS, position_of, solve
from games.clue.cards import TYPES
from games.clue.commands import Accuse, EndTurn, Move, Show, Suggest
from games.clue.facts import deduce
from games.clue.knowledge import ENVELOPE, Knowledge
from games.clue.state import ClueState, evolve
from inference.errors import Infeasible
from inference.inclusion_exclusion import TooManyTerms, simplify
from inference.sampler import sample_deal

SAMPLES = 120
DRAW_LIMIT = 1500
BOT_TERM_BUDGET = 256


def _fold(view: Sequence[Any], seat: str) -> tuple[ClueState, Knowledge]:
    state: ClueState | None = None
    knowledge = Knowledge(seat)
    for event in view:
        state = evolve(state, event)
        knowledge.apply(event)
    assert state is not None
    return state, knowledge


def _certain_by_rules(knowledge: Knowledge) -> tuple[str, str, str] | None:
    murder = {f.card for f in deduce(knowledge) if f.holder == ENVELOPE and f.holds}
    murder |= {c for c, h in knowledge.seen.items() if h == ENVELOPE}
    deck = knowledge.deck
    assert deck is not None
    picks = [[c for c in deck.of_type(kind) if c in murder] for kind in TYPES]
    if all(len(p) == 1 for p in picks):
        return (picks[0][0], picks[1][0], picks[2][0])
    return None


def _show(state: ClueState, seat: str, rng: random.Random) -> Show:
    assert state.pending is not None
    hand = state.hands.get(seat) or frozenset()
    return Show(seat, rng.choice([c for c in state.pending.cards if c in hand]))


class RandomBot:
    def choose(self, view: Sequence[Any], seat: str, rng: random.Random) -> Move:
        state, knowledge = _fold(view, seat)
        if state.phase == "refute":
            return _show(state, seat, rng)
        certain = _certain_by_rules(knowledge)
        if certain is not None:
            return Accuse(seat, *certain)
        if state.phase == "after":
            return EndTurn(seat)
        held_elsewhere = {c for c, h in knowledge.seen.items() if h not in (seat, ENVELOPE)}
        deck = state.deck
        pick = [rng.choice([c for c in deck.of_type(kind) if c not in held_elsewhere]
                           or list(deck.of_type(kind))) for kind in TYPES]
        return Suggest(seat, *pick)


def draw_deals(knowledge: Knowledge, rng: random.Random, samples: int = SAMPLES,
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


def _entropy(counter: Counter[Any] | dict[Any, float], total: float) -> float:
    return -sum(v / total * math.log2(v / total) for v in counter.values() if v > 0)


class InfoMaxBot:
    """Maximises the expected information a suggestion gives about the envelope."""

    def choose(self, view: Sequence[Any], seat: str, rng: random.Random) -> Move:
        state, knowledge = _fold(view, seat)
        if state.phase == "refute":
            return _show(state, seat, rng)
        certain = self._certain(knowledge)
        if certain is not None:
            return Accuse(seat, *certain)
        if state.phase == "after":
            return EndTurn(seat)
        return self._suggest(state, knowledge, seat, rng)

    def _certain(self, knowledge: Knowledge) -> tuple[str, str, str] | None:
        try:
            solved = solve(knowledge, BOT_TERM_BUDGET)
        except (TooManyTerms, Infeasible):
            solved = None
        if solved is not None and solved.exact:
            deck = knowledge.deck
            assert deck is not None
            picks = [[c for c in deck.of_type(kind) if solved.probabilities[c][ENVELOPE] == 1]
                     for kind in TYPES]
            if all(len(p) == 1 for p in picks):
                return (picks[0][0], picks[1][0], picks[2][0])
            return None
        return _certain_by_rules(knowledge)

    def _suggest(self, state: ClueState, knowledge: Knowledge, seat: str,
                 rng: random.Random) -> Suggest:
        deck = state.deck
        deals = draw_deals(knowledge, rng)
        if not deals:
            return Suggest(seat, rng.choice(deck.suspects), rng.choice(deck.weapons),
                           rng.choice(deck.rooms))
        position, _ = position_of(knowledge)
        holders = position.holders
        slot_index = [holders.index(SLOTS[kind]) for kind in TYPES]
        order = state.refute_order(seat)
        seat_index = {s: holders.index(s) for s in order}
        envelopes: list[tuple[str, ...]] = []
        for where in deals:
            env = tuple(sorted((c for c, h in where.items() if h in slot_index),
                               key=lambda c: TYPES.index(deck.type_of(c))))
            envelopes.append(env)
        best: tuple[float, float, tuple[str, str, str]] | None = None
        n = len(deals)
        for s in deck.suspects:
            for w in deck.weapons:
                for r in deck.rooms:
                    triple = (s, w, r)
                    joint: dict[tuple[Any, ...], dict[tuple[str, ...], float]] = defaultdict(
                        lambda: defaultdict(float))
                    for where, env in zip(deals, envelopes, strict=True):
                        outcome: tuple[Any, ...] = ("none",)
                        for other in order:
                            i = seat_index[other]
                            held = [c for c in triple if where[c] == i]
                            if held:
                                for c in held:
                                    joint[(other, c)][env] += 1 / len(held)
                                break
                        else:
                            joint[outcome][env] += 1.0
                    conditional = sum(sum(row.values()) / n * _entropy(row, sum(row.values()))
                                      for row in joint.values())
                    score = (-conditional, rng.random(), triple)
                    if best is None or score[:2] > best[:2]:
                        best = score
        assert best is not None
        return Suggest(seat, *best[2])
