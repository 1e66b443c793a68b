"""The exact sampler is uniform over deals (chi-square); the seed's samplers converge."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from games.dominoes.tiles import full_set
from inference import counting
from inference.classes import Position
from inference.counting import marginals, solve, solve_key
from inference.references import (
    SamplerGaveUp,
    constrained,
    mcmc,
    rejection,
    rejection_seed,
)
from inference.sampler import sample_deal


def chi_square_p(statistic: float, dof: int) -> float:
    """Upper tail of chi-square by Wilson-Hilferty (ample for hundreds of cells)."""
    z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def all_deals(position: Position) -> list[tuple[int, ...]]:
    tiles = position.tiles
    m = len(position.holders)
    options = [[h for h in range(m) if position.allowed[t] >> h & 1] for t in tiles]
    return [
        a for a in itertools.product(*options)
        if all(a.count(h) == position.counts[h] for h in range(m))
    ]


def _position(seed: int) -> Position:
    """~a few hundred deals with several classes, one of them inside the widest."""
    tiles = full_set(6)[:9]
    masks = [7, 7, 7, 6, 6, 5, 3, 7, 5]
    return Position(("W", "N", "E"), dict(zip(tiles, masks, strict=True)), (3, 3, 3))


POSITIONS = [
    _position(0),
    Position(("S", "W", "N", "E"), dict(zip(full_set(6)[:8], [15, 15, 14, 13, 11, 7, 15, 12],
                                            strict=True)), (2, 2, 2, 2)),
    Position(("W", "N", "E", "pool"), dict(zip(full_set(9)[:9], [15, 15, 9, 10, 12, 15, 15, 11, 13],
                                               strict=True)), (2, 2, 2, 3)),
    # no class inside the widest: the generic tail
    Position(("W", "N", "E"), dict(zip(full_set(6)[:10], [3, 3, 3, 5, 5, 5, 6, 6, 6, 6],
                                       strict=True)), (3, 3, 4)),
]


@pytest.mark.parametrize("tail_max", [1, 2, 4])
@pytest.mark.parametrize("position", POSITIONS)
def test_exact_sampler_is_uniform(position: Position, tail_max: int) -> None:
    """Whatever the number of classes summed in closed form at the end (default 2)."""
    saved = counting.TAIL_MAX
    counting.TAIL_MAX = tail_max
    try:
        solution = solve_key.__wrapped__(position.key())  # uncached: the cache ignores it
    finally:
        counting.TAIL_MAX = saved
    deals = all_deals(position)
    assert len(deals) == solve(position).total
    assert 50 <= len(deals) <= 2000
    index = {d: i for i, d in enumerate(deals)}
    tiles = position.tiles
    rng = random.Random(12345)
    per_deal = 40
    draws = per_deal * len(deals)
    counts = [0] * len(deals)
    for _ in range(draws):
        deal = sample_deal(position, rng, solution)
        owner = {t: position.holders.index(h) for h, ts in deal.items() for t in ts}
        assert sorted(owner) == tiles
        counts[index[tuple(owner[t] for t in tiles)]] += 1
    statistic = sum((c - per_deal) ** 2 / per_deal for c in counts)
    assert chi_square_p(statistic, len(deals) - 1) > 1e-4


@pytest.mark.parametrize("position", POSITIONS)
def test_rejection_converges_within_four_standard_errors(position: Position) -> None:
    samples = 20_000
    estimate = rejection(position, random.Random(7), samples=samples)
    exact = marginals(position)
    for holder, column in exact.items():
        for t, p in column.items():
            se = math.sqrt(p * (1 - p) / samples)
            assert abs(estimate.marginals[holder][t] - p) <= 4 * se + 1e-12


@pytest.mark.parametrize("position", POSITIONS)
def test_literal_seed_rejection_converges_within_four_standard_errors(position: Position) -> None:
    """§7.1 as written (pure Python shuffle-and-cut): unbiased, so within 4 SE of exact."""
    samples = 10_000
    estimate = rejection_seed(position, random.Random(11), samples=samples)
    assert estimate.samples == samples and estimate.attempts >= samples
    exact = marginals(position)
    for holder, column in exact.items():
        for t, p in column.items():
            se = math.sqrt(p * (1 - p) / samples)
            assert abs(estimate.marginals[holder][t] - p) <= 4 * se + 1e-12


def test_literal_seed_rejection_gives_up_after_its_budget() -> None:
    with pytest.raises(SamplerGaveUp):
        rejection_seed(POSITIONS[0], random.Random(1), samples=10_000, max_attempts=500)


def test_mcmc_converges_on_a_connected_position() -> None:
    position = POSITIONS[0]
    estimate = mcmc(position, random.Random(3), samples=20_000)
    exact = marginals(position)
    worst = max(abs(estimate.marginals[h][t] - p) for h, col in exact.items()
                for t, p in col.items())
    assert worst < 0.03


def test_constrained_sampler_is_biased() -> None:
    """§7.2 as written: with many samples its error stays far above sampling noise."""
    position = POSITIONS[0]
    samples = 50_000
    estimate = constrained(position, random.Random(5), samples=samples)
    exact = marginals(position)
    worst = max(abs(estimate.marginals[h][t] - p) for h, col in exact.items()
                for t, p in col.items())
    assert worst > 8 * math.sqrt(0.25 / samples)
