"""Clue's rules, one test per rule, the log checker on whole games, and the wire."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.clue.cards import LEGACY, MINI, STANDARD, deal
from games.clue.commands import Accuse, Deal, EndTurn, Show, Start, Suggest
from games.clue.errors import ClueRuleViolation
from games.clue.events import CardShown, Suggested
from games.clue.game import CLUE
from games.clue.rules import decide
from games.clue.state import ClueState, evolve
from games.fairness.scheme import SHA256_FISHER_YATES
from games.interface import LogProblem
from games.play import play_match

SECRET = "ab" * 32


def started(variant: str = "clue-mini", players: int = 3, secret: str = SECRET
            ) -> tuple[ClueState, list[Any]]:
    seats = tuple(f"P{i}" for i in range(1, players + 1))
    log: list[Any] = []
    state: ClueState | None = None
    for command in (Start("m1", variant, {s: s for s in seats}), Deal(secret)):
        for event in decide(state, command):
            event = event.model_copy(update={"seq": len(log) + 1})
            log.append(event)
            state = evolve(state, event)
    assert state is not None
    return state, log


def run(state: ClueState, log: list[Any], command: Any) -> ClueState:
    for event in decide(state, command):
        event = event.model_copy(update={"seq": len(log) + 1})
        log.append(event)
        state = evolve(state, event)
    return state


@pytest.mark.parametrize("scheme", [SHA256_FISHER_YATES, LEGACY], ids=lambda s: s.name)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_deal_puts_one_of_each_type_in_the_envelope_and_deals_the_rest_evenly(players,
                                                                                   scheme):
    seats = tuple(f"P{i}" for i in range(1, players + 1))
    for k in range(20):
        result = deal(scheme, f"{k:064x}", STANDARD, seats)
        suspect, weapon, room = result.envelope
        assert (suspect in STANDARD.suspects, weapon in STANDARD.weapons,
                room in STANDARD.rooms) == (True, True, True)
        sizes = [len(h) for h in result.hands.values()]
        assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
        dealt = [c for h in result.hands.values() for c in h] + list(result.envelope)
        assert sorted(dealt) == sorted(STANDARD.cards)
    assert CLUE.variants()["clue"].seats == ("P1", "P2", "P3", "P4")


def test_the_first_seat_clockwise_holding_a_suggested_card_must_refute():
    state, log = started()
    hands = {s: state.hands[s] for s in state.seats}
    p2, p3 = hands["P2"], hands["P3"]
    # a triple P2 cannot refute but P3 can: P2 passes, P3 refutes
    pick = {}
    for kind in ("suspect", "weapon", "room"):
        cards = MINI.of_type(kind)  # type: ignore[arg-type]
        pick[kind] = next((c for c in cards if c in p3), None) or next(
            c for c in cards if c not in p2)
    assert p3 & set(pick.values()) and not p2 & set(pick.values())  # so SECRET deals
    state = run(state, log, Suggest("P1", pick["suspect"], pick["weapon"], pick["room"]))
    assert isinstance(log[-1], Suggested)
    assert (log[-1].passed, log[-1].refuter, state.phase) == (["P2"], "P3", "refute")
    assert CLUE.to_act(state) == ("P3",)
    with pytest.raises(ClueRuleViolation) as error:
        decide(state, Show("P2", pick["room"]))
    assert error.value.code == "not_your_turn"
    not_held = next(c for c in pick.values() if c not in p3)
    with pytest.raises(ClueRuleViolation) as error:
        decide(state, Show("P3", not_held))
    assert error.value.code == "bad_card"
    shown = next(c for c in pick.values() if c in p3)
    state = run(state, log, Show("P3", shown))
    assert isinstance(log[-1], CardShown) and log[-1].to == "P1" and state.phase == "after"
    assert [m for m in CLUE.legal_moves(state, "P1") if isinstance(m, EndTurn)]


def test_nobody_refutes_a_triple_only_the_suggester_and_the_envelope_hold():
    state, log = started()
    envelope = state.envelope
    assert envelope is not None
    state = run(state, log, Suggest("P1", *envelope))
    assert (log[-1].passed, log[-1].refuter, state.phase) == (["P2", "P3"], None, "after")


def test_a_suggestion_opens_a_turn_and_the_turn_ends_only_after_one():
    state, log = started()
    with pytest.raises(ClueRuleViolation) as error:
        decide(state, EndTurn("P1"))
    assert error.value.code == "wrong_phase"
    with pytest.raises(ClueRuleViolation) as error:
        decide(state, Suggest("P2", "Scarlet", "Rope", "Hall"))
    assert error.value.code == "not_your_turn"
    with pytest.raises(ClueRuleViolation) as error:
        decide(state, Suggest("P1", "Rope", "Scarlet", "Hall"))
    assert error.value.code == "bad_card"
    state = run(state, log, Suggest("P1", *state.envelope))  # type: ignore[misc]
    with pytest.raises(ClueRuleViolation) as error:
        decide(state, Suggest("P1", "Scarlet", "Rope", "Hall"))
    assert error.value.code == "wrong_phase"
    state = run(state, log, EndTurn("P1"))
    assert (state.turn, state.phase, log[-1].type) == ("P2", "turn", "turn_passed")


def test_a_right_accusation_wins_and_opens_the_envelope():
    state, log = started()
    state = run(state, log, Accuse("P1", *state.envelope))  # type: ignore[misc]
    assert [e.type for e in log[-2:]] == ["accused", "match_ended"]
    assert CLUE.is_over(state) and CLUE.winners(state) == ("P1",)
    with pytest.raises(ClueRuleViolation):
        decide(state, Suggest("P2", "Scarlet", "Rope", "Hall"))


def _wrong(state: ClueState) -> tuple[str, str, str]:
    s, w, r = state.envelope  # type: ignore[misc]
    other = next(x for x in MINI.suspects if x != s)
    return other, w, r


def test_a_wrong_accusation_puts_the_accuser_out_who_still_refutes():
    state, log = started()
    state = run(state, log, Accuse("P1", *_wrong(state)))
    assert log[-1].correct is False and state.out == {"P1"} and state.turn == "P2"
    # P2 suggests a card only P1 holds: P1, out, must still show it
    card = sorted(state.hands["P1"])[0]  # type: ignore[arg-type]
    kind = MINI.type_of(card)
    triple = [card if kind == k else state.envelope[i]  # type: ignore[index]
              for i, k in enumerate(("suspect", "weapon", "room"))]
    state = run(state, log, Suggest("P2", *triple))
    assert log[-1].refuter in ("P3", "P1")
    if log[-1].refuter == "P1":
        assert CLUE.to_act(state) == ("P1",)


def test_when_every_seat_is_out_the_match_ends_unwon():
    state, log = started()
    for seat in ("P1", "P2", "P3"):
        assert state.turn == seat
        state = run(state, log, Accuse(seat, *_wrong(state)))
    assert CLUE.is_over(state) and CLUE.winners(state) == () and log[-1].winner is None


def test_start_refuses_a_bad_table():
    with pytest.raises(ClueRuleViolation) as error:
        decide(None, Start("m", "clue", {"P1": "a", "P2": "b"}))
    assert error.value.code == "bad_option"
    with pytest.raises(ClueRuleViolation) as error:
        decide(None, Start("m", "clue", {f"P{i}": "x" for i in range(1, 5)}, {"players": 5}))
    assert error.value.code == "bad_option"
    five = decide(None, Start("m", "clue", {f"P{i}": "x" for i in range(1, 6)}, {"players": 5}))
    assert five[0].variant == "clue" and len(five[0].players) == 5


def test_the_wire_round_trips_and_refuses_bad_payloads():
    for command in (Suggest("P1", "Scarlet", "Rope", "Hall"), Accuse("P2", "Plum", "Rope", "Hall"),
                    Show("P3", "Rope"), EndTurn("P1")):
        assert CLUE.command_from_wire(command.seat, CLUE.command_to_wire(command)) == command
    for payload in ({"kind": "fly"}, {"kind": "show"}, {"kind": "suggest", "suspect": 3}):
        with pytest.raises(ClueRuleViolation) as error:
            CLUE.command_from_wire("P1", payload)
        assert error.value.code == "illegal_move"


@pytest.mark.parametrize("variant,bot", [("clue", "random"), ("clue-5", "random"),
                                         ("clue-mini", "infomax"), ("clue-3", "infomax")])
def test_whole_games_are_re_decided_and_a_forgery_is_found(variant, bot):
    seats = CLUE.variants()[variant].seats
    events = play_match(CLUE, variant, {s: CLUE.bots()[bot] for s in seats}, random.Random(7))
    assert events[-1].type == "match_ended" and events[-1].winner in seats
    CLUE.check_log(events)
    parsed = [CLUE.parse_event(CLUE.event_to_dict(e)) for e in events]
    assert parsed == events
    CLUE.check_log(parsed)
    shown = next(i for i, e in enumerate(events) if isinstance(e, CardShown))
    suggestion = events[shown - 1]
    other = next(c for c in (suggestion.suspect, suggestion.weapon, suggestion.room)
                 if c != events[shown].card)
    forged = [*events[:shown], events[shown].model_copy(update={"card": other}),
              *events[shown + 1:]]
    with pytest.raises(LogProblem) as problem:
        CLUE.check_log(forged)
    assert problem.value.seq == events[shown].seq
    skipped = [*events[:shown - 1], suggestion.model_copy(update={"passed": [], "refuter": "P1"}),
               *events[shown:]]
    with pytest.raises(LogProblem) as problem:
        CLUE.check_log(skipped)
    assert problem.value.seq == suggestion.seq
    with pytest.raises(LogProblem):
        CLUE.check_log([CLUE.view(e, "P1") for e in events])  # a seat's export is redacted


def test_nobody_is_to_act_between_a_final_accusation_and_the_match_ended():
    """A seat's view folds `accused` before `match_ended` arrives: the accuser must not be
    offered another move in between (a live client would send it to a finished match)."""
    state, log = started()
    after = evolve(state, decide(state, Accuse("P1", *state.envelope))[0])  # type: ignore[misc]
    assert CLUE.to_act(after) == () and CLUE.legal_moves(after, "P1") == []
    for seat in ("P1", "P2"):
        state = run(state, log, Accuse(seat, *_wrong(state)))
    last = decide(state, Accuse("P3", *_wrong(state)))
    assert [e.type for e in last] == ["accused", "match_ended"]
    assert CLUE.to_act(evolve(state, last[0])) == ()
