"""Clue's advisor: the same view gives the same advice, the accusation when the view pins the
envelope, the cards to show least telling first (one already shown tells nothing), and the
verdicts' ranks."""

from __future__ import annotations

import json
import random
from typing import Any

from games.clue.advisor import ADVISOR, advise
from games.clue.bots import InfoMaxBot
from games.clue.commands import EndTurn, Show, Suggest
from games.clue.events import Accused, CardShown, Suggested, TurnPassed
from games.clue.game import CLUE
from games.clue.rules import decide
from games.clue.state import ClueState, evolve
from games.play import play_match
from tests.games.clue.test_rules import started


def view_of(events: list[Any], seat: str) -> list[dict[str, Any]]:
    return [CLUE.event_to_dict(CLUE.view(e, seat)) for e in events]


def infomax_match(variant: str, seed: int) -> list[Any]:
    seats = CLUE.seats(variant, {})
    return play_match(CLUE, variant, {s: InfoMaxBot() for s in seats}, random.Random(seed))


def test_the_same_view_gives_the_same_advice_and_its_figures_are_labelled() -> None:
    events = infomax_match("clue-4", 2)
    turn = next(i for i, e in enumerate(events) if e.type == "dealt") + 1
    view = view_of(events[:turn], "P1")
    first = advise(view, "P1")
    again = advise(json.loads(json.dumps(view)), "P1")  # as a replay or another machine sends it
    assert first == again
    assert first["kind"] == "suggest" and first["samples"] >= 100
    assert "uniform" in first["label"] and "bits" in first["label"] and "±" in first["label"]
    moves = first["moves"]
    assert len(moves) == 5 and all(m["error_95"] >= 0 for m in moves)
    assert [m["bits"] for m in moves] == sorted((m["bits"] for m in moves), reverse=True)
    assert 0 <= moves[-1]["bits"] <= moves[0]["bits"] <= first["envelope_bits"] + 1e-9
    assert len(first["ranking"]) == 6 * 6 * 9
    # a move's verdict: the top suggestion ranks 1, the least telling one below it
    top, worst = first["ranking"][0], first["ranking"][-1]
    best = ADVISOR.verdict(first, Suggested(seat="P1", suspect=top[0], weapon=top[1],
                                            room=top[2], passed=[], refuter=None))
    assert best["rank"] == 1 and best["bits"] == top[3]
    low = ADVISOR.verdict(first, Suggested(seat="P1", suspect=worst[0], weapon=worst[1],
                                           room=worst[2], passed=[], refuter=None))
    assert low["rank"] > 1 and low["bits"] < top[3]


def test_the_accusation_when_the_view_pins_the_envelope() -> None:
    events = infomax_match("clue-mini", 1)
    won = next(e for e in events if isinstance(e, Accused) and e.correct)
    view = view_of(events[: won.seq - 1], won.seat)  # just before the winning accusation
    advice = advise(view, won.seat)
    assert advice["kind"] == "accuse" and advice["exact"] is True
    (move,) = advice["moves"]
    assert (move["suspect"], move["weapon"], move["room"]) == (won.suspect, won.weapon,
                                                               won.room)
    assert move["probability"] == 1.0 and "certain" in advice["label"]
    assert ADVISOR.verdict(advice, won)["rank"] == 1
    assert ADVISOR.decision(won) == won.seat


def _act(state: ClueState, log: list[Any], command: Any) -> ClueState:
    for event in decide(state, command):
        event = event.model_copy(update={"seq": len(log) + 1})
        log.append(event)
        state = evolve(state, event)
    return state


def _turn(state: ClueState, log: list[Any], seat: str, triple: tuple[str, str, str],
          show: str | None = None) -> ClueState:
    """`seat` suggests `triple`; the refuter shows `show` (else its first matching card)."""
    state = _act(state, log, Suggest(seat, *triple))
    if state.phase == "refute":
        assert state.pending is not None and state.pending.refuter is not None
        refuter = state.pending.refuter
        hand = state.hands[refuter] or frozenset()
        card = show or next(c for c in triple if c in hand)
        state = _act(state, log, Show(refuter, card))
    return _act(state, log, EndTurn(seat))


def test_a_card_already_shown_to_that_suggester_is_the_one_to_show_again() -> None:
    state, log = started("clue", 3)
    deck, p2 = state.deck, state.hands["P2"] or frozenset()
    kinds = [deck.suspects, deck.weapons, deck.rooms]
    held = [[c for c in cards if c in p2] for cards in kinds]
    types = [k for k in range(3) if held[k]]
    assert len(types) >= 2, "P2 holds two types of card"
    a, b = types[:2]
    triple_list = [held[k][0] if k in (a, b) else next(c for c in kinds[k] if c not in p2)
                   for k in range(3)]
    triple = (triple_list[0], triple_list[1], triple_list[2])
    shown, other = held[a][0], held[b][0]
    state = _turn(state, log, "P1", triple, show=shown)
    state = _turn(state, log, "P2", (deck.suspects[0], deck.weapons[0], deck.rooms[0]))
    state = _turn(state, log, "P3", (deck.suspects[1], deck.weapons[1], deck.rooms[1]))
    state = _act(state, log, Suggest("P1", *triple))
    assert state.phase == "refute" and state.pending is not None
    assert state.pending.refuter == "P2"
    advice = advise(view_of(log, "P2"), "P2")
    assert advice["kind"] == "show" and advice["suggester"] == "P1" and advice["exact"]
    first, second = advice["moves"]
    assert first["card"] == shown and first["already_shown"] and first["bits"] == 0.0
    assert second["card"] == other and not second["already_shown"] and second["bits"] > 0
    assert ADVISOR.verdict(advice, CardShown(seat="P2", to="P1", card=other))["rank"] == 2
    assert ADVISOR.verdict(advice, CardShown(seat="P2", to="P1", card=shown))["rank"] == 1
    assert advise(view_of(log, "P2"), "P2") == advice


def test_after_a_suggestion_not_pinned_the_advice_is_to_end_the_turn() -> None:
    state, log = started("clue", 3)
    deck = state.deck
    state = _act(state, log, Suggest("P1", deck.suspects[0], deck.weapons[0], deck.rooms[0]))
    if state.phase == "refute":
        assert state.pending is not None and state.pending.refuter is not None
        hand = state.hands[state.pending.refuter] or frozenset()
        state = _act(state, log, Show(state.pending.refuter,
                                      next(c for c in state.pending.cards if c in hand)))
    advice = advise(view_of(log, "P1"), "P1")
    assert advice["kind"] == "end_turn" and advice["likely_envelopes"]
    assert all(0 < e["share"] <= 1 for e in advice["likely_envelopes"])
    passed = TurnPassed(seat="P1", to="P2")
    assert ADVISOR.decision(passed) == "P1" and ADVISOR.verdict(advice, passed)["rank"] == 1
