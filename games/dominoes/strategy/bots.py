"""The bots and their registry: one interface for the server, the tournament and tests.

A bot decides from a SeatView (its seat's redacted events, folded) and the legal moves:
`bot.choose(view, moves, rng) -> Move`. The server can call `bot.choose_move(events, seat)`
with the seat's events instead. A seat with nothing to play has no choice to make — it draws
(draw-2, boneyard not empty) or passes — and `bot.act(view)` gives that command, or the
bot's play, for every variant. Only `omniscient` looks at hidden hands; it exists to measure
the price of hidden information and is not offered at tables (TABLE_BOTS).

The thinking bots' budgets are work, never time: pimc draws at most `samples` deals and its
solver searches about `nodes` nodes per decision (sampling.sample_values), omniscient
`nodes` per decision. With the same seed, the same view gives the same move on any machine,
however loaded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from games.dominoes.commands import Command, DrawTiles, Move, PassTurn, PlayTile
from games.dominoes.events import Event
from games.dominoes.greedy import greedy_choice
from games.dominoes.rules import must_draw
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.pimc_behaviour import behaviour_sampler
from games.dominoes.strategy.position import from_state
from games.dominoes.strategy.sampling import EXACT_PLAYS_TWO, EXACT_TILES, Deal, sample_values
from games.dominoes.strategy.scenarios import (
    ScenarioValues,
    decision_rng,
    minimax_values,
    playout_values,
)
from games.dominoes.strategy.solver import solve_moves_within
from games.dominoes.tiles import Seat


class NoMoveError(ValueError):
    """The bot was asked to play when its seat has no legal move (not its turn, or a pass)."""


@dataclass
class Bot:
    """Base: a named policy with its own random source (seeded by make_bot)."""

    name: str = "bot"
    rng: random.Random = field(default_factory=random.Random)
    sees_all = False
    """True only for omniscient: the tournament then hands it the referee's view."""

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        raise NotImplementedError

    def choose_move(self, events: Iterable[Event], seat: Seat) -> Move:
        """The move for `seat` from its own events (anything else in them is redacted)."""
        view = SeatView.from_events(events, seat, "referee" if self.sees_all else None)
        moves = view.legal_moves()
        if not moves:
            raise NoMoveError(f"{seat} has no legal move now")
        return self.choose(view, moves, self.rng)

    def act(self, view: SeatView, rng: random.Random | None = None) -> Command | None:
        """The seat's command now: its chosen play, else the draw or pass the rules leave it
        (None when it is not the seat's turn). `rng`: the caller's random source (else the
        bot's own)."""
        state = view.state
        if state is None or state.to_move != view.seat:
            return None
        moves = view.legal_moves()
        if not moves:
            return DrawTiles(view.seat) if must_draw(state, view.seat) else PassTurn(view.seat)
        move = self.choose(view, moves, rng or self.rng)
        return PlayTile(view.seat, move.tile, move.end)


@dataclass
class RandomBot(Bot):
    name: str = "random"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        return rng.choice(list(moves))


@dataclass
class GreedyBot(Bot):
    name: str = "greedy"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        return greedy_choice(view, moves, rng)


PIMC_SAMPLES = 24
"""pimc's deals per decision (at most: the node budget may end sampling sooner)."""
PIMC_NODES = 150_000
"""pimc's solver nodes per decision, shared by its deals: about 0.55-0.6 s of CPU here
(245,000-285,000 nodes a CPU second, measured on hands' early plays; docs/strategy.md), the
0.6 s wall-clock budget it had before, on an idle core."""


@dataclass
class PimcBot(Bot):
    """Max of averages over `samples` posterior deals, each solved with all hands open."""

    name: str = "pimc"
    samples: int = PIMC_SAMPLES
    nodes: int = PIMC_NODES
    """Solver nodes per decision (the deals share them; see .sampling.sample_values)."""
    last_nodes: int = field(default=0, compare=False)
    """Nodes the last decision searched (0 when it had a single move), for measurement."""
    last_deals: int = field(default=0, compare=False)
    """Deals the last decision averaged (0 when it had a single move)."""

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        self.last_nodes = self.last_deals = 0
        if len(moves) == 1:
            return moves[0]
        draw = self.deals(view, rng)
        sampled = sample_values(view, moves, rng, self.samples, self.nodes, draw=draw)
        self.last_nodes, self.last_deals = sampled.nodes, len(sampled.values)
        means = [sampled.mean(j) for j in range(len(moves))]
        best = max(means)
        # fix the move, average over deals, then take the max; ties go to the greedy rules
        tied = [m for m, v in zip(moves, means, strict=True) if v >= best - 1e-9]
        return tied[0] if len(tied) == 1 else greedy_choice(view, tied, rng)

    def deals(self, view: SeatView, rng: random.Random
              ) -> Callable[[random.Random], Deal] | None:
        """Where the deals come from (None: the exact uniform posterior)."""
        return None


@dataclass
class BehaviourPimcBot(PimcBot):
    """pimc on deals from the behaviour posterior (`behaviour:greedy`, .pimc_behaviour):
    `pool` uniform deals weighted by how likely the others' plays were with each, resampled.
    The weighing is work of its own (`pool` deals scored, no solver nodes): pimc's node
    budget goes to the solver alone, as pimc's does."""

    name: str = "pimc-behaviour"
    pool: int = 128
    flat: bool = False
    """Every deal weighs 1 (the uniform posterior through the same pool and resampling):
    the ablation that says how much of a difference is the weights'."""

    def deals(self, view: SeatView, rng: random.Random
              ) -> Callable[[random.Random], Deal] | None:
        draw, _ = behaviour_sampler(view, rng, self.pool, flat=self.flat)
        return draw


@dataclass
class OmniscientBot(Bot):
    """Sees every hand and plays the solver's move: an upper bracket, for measurement only."""

    name: str = "omniscient"
    nodes: int = PIMC_NODES
    """Solver nodes per decision (iterative deepening stops when they are spent)."""
    sees_all = True

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        assert view.state is not None
        exact = EXACT_TILES if view.state.variant.partnership else EXACT_PLAYS_TWO
        values, _, _ = solve_moves_within(from_state(view.state), moves, self.nodes, exact)
        best = max(values)
        tied = [m for m, v in zip(moves, values, strict=True) if v == best]
        return rng.choice(tied)


PLAYOUT_SAMPLES = 200
"""Scenarios per decision for seed 001's players (its comparison used 50 to 1,200)."""
MINIMAX_DEPTH = 10
"""Plays searched past the move by seed 001's minimax (its depth)."""
MINIMAX_NODES = 150_000
"""Solver nodes per decision for seed 001's minimax: pimc's budget."""


@dataclass
class ScenarioBot(Bot):
    """Seed 001's players (.scenarios): the best mean over scenarios of the seat's posterior,
    ties to the first legal move. The decision's random source comes from the position
    (`decision_rng`, with `salt`), not from the caller's: the same position, the same move."""

    samples: int = PLAYOUT_SAMPLES
    salt: int = 0
    last: ScenarioValues | None = field(default=None, compare=False)
    """What the last decision with a choice weighed (for measurement)."""

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        self.last = values = self.values(view, moves, decision_rng(view, self.name,
                                                                   self.budgets(), self.salt))
        best = max(values.means)
        return moves[values.means.index(best)]

    def budgets(self) -> tuple[int, ...]:
        return (self.samples,)

    def values(self, view: SeatView, moves: Sequence[Move], rng: random.Random
               ) -> ScenarioValues:
        raise NotImplementedError


@dataclass
class PlayoutBot(ScenarioBot):
    """Seed 001's play-out player: each scenario played out at random after every move."""

    name: str = "playout"

    def values(self, view: SeatView, moves: Sequence[Move], rng: random.Random
               ) -> ScenarioValues:
        return playout_values(view, moves, rng, self.samples)


@dataclass
class MinimaxBot(ScenarioBot):
    """Seed 001's minimax player: each scenario searched `depth` plays past every move with
    all hands open, within about `nodes` solver nodes per decision."""

    name: str = "minimax"
    depth: int = MINIMAX_DEPTH
    nodes: int = MINIMAX_NODES

    def budgets(self) -> tuple[int, ...]:
        return (self.samples, self.depth, self.nodes)

    def values(self, view: SeatView, moves: Sequence[Move], rng: random.Random
               ) -> ScenarioValues:
        return minimax_values(view, moves, rng, self.samples, self.depth, self.nodes)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "pimc": PimcBot,
    "pimc-behaviour": BehaviourPimcBot,
    # the ablation of pimc-behaviour: its pool and resampling with every weight 1
    "pimc-flat": partial(BehaviourPimcBot, name="pimc-flat", flat=True),
    "omniscient": OmniscientBot,
    "playout": PlayoutBot,
    "minimax": MinimaxBot,
}
TABLE_BOTS: tuple[str, ...] = ("random", "greedy", "pimc", "pimc-behaviour", "playout",
                               "minimax")
"""The bots a table may seat; omniscient sees hidden hands and is for measurement only
(pimc-flat is an ablation, for tournaments)."""


class UnknownBotError(ValueError):
    """A bot name not in BOTS."""


def make_bot(name: str, seed: int | str | None = None, **options: object) -> Bot:
    """A fresh bot by registry name, its random source seeded by `seed`."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise UnknownBotError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    return factory(rng=random.Random(seed), **options)
