"""Bots that play from their own seat's view: random, and greedy (keep colours balanced,
hold wilds). The pimc bot lives in games/uno/pimc.py."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from games.uno.cards import is_black, penalty_of, skips
from games.uno.commands import Move, PlayCard
from games.uno.errors import UnoRuleViolation
from games.uno.events import UnoEvent
from games.uno.rules import legal_moves
from games.uno.state import UnoState, evolve


def fold(view: Sequence[UnoEvent]) -> UnoState:
    state: UnoState | None = None
    for event in view:
        state = evolve(state, event)
    if state is None:
        raise UnoRuleViolation("wrong_phase", "no match to play in")
    return state


class RandomBot:
    def choose(self, view: Sequence[UnoEvent], seat: str, rng: random.Random) -> Move:
        moves = legal_moves(fold(view), seat)
        if not moves:
            raise UnoRuleViolation("not_your_turn", f"{seat} has no move now")
        return rng.choice(moves)


def colour_weights(hand: Sequence[str]) -> Counter[str]:
    return Counter(card[0] for card in hand if not is_black(card))


def greedy_score(move: PlayCard, hand: Sequence[str]) -> tuple[int, int, int]:
    """Coloured cards before black ones (hold wilds); then cards of the colour held most
    (keep the colours balanced), then action cards (keep the turn, make the other draw)."""
    weights = colour_weights(hand)
    black = is_black(move.card)
    colour = move.colour if black else move.card[0]
    action = penalty_of(move.card) + (1 if skips(move.card) else 0)
    return (0 if black else 1, weights.get(colour or "", 0), action)


class GreedyBot:
    def choose(self, view: Sequence[UnoEvent], seat: str, rng: random.Random) -> Move:
        state = fold(view)
        moves = legal_moves(state, seat)
        if not moves:
            raise UnoRuleViolation("not_your_turn", f"{seat} has no move now")
        plays = [m for m in moves if isinstance(m, PlayCard)]
        if not plays:
            return moves[0]
        hand = state.hands.get(seat) or ()
        best = max(greedy_score(m, hand) for m in plays)
        return rng.choice([m for m in plays if greedy_score(m, hand) == best])
