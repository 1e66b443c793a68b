"""Who held which card at each Clue position, for `calibrate` (games.revealed).

Cards never move in Clue: the referee's deal says where each one is (a seat's hand or the
envelope) for the whole match. A position is scored right after the deal and after each
suggestion, card shown, accusation and turn passed while the match goes on. Named as the
belief names them: card -> seat, or "envelope".
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from games.clue.knowledge import ENVELOPE
from games.clue.state import ClueState, evolve
from games.revealed import Moment

MOVES = ("suggested", "card_shown", "accused", "turn_passed")


def clue_moments(events: Sequence[Any]) -> Iterator[Moment]:
    state: ClueState | None = None
    move = 0
    for index, event in enumerate(events):
        state = evolve(state, event)
        if state.phase in ("deal", "over") or state.envelope is None:
            continue
        if event.type in MOVES:
            move += 1
        elif event.type != "dealt":
            continue
        holders = {card: seat for seat, hand in state.hands.items() for card in hand or ()}
        holders.update(dict.fromkeys(state.envelope, ENVELOPE))
        yield Moment(index, 1, move, holders)
