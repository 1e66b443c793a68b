"""Bots play only legal moves and see only their seat; PIMC's deals fit the seat's view."""

from __future__ import annotations

import hashlib
import random
import time

import pytest

from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.events import HandDealt, HandStarted, Passed, TilePlayed
from games.dominoes.rules import decide, evolve, fold, legal_moves
from games.dominoes.seat_view import SeatView
from games.dominoes.selfplay import heaviest_policy, random_match_events
from games.dominoes.strategy.bots import BOTS, TABLE_BOTS, NoMoveError, UnknownBotError, make_bot
from games.dominoes.strategy.play import play_match
from games.dominoes.strategy.sampling import sample_values, sampler
from games.dominoes.tiles import SEATS, parse_tile

FAST = {name: {"samples": 4, "nodes": 6000} for name in ("pimc", "pimc-behaviour", "pimc-flat")}
FAST["omniscient"] = {"nodes": 6000}
FAST["playout"] = {"samples": 8}
FAST["minimax"] = {"samples": 4, "nodes": 6000}


def _seed(n: int) -> str:
    return hashlib.sha256(f"bots-test:{n}".encode()).hexdigest()


@pytest.mark.parametrize("pair", [("random", "greedy"), ("pimc", "omniscient"), ("greedy", "pimc")])
def test_bots_play_whole_matches_with_legal_moves_only(pair: tuple[str, str]) -> None:
    a, b = pair
    bots = {
        s: make_bot(a if s in "NS" else b, seed=s, **FAST.get(a if s in "NS" else b, {}))
        for s in SEATS
    }
    result = play_match(bots, _seed, target=25)  # raises on any illegal choice
    assert max(result.scores.values()) >= 25
    assert result.hands == len(result.hand_points)


def _decision_points(rng: random.Random, matches: int):
    """(events so far, seat to play, its legal moves) at random points of random matches."""
    for _ in range(matches):
        events = random_match_events(rng, target=40, policy=heaviest_policy)
        state = None
        for k, event in enumerate(events):
            state = evolve(state, event)
            if state.phase != "playing" or not isinstance(event, TilePlayed | Passed | HandDealt):
                continue
            seat = state.hand.turn
            moves = legal_moves(state, seat)
            if moves and rng.random() < 0.25:
                yield events[: k + 1], seat, moves


def test_choose_move_from_events_is_legal_for_every_table_bot() -> None:
    rng = random.Random("choose-move")
    bots = {name: make_bot(name, seed=1, **FAST.get(name, {})) for name in BOTS}
    for events, seat, moves in _decision_points(rng, 2):
        for bot in bots.values():
            assert bot.choose_move(events, seat) in moves


def test_choose_move_refuses_when_the_seat_cannot_play() -> None:
    events = random_match_events(random.Random(5), target=10)
    state = fold(events[:6])  # dealt, leader to play
    other = next(s for s in SEATS if s != state.hand.turn)
    with pytest.raises(NoMoveError):
        make_bot("greedy").choose_move(events[:6], other)


def test_a_seat_view_redacts_other_hands_even_from_the_referee_log() -> None:
    events = random_match_events(random.Random(6), target=10)
    view = SeatView.from_events(events[:8], "W")
    hands = view.state.hand.hands
    assert hands["W"] is not None
    assert all(hands[s] is None for s in SEATS if s != "W")
    assert all(e.tiles is None for e in view.events if isinstance(e, HandDealt) and e.seat != "W")
    assert all(e.seed is None for e in view.events if isinstance(e, HandStarted))


def _replays(events, seat, deal) -> bool:
    """Whether the hand, dealt as `deal` plus what each seat has played, replays event by event."""
    start = max(i for i, e in enumerate(events) if isinstance(e, HandStarted))
    plays = {s: [] for s in SEATS}
    for e in events[start:]:
        if isinstance(e, TilePlayed):
            plays[e.seat].append(e.tile)
    state = fold(events[: start + 1])
    for s in SEATS:
        tiles = [str(t) for t in deal[s]] + plays[s]
        state = evolve(state, HandDealt(hand=state.hand.number, seat=s, tiles=tiles))
    for e in events[start + 5 :]:
        command = (
            PlayTile(e.seat, parse_tile(e.tile), e.end)
            if isinstance(e, TilePlayed)
            else PassTurn(e.seat)
        )
        produced = decide(state, command)  # raises if the deal makes this event illegal
        if produced[0].model_dump(exclude={"seq"}) != e.model_dump(exclude={"seq"}):
            return False
        state = evolve(state, produced[0])
    return True


def test_pimc_samples_only_deals_consistent_with_the_seats_view() -> None:
    rng = random.Random("consistent")
    checked = 0
    for events, seat, _moves in _decision_points(rng, 3):
        truth = fold(events).hand
        view = SeatView.from_events(events, seat)
        draw = sampler(view)
        for _ in range(5):
            deal = draw(rng).hands
            assert sorted(deal[seat]) == sorted(truth.hands[seat])
            assert {s: len(deal[s]) for s in SEATS} == truth.counts
            assert set().union(*map(set, deal.values())) == set().union(*truth.hands.values())
            for record in truth.passes:
                assert not any(t.has(record.left) or t.has(record.right) for t in deal[record.seat])
            assert _replays(events, seat, deal)
            checked += 1
    assert checked > 20


def test_sample_values_respects_its_sample_count() -> None:
    rng = random.Random("values")
    events, seat, moves = next(_decision_points(rng, 1))
    sampled = sample_values(SeatView.from_events(events, seat), moves, rng, 3, 300_000)
    assert len(sampled.values) == 3 and all(len(row) == len(moves) for row in sampled.values)


def test_registry() -> None:
    assert set(TABLE_BOTS) <= set(BOTS)
    assert "omniscient" in BOTS and "omniscient" not in TABLE_BOTS
    with pytest.raises(UnknownBotError):
        make_bot("perfect")
    a, b = make_bot("random", seed=3), make_bot("random", seed=3)
    assert a.rng.random() == b.rng.random()


def test_bots_play_double_nine_with_its_sleeping_pool() -> None:
    bots = {
        s: make_bot("pimc" if s in "NS" else "greedy", seed=s, **FAST.get("pimc", {}))
        if s in "NS"
        else make_bot("greedy", seed=s)
        for s in SEATS
    }
    result = play_match(bots, _seed, target=15, variant="partnership-9", scoring="all")
    assert max(result.scores.values()) >= 15


def test_pimc_decides_by_counted_work_the_same_move_twice() -> None:
    """A hand's opening lead (28 tiles in hands, 7 moves): no deal solves exactly, so pimc
    stops deepening when its node budget is spent, not on a clock. Two bots with the same
    seed choose the same move there, over the same deals and the same nodes searched; the
    nodes counted keep to the budget (the depth-4 search a deal always finishes, under 100
    nodes at these openings, may pass its share by that much, and a search stops one node
    past its limit) and spend most of it (else the position tested nothing); the deals keep
    to `samples`. Time is only printed."""
    budget, samples = 20_000, 8
    for match in range(3):
        events = random_match_events(random.Random(match), target=100)
        second = next(i for i, e in enumerate(events) if isinstance(e, HandStarted) and e.hand == 2)
        opening = events[: second + 5]  # hand_started and the four hand_dealt
        state = fold(opening)
        seat = state.hand.turn
        assert sum(state.hand.counts.values()) == 28 and len(legal_moves(state, seat)) == 7
        bots = [make_bot("pimc", seed=match, nodes=budget, samples=samples) for _ in range(2)]
        started = time.perf_counter()
        moves = [bot.choose_move(opening, seat) for bot in bots]
        elapsed = time.perf_counter() - started
        first, again = bots
        assert moves[0] == moves[1] and moves[0] in legal_moves(state, seat)
        assert (first.last_nodes, first.last_deals) == (again.last_nodes, again.last_deals)
        assert budget / 2 < first.last_nodes <= budget + samples * 100
        assert 1 <= first.last_deals <= samples
        print(f"match {match}: {first.last_deals} deals, {first.last_nodes} nodes, "
              f"{elapsed / 2:.3f} s a decision")


def test_sample_values_counts_its_nodes_against_the_budget() -> None:
    """The nodes a decision reports are the nodes its solvers searched; a smaller budget
    spends fewer, and the same seed gives the same values and the same count."""
    rng = random.Random("values-nodes")
    events = random_match_events(rng, target=100)
    second = next(i for i, e in enumerate(events) if isinstance(e, HandStarted) and e.hand == 2)
    opening = events[: second + 5]
    seat = fold(opening).hand.turn
    view = SeatView.from_events(opening, seat)
    moves = view.legal_moves()
    small = sample_values(view, moves, random.Random(5), 6, 3_000)
    large = sample_values(view, moves, random.Random(5), 6, 30_000)
    same = sample_values(SeatView.from_events(opening, seat), moves, random.Random(5), 6, 30_000)
    assert small.nodes < large.nodes <= 30_000 + 6 * 100
    assert (same.values, same.nodes, same.exact) == (large.values, large.nodes, large.exact)
    assert not any(large.exact)
