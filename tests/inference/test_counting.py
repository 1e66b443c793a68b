"""The exact DP against brute force on thousands of random small positions."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings

from inference import counting
from inference.classes import Position
from inference.counting import exact_marginals, marginals, solve, solve_key
from inference.errors import Infeasible
from inference.propagation import propagate
from inference.references import enumerate_deals
from tests.inference.helpers import brute_force, positions


@settings(max_examples=1500, deadline=None)
@given(positions())
def test_count_and_marginals_equal_brute_force(position: Position) -> None:
    total, exact = brute_force(position)
    key = position.key()
    count = solve_key(key).total if key is not None else 0
    assert count == total
    if not total:
        with pytest.raises(Infeasible):
            solve(position)
        with pytest.raises(Infeasible):
            propagate(position)
        return
    fractions = exact_marginals(position)
    floats = marginals(position)
    for (holder, t), p in exact.items():
        num, den = fractions[holder][t]
        assert Fraction(num, den) == p
        assert abs(floats[holder][t] - float(p)) < 1e-12


@pytest.mark.parametrize("tail_max", [0, 1, 3, 5])
@settings(max_examples=300, deadline=None)
@given(position=positions(max_tiles=8))
def test_every_closed_form_tail_size_is_exact(tail_max: int, position: Position) -> None:
    """0..5 classes inside the widest summed in closed form (default 2): same exact numbers."""
    total, exact = brute_force(position)
    key = position.key()
    if key is None or not total:
        return
    saved = counting.TAIL_MAX
    counting.TAIL_MAX = tail_max
    try:
        solution = solve_key.__wrapped__(key)  # uncached: the cache ignores TAIL_MAX
    finally:
        counting.TAIL_MAX = saved
    assert solution.total == total
    for (holder, t), p in exact.items():
        mask = position.allowed[t]
        if mask & (mask - 1) == 0:
            continue
        k = solution.class_index(mask)
        n = len(position.classes()[mask])
        h = position.holder_index(holder)
        assert Fraction(solution.numerators[k][h], n * total) == p


@settings(max_examples=700, deadline=None)
@given(positions(max_tiles=11))
def test_seed_enumeration_agrees_after_propagation(position: Position) -> None:
    """Propagation keeps every deal; the seed's §8 enumeration counts the same deals."""
    reference = enumerate_deals(position)
    if reference.consistent_deals == 0:
        with pytest.raises(Infeasible):
            propagate(position)
        return
    tight = propagate(position).position
    assert solve(tight).total == reference.consistent_deals == solve(position).total
    ours = marginals(tight)
    for holder, column in reference.marginals.items():
        for t, p in column.items():
            assert abs(ours[holder][t] - p) < 1e-12
            # the propagated allowed sets are exactly the supports of the marginals
            assert (p > 0) == bool(tight.allowed[t] >> tight.holder_index(holder) & 1)


def test_large_counts_are_exact_python_ints() -> None:
    """Spectator view of double-nine: 55 tiles, 4 seats of 10 and a pool of 15."""
    from games.dominoes.tiles import full_set

    tiles = full_set(9)
    position = Position(("S", "W", "N", "E", "pool"), dict.fromkeys(tiles, 31), (10,) * 4 + (15,))
    expected = math.factorial(55) // (math.factorial(10) ** 4 * math.factorial(15))
    assert expected > 2**63
    assert solve(position).total == expected
    assert all(abs(p - 10 / 55) < 1e-15 for p in marginals(position)["W"].values())
