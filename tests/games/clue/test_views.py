"""No event, belief or error shows hidden cards to anyone who may not see them.

Over every event type of whole games (every audience's view, its JSON and the belief built
from it): another seat's hand, the envelope and the shuffle's secret reach only the referee;
a shown card reaches only the suggester and the refuter; a wrong accusation's envelope only
the accuser. A seat's rejected `show` is answered to that seat alone, in its own words.
"""

from __future__ import annotations

import json
import random

import pytest

from games.clue.commands import Accuse, Show, Suggest
from games.clue.errors import ClueRuleViolation
from games.clue.events import EVENT_TYPES, Accused, CardShown, Dealt
from games.clue.game import CLUE
from games.interface import REFEREE, SPECTATOR
from games.play import play_match
from tests.games.clue.test_rules import _wrong, run, started


def _games() -> list[list]:
    out = []
    for variant, bot, seed in (("clue-mini", "random", 1), ("clue", "random", 2),
                               ("clue-3", "random", 4), ("clue-mini", "infomax", 5)):
        seats = CLUE.variants()[variant].seats
        out.append(play_match(CLUE, variant, {s: CLUE.bots()[bot] for s in seats},
                              random.Random(seed)))
    return out


def _wrong_accusation_game() -> list:
    state, log = started()
    run(state, log, Accuse("P1", *_wrong(state)))
    return log


def test_every_view_of_every_event_type_hides_what_its_audience_may_not_see() -> None:
    games = [*_games(), _wrong_accusation_game()]
    seen_types = {e.type for g in games for e in g}
    assert seen_types == {t.model_fields["type"].default for t in EVENT_TYPES}
    for events in games:
        seats = CLUE.variants()[events[0].variant].seats
        for event in events:
            for audience in (*seats, SPECTATOR):
                view = CLUE.view(event, audience)
                data = CLUE.event_to_dict(view)
                assert view.seq == event.seq and view.type == event.type
                if isinstance(event, Dealt):
                    assert data["envelope"] is None and data["secret"] is None
                    assert all(h is None for s, h in data["hands"].items() if s != audience)
                    if audience in seats:
                        assert data["hands"][audience] == event.hands[audience]
                    text = json.dumps(data)
                    for card in event.envelope or ():
                        if audience == SPECTATOR:
                            assert card not in text
                if isinstance(event, CardShown):
                    may = audience in (event.seat, event.to)
                    assert (data["card"] == event.card) if may else data["card"] is None
                if isinstance(event, Accused) and not event.correct:
                    may = audience == event.seat
                    assert (data["envelope"] == event.envelope) if may else data["envelope"] is None
            assert CLUE.view(event, REFEREE) == event


def test_a_belief_reads_only_its_own_view() -> None:
    """The spectator's belief is fed views without any shown card, and its JSON carries no
    secret."""
    events = _games()[1]
    belief = CLUE.belief(SPECTATOR, "clue")
    for event in events[:-1]:  # before the envelope is opened to all
        belief.apply(CLUE.view(event, SPECTATOR))
    snapshot = json.dumps(belief.snapshot_dict())
    assert events[1].secret not in snapshot
    shown = [e for e in events if isinstance(e, CardShown)]
    assert shown and all(CLUE.view(e, SPECTATOR).card is None for e in shown)


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
