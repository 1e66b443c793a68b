"""Labelled copies in the generic DP, and per-kind count laws, against enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from inference.batches import Holdings
from inference.classes import Position
from inference.counting import exact_marginals, solve
from inference.items import Copy, copies, count_law, kind_laws

HOLDERS = ("W", "N", "E", "pool")


def enumerate_laws(position: Position, group: tuple[str, ...]
                   ) -> tuple[int, dict[object, Counter], dict[tuple[str, Copy], int]]:
    """Every assignment, one by one: per kind, how many deals put k copies in `group`."""
    items = position.tiles
    m = len(position.holders)
    inside = {position.holder_index(h) for h in group}
    options = [[h for h in range(m) if position.allowed[t] >> h & 1] for t in items]
    total = 0
    laws: dict[object, Counter] = {}
    hits: Counter = Counter()
    for assign in itertools.product(*options):
        if any(assign.count(h) != position.counts[h] for h in range(m)):
            continue
        total += 1
        per_kind = Counter(t.kind for t, h in zip(items, assign, strict=True) if h in inside)
        for kind in {t.kind for t in items}:
            laws.setdefault(kind, Counter())[per_kind[kind]] += 1
        for t, h in zip(items, assign, strict=True):
            hits[(position.holders[h], t)] += 1
    return total, laws, hits


@st.composite
def copy_positions(draw, max_items: int = 9):
    """Random small positions over labelled copies (multiplicity up to 3)."""
    m = draw(st.integers(2, 4))
    multiset: dict[str, int] = {}
    while sum(multiset.values()) < draw(st.integers(1, max_items)):
        multiset["abcdefghi"[len(multiset)]] = draw(st.integers(1, 3))
    items = copies(multiset)[:max_items]
    counts = [0] * m
    for _ in items:
        counts[draw(st.integers(0, m - 1))] += 1
    full = (1 << m) - 1
    allowed = {}
    by_kind: dict[str, int] = {}
    for t in items:
        if draw(st.booleans()):  # copies of a kind often share their mask, as in a game
            allowed[t] = by_kind.setdefault(t.kind, draw(st.integers(1, full)))
        else:
            allowed[t] = draw(st.integers(0, full))
    return Position(HOLDERS[:m], allowed, tuple(counts))


@settings(max_examples=300, deadline=None)
@given(copy_positions(), st.data())
def test_count_laws_equal_enumeration(position: Position, data) -> None:
    group = tuple(data.draw(st.sets(st.sampled_from(position.holders), min_size=1)))
    total, laws, hits = enumerate_laws(position, group)
    if not total:
        assert all(sum(count_law(position, [t], group)) == 0 for t in position.allowed)
        return
    assert solve(position).total == total
    marginals = exact_marginals(position)
    for (holder, t), n in hits.items():
        num, den = marginals[holder][t]
        assert Fraction(num, den) == Fraction(n, total)
    found = kind_laws(position, lambda c: c.kind, {"g": group})
    for kind, law in laws.items():
        m = sum(t.kind == kind for t in position.allowed)
        got = found[kind]
        assert got.total == total
        assert got.laws["g"] == tuple(law[k] for k in range(m + 1))
        assert got.expected("g") == sum(Fraction(hits[(h, t)], total) for h in group
                                        for t in position.allowed if t.kind == kind)


def test_every_holder_is_a_group_by_default() -> None:
    items = copies({"r7": 2, "b3": 2, "g1": 1})
    allowed = {t: 0b111 for t in items}
    allowed[Copy("g1", 0)] = 0b011
    position = Position(("W", "N", "deck"), allowed, (2, 1, 2))
    laws = kind_laws(position, lambda c: c.kind)
    for kind, law in laws.items():
        for holder in position.holders:
            assert sum(law.laws[holder]) == law.total
            _, truth, _ = enumerate_laws(position, (holder,))
            m = len(law.laws[holder]) - 1
            assert law.laws[holder] == tuple(truth[kind][k] for k in range(m + 1))


def test_a_copy_played_anonymously_is_not_a_labelled_play() -> None:
    """Why plays must name the copy (docs/inference.md): x, x, y; A holds two, plays an x.

    Physically A held {x, x} in 1 of the 3 equally likely deals and {x, y} in 2, and a
    play of "an x" fits all 3: A holds an x afterwards with probability 1/3. Naming copy 0
    as the one played keeps only the deals where copy 0 was dealt to A: 1/2.
    """
    x0, x1, y0 = items = copies({"x": 2, "y": 1})
    deals = [set(pair) for pair in itertools.combinations(items, 2)]
    fits = [hand for hand in deals if hand & {x0, x1}]
    after = [hand - {min(hand & {x0, x1})} for hand in fits]  # which x: no matter
    truth = Fraction(sum(any(t.kind == "x" for t in hand) for hand in after), len(fits))
    h = Holdings(items, ("A",))
    h.deal("A", 2)
    h.play("A", x0)
    labelled = h.kind_laws(lambda c: c.kind)["x"]
    assert truth == Fraction(1, 3)
    assert labelled.probability("A", 1) == Fraction(1, 2) != truth
    assert y0 in h.exact()["A"]
