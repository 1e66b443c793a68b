"""Draw batches against the physical process: deal and draw from a shuffled deck, keep the
histories whose every observation held, and compare counts, marginals, kind laws, samples."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clients.bench.batches import uno_like
from inference.batches import HistoryError, Holdings
from inference.items import Copy, copies

Event = tuple  # ("draw", seat, n, known | None) | ("aside", name, n, admits | None)
#              | ("exclude", seat, frozenset) | ("play", seat, item) | ("reveal", place, item)


@dataclass
class History:
    items: list[Copy[str]]
    seats: tuple[str, ...]
    events: list[Event]


def drive(history: History) -> Holdings[Copy[str]]:
    h = Holdings(history.items, history.seats, source="deck")
    for event in history.events:
        kind, where, *rest = event
        if kind == "draw":
            h.draw(where, rest[0], rest[1])
        elif kind == "aside":
            admits = rest[1]
            h.set_aside(where, rest[0], None if admits is None else admits.__contains__)
        elif kind == "exclude":
            h.exclude(where, rest[0].__contains__)
        elif kind == "play":
            h.play(where, rest[0])
        else:
            h.reveal(where, rest[0])
    return h


def physical(history: History) -> tuple[int, Counter]:
    """Every way the shuffled deck could have fed the draws (a batch is a set: its order does
    not matter and every set is equally likely), kept when every event of the history held.

    Returns the number of kept ways and, per final state (what each place holds), its ways.
    """
    outcomes: Counter = Counter()
    seats = history.seats

    def run(k: int, deck: frozenset, hands: dict[str, frozenset], asides: dict) -> None:
        if k == len(history.events):
            state = {"deck": deck, **hands, **asides}
            outcomes[tuple(sorted((p, tuple(sorted(v))) for p, v in state.items()))] += 1
            return
        kind, where, *rest = history.events[k]
        if kind in ("draw", "aside"):
            n, extra = rest
            for batch in itertools.combinations(sorted(deck), n):
                taken = frozenset(batch)
                if kind == "draw":
                    if extra is not None and taken != frozenset(extra):
                        continue
                    run(k + 1, deck - taken, {**hands, where: hands[where] | taken}, asides)
                else:
                    if extra is not None and not taken <= extra:
                        continue
                    run(k + 1, deck - taken, hands, {**asides, where: taken})
        elif kind == "exclude":
            if not hands[where] & rest[0]:
                run(k + 1, deck, hands, asides)
        elif kind == "play":
            if rest[0] in hands[where]:
                run(k + 1, deck, {**hands, where: hands[where] - {rest[0]}}, asides)
        else:
            place = {"deck": deck, **hands, **asides}.get(where, frozenset())
            if rest[0] in place:
                run(k + 1, deck, hands, asides)

    run(0, frozenset(history.items), {s: frozenset() for s in seats}, {})
    return sum(outcomes.values()), outcomes


def check_against_physics(history: History) -> None:
    h = drive(history)
    total, outcomes = physical(history)
    assert total >= 1  # histories are generated from a true world
    assert h.count() == total
    places = ["deck", *history.seats, *(e[1] for e in history.events if e[0] == "aside")]
    held: dict[tuple[str, Copy], int] = Counter()
    laws: dict[tuple[str, str, int], int] = Counter()
    kinds = sorted({t.kind for t in history.items})
    for state, ways in outcomes.items():
        for place, items in state:
            for t in items:
                held[(place, t)] += ways
            have = Counter(t.kind for t in items)
            for kind in kinds:
                laws[(place, kind, have[kind])] += ways
    exact = h.exact()
    assert set(exact) == set(places)
    floats = h.marginals()
    for place in places:
        for t in history.items:
            assert exact[place][t] == Fraction(held[(place, t)], total)
            assert abs(floats[place][t] - held[(place, t)] / total) < 1e-12
    found = h.kind_laws(lambda c: c.kind)
    for kind in kinds:
        law = found.get(kind)
        m = sum(t.kind == kind for t in history.items)
        for place in places:
            for k in range(m + 1):
                truth = Fraction(laws[(place, kind, k)], total)
                got = law.probability(place, k) if law is not None else Fraction(k == 0)
                assert got == truth, (kind, place, k)
            if law is not None:
                assert law.expected(place) == sum(exact[place][t] for t in history.items
                                                  if t.kind == kind)


@st.composite
def histories(draw, max_items: int = 10, max_events: int = 12, uno: bool = False) -> History:
    """A true world played forward: every observation recorded is true of it.

    `uno`: a pass names one absent kind and is followed by a one-item draw, so later plays
    often come from one of several batches that the pass told apart.
    """
    multiset: dict[str, int] = {}
    n_items = draw(st.integers(5, max_items))
    for i in range(n_items):
        if sum(multiset.values()) >= n_items:
            break
        multiset["abcdefghij"[i]] = draw(st.integers(1, 2))
    items = copies(multiset)
    items = items[: n_items]
    kinds = sorted({t.kind for t in items})
    seats = ("A", "B", "C")[: draw(st.integers(2, 3))]
    observer = draw(st.sampled_from([None, *seats]))
    deck = list(draw(st.permutations(items)))
    hands: dict[str, list[Copy[str]]] = {s: [] for s in seats}
    pool: list[Copy[str]] = []
    events: list[Event] = []

    def take(seat: str, n: int) -> None:
        batch = [deck.pop() for _ in range(n)]
        hands[seat].extend(batch)
        events.append(("draw", seat, n, batch if seat == observer else None))

    for seat in seats:
        take(seat, min(len(deck), draw(st.integers(1, 2))))
    if draw(st.booleans()) and deck:  # one item sleeps face down, maybe a vowel only
        vowels = frozenset(t for t in items if t.kind in "aei")
        restricted = draw(st.booleans()) and any(t in vowels for t in deck)
        t = [t for t in deck if t in vowels][-1] if restricted else deck[-1]
        deck.remove(t)
        pool.append(t)
        events.append(("aside", "pool", 1, vowels if restricted else None))
    for _ in range(draw(st.integers(0, max_events))):
        action = draw(st.sampled_from(["draw", "draw", "exclude", "exclude", "play", "play",
                                       "reveal"]))
        seat = draw(st.sampled_from(seats))
        if action == "draw" and deck:
            take(seat, draw(st.integers(1, min(2, len(deck)))))
        elif action == "exclude":
            absent = [k for k in kinds if all(t.kind != k for t in hands[seat])]
            if absent:
                chosen = draw(st.sets(st.sampled_from(absent), min_size=1,
                                      max_size=1 if uno else 3))
                events.append(("exclude", seat, frozenset(t for t in items if t.kind in chosen)))
                if uno and deck:
                    take(seat, 1)
        elif action == "play" and hands[seat]:
            t = draw(st.sampled_from(sorted(hands[seat])))
            hands[seat].remove(t)
            events.append(("play", seat, t))
        elif action == "reveal":
            places = [(p, ts) for p, ts in [("deck", deck), ("pool", pool), *hands.items()] if ts]
            if places:
                place, ts = draw(st.sampled_from(places))
                events.append(("reveal", place, draw(st.sampled_from(sorted(ts)))))
    return History(items, seats, events)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_random_histories_match_the_physical_deck(history: History) -> None:
    check_against_physics(history)


@settings(max_examples=100, deadline=None)
@given(histories(uno=True))
def test_passes_then_draws_then_plays_of_unknown_origin(history: History) -> None:
    check_against_physics(history)


def _uno_like() -> History:
    """Two seats, 10 cards with twins; passes before draws, plays of cards of unknown origin."""
    items = copies({"r": 2, "g": 2, "b": 2, "y": 1, "w": 1, "x": 1, "z": 1})
    r0, r1, g0, g1, b0, _, y0, w0, _, _ = items
    red = frozenset({r0, r1})
    events: list[Event] = [
        ("draw", "A", 2, None), ("draw", "B", 2, None),
        ("exclude", "A", red),          # A had no red...
        ("draw", "A", 1, None),         # ...so it drew one card
        ("play", "A", r0),              # and played a red: it came from the new batch
        ("exclude", "B", frozenset({g0, g1, y0})),
        ("draw", "B", 2, None),
        ("play", "B", g1),              # a green from B's second batch
        ("draw", "A", 1, None), ("draw", "A", 1, None),   # no event between: one batch
        ("play", "A", b0),              # a blue from any of A's batches
        ("exclude", "A", frozenset({w0})),
    ]
    return History(items, ("A", "B"), events)


def test_a_worked_history_matches_the_physical_deck() -> None:
    history = _uno_like()
    check_against_physics(history)
    h = drive(history)
    layout = h.layout()
    # A's last two draws had nothing between them: one holder, counts multiplied by C(2, 1)
    assert "A#2+A#3" in layout.position.holders
    assert layout.factor == 2
    holders = layout.position.holders
    bits = {name: 1 << i for i, name in enumerate(holders)}
    allowed = layout.position.allowed
    assert allowed[Copy("r", 0)] == bits["A#1"]  # after A's pass on red, before its play
    assert allowed[Copy("g", 1)] == bits["B#1"]  # B's only batch drawn after its pass
    assert not allowed[Copy("r", 1)] & bits["A#0"]  # A had no red when it passed
    assert allowed[Copy("r", 1)] & bits["A#2+A#3"]  # but may have drawn one since
    assert h.exact()["A"][Copy("r", 0)] == 0  # played: held by nobody


def chi_square_p(statistic: float, dof: int) -> float:
    """Upper tail of chi-square by Wilson-Hilferty."""
    z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_sampler_draws_current_hands_with_their_exact_probabilities() -> None:
    history = _uno_like()
    h = drive(history)
    total, outcomes = physical(history)
    rng = random.Random(2024)
    draws = 40 * len(outcomes) if len(outcomes) < 200 else 8000
    seen: Counter = Counter()
    for _ in range(draws):
        state = h.sample(rng)
        seen[tuple(sorted((p, tuple(v)) for p, v in state.items()))] += 1
    assert set(seen) <= set(outcomes)
    statistic = sum((seen[o] - draws * w / total) ** 2 / (draws * w / total)
                    for o, w in outcomes.items())
    assert len(outcomes) > 20
    assert chi_square_p(statistic, len(outcomes) - 1) > 1e-4


def test_events_that_cannot_happen_are_refused() -> None:
    items = copies({"a": 2, "b": 1})
    h = Holdings(items, ("A", "B"))
    with pytest.raises(HistoryError):
        h.draw("C", 1)
    h.deal("A", 2)
    with pytest.raises(HistoryError):
        h.deal("A", 1)
    with pytest.raises(HistoryError):
        h.draw("B", 2)  # one item left
    h.play("A", items[0])
    with pytest.raises(HistoryError):
        h.play("A", items[0])
    with pytest.raises(HistoryError):
        h.set_aside("A", 1)


def test_growth_over_a_long_history() -> None:
    """Print holders and DP time along a long Uno-like history (no timing assertions)."""
    rows = []
    for h, row in uno_like(seed=7, turns=60, every=10):
        rows.append(row)
        assert row.holders <= row.batches + 2  # merging never adds holders
        marginals = h.marginals()
        for seat in h.seats:  # each seat's marginals add up to what it holds now
            size = sum(b.size for b in h.batches if b.seat == seat)
            played = sum(p[0] == seat for p in h.plays.values())
            assert abs(sum(marginals[seat].values()) - (size - played)) < 1e-9
        assert sum(marginals["deck"].values()) == pytest.approx(h.left)
    print("\nturn  batches  holders  classes  dp_ms")
    for r in rows:
        print(f"{r.turn:4d}  {r.batches:7d}  {r.holders:7d}  {r.classes:7d}  {r.dp_ms:7.1f}")
    assert len(rows) == 6
