"""The pimc bot: perfect-information Monte Carlo over the seat's exact belief.

To play, it draws whole deals exactly and uniformly from its own belief (the voids the plays
showed included), solves each with the perfect-information solver for every legal domino and
plays the best on average for its team. Like every PIMC player it assumes it would know the
hands from then on (optimistic, the strategy-fusion caveat of seed 003). Each decision is
bounded by a node budget (plays searched by the compiled solver, not wall time, so it is
deterministic): 1,000,000 plays fit every sample of a hand's first play in most deals (the
samples that do not fit are left out; with none solved, the greedy policy decides). Bidding
and naming trump are the greedy policy's (documented in docs/games/texas42.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.texas42.belief import Texas42Belief
from games.texas42.bots import fold, greedy_command
from games.texas42.commands import Move, PlayTile
from games.texas42.dominoes import INDEX, SEATS, TILES
from games.texas42.events import Event
from games.texas42.oracle import solver
from games.texas42.rules import legal_tiles
from games.texas42.solver import OutOfNodes, hands_of
from inference.sampler import sample_deal

SAMPLES = 8
NODE_BUDGET = 1_000_000
"""Plays searched per decision, over all samples (about 0.05-0.1 s of CPU at most)."""


class PimcBot:
    def __init__(self, samples: int = SAMPLES, budget: int = NODE_BUDGET) -> None:
        self.samples = samples
        self.budget = budget

    def choose(self, view: Sequence[Event], seat: str, rng: random.Random) -> Move:
        state = fold(view)
        if state.phase != "playing" or state.trump is None or state.nello:
            return greedy_command(state, seat)  # the solver plays four-seat tricks only
        legal = legal_tiles(state, seat)
        if len(legal) == 1:
            return PlayTile(seat, legal[0])
        totals = self.totals(view, seat, rng)
        if not totals:
            return greedy_command(state, seat)
        ours = seat in ("N", "S")
        best = max(totals, key=lambda i: totals[i] if ours else -totals[i])
        return PlayTile(seat, TILES[best])

    def totals(self, view: Sequence[Event], seat: str, rng: random.Random) -> dict[int, int]:
        """Σ over the samples solved within budget of each legal domino's NS points."""
        belief = Texas42Belief(seat)
        for event in view:
            belief.apply(event)
        state = belief.state
        position = belief.position()
        assert state is not None and position is not None and state.trump is not None
        own = state.hands.get(seat) or frozenset()
        leader = SEATS.index(state.trick[0][0]) if state.trick else SEATS.index(state.leader)
        trick = tuple((SEATS.index(s), INDEX[t]) for s, t in state.trick)
        totals: dict[int, int] = {}
        used = 0
        for _ in range(self.samples):
            drawn = sample_deal(position, rng)
            hands = hands_of([own if s == seat else drawn[s] for s in SEATS])
            search = solver(state.trump, limit=self.budget - used)
            try:
                values = search.move_values(hands, leader, trick)
            except OutOfNodes:
                break
            finally:
                used += search.nodes
            for tile, value in values.items():
                totals[tile] = totals.get(tile, 0) + value
        return totals
