"""Perfect-information Monte Carlo: hidden hands drawn from the exact posterior, each deal solved.

The deals come from inference's exact uniform sampler over the seat's belief, so each is
consistent with everything the seat saw (its hand, the plays, every pass). Each deal is then
solved with all hands open; a move's sample value is the points its team gets minus the other
team's under best play *in that deal*. These are perfect-information values: the average is
an optimistic estimate of what the move is worth (strategy fusion — the solver may play each
deal differently, which a player who cannot see the hands cannot).

Draw-2: the belief says which tiles the boneyard holds, not their order. Nothing seen so far
depends on the order of the tiles still to draw (draws take them from the front, unseen), so
given the set every order is equally likely: the sample shuffles it with its own random
source, and the solver then knows every draw, as in the deal it stands for.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.position import from_hands
from games.dominoes.strategy.solver import solve_moves_within
from games.dominoes.tiles import Seat, Tile, as_seat
from games.dominoes.variants import Variant
from inference.classes import POOL
from inference.sampler import DealSampler

EXACT_TILES = 21
"""Partnership deals with at most this many tiles in hands are solved exactly at once (~20 ms
at 21)."""
EXACT_PLAYS_TWO = 18
"""Two-player deals with at most this many plays left (tiles in hands and, in draw-2, still
to draw) are solved exactly at once. Every block-2 deal (14 tiles) is; in draw-2 an exact
solve at 18 takes 0.6 ms at the median and 35 ms at worst, at 21 8 ms and 0.5 s (measured on
random draw-2 positions, docs/strategy.md), too slow a tail for a deal's share of pimc's budget
(6,250 nodes, about 25 ms of one core)."""


@dataclass(frozen=True)
class SampledValues:
    moves: tuple[Move, ...]
    values: tuple[tuple[float, ...], ...]
    """values[k][j]: deal k, move j — points to the mover's team minus the other's."""
    exact: tuple[bool, ...]
    """Whether deal k was solved to the end (else: a depth budget and .horizon)."""
    nodes: int = 0
    """Solver nodes searched for all the deals (the work the node budget counts)."""

    def mean(self, j: int) -> float:
        return sum(row[j] for row in self.values) / len(self.values)


@dataclass(frozen=True)
class Deal:
    """Every seat's hand and, in draw-2, the tiles still to draw in the order drawn."""

    hands: dict[Seat, list[Tile]]
    to_draw: tuple[Tile, ...] = ()


class SampleError(ValueError):
    """A sampled deal does not fit the table (the belief and the state disagree)."""


def complete_deal(
    unseen: Mapping[str, Sequence[Tile]],
    seat: Seat,
    own: Sequence[Tile],
    variant: Variant,
    boneyard: int,
    rng: random.Random,
) -> Deal:
    """A whole deal from a belief's draw of the unseen tiles (holder -> tiles): the seat's
    own hand added and, when the variant draws, the boneyard's `boneyard` tiles (the belief's
    pool) in an order shuffled by `rng` (module docstring)."""
    hands = {s: list(own) if s == seat else list(unseen[s]) for s in variant.seats}
    if not variant.draws:
        return Deal(hands)
    pool = list(unseen.get(POOL, ()))
    if len(pool) != boneyard:
        raise SampleError(f"the belief puts {len(pool)} tiles in the boneyard, "
                          f"the table {boneyard}")
    rng.shuffle(pool)
    return Deal(hands, tuple(pool))


def sampler(view: SeatView) -> Callable[[random.Random], Deal]:
    """A function drawing whole deals: the seat's own hand, the others' (and the boneyard)
    exactly from its belief."""
    deals = DealSampler.of(view.belief())
    state = view.state
    assert state is not None and state.hand is not None
    hand, seat = state.hand, as_seat(view.seat)
    own = sorted(hand.hands[seat] or ())

    def draw(rng: random.Random) -> Deal:
        return complete_deal(deals(rng), seat, own, state.variant, hand.boneyard, rng)

    return draw


def sample_values(
    view: SeatView,
    moves: Sequence[Move],
    rng: random.Random,
    samples: int,
    nodes: int,
    exact_tiles: int | None = None,
    draw: Callable[[random.Random], Deal] | None = None,
) -> SampledValues:
    """Up to `samples` deals, each solved for every move, within about `nodes` solver nodes
    in all (a work budget: never the clock, so a seeded `rng` gives the same values on any
    machine).

    The nodes left are split evenly over the deals still to draw; a deal that cannot be
    solved exactly is searched by iterative deepening within its share and cut at the
    horizon (solve_moves_within: depth 4 at least, even past the share). Sampling stops early
    when the budget is spent (at least one deal is always solved); deals solved exactly at
    once count their nodes too.
    `exact_tiles`: see solve_moves_within (None: EXACT_TILES, or EXACT_PLAYS_TWO).
    `draw`: where the deals come from (None: `sampler(view)`, the exact uniform posterior;
    .pimc_behaviour resamples weighted deals, so a deal may come again: it is then counted
    again, its values taken from the first solve, at no cost in nodes).
    """
    if draw is None:
        draw = sampler(view)
    solved: dict[tuple, tuple[tuple[float, ...], bool]] = {}
    state = view.state
    assert state is not None
    if exact_tiles is None:
        exact_tiles = EXACT_TILES if state.variant.partnership else EXACT_PLAYS_TWO
    rows: list[tuple[float, ...]] = []
    exact: list[bool] = []
    used = 0
    for k in range(samples):
        if k and used >= nodes:
            break
        deal = draw(rng)
        key = (tuple((s, tuple(sorted(h))) for s, h in sorted(deal.hands.items())),
               deal.to_draw)
        if key not in solved:
            pos = from_hands(state, deal.hands, deal.to_draw)
            share = max(0, (nodes - used) // (samples - k))
            values, done, searched = solve_moves_within(pos, moves, share, exact_tiles)
            used += searched
            solved[key] = (tuple(values), done)
        row, done = solved[key]
        rows.append(row)
        exact.append(done)
    return SampledValues(tuple(moves), tuple(rows), tuple(exact), used)

