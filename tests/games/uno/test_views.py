"""No view carries a card its audience may not see, for every event type: the deck order
(shuffle secrets) only to the referee, a hand and a seat's draws only to that seat."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.interface import REFEREE, SPECTATOR
from games.uno.events import TurnPassed
from games.uno.game import UNO
from games.uno.state import evolve
from tests.games.uno.helpers import match

EVERY_TYPE = {"match_started", "hand_dealt", "starter_turned", "card_played", "cards_drawn",
              "deck_reshuffled", "turn_passed", "match_ended"}


def _cards_in(data: dict) -> Counter[str]:
    """Every card name a view's JSON carries (hands, draws, plays, starter)."""
    found: Counter[str] = Counter()
    for key in ("cards", "card"):
        value = data.get(key)
        if isinstance(value, list):
            found.update(value)
        elif isinstance(value, str):
            found[value] += 1
    return found


@pytest.mark.parametrize("audience", ["S", "N", SPECTATOR])
def test_no_view_leaks_a_hidden_card_or_the_deck_order(audience: str) -> None:
    games = [match(seed) for seed in (12, 36)] + [match(1, "uno-2", ("greedy", "random"))]
    seen_types: set[str] = set()
    for events in games:
        referee = None
        for event in [*events[:-1], TurnPassed(seat="S", penalty=False, seq=len(events))]:
            shown = UNO.event_to_dict(UNO.view(event, audience))
            seen_types.add(shown["type"])
            text = json.dumps(shown)
            assert shown.get("secret") is None and '"secret": "' not in text
            visible = _cards_in(shown)
            if shown["type"] in ("hand_dealt", "cards_drawn"):
                if event.seat != audience:
                    assert shown["cards"] is None and not visible
                else:
                    assert shown["cards"] == event.cards
            if shown["type"] == "turn_passed":
                continue
            referee = evolve(referee, event)
        assert UNO.view(events[1], REFEREE).secret is not None  # the referee keeps it
        ended = UNO.view(events[-1], audience)  # both hands are shown when the match ends
        assert ended.hands == events[-1].hands
        seen_types.add("match_ended")
    assert seen_types == EVERY_TYPE


def test_the_referee_log_holds_the_deck_order_and_views_do_not() -> None:
    events = match(12)
    shuffles = [e for e in events if e.type in ("hand_dealt", "deck_reshuffled")]
    assert any(e.secret for e in shuffles)
    for audience in ("S", "N", SPECTATOR):
        assert all(UNO.view(e, audience).secret is None for e in shuffles)
