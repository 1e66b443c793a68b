"""The advisor: one labelled, optimistic estimate per legal move, from the seat's events."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from games.dominoes.commands import Move
from games.dominoes.events import Event, event_to_dict
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.selfplay import heaviest_policy, random_match_events
from games.dominoes.state import MatchState
from games.dominoes.strategy.advice import DominoesAdvisor
from games.dominoes.strategy.advisor import LABEL, NODES, SAMPLES, advise, advise_with
from games.dominoes.tiles import Seat


def _ends_after(state: MatchState, move: Move) -> tuple[int, int]:
    """The open ends (as a sorted pair) the move leaves, computed from the line itself."""
    hand = state.hand
    t = move.tile
    if hand.left is None:
        return (t.low, t.high)
    left, right = hand.left, hand.right
    if move.end == "left":
        left = t.other(left)
    else:
        right = t.other(right)
    return (min(left, right), max(left, right))


def _find_decision(
    want: Callable[[MatchState, list[Move]], bool], start: int = 0
) -> tuple[list[Event], Seat, MatchState, list[Move]]:
    """The first decision, over seeded random matches, whose legal moves satisfy `want`."""
    for seed in range(start, start + 400):
        events = random_match_events(random.Random(seed), target=20)
        state = None
        for k, event in enumerate(events):
            state = evolve(state, event)
            if state.phase != "playing" or state.hand is None:
                continue
            seat = state.hand.turn
            moves = legal_moves(state, seat)
            if moves and want(state, moves):
                return events[: k + 1], seat, state, moves
    raise AssertionError("no such decision in 400 random matches")


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
    advice = advise(events, seat, samples=12, rng=random.Random(1), nodes=1_000_000)
    state = None
    for event in events:
        state = evolve(state, event)
    assert {(a.tile, a.end) for a in advice} <= {(m.tile, m.end) for m in moves}
    after = [_ends_after(state, a) for a in advice]  # type: ignore[arg-type]
    assert sorted(after) == sorted({_ends_after(state, m) for m in moves})
    values = [a.expected_points for a in advice]
    assert values == sorted(values, reverse=True)
    for a in advice:
        assert a.samples == 12 and a.exact_share == 1.0 and a.label == LABEL
        assert 0 <= a.p_win_hand <= 1
        assert a.ci[0] <= a.expected_points <= a.ci[1]
    json.dumps([a.to_dict() for a in advice])
    again = advise(events, seat, samples=12, rng=random.Random(1), nodes=1_000_000)
    assert [a.expected_points for a in again] == values  # exact solving: seed reproduces


def test_no_advice_when_the_seat_cannot_play() -> None:
    events = random_match_events(random.Random(3), target=10)
    state = None
    for event in events[:6]:
        state = evolve(state, event)
    other = next(s for s in "SWNE" if s != state.hand.turn)
    assert advise(events[:6], other, samples=2) == []


def test_a_tile_fitting_two_ends_of_the_same_number_is_listed_once() -> None:
    def same_ends_twice(state: MatchState, moves: list[Move]) -> bool:
        tiles = [m.tile for m in moves]
        return state.hand.left == state.hand.right and len(set(tiles)) < len(tiles)

    events, seat, _, moves = _find_decision(same_ends_twice)
    advice = advise(events, seat, samples=4, rng=random.Random(2), nodes=1_000_000)
    tiles = [a.tile for a in advice]
    assert len(tiles) == len(set(tiles)) == len({m.tile for m in moves}) < len(moves)
    for a in advice:
        assert (a.tile, a.end) in {(m.tile, m.end) for m in moves}


def test_a_tile_fitting_two_different_ends_keeps_both_moves() -> None:
    def different_ends(state: MatchState, moves: list[Move]) -> bool:
        tiles = [m.tile for m in moves]
        return state.hand.left != state.hand.right and len(set(tiles)) < len(tiles)

    events, seat, state, moves = _find_decision(different_ends)
    advice = advise(events, seat, samples=4, rng=random.Random(3), nodes=1_000_000)
    assert sorted((str(a.tile), str(a.end)) for a in advice) == \
        sorted((str(m.tile), str(m.end)) for m in moves)
    doubled = next(t for t in {m.tile for m in moves} if [m.tile for m in moves].count(t) == 2)
    ends = {_ends_after(state, a) for a in advice if a.tile == doubled}
    assert len(ends) == 2  # two different positions: both are real choices


def test_the_same_position_gets_the_same_advice_whatever_the_seed_and_clock() -> None:
    """The advisor behind the server: the request's seed and wall-clock bound change no
    figure (the deals are seeded from the position, the budgets are work), and the answer
    says what work it did."""
    rng = random.Random("same")
    point = None
    while point is None:
        point = _late_decision(rng)
    events, seat, _ = point
    view = [event_to_dict(e) for e in events]
    advisor = DominoesAdvisor()
    first = advisor.advise(view, seat, 1, 0.8)
    again = advisor.advise(view, seat, 2**40 + 7, 30.0)
    assert first == again and first["moves"]
    assert 0 < first["nodes"] <= NODES + SAMPLES * 100
    assert f"at most {SAMPLES} deals" in first["label"] and "never timed" in first["label"]
    assert all(row["samples"] == SAMPLES for row in first["moves"])


def test_early_advice_is_cut_by_nodes_and_repeats_exactly() -> None:
    """At a hand's opening lead no deal solves exactly: the node budget, not a clock, cuts
    the search, so the same position gives the same figures and the same node count twice."""
    def opening(state: MatchState, moves: list[Move]) -> bool:
        return sum(state.hand.counts.values()) == 28 and len(moves) > 2

    events, seat, _, _ = _find_decision(opening)
    first = advise_with(events, seat, samples=6, nodes=12_000)
    again = advise_with(list(events), seat, samples=6, nodes=12_000)
    assert first == again
    assert 6_000 < first.nodes <= 12_000 + 6 * 100
    assert all(a.exact_share == 0.0 for a in first.moves)
