"""PIMC at the two-player games: deals sampled from the seat's exact belief fit what it saw,
draw-2's boneyard comes with every tile still to draw, and pimc plays whole matches."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.dominoes.greedy import known_voids
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.seat_view import SeatView
from games.dominoes.selfplay import heaviest_policy, random_match_events
from games.dominoes.state import MatchState
from games.dominoes.strategy.bots import make_bot
from games.dominoes.strategy.play import play_match
from games.dominoes.strategy.sampling import sample_values, sampler
from games.dominoes.variants import get_variant

VARIANTS = ("block-2", "draw-2")
FAST = {"samples": 4, "nodes": 6000}


def _turns(rng: random.Random, variant: str, matches: int):
    """(seat's view, referee state) at random turns with a tile to play of random matches."""
    seats = get_variant(variant).seats
    for _ in range(matches):
        events = random_match_events(rng, variant, target=60, policy=heaviest_policy)
        views = {s: SeatView(s) for s in seats}
        state: MatchState | None = None
        for event in events:
            state = evolve(state, event)
            for view in views.values():
                view.apply(event)
            seat = state.to_move
            if seat is not None and legal_moves(state, seat) and rng.random() < 0.3:
                yield views[seat], state


@pytest.mark.parametrize("variant", VARIANTS)
def test_sampled_deals_fit_the_seats_view(variant: str) -> None:
    rng = random.Random(f"pimc-{variant}")
    checked = 0
    for view, truth in _turns(rng, variant, 3):
        hand = truth.hand
        assert hand is not None
        seat, other = view.seat, get_variant(variant).next_seat(view.seat)
        lacks = known_voids(view, view.state.hand, ("S", "N"))[other]  # type: ignore[union-attr]
        draw = sampler(view)
        for _ in range(4):
            deal = draw(rng)
            assert sorted(deal.hands[seat]) == sorted(hand.hands[seat] or ())
            assert {s: len(deal.hands[s]) for s in ("S", "N")} == hand.counts
            assert len(deal.to_draw) == hand.boneyard
            tiles = [*deal.hands["S"], *deal.hands["N"], *deal.to_draw, *hand.played]
            assert len(tiles) == len(set(tiles))
            if variant == "draw-2":
                assert len(tiles) == 28  # every tile is held, to draw, or on the line
            assert not any(t.has(v) for t in deal.hands[other] for v in lacks)
            checked += 1
        if checked == 4:  # once: solving sampled deals is the slow part (draw-2: seconds)
            sampled = sample_values(view, view.legal_moves(), rng, 3, 300_000)
            assert len(sampled.values) == 3
    assert checked > 40


@pytest.mark.parametrize("variant", VARIANTS)
def test_pimc_plays_whole_matches(variant: str) -> None:
    bots = {"S": make_bot("pimc", seed=1, **FAST), "N": make_bot("greedy", seed=2)}
    result = play_match(bots, lambda n: hashlib.sha256(f"pimc-two:{n}".encode()).hexdigest(),
                        target=30, variant=variant)  # raises on an illegal move
    assert max(result.scores.values()) >= 30 and result.decision_ms["S"]
