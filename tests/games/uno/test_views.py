"""What Uno shows whom, by example (the generic audit of every view of every variant is in
tests/conformance/test_views.py): a draw's cards reach the drawer alone while its count is
public, the deck order never leaves the referee (the match's seed: its commitment to all at
the deal, itself at the end), and the end shows both hands to all."""

from __future__ import annotations

from games.interface import REFEREE, SPECTATOR
from games.uno.game import UNO
from tests.games.uno.helpers import match


def test_draws_are_private_the_deck_order_the_referees_and_the_end_shows_both_hands() -> None:
    events = match(13)  # reshuffled
    drawn = [e for e in events if e.type == "cards_drawn"]
    shuffles = [e for e in events if e.type in ("hand_dealt", "deck_reshuffled")]
    assert drawn and any(e.secret for e in shuffles) and shuffles[-1].type == "deck_reshuffled"
    seed = events[1].secret
    for audience in ("S", "N", SPECTATOR):
        for event in drawn:
            seen = UNO.view(event, audience)
            assert seen.count == event.count
            assert seen.cards == (event.cards if audience == event.seat else None)
        assert all(UNO.view(e, audience).secret is None for e in shuffles)
        assert all(seed not in UNO.view(e, audience).model_dump_json() for e in events[:-1])
        assert UNO.view(events[1], audience).commitment == events[1].commitment
        assert UNO.view(events[-1], audience).hands == events[-1].hands
        assert UNO.view(events[-1], audience).seed == seed
    assert UNO.view(events[1], REFEREE).secret is not None
