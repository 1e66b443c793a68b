"""Perfect-information Monte Carlo: hidden hands drawn from the exact posterior, each deal solved.

The deals come from inference's exact uniform sampler over the seat's belief, so each is
consistent with everything the seat saw (its hand, the plays, every pass). Each deal is then
solved with all hands open; a move's sample value is the points its team gets minus the other
team's under best play *in that deal*. These are perfect-information values: the average is
an optimistic estimate of what the move is worth (strategy fusion — the solver may play each
deal differently, which a player who cannot see the hands cannot).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.tiles import SEATS, Seat, Tile
from inference.sampler import DealSampler
from strategy.position import from_hands
from strategy.solver import solve_moves_within
from strategy.view import SeatView

EXACT_TILES = 21
"""Deals with at most this many tiles in hands are solved exactly at once (~20 ms at 21)."""


@dataclass(frozen=True)
class SampledValues:
    moves: tuple[Move, ...]
    values: tuple[tuple[float, ...], ...]
    """values[k][j]: deal k, move j — points to the mover's team minus the other's."""
    exact: tuple[bool, ...]
    """Whether deal k was solved to the end (else: a depth budget and strategy.horizon)."""

    def mean(self, j: int) -> float:
        return sum(row[j] for row in self.values) / len(self.values)


def sampler(view: SeatView):  # -> Callable[[random.Random], dict[Seat, list[Tile]]]
    """A function drawing all four hands: the seat's own, the others exactly from its belief."""
    deals = DealSampler.of(view.belief())
    assert view.state is not None and view.state.hand is not None
    own = sorted(view.state.hand.hands[view.seat] or ())

    def draw(rng: random.Random) -> dict[Seat, list[Tile]]:
        deal = deals(rng)
        return {s: own if s == view.seat else deal[s] for s in SEATS}

    return draw


def sample_values(
    view: SeatView,
    moves: Sequence[Move],
    rng: random.Random,
    samples: int,
    seconds: float,
    exact_tiles: int = EXACT_TILES,
) -> SampledValues:
    """Up to `samples` deals, each solved for every move, within about `seconds` in all.

    The remaining time is split evenly over the deals still to draw; a deal that cannot be
    solved exactly in its share is searched by iterative deepening and cut at the horizon.
    Sampling stops early when time is up (at least one deal is always solved).
    """
    deadline = time.perf_counter() + seconds
    draw = sampler(view)
    state = view.state
    assert state is not None
    rows: list[tuple[float, ...]] = []
    exact: list[bool] = []
    for k in range(samples):
        now = time.perf_counter()
        if k and now >= deadline:
            break
        pos = from_hands(state, draw(rng))
        share = max(0.0, (deadline - now) / (samples - k))
        values, done = solve_moves_within(pos, moves, share, exact_tiles)
        rows.append(tuple(values))
        exact.append(done)
    return SampledValues(tuple(moves), tuple(rows), tuple(exact))
