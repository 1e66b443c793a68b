"""Bots for a Clue seat, each seeing only its own view.

- `random`: suggests a random triple among cards it has not seen in another hand, shows a
  random matching card, and accuses once the seed's rules (games.clue.facts) pin the
  envelope (sound rules, so it never accuses wrongly).
- `infomax`: accuses when its exact belief puts probability 1 on one card of each type;
  otherwise suggests the triple whose outcome (who refutes, and the card it is shown)
  carries the most expected information about the envelope, I(outcome; envelope), estimated
  over a fixed budget of deals drawn uniformly from its belief (exact sampler plus rejection
  on the disjunctions). Bounded per move: one exact solve within a small work budget and
  `SAMPLES` deals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.clue.belief import solve
from games.clue.cards import TYPES
from games.clue.commands import Accuse, EndTurn, Move, Show, Suggest
from games.clue.events import ClueEvent
from games.clue.facts import deduce
from games.clue.information import draw_deals, prepare, suggestion_entropies
from games.clue.knowledge import ENVELOPE, Knowledge
from games.clue.state import ClueState, evolve
from inference.errors import Infeasible
from inference.inclusion_exclusion import TooManyTerms

SAMPLES = 120
BOT_WORK_BUDGET = 250_000
"""The exact count's work (transitions, games.clue.belief) before the bot reads the rules."""


def fold(view: Sequence[ClueEvent], seat: str) -> tuple[ClueState, Knowledge]:
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
    def choose(self, view: Sequence[ClueEvent], seat: str, rng: random.Random) -> Move:
        state, knowledge = fold(view, seat)
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


def pinned(knowledge: Knowledge) -> tuple[tuple[str, str, str], str] | None:
    """The envelope when the observer's view pins it, with how: `exact` (the exact count,
    within BOT_WORK_BUDGET transitions, puts probability 1 on one card of each type) or `rules`
    (past that budget: the seed's sound rules, games.clue.facts); None when not pinned."""
    try:
        solved = solve(knowledge, BOT_WORK_BUDGET)
    except (TooManyTerms, Infeasible):
        solved = None
    if solved is not None and solved.exact:
        deck = knowledge.deck
        assert deck is not None
        picks = [[c for c in deck.of_type(kind) if solved.probabilities[c][ENVELOPE] == 1]
                 for kind in TYPES]
        if all(len(p) == 1 for p in picks):
            return (picks[0][0], picks[1][0], picks[2][0]), "exact"
        return None
    by_rules = _certain_by_rules(knowledge)
    return None if by_rules is None else (by_rules, "rules")


class InfoMaxBot:
    """Maximises the expected information a suggestion gives about the envelope."""

    def choose(self, view: Sequence[ClueEvent], seat: str, rng: random.Random) -> Move:
        state, knowledge = fold(view, seat)
        if state.phase == "refute":
            return _show(state, seat, rng)
        found = pinned(knowledge)
        certain = found[0] if found else None
        if certain is not None:
            return Accuse(seat, *certain)
        if state.phase == "after":
            return EndTurn(seat)
        return self._suggest(state, knowledge, seat, rng)

    def _suggest(self, state: ClueState, knowledge: Knowledge, seat: str,
                 rng: random.Random) -> Suggest:
        deck = state.deck
        deals = draw_deals(knowledge, rng, SAMPLES)
        if not deals:
            return Suggest(seat, rng.choice(deck.suspects), rng.choice(deck.weapons),
                           rng.choice(deck.rooms))
        best: tuple[float, float, tuple[str, str, str]] | None = None
        for triple, conditional in suggestion_entropies(state, prepare(state, knowledge,
                                                                        seat, deals)):
            score = (-conditional, rng.random(), triple)
            if best is None or score[:2] > best[:2]:
                best = score
        assert best is not None
        return Suggest(seat, *best[2])
