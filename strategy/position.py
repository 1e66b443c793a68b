"""A hand in play with every tile known, in the solver's compact form (bitmask hands).

Built from a referee's MatchState, or from a seat's view plus a deal sampled from its belief
(the perfect-information determinisation PIMC solves).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, Tile
from games.dominoes.variants import Scoring
from strategy.encoding import SEAT_INDEX, Codec, codec


class UnknownHandError(ValueError):
    """A position needs all four hands, and one of them is not known."""


@dataclass(frozen=True)
class Position:
    """Four hands as masks over tile indices, the open ends, the seat to play, the scoring.

    `left`/`right` are -1 while the line is empty. `turn` indexes S, W, N, E.
    """

    max_pip: int
    hands: tuple[int, int, int, int]
    left: int
    right: int
    turn: int
    scoring: Scoring = "losers"

    @property
    def codec(self) -> Codec:
        return codec(self.max_pip)

    @property
    def tiles_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    def after(self, move: Move) -> Position:
        """The position after the seat to play plays `move` (no end-of-hand check here)."""
        c = self.codec
        i = c.index[move.tile]
        hands = list(self.hands)
        if not hands[self.turn] >> i & 1:
            raise ValueError(f"{move.tile} is not in {SEATS[self.turn]}'s hand")
        hands[self.turn] ^= 1 << i
        left, right = child_ends(self.left, self.right, move)
        return Position(self.max_pip, tuple(hands), left, right, (self.turn + 1) % 4, self.scoring)  # type: ignore[arg-type]


def child_ends(left: int, right: int, move: Move) -> tuple[int, int]:
    """The open ends after `move` (which must fit)."""
    t = move.tile
    if left < 0:
        return t.low, t.high
    if move.end == "left":
        return t.other(left), right
    if move.end == "right":
        return left, t.other(right)
    # an end-less move on an open line: the referee accepts it only when one end fits
    return (t.other(left), right) if t.has(left) else (left, t.other(right))


def from_state(state: MatchState) -> Position:
    """The referee's (or an omniscient observer's) state of the hand in play."""
    hand = state.hand
    if hand is None:
        raise UnknownHandError("no hand in play")
    missing = [s for s in SEATS if hand.hands.get(s) is None]
    if missing:
        raise UnknownHandError(f"the hands of {', '.join(missing)} are not known")
    return from_hands(state, {s: hand.hands[s] or () for s in SEATS})


def from_hands(
    state: MatchState, hands: Mapping[str, Sequence[Tile] | frozenset[Tile]]
) -> Position:
    """The public part of `state` (ends, turn, scoring) with these four hands."""
    hand = state.hand
    if hand is None:
        raise UnknownHandError("no hand in play")
    c = codec(state.variant.max_pip)
    masks = tuple(c.mask(hands[s]) for s in SEATS)
    left = -1 if hand.left is None else hand.left
    right = -1 if hand.right is None else hand.right
    return Position(state.variant.max_pip, masks, left, right, SEAT_INDEX[hand.turn], state.scoring)  # type: ignore[arg-type]
