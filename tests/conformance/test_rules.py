"""Every variant's rules through the interface: random play to the end through games/play.py,
the log checker accepts each match and refuses a forged move at its seq, every event and
every legal move round-trips (log format, JSON text, wire), and bad input is a typed error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.interface import REFEREE, LogProblem, RuleViolation
from tests.conformance.cases import CASES, SEEDS, Case, ids, match
from tests.conformance.forgery import forgeries

FORGED_MOVES = 3
"""Moves forged per match (early, middle, late): each forgery is re-decided up to its seq."""


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_random_play_ends_and_the_checker_accepts_every_match(case: Case) -> None:
    for seed in SEEDS:
        played = match(case.variant, seed)
        events = played.events
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert events[0].type == "match_started"
        final = played.states()[-1]
        assert case.game.is_over(final) and not case.game.to_act(final)
        assert set(case.game.winners(final)) <= set(case.seats)
        assert played.moves, "a match without a single move"
        case.game.check_log(list(events))  # every event re-decided


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_the_checker_refuses_a_forged_move_at_its_seq(case: Case) -> None:
    played = match(case.variant, SEEDS[0])
    events = list(played.events)
    step = max(1, len(played.moves) // FORGED_MOVES)
    chosen = [*played.moves[::step]][:FORGED_MOVES - 1] + [played.moves[-1]]
    refused = 0
    for move in chosen:
        for forged in list(forgeries(played, move))[:2]:
            log = [*events[:move.seq - 1], forged, *events[move.seq:]]
            with pytest.raises(LogProblem) as problem:
                case.game.check_log(log)
            assert problem.value.seq == move.seq, (forged, problem.value)
            refused += 1
    assert refused >= FORGED_MOVES, "too few forgeries found to test the checker"


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_every_event_and_view_round_trips_through_the_log_format(case: Case) -> None:
    game = case.game
    for seed in SEEDS:
        for event in match(case.variant, seed).events:
            assert game.view(event, REFEREE) == event
            for audience in (REFEREE, *case.audiences):
                seen = game.view(event, audience)
                data = game.event_to_dict(seen)
                assert game.parse_event(data) == seen
                text = json.dumps(data)
                assert game.parse_event(text) == seen
                assert game.parse_event(text.encode()) == seen
                assert json.loads(json.dumps(game.event_to_dict(game.parse_event(text)))) \
                    == json.loads(text)
                assert game.view(seen, audience) == seen  # a view is already redacted


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_every_legal_move_round_trips_through_the_wire(case: Case) -> None:
    game = case.game
    played = match(case.variant, SEEDS[0])
    states = played.states()
    offered = 0
    for move in played.moves:
        state = states[move.seq - 1]
        legal = game.legal_moves(state, move.seat)
        assert move.command in legal, move
        for command in legal:
            wire = json.loads(json.dumps(game.command_to_wire(command)))
            assert game.command_from_wire(move.seat, wire) == command
            offered += 1
        for seat in case.seats:  # only the seats to act have moves
            if seat not in game.to_act(state):
                assert game.legal_moves(state, seat) == []
    assert offered >= len(played.moves)


BAD_PAYLOADS: tuple[Any, ...] = ({"kind": "no-such-move"}, {"kind": 7},
                                 {"kind": None, "card": None, "tile": None},
                                 {"kind": ["play"], "card": {"x": 1}, "tile": [1, 2]})


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_bad_input_and_moves_out_of_turn_are_typed_rule_violations(case: Case) -> None:
    game = case.game
    played = match(case.variant, SEEDS[0])
    states = played.states()
    out_of_turn = 0
    for move in played.moves:
        state = states[move.seq - 1]
        for payload in BAD_PAYLOADS:
            with pytest.raises(RuleViolation) as refused:
                game.decide(state, game.command_from_wire(move.seat, payload))
            assert refused.value.code and refused.value.message
        wire = game.command_to_wire(move.command)  # from a seat the match does not have
        with pytest.raises(RuleViolation):
            game.decide(state, game.command_from_wire("nobody", wire))
        # the same move when its seat is not to act: refused, typed
        later = next((states[m.seq - 1] for m in played.moves
                      if m.seq > move.seq and move.seat not in game.to_act(states[m.seq - 1])),
                     None)
        if later is not None and out_of_turn < 20:
            with pytest.raises(RuleViolation):
                game.decide(later, move.command)
            out_of_turn += 1
    assert out_of_turn, "no move was ever tried out of turn"
    with pytest.raises(RuleViolation):  # nothing after the end
        game.decide(states[-1], played.moves[-1].command)
