"""What Uno's shown odds are scored against, for `calibrate` (games.revealed).

Uno's belief shows, for each hidden place (an unseen hand, the deck) and each kind, the
probability that the place holds at least 1, 2, … copies ("r7", "r7>=2"): copies of a kind
can be in several places at once, so these are yes-or-no events, not "who holds this card".
Each is scored as one: item "S:r7>=2" with outcomes "yes" and "no".

The truth comes from the referee's log folded (games.uno.state): the hands as dealt, drawn and
played, and the deck in its drawing order (from the match's seed, revealed in match_ended, and
each reshuffle's secret). A position is scored right after the starter is turned and after
each card played, draw and pass while the match goes on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.revealed import Moment
from games.uno.counting import DECK
from games.uno.state import UnoState, evolve

MOVES = ("card_played", "cards_drawn", "turn_passed")
YES, NO = "yes", "no"


def event_name(place: str, kind: str, at_least: int) -> str:
    """"S:r7" (S holds at least one r7), "deck:r7>=2" (the deck holds at least two)."""
    return f"{place}:{kind}" if at_least == 1 else f"{place}:{kind}>={at_least}"


def uno_moments(events: Sequence[Any]) -> Iterator[Moment]:
    state: UnoState | None = None
    move = 0
    for index, event in enumerate(events):
        state = evolve(state, event)
        if state.over or not state.dealt:
            continue
        if event.type in MOVES:
            move += 1
        elif event.type != "starter_turned":
            continue
        yield Moment(index, 1, move, _truth(state))


def _truth(state: UnoState) -> dict[str, str]:
    """Every event the belief could show, for every seat and the deck: yes or no."""
    if state.deck is None or any(state.hands.get(s) is None for s in state.counts):
        raise ValueError("not a referee log: a hand or the deck's order is unknown")
    places: dict[str, Counter[str]] = {s: Counter(hand or ()) for s, hand in state.hands.items()}
    places[DECK] = Counter(state.deck)
    copies = Counter(state.variant.deck.cards())
    return {event_name(place, kind, j): YES if held[kind] >= j else NO
            for place, held in places.items() for kind, n in copies.items()
            for j in range(1, n + 1)}


def uno_forecasts(snapshot: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """The snapshot's odds as yes-or-no forecasts, one per place the observer cannot see,
    kind with unseen copies, and count up to those copies — those the belief leaves out
    (probability 0) included, so an estimate that missed a holding pays for it. Nothing
    when the snapshot shows no odds (an estimate with too few effective samples)."""
    marginals: Mapping[str, Mapping[str, float]] = snapshot.get("marginals") or {}
    expected: Mapping[str, Mapping[str, float]] = snapshot.get("expected") or {}
    if not marginals or not expected:
        return {}
    unseen: dict[str, float] = {}
    for row in expected.values():
        for kind, e in row.items():
            unseen[kind] = unseen.get(kind, 0.0) + float(e)
    out: dict[str, dict[str, float]] = {}
    for place in snapshot.get("remaining") or marginals:
        row = marginals.get(place) or {}
        for kind, total in unseen.items():
            for j in range(1, round(total) + 1):
                p = min(1.0, max(0.0, float(row.get(kind if j == 1 else f"{kind}>={j}", 0.0))))
                out[event_name(place, kind, j)] = {YES: p, NO: 1.0 - p}
    return out
