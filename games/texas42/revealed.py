"""Who held which domino at each Texas 42 position, for `calibrate` (games.revealed).

A position is scored right after the last deal and after each bid, trump named and domino
played while the hand goes on; every domino not yet played is in the hand it was dealt to
(all 28 are dealt, so there is no pool). Named as the belief names them: "5-6" -> seat.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from games.revealed import Moment
from games.texas42.rules import evolve
from games.texas42.state import State

MOVES = ("bid", "trump_named", "played")
IN_HAND = ("bidding", "trump", "playing")


def texas42_moments(events: Sequence[Any]) -> Iterator[Moment]:
    state: State | None = None
    move = 0
    for index, event in enumerate(events):
        state = evolve(state, event)
        if state.phase not in IN_HAND:
            move = 0
            continue
        if event.type in MOVES:
            move += 1
        elif event.type == "dealt" and all(h is not None for h in state.hands.values()) \
                and len(state.hands) == 4:
            move = 0
        else:
            continue
        holders = {str(tile): seat for seat, hand in state.hands.items() for tile in hand or ()}
        yield Moment(index, state.hand, move, holders)
