"""The seed's invariants (§5.2) on every position of random full matches, every observer."""

from __future__ import annotations

import random

import pytest

from games.dominoes.audience import view
from games.dominoes.belief_partnership import Belief
from games.dominoes.facts import Fact
from games.dominoes.selfplay import random_match_events
from games.dominoes.tiles import SEATS, parse_tile
from inference.classes import POOL

OBSERVERS = (*SEATS, "spectator")


def check_facts(items: list[Fact], marg: dict[str, dict[str, float]]) -> None:
    for fact in items:
        if fact.kind == "void":
            holder = fact.holders[0]
            assert all(p == 0.0 for t, p in marg[holder].items()
                       if set(map(int, t.split("-"))) & set(fact.values))
        elif fact.kind == "holds":
            assert all(marg[fact.holders[0]][str(t)] == 1.0 for t in fact.tiles)
        elif fact.kind == "cannot":
            assert all(marg[fact.holders[0]][str(t)] == 0.0 for t in fact.tiles)
        elif fact.kind in ("suit", "exact"):
            others = [h for h in marg if h not in fact.holders]
            assert all(marg[h][str(t)] == 0.0 for h in others for t in fact.tiles)


def check_position(belief: Belief, truth: dict[str, set[str]]) -> None:
    snap = belief.snapshot()
    if snap.status != "live":
        return
    position = belief.position()
    marg = snap.marginals
    counts = dict(zip(position.holders, position.counts, strict=True))
    tiles = [str(t) for t in position.tiles]
    for t in tiles:
        column = [marg[h][t] for h in position.holders]
        assert abs(sum(column) - 1.0) < 1e-9  # invariant 1
        assert all(0.0 <= p <= 1.0 + 1e-12 for p in column)  # invariant 5
        mask = position.allowed[parse_tile(t)]
        for i, h in enumerate(position.holders):
            if not mask >> i & 1:
                assert marg[h][t] == 0.0  # invariant 3
        if mask & (mask - 1) == 0:
            assert marg[position.holders[mask.bit_length() - 1]][t] == 1.0  # invariant 4
    for h in position.holders:
        assert abs(sum(marg[h].values()) - counts[h]) < 1e-9  # invariant 2
        for t in truth.get(h, ()):  # the real deal is always possible
            if t in marg[h]:
                assert marg[h][t] > 0.0
    # propagation is exact: 0 and 1 appear only where the allowed sets say so
    for t in tiles:
        mask = position.allowed[parse_tile(t)]
        for i, h in enumerate(position.holders):
            assert (marg[h][t] > 0.0) == bool(mask >> i & 1)
    check_facts(snap.fact_items, marg)


def truths(events: list) -> list[dict[str, set[str]]]:
    """Who really holds what after each event (the referee's view), in one pass."""
    out: list[dict[str, set[str]]] = []
    hands: dict[str, set[str]] = {}
    pool: set[str] = set()
    for event in events:
        if event.type == "hand_started":
            hands, pool = {}, set()
        elif event.type == "hand_dealt":
            hands[event.seat] = set(event.tiles)
            if len(hands) == 4:
                dealt = set().union(*hands.values())
                pool = {f"{a}-{b}" for a in range(10) for b in range(a, 10)} - dealt
        elif event.type == "tile_played":
            hands[event.seat].discard(event.tile)
        out.append({**{s: set(ts) for s, ts in hands.items()}, POOL: set(pool)})
    return out


@pytest.mark.parametrize("variant", ["partnership-6", "partnership-9"])
def test_invariants_on_every_position(variant: str) -> None:
    rng = random.Random(2024 if variant == "partnership-6" else 2025)
    for _ in range(12 if variant == "partnership-6" else 8):
        events = random_match_events(rng, variant, target=100)
        for observer in OBSERVERS:
            belief = Belief(observer)
            for event, truth in zip(events, truths(events), strict=True):
                belief.apply(view(event, observer))
                check_position(belief, truth)


def test_incremental_equals_from_scratch_on_random_matches() -> None:
    rng = random.Random(99)
    for variant in ("partnership-6", "partnership-9"):
        events = random_match_events(rng, variant, target=60)
        for observer in ("W", "spectator"):
            seen = [view(e, observer) for e in events]
            belief = Belief(observer)
            cuts = set(rng.sample(range(1, len(seen) + 1), 6))
            for i, event in enumerate(seen, start=1):
                belief.apply(event)
                if i in cuts:
                    scratch = Belief.from_events(seen[:i], observer)
                    assert scratch.snapshot().to_json_dict() == belief.snapshot().to_json_dict()
