"""A hand in play with every tile known, in the solver's compact form (bitmask hands).

Built from a referee's MatchState, or from a seat's view plus a deal sampled from its belief
(the perfect-information determinisation PIMC solves). In draw-2 the boneyard's order is part
of the position: with it known, every draw is determined, so the game stays perfect-information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.fairness import boneyard as boneyard_order
from games.dominoes.state import MatchState
from games.dominoes.strategy.encoding import Codec, codec
from games.dominoes.tiles import Seat, Tile
from games.dominoes.variants import Scoring


class UnknownHandError(ValueError):
    """A position needs every seat's hand (and, in draw-2, the boneyard's order)."""


@dataclass(frozen=True)
class Position:
    """The hands as masks over tile indices, the open ends, the seat to play, the scoring.

    One hand per seat of the variant, in turn order: four (S, W, N, E: seats 0 and 2 are one
    team) or two (S, N: each seat its own side). Either way the seat after the mover is an
    opponent. `left`/`right` are -1 while the line is empty; `turn` indexes `hands`.
    `boneyard`: the tiles still to draw, as indices in draw order (draw-2; else empty).
    """

    max_pip: int
    hands: tuple[int, ...]
    left: int
    right: int
    turn: int
    scoring: Scoring = "losers"
    boneyard: tuple[int, ...] = ()

    @property
    def codec(self) -> Codec:
        return codec(self.max_pip)

    @property
    def tiles_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    @property
    def plays_left(self) -> int:
        """At most this many plays remain: the tiles in hands and those still to draw."""
        return self.tiles_left + len(self.boneyard)

    def after(self, move: Move) -> Position:
        """The position after the seat to play plays `move` (no end-of-hand check here)."""
        c = self.codec
        i = c.index[move.tile]
        hands = list(self.hands)
        if not hands[self.turn] >> i & 1:
            raise ValueError(f"{move.tile} is not in the hand of seat {self.turn}")
        hands[self.turn] ^= 1 << i
        left, right = child_ends(self.left, self.right, move)
        turn = (self.turn + 1) % len(hands)
        return Position(self.max_pip, tuple(hands), left, right, turn, self.scoring, self.boneyard)


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
    seats = state.variant.seats
    missing = [s for s in seats if hand.hands.get(s) is None]
    if missing:
        raise UnknownHandError(f"the hands of {', '.join(missing)} are not known")
    to_draw: tuple[Tile, ...] = ()
    if hand.boneyard:
        if hand.seed is None:
            raise UnknownHandError("the boneyard's order is not known (no seed)")
        order = boneyard_order(hand.seed, state.variant)
        to_draw = order[len(order) - hand.boneyard :]
    return from_hands(state, {s: hand.hands[s] or () for s in seats}, to_draw)


def from_hands(
    state: MatchState,
    hands: Mapping[Seat, Sequence[Tile] | frozenset[Tile]],
    boneyard: Sequence[Tile] = (),
) -> Position:
    """The public part of `state` (ends, turn, scoring) with these hands (one per seat of
    the variant) and, in draw-2, the tiles still to draw in the order they will be drawn."""
    hand = state.hand
    if hand is None:
        raise UnknownHandError("no hand in play")
    if len(boneyard) != hand.boneyard:
        raise ValueError(f"{len(boneyard)} tiles to draw given, the boneyard holds {hand.boneyard}")
    seats = state.variant.seats
    c = codec(state.variant.max_pip)
    masks = tuple(c.mask(hands[s]) for s in seats)
    left = -1 if hand.left is None else hand.left
    right = -1 if hand.right is None else hand.right
    bones = tuple(c.index[t] for t in boneyard)
    return Position(state.variant.max_pip, masks, left, right, seats.index(hand.turn),
                    state.scoring, bones)
