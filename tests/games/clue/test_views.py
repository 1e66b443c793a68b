"""What Clue shows whom, by example (the generic audit of every view of every variant is in
tests/conformance/test_views.py; it lets a private card reach only the seats an event names,
and these say which of them must get it): a shown card reaches the suggester and the refuter,
a wrong accusation's envelope the accuser alone. A seat's rejected `show` is answered to
that seat alone, in its own words."""

from __future__ import annotations

import random

import pytest

from games.clue.commands import Accuse, Show, Suggest
from games.clue.errors import ClueRuleViolation
from games.clue.events import Accused, CardShown
from games.clue.game import CLUE
from games.interface import SPECTATOR
from games.play import play_match
from tests.games.clue.test_rules import _wrong, run, started


def test_a_shown_card_reaches_both_players_and_a_wrong_envelope_the_accuser() -> None:
    seats = CLUE.variants()["clue-mini"].seats
    events = play_match(CLUE, "clue-mini", {s: CLUE.bots()["random"] for s in seats},
                        random.Random(1))
    state, log = started()
    run(state, log, Accuse("P1", *_wrong(state)))
    shown = [e for e in events if isinstance(e, CardShown)]
    wrong = [e for e in log if isinstance(e, Accused) and not e.correct]
    assert shown and wrong
    for event in [*shown, *wrong]:
        for audience in (*seats, SPECTATOR):
            seen = CLUE.event_to_dict(CLUE.view(event, audience))
            if isinstance(event, CardShown):
                may = audience in (event.seat, event.to)
                assert seen["card"] == (event.card if may else None)
            else:
                may = audience == event.seat
                assert seen["envelope"] == (event.envelope if may else None)


def test_a_refused_show_is_a_typed_error_that_names_none_of_the_refuters_cards() -> None:
    state, log = started()
    state = run(state, log, Suggest("P1", "Scarlet", "Candlestick", "Kitchen"))
    refuter = log[-1].refuter
    assert refuter is not None
    for seat, card in (("P1", "Scarlet"), (refuter, "Rope")):
        with pytest.raises(ClueRuleViolation) as error:
            CLUE.decide(state, Show(seat, card))
        assert error.value.code in ("not_your_turn", "bad_card")
        assert not any(c in error.value.message for c in state.hands[refuter] or ())
