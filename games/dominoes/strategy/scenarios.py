"""Seed 001's two scenario players: random play-outs, and minimax over sampled deals.

Seed 001 ("Hidden information and solving Dominoes", the block game for two) deals the
opponent a random hand consistent with what the player saw — its own hand, the line, the
opponent's passes — and scores each legal move on that scenario; over many scenarios the move
with the best average is played. Its two ways of scoring a scenario:

- **playout**: both players play at random to the end of the hand (.playout.random_finish);
- **minimax**: both play best with all hands open, searched `depth` plays deep (the seed: 10
  after the move), a hand still in play there scored as if it were blocked now — fewer pips
  wins the other's (`blocked_leaf`; the seed's depth-0 clause is not shown, and its score
  function is the one it evaluates games with). Here the search is .solver's alpha-beta with
  its transposition table (the seed's minimax had neither), so the same depth costs fewer nodes.

Scenarios come from the seat's exact posterior (.sampling.sampler: every pass and draw
counts), each used for every legal move (common random numbers: the moves are compared on the
same deals). Budgets are work: `samples` scenarios per decision, and for minimax at most about
`nodes` solver nodes in all. The random source of a decision is seeded by the position
(`decision_rng`: the seat, the hand's events as it saw them, the player and its budgets), so
the same position gives the same move at a table, in a tournament and on any machine.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.events import event_to_dict
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.playout import random_finish
from games.dominoes.strategy.position import from_hands
from games.dominoes.strategy.sampling import sampler
from games.dominoes.strategy.solver import OutOfNodes, Solver


@dataclass(frozen=True)
class ScenarioValues:
    """Per legal move, the mean over scenarios of points to the mover's side minus the other's,
    and the work spent."""

    moves: tuple[Move, ...]
    means: tuple[float, ...]
    scenarios: int
    work: int
    """Playouts (one per scenario and move) or solver nodes."""


def decision_rng(view: SeatView, player: str, budgets: Sequence[int], salt: int = 0
                 ) -> random.Random:
    """A random source made from the position alone (module docstring): never the clock, the
    caller's random state or what the bot decided before."""
    hand = [{k: v for k, v in event_to_dict(e).items() if k != "seq"}
            for e in view.hand_events()]
    text = f"dominoes-{player}:{salt}:{view.seat}:{list(budgets)}:{hand}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _mover_sign(view: SeatView) -> int:
    """+1 when the seat to move is on the first side (S, or N/S in partnership), else -1."""
    state = view.state
    assert state is not None and state.hand is not None
    return 1 if state.variant.seats.index(state.hand.turn) % 2 == 0 else -1


def playout_values(view: SeatView, moves: Sequence[Move], rng: random.Random,
                   samples: int) -> ScenarioValues:
    """Seed 001's play-out player: `samples` scenarios, each played out once at random after
    every legal move."""
    state = view.state
    assert state is not None
    draw, sign = sampler(view), _mover_sign(view)
    totals = [0.0] * len(moves)
    for _ in range(samples):
        deal = draw(rng)
        pos = from_hands(state, deal.hands, deal.to_draw)
        for j, move in enumerate(moves):
            totals[j] += sign * random_finish(pos.after(move), rng)
    n = max(samples, 1)
    return ScenarioValues(tuple(moves), tuple(t / n for t in totals), samples,
                          samples * len(moves))


def blocked_leaf(tiles_me: int, tiles_opp: int, pips_me: int, pips_opp: int,
                 scoring_all: bool) -> float:
    """The hand scored as if blocked now, for the side to move (seed 001's score function)."""
    if pips_me < pips_opp:
        return pips_me + pips_opp if scoring_all else pips_opp
    if pips_opp < pips_me:
        return -(pips_me + pips_opp) if scoring_all else -pips_me
    return 0.0


def minimax_values(view: SeatView, moves: Sequence[Move], rng: random.Random, samples: int,
                   depth: int, nodes: int) -> ScenarioValues:
    """Seed 001's minimax player: up to `samples` scenarios, each searched `depth` plays past
    the move with all hands open (`blocked_leaf` where the depth runs out).

    Work budget: each scenario's search may use the nodes still left of `nodes`; one that runs
    out is dropped and sampling stops there. Should the first run out, it is searched 3 plays
    past the move instead (a few hundred nodes at most), so a decision always has a value."""
    state = view.state
    assert state is not None
    scoring_all = state.scoring == "all"
    draw = sampler(view)
    rows: list[list[float]] = []
    used = 0
    first = None
    for _ in range(samples):
        deal = draw(rng)
        pos = from_hands(state, deal.hands, deal.to_draw)
        if first is None:
            first = pos
        solver = Solver(pos.max_pip, scoring_all, limit=max(nodes - used, 0), leaf=blocked_leaf)
        try:
            rows.append(solver.move_values(pos, moves, depth=depth + 1))
        except OutOfNodes:
            used += solver.nodes
            break
        used += solver.nodes
        if used >= nodes:
            break
    if not rows:
        assert first is not None
        solver = Solver(first.max_pip, scoring_all, leaf=blocked_leaf)
        rows.append(solver.move_values(first, moves, depth=4))
        used += solver.nodes
    means = tuple(sum(r[j] for r in rows) / len(rows) for j in range(len(moves)))
    return ScenarioValues(tuple(moves), means, len(rows), used)
