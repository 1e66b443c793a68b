"""A perfect-information Monte Carlo bot over the exact sampler.

Each decision draws a fixed number of deals from the seat's belief (the opponent's hand and
the deck's contents sampled exactly by counting.Programme; the deck's order uniformly), plays
every legal move out to the end with greedy play on both sides in each deal, and picks the
move with the best average result (the move is fixed before averaging). Bounded: DEALS
deals x moves x one greedy playout of at most PLAYOUT_MOVES moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.uno.belief import UnoBelief
from games.uno.blocks import BlockProgramme, OverBudget
from games.uno.bots import fold, greedy_score
from games.uno.commands import PlayCard, Reshuffle
from games.uno.counting import DECK, Programme, _run, state_bound
from games.uno.estimate import draw, relaxed
from games.uno.rules import decide, legal_moves
from games.uno.state import UnoState, evolve
from games.uno.variants import other

DEALS = 6
PLAYOUT_MOVES = 200
SAMPLE_TRIES = 30
"""Rejection proposals per deal before falling back to the relaxed count."""


def sample_world(belief: UnoBelief, state: UnoState, rng: random.Random) -> UnoState:
    """A referee state consistent with the seat's view, drawn exactly from its belief: by
    counting.Programme or blocks.BlockProgramme within their budgets, else by the estimate's
    rejection sampler; only if that keeps nothing in a few tries, from the relaxed count
    (a wider belief that still holds the truth)."""
    ledger = belief.ledger
    opponent = ledger.unknown[0]
    position = ledger.position()
    hand: Counter[str] | None = None
    if state_bound(position) > belief.budget:
        try:
            hands, deck_kinds = BlockProgramme(position, budget=belief.block_budget).sample(rng)
            hand = hands.get(opponent, Counter())
        except OverBudget:
            kept = draw(ledger, belief.budget, rng, tries=SAMPLE_TRIES, keep=1).kept
            if kept:
                hand, deck_kinds = kept[0][0].get(opponent, Counter()), kept[0][1]
        if hand is None:
            position, _ = relaxed(ledger, belief.budget)
    if hand is None:
        rows = Programme(position, exact=belief.integers).sample_rows(rng)
        hand, deck_kinds = Counter(), Counter()
        for kind, row in zip(position.kinds, rows, strict=True):
            hand[kind] = _run(position.timelines[opponent], kind, row) or 0
            deck_kinds[kind] = sum(n for c, n in enumerate(row)
                                   if position.columns[c].owner == DECK)
    deck = list(deck_kinds.elements())
    rng.shuffle(deck)
    hands = {**state.hands, opponent: tuple(sorted(hand.elements()))}
    return replace(state, hands=hands, deck=tuple(deck))


def playout(state: UnoState, first: Any, rng: random.Random) -> UnoState:
    """Play `first`, then greedy moves for both seats, to the end (or the move cap)."""
    command = first
    for _ in range(PLAYOUT_MOVES):
        for event in decide(state, command):
            state = evolve(state, event)
        if state.over:
            break
        if state.needs_reshuffle():
            command = Reshuffle(f"{rng.getrandbits(256):064x}")
            continue
        seat = state.turn
        assert seat is not None
        moves = legal_moves(state, seat)
        plays = [m for m in moves if isinstance(m, PlayCard)]
        hand = state.hands.get(seat) or ()
        command = max(plays, key=lambda m: greedy_score(m, hand)) if plays else moves[0]
    return state


def _value(state: UnoState, seat: str) -> float:
    if state.over:
        return 1.0 if state.winner == seat else 0.0
    mine, theirs = state.counts[seat], state.counts[other(seat)]
    return 0.5 if mine == theirs else (0.75 if mine < theirs else 0.25)


class PimcBot:
    def __init__(self, deals: int = DEALS) -> None:
        self.deals = deals

    def choose(self, view: Sequence[Any], seat: str, rng: random.Random) -> Any:
        state = fold(view)
        moves = legal_moves(state, seat)
        if len(moves) <= 1:
            return moves[0]
        belief = UnoBelief(seat, state.variant.name)
        for event in view:
            belief.apply(event)
        totals = [0.0] * len(moves)
        for _ in range(self.deals):
            world = sample_world(belief, state, rng)
            for i, move in enumerate(moves):
                totals[i] += _value(playout(world, move, rng), seat)
        best = max(totals)
        return rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
