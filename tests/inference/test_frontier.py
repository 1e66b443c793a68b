"""The one-pass programme over items (inference.frontier) against brute force.

Random small positions with random "not all of these" constraints: the count and every
(item, holder) numerator equal an enumeration of every assignment that checks each
constraint directly, and past its work budget the programme says so instead of answering.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.classes import Position
from inference.errors import Infeasible
from inference.frontier import count_frontier
from inference.inclusion_exclusion import NotAll, TooManyTerms, count
from tests.inference.helpers import positions


def _brute(position: Position, constraints: list[NotAll]) -> tuple[int, dict]:
    tiles = position.tiles
    m = len(position.holders)
    total = 0
    rows = {t: [0] * m for t in tiles}
    options = [[h for h in range(m) if position.allowed[t] >> h & 1] for t in tiles]
    for assign in itertools.product(*options):
        if any(assign.count(h) != position.counts[h] for h in range(m)):
            continue
        where = dict(zip(tiles, assign, strict=True))
        if not all(any(not mask >> where[t] & 1 for t, mask in c.within)
                   for c in constraints):
            continue
        total += 1
        for t, h in where.items():
            rows[t][h] += 1
    return total, rows


@st.composite
def constrained(draw):
    position = draw(positions(max_tiles=8, max_holders=4))
    tiles = position.tiles
    full = (1 << len(position.holders)) - 1
    constraints = []
    if len(tiles) >= 2:
        for _ in range(draw(st.integers(0, 4))):
            picked = draw(st.lists(st.sampled_from(tiles), min_size=2, max_size=3, unique=True))
            constraints.append(NotAll.not_all_with(
                (t, draw(st.integers(1, full))) for t in picked))
    return position, constraints


@settings(max_examples=300, deadline=None)
@given(constrained())
def test_counts_and_rows_equal_brute_force(case) -> None:
    position, constraints = case
    total, rows = _brute(position, constraints)
    if total == 0:
        with pytest.raises(Infeasible):
            count_frontier(position, constraints, 10**9)
        return
    counted = count_frontier(position, constraints, 10**9)
    assert counted.total == total
    for t in position.tiles:
        assert counted.rows[t] == rows[t], t
    signed = count(position, constraints)  # inclusion–exclusion agrees too
    assert signed.total == total


def test_past_its_budget_the_programme_stops_and_says_so() -> None:
    holders = ("A", "B", "C")
    position = Position(holders, {t: 0b111 for t in "abcdef"}, (2, 2, 2))
    constraints = [NotAll.holds_one_of(position, "A", "abc"),
                   NotAll.holds_one_of(position, "B", "cde")]
    exact = count_frontier(position, constraints, 10**9)
    assert exact.terms > 10  # the work it spent
    with pytest.raises(TooManyTerms):
        count_frontier(position, constraints, exact.terms - 1)
    assert count_frontier(position, constraints, exact.terms).total == exact.total
