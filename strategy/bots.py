"""The bots and their registry: one interface for the server, the tournament and tests.

A bot decides from a SeatView (its seat's redacted events, folded) and the legal moves:
`bot.choose(view, moves, rng) -> Move`. The server can call `bot.choose_move(events, seat)`
with the seat's events instead. A seat with nothing to play has no choice to make — it draws
(draw-2, boneyard not empty) or passes — and `bot.act(view)` gives that command, or the
bot's play, for every variant. Only `omniscient` looks at hidden hands; it exists to measure
the price of hidden information and is not offered at tables (TABLE_BOTS).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from games.dominoes.commands import Command, DrawTiles, Move, PassTurn, PlayTile
from games.dominoes.events import Event
from games.dominoes.rules import must_draw
from games.dominoes.tiles import Seat
from strategy.greedy import greedy_choice
from strategy.pimc_behaviour import behaviour_sampler
from strategy.position import from_state
from strategy.sampling import EXACT_PLAYS_TWO, EXACT_TILES, Deal, sample_values
from strategy.solver import solve_moves_within
from strategy.view import SeatView


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

    def act(self, view: SeatView) -> Command | None:
        """The seat's command now: its chosen play, else the draw or pass the rules leave it
        (None when it is not the seat's turn)."""
        state = view.state
        if state is None or state.to_move != view.seat:
            return None
        moves = view.legal_moves()
        if not moves:
            return DrawTiles(view.seat) if must_draw(state, view.seat) else PassTurn(view.seat)
        move = self.choose(view, moves, self.rng)
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


@dataclass
class PimcBot(Bot):
    """Max of averages over `samples` posterior deals, each solved with all hands open."""

    name: str = "pimc"
    samples: int = 24
    seconds: float = 0.6
    """Time budget per decision (the deals share it; see strategy.sampling)."""

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        started = time.perf_counter()
        draw = self.deals(view, rng)
        seconds = max(self.seconds / 4, self.seconds - (time.perf_counter() - started))
        sampled = sample_values(view, moves, rng, self.samples, seconds, draw=draw)
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
    """pimc on deals from the behaviour posterior (`behaviour:greedy`, strategy.pimc_behaviour):
    `pool` uniform deals weighted by how likely the others' plays were with each, resampled.
    The weighting comes out of the same time budget."""

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
    seconds: float = 0.6
    sees_all = True

    def choose(self, view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        assert view.state is not None
        exact = EXACT_TILES if view.state.variant.partnership else EXACT_PLAYS_TWO
        values, _ = solve_moves_within(from_state(view.state), moves, self.seconds, exact)
        best = max(values)
        tied = [m for m, v in zip(moves, values, strict=True) if v == best]
        return rng.choice(tied)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "pimc": PimcBot,
    "pimc-behaviour": BehaviourPimcBot,
    # the ablation of pimc-behaviour: its pool and resampling with every weight 1
    "pimc-flat": partial(BehaviourPimcBot, name="pimc-flat", flat=True),
    "omniscient": OmniscientBot,
}
TABLE_BOTS: tuple[str, ...] = ("random", "greedy", "pimc", "pimc-behaviour")
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
