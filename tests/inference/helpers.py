"""Shared helpers for the inference tests: brute force, random positions, event builders."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import strategies as st

from games.dominoes.events import HandDealt, HandStarted, MatchStarted, Passed, TilePlayed
from games.dominoes.tiles import full_set
from inference.classes import Position

SEED = "0" * 64
HOLDERS = ("W", "N", "E", "S", "pool")


def brute_force(position: Position) -> tuple[int, dict[tuple[str, object], Fraction]]:
    """Every assignment of tiles to holders, checked one by one (tiny positions only)."""
    tiles = position.tiles
    m = len(position.holders)
    total = 0
    hits: dict[tuple[int, object], int] = {}
    options = [[h for h in range(m) if position.allowed[t] >> h & 1] for t in tiles]
    for assign in itertools.product(*options):
        if any(assign.count(h) != position.counts[h] for h in range(m)):
            continue
        total += 1
        for t, h in zip(tiles, assign, strict=True):
            hits[(h, t)] = hits.get((h, t), 0) + 1
    marg = {
        (position.holders[h], t): Fraction(hits.get((h, t), 0), total) if total else Fraction(0)
        for h in range(m)
        for t in tiles
    }
    return total, marg


@st.composite
def positions(draw, max_tiles: int = 9, min_holders: int = 2, max_holders: int = 5):
    """A random small position: masks biased towards wide sets so many are feasible."""
    m = draw(st.integers(min_holders, max_holders))
    n = draw(st.integers(0, max_tiles))
    tiles = draw(st.permutations(full_set(9)))[:n]
    counts = [0] * m
    for _ in range(n):
        counts[draw(st.integers(0, m - 1))] += 1
    full = (1 << m) - 1
    allowed = {}
    for t in tiles:
        if draw(st.booleans()):
            allowed[t] = full
        else:
            allowed[t] = draw(st.integers(0, full))
    return Position(HOLDERS[:m], allowed, tuple(counts))


def start(variant: str = "partnership-6", hand: int = 2, leader: str = "S") -> list:
    players = {s: f"p{s}" for s in "SWNE"}
    return [
        MatchStarted(seq=1, match_id="m", variant=variant, players=players),
        HandStarted(seq=2, hand=hand, leader=leader, seed_sha256=SEED),
    ]


def dealt(seq: int, seat: str, tiles: list[str] | None, hand: int = 2) -> HandDealt:
    return HandDealt(seq=seq, hand=hand, seat=seat, tiles=tiles)


def play(seq: int, seat: str, tile: str, end: str | None, hand: int = 2) -> TilePlayed:
    return TilePlayed(seq=seq, hand=hand, seat=seat, tile=tile, end=end)


def passed(seq: int, seat: str, hand: int = 2) -> Passed:
    return Passed(seq=seq, hand=hand, seat=seat)
