"""pimc-behaviour: pimc on deals from the behaviour posterior, drawn from the seat's own view."""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

import pytest

import games.dominoes.strategy.sampling as sampling
from calibration.botmatches import bot_matches
from games.dominoes.behaviour import model as bhv
from games.dominoes.behaviour.betas import betas_for
from games.dominoes.events import TilePlayed
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.bots import BOTS, make_bot
from games.dominoes.strategy.pimc_behaviour import behaviour_sampler, weighted_pool
from games.dominoes.strategy.play import play_match
from games.dominoes.variants import get_variant

FAST = {"samples": 4, "nodes": 6000, "pool": 32}


@pytest.mark.parametrize("variant", ["partnership-6", "block-2", "draw-2"])
def test_pimc_behaviour_plays_whole_matches_with_legal_moves(variant: str) -> None:
    seats = get_variant(variant).seats
    bots = {s: make_bot("pimc-behaviour" if k % 2 == 0 else "pimc", seed=s, **(
        FAST if k % 2 == 0 else {"samples": 4, "nodes": 6000}))
        for k, s in enumerate(seats)}
    result = play_match(bots, lambda n: hashlib.sha256(f"pb:{n}".encode()).hexdigest(),
                        target=20, variant=variant)  # raises on an illegal move
    assert max(result.scores.values()) >= 20
    assert "pimc-behaviour" in BOTS


def _late_view(variant: str) -> SeatView:
    """S's view late in a hand of greedy players (few consistent deals: listed exactly)."""
    events = next(bot_matches(variant, ["greedy"], 1, seed=3, options={"target": 40}))
    for start, stop in bhv.hands_of(events)[1:]:
        plays = [i for i in range(start, stop) if isinstance(events[i], TilePlayed)]
        for index in plays[len(plays) // 2:]:
            view = SeatView.from_events(events[: index + 1], "S")
            if view.state.hand.turn == "S" and view.legal_moves():
                pool = weighted_pool(view, random.Random(0), 2000)
                if pool.exact and len(pool.deals) > 3:
                    return view
    raise AssertionError("no late position listed exactly (change the seed)")


def test_the_weighted_pool_lists_the_deals_and_weighs_them_by_the_plays() -> None:
    view = _late_view("block-2")
    pool = weighted_pool(view, random.Random(0), 2000)
    state = view.state
    own = set(state.hand.hands["S"])
    belief = view.belief()
    counts = belief.remaining_counts()
    decisions, draws = bhv.observed_decisions(view)
    likelihood = bhv.HandLikelihood(decisions, betas_for("block-2", False), draws=draws)
    logs = [likelihood.log_weight(d, len(view.events), "S") for d in pool.deals]
    top = max(logs)
    assert len({tuple(sorted((h, tuple(t)) for h, t in d.items())) for d in pool.deals}) == \
        len(pool.deals)  # each consistent deal once
    for deal, weight, log in zip(pool.deals, pool.weights, logs, strict=True):
        assert not own & {t for tiles in deal.values() for t in tiles}
        assert {h: len(t) for h, t in deal.items()} == {h: counts[h] for h in deal}
        assert math.isclose(weight, math.exp(log - top), rel_tol=1e-12)
    assert max(pool.weights) == 1.0 and pool.ess < len(pool.deals)  # the plays told something


def test_the_behaviour_sampler_draws_deals_in_proportion_to_their_weights() -> None:
    view = _late_view("block-2")
    draw, pool = behaviour_sampler(view, random.Random(1), 2000)
    rng = random.Random(2)
    n = 4000
    seen = Counter(tuple(sorted(draw(rng).hands["N"])) for _ in range(n))
    total = sum(pool.weights)
    expected: Counter = Counter()
    for deal, w in zip(pool.deals, pool.weights, strict=True):
        expected[tuple(sorted(deal["N"]))] += w / total
    for hand, p in expected.items():
        # a fixed seed: deterministic; the bound is five binomial standard deviations
        assert abs(seen[hand] / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9, hand
    assert set(seen) <= set(expected)


def test_a_deal_drawn_again_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _late_view("block-2")
    draw, _ = behaviour_sampler(view, random.Random(1), 2000)
    fixed = draw(random.Random(3))
    solves = []
    real = sampling.solve_moves_within

    def counted(*args: object, **kwargs: object) -> object:
        solves.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sampling, "solve_moves_within", counted)
    moves = view.legal_moves()
    values = sampling.sample_values(view, moves, random.Random(0), 6, 10**9,
                                    draw=lambda _rng: fixed)
    assert len(values.values) == 6 and len(set(values.values)) == 1
    assert len(solves) == 1
