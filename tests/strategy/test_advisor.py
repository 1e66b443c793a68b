"""The advisor: one labelled, optimistic estimate per legal move, from the seat's events."""

from __future__ import annotations

import json
import random

from domino.rules import evolve, legal_moves
from domino.selfplay import heaviest_policy, random_match_events
from strategy.advisor import LABEL, advise


def _late_decision(rng: random.Random):
    events = random_match_events(rng, target=30, policy=heaviest_policy)
    state, point = None, None
    for k, event in enumerate(events):
        state = evolve(state, event)
        if state.phase == "playing" and sum(state.hand.counts.values()) <= 14:
            seat = state.hand.turn
            if len(legal_moves(state, seat)) >= 2:
                point = (events[: k + 1], seat, legal_moves(state, seat))
                break
    return point


def test_advice_covers_every_legal_move_best_first() -> None:
    rng = random.Random("advice")
    point = None
    while point is None:
        point = _late_decision(rng)
    events, seat, moves = point
    advice = advise(events, seat, samples=12, rng=random.Random(1), time_budget=5.0)
    assert {(a.tile, a.end) for a in advice} == {(m.tile, m.end) for m in moves}
    values = [a.expected_points for a in advice]
    assert values == sorted(values, reverse=True)
    for a in advice:
        assert a.samples == 12 and a.exact_share == 1.0 and a.label == LABEL
        assert 0 <= a.p_win_hand <= 1
        assert a.ci[0] <= a.expected_points <= a.ci[1]
    json.dumps([a.to_dict() for a in advice])
    again = advise(events, seat, samples=12, rng=random.Random(1), time_budget=5.0)
    assert [a.expected_points for a in again] == values  # exact solving: seed reproduces


def test_no_advice_when_the_seat_cannot_play() -> None:
    events = random_match_events(random.Random(3), target=10)
    state = None
    for event in events[:6]:
        state = evolve(state, event)
    other = next(s for s in "SWNE" if s != state.hand.turn)
    assert advise(events[:6], other, samples=2) == []
