"""Properties of random legal two-player matches (hypothesis chooses the seeds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dominoes.audience import audiences, view
from games.dominoes.commands import DrawTiles, PassTurn, PlayTile
from games.dominoes.errors import RuleViolation
from games.dominoes.events import (
    HandDealt,
    HandEnded,
    HandStarted,
    MatchEnded,
    Passed,
    TilePlayed,
    TilesDrawn,
)
from games.dominoes.fairness import boneyard, deal
from games.dominoes.line import fits
from games.dominoes.rules import decide, evolve, fold, legal_moves, must_draw
from games.dominoes.selfplay import heaviest_policy, random_match_events, random_policy
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import get_variant

VARIANTS = ["block-2", "draw-2"]
seeds = st.integers(min_value=0, max_value=2**32)


def match(seed: int, variant: str, greedy: bool = False, scoring: str = "losers"):
    policy = heaviest_policy if greedy else random_policy
    return random_match_events(random.Random(seed), variant, policy=policy,
                               scoring=scoring)  # type: ignore[arg-type]


def face_down(state) -> list:
    """The referee's face-down tiles now: the sleeping pool, or the boneyard not yet drawn."""
    hand, variant = state.hand, state.variant
    if variant.draws:
        order = boneyard(hand.seed, variant)
        return list(order[len(order) - hand.boneyard :])
    return list(deal(hand.seed, variant)[1])


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds, greedy=st.booleans())
@settings(max_examples=25, deadline=None)
def test_28_tiles_across_hands_line_and_pool_or_boneyard(variant, seed, greedy) -> None:
    events = match(seed, variant, greedy)
    rules = get_variant(variant)
    state = None
    for event in events:
        state = evolve(state, event)
        hand = state.hand
        if hand is None or state.phase != "playing":
            continue
        held = [t for s in rules.seats for t in hand.hands[s]]
        played = [parse_tile(f"{a}-{b}") for a, b in hand.line]
        everything = held + played + face_down(state)
        assert len(everything) == 28 and set(everything) == set(rules.tiles)
        assert all(len(hand.hands[s]) == hand.counts[s] for s in rules.seats)
        drawn = sum(d.count for d in hand.draws)
        assert hand.boneyard == (14 - drawn if rules.draws else 0)


@given(seed=seeds)
@settings(max_examples=25, deadline=None)
def test_block_2_never_draws_and_shows_the_same_fourteen_sleeping(seed) -> None:
    events = match(seed, "block-2")
    assert not any(isinstance(e, TilesDrawn) for e in events)
    seeds_of = {e.hand: e.seed for e in events if isinstance(e, HandStarted)}
    for ended in (e for e in events if isinstance(e, HandEnded)):
        _, pool = deal(seeds_of[ended.hand], get_variant("block-2"))
        assert [parse_tile(t) for t in ended.pool] == list(pool) and len(pool) == 14


@given(seed=seeds, greedy=st.booleans())
@settings(max_examples=25, deadline=None)
def test_draw_2_draws_only_when_stuck_until_a_fit_which_is_played_at_once(seed, greedy):
    events = match(seed, "draw-2", greedy)
    state = None
    for i, event in enumerate(events):
        if isinstance(event, TilesDrawn):
            hand = state.hand
            assert event.seat == hand.turn and must_draw(state, event.seat)
            drawn = [parse_tile(t) for t in event.tiles]
            assert all(not fits(t, hand.left, hand.right) for t in drawn[:-1])
            following = events[i + 1]
            if fits(drawn[-1], hand.left, hand.right):
                assert isinstance(following, TilePlayed)
                assert (following.seat, parse_tile(following.tile)) == (event.seat, drawn[-1])
            else:  # the boneyard ran out: a pass, or the hand is blocked
                assert event.count == hand.boneyard
                assert isinstance(following, Passed | HandEnded)
        if isinstance(event, Passed):
            assert state.hand.boneyard == 0 and legal_moves(state, event.seat) == []
        state = evolve(state, event)
    assert any(isinstance(e, TilesDrawn) for e in events)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds, scoring=st.sampled_from(["losers", "all"]))
@settings(max_examples=25, deadline=None)
def test_scores_add_up_and_the_match_ends_at_the_target(variant, seed, scoring) -> None:
    events = match(seed, variant, scoring=scoring)
    totals = {"S": 0, "N": 0}
    for event in events:
        if isinstance(event, HandEnded):
            left = {s: sum(parse_tile(t).pips for t in tiles)
                    for s, tiles in event.remaining.items()}
            if event.reason == "blocked":
                assert (event.winner is None) == (left["S"] == left["N"])
            if event.winner is not None:
                loser = "N" if event.winner == "S" else "S"
                assert left[event.winner] <= left[loser]
                counted = left[loser] + (left[event.winner] if scoring == "all" else 0)
                assert event.points == counted
                totals[event.winner] += event.points
            else:
                assert event.points == 0
            assert event.scores == totals
    final = events[-1]
    assert isinstance(final, MatchEnded)
    assert final.scores == totals and totals[final.winner] >= 100
    assert sum(isinstance(e, MatchEnded) for e in events) == 1


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds, pick=st.integers(min_value=0, max_value=10**6))
@settings(max_examples=25, deadline=None)
def test_no_illegal_move_is_accepted(variant, seed, pick) -> None:
    """At a random moment, every play, pass or draw the rules did not offer is refused."""
    events = match(seed, variant)
    moves = [i for i, e in enumerate(events) if isinstance(e, TilePlayed | Passed | TilesDrawn)]
    state = fold(events[: moves[pick % len(moves)]])
    seats = get_variant(variant).seats
    offered = {(s, m.tile, m.end) for s in seats for m in legal_moves(state, s)}
    rng = random.Random(pick)
    for tile in rng.sample(get_variant(variant).tiles, 12):
        for seat in ("S", "W", "N", "E"):
            for end in (None, "left", "right"):
                try:
                    out = decide(state, PlayTile(seat, tile, end))  # type: ignore[arg-type]
                except RuleViolation:
                    continue
                assert (seat, tile, out[0].end) in offered
    turn = state.hand.turn
    for seat in ("S", "W", "N", "E"):
        for command in (PassTurn(seat), DrawTiles(seat)):  # type: ignore[arg-type]
            try:
                decide(state, command)
            except RuleViolation:
                continue
            assert seat == turn and not legal_moves(state, seat)
            assert must_draw(state, seat) == isinstance(command, DrawTiles)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds)
@settings(max_examples=10, deadline=None)
def test_every_other_audience_sees_the_draw_count_but_not_the_tiles(variant, seed) -> None:
    events = match(seed, variant)
    for audience in audiences(get_variant(variant)):
        for event in events:
            seen = view(event, audience)
            assert seen.seq == event.seq
            if isinstance(event, TilesDrawn):
                assert seen.count == event.count
                own = audience in (event.seat, "referee")
                assert seen.tiles == (event.tiles if own else None)
            if isinstance(seen, HandDealt) and audience not in (seen.seat, "referee"):
                assert seen.tiles is None
            if isinstance(seen, HandStarted) and audience != "referee":
                assert seen.seed is None


@given(seed=seeds)
@settings(max_examples=10, deadline=None)
def test_a_seats_own_fold_tracks_its_hand_through_draws_and_counts_the_other(seed) -> None:
    events = match(seed, "draw-2")
    referee = None
    seen = {"S": None, "N": None, "spectator": None}
    for event in events:
        referee = evolve(referee, event)
        for audience in seen:
            seen[audience] = evolve(seen[audience], view(event, audience))
        if referee.phase != "playing":
            continue
        for audience, state in seen.items():
            hand, truth = state.hand, referee.hand
            assert (hand.counts, hand.boneyard, hand.line) == (truth.counts, truth.boneyard,
                                                               truth.line)
            for seat in ("S", "N"):
                assert hand.hands[seat] == (truth.hands[seat] if seat == audience else None)
