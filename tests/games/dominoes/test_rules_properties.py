"""Properties of random legal matches in both variants (hypothesis chooses the seeds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.jsonl import dump_lines, parse_log_lines
from games.dominoes.audience import view
from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.errors import RuleViolation
from games.dominoes.events import HandDealt, HandEnded, HandStarted, MatchEnded, Passed, TilePlayed
from games.dominoes.fairness import deal
from games.dominoes.game import DOMINOES
from games.dominoes.line import can_play
from games.dominoes.rules import decide, evolve, fold, legal_moves
from games.dominoes.selfplay import heaviest_policy, random_match_events, random_policy
from games.dominoes.tiles import SEATS, next_seat, parse_tile
from games.dominoes.validate import check_log
from games.dominoes.variants import get_variant

VARIANTS = ["partnership-6", "partnership-9"]
seeds = st.integers(min_value=0, max_value=2**32)


def match(seed: int, variant: str, greedy: bool = False):
    policy = heaviest_policy if greedy else random_policy
    return random_match_events(random.Random(seed), variant, policy=policy)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds, greedy=st.booleans())
@settings(max_examples=25, deadline=None)
def test_tiles_are_conserved_and_each_is_played_at_most_once(variant, seed, greedy) -> None:
    events = match(seed, variant, greedy)
    all_tiles = set(get_variant(variant).tiles)
    state = None
    for event in events:
        state = evolve(state, event)
        hand = state.hand
        if hand is not None and state.phase == "playing":
            held = [t for s in SEATS for t in hand.hands[s]]
            played = [parse_tile(f"{a}-{b}") for a, b in hand.line]
            _, pool = deal(hand.seed, state.variant)
            everything = held + played + list(pool)
            assert len(everything) == len(all_tiles) and set(everything) == all_tiles
            assert all(len(hand.hands[s]) == hand.counts[s] for s in SEATS)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds)
@settings(max_examples=25, deadline=None)
def test_turns_go_round_and_a_pass_happens_only_when_nothing_fits(variant, seed) -> None:
    events = match(seed, variant)
    state = None
    for event in events:
        if isinstance(event, TilePlayed | Passed):
            assert event.seat == state.hand.turn
            if isinstance(event, Passed):
                hand = state.hand
                assert not can_play(hand.hands[event.seat], hand.left, hand.right)
                assert legal_moves(state, event.seat) == []
            after = evolve(state, event)
            if after.phase == "playing":
                assert after.hand.turn == next_seat(event.seat)
        state = evolve(state, event)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds)
@settings(max_examples=25, deadline=None)
def test_scores_add_up_and_the_match_ends_at_the_target(variant, seed) -> None:
    events = match(seed, variant)
    totals = {"NS": 0, "EW": 0}
    for event in events:
        if isinstance(event, HandEnded):
            if event.winner is not None:
                totals[event.winner] += event.points
            assert event.scores == totals
    final = events[-1]
    assert isinstance(final, MatchEnded)
    assert final.scores == totals and totals[final.winner] >= 100
    assert (
        min(totals.values()) < 100
        or totals[final.winner] > totals["EW" if final.winner == "NS" else "NS"]
    )


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds)
@settings(max_examples=15, deadline=None)
def test_replay_of_an_export_rebuilds_the_same_state(variant, seed) -> None:
    events = match(seed, variant)
    again = parse_log_lines(dump_lines(DOMINOES, events).splitlines()).events
    assert again == events
    assert fold(again) == fold(events) == check_log(again)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds, pick=st.integers(min_value=0, max_value=10**6))
@settings(max_examples=25, deadline=None)
def test_no_illegal_move_is_accepted(variant, seed, pick) -> None:
    """At a random moment, every tile/end/seat the rules did not offer is refused."""
    events = match(seed, variant)
    plays = [i for i, e in enumerate(events) if isinstance(e, TilePlayed | Passed)]
    cut = plays[pick % len(plays)]
    state = fold(events[:cut])
    offered = {(s, m.tile, m.end) for s in SEATS for m in legal_moves(state, s)}
    rng = random.Random(pick)
    for tile in rng.sample(get_variant(variant).tiles, 12):
        for seat in SEATS:
            for end in (None, "left", "right"):
                try:
                    events_out = decide(state, PlayTile(seat, tile, end))
                except RuleViolation:
                    continue
                chosen = events_out[0].end
                assert (seat, tile, chosen) in offered
    for seat in SEATS:
        try:
            decide(state, PassTurn(seat))
        except RuleViolation:
            continue
        assert seat == state.hand.turn and not legal_moves(state, seat)


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=seeds)
@settings(max_examples=10, deadline=None)
def test_an_audience_never_sees_another_seats_tiles_or_the_seed_before_the_end(variant, seed):
    events = match(seed, variant)
    for audience in (*SEATS, "spectator"):
        for event in events:
            seen = view(event, audience)
            if isinstance(seen, HandDealt) and seen.seat != audience:
                assert seen.tiles is None
            if isinstance(seen, HandStarted):
                assert seen.seed is None
            assert seen.seq == event.seq
