"""The move advisor: every legal move of a seat with its PIMC estimate, best first.

Pure: from the seat's own events (anything else in them is redacted on the way in) to a list
of Advice. The figures are perfect-information estimates over deals drawn from the seat's
posterior — optimistic (each deal is solved as if every hand were visible, so the value of a
move is what a clairvoyant would get with it), and labelled so.

Two posteriors (`model`): `uniform`, every deal consistent with the seat's view equally
likely (drawn exactly), and `behaviour:greedy` (issue 20), the deals weighed by how likely
the other seats' plays were with each under a greedy softmax — the same weighted pool and
resampling the pimc-behaviour bot plays from (strategy.pimc_behaviour). The answer names its
model and the pool's effective sample size: a pool whose weights pile on a few deals says
less than its size.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.events import Event
from games.dominoes.tiles import End, Seat, Tile
from strategy.pimc_behaviour import behaviour_sampler
from strategy.position import child_ends
from strategy.sampling import sample_values
from strategy.view import SeatView

LABEL = (
    "optimistic perfect-information estimate: deals drawn uniformly from those consistent "
    "with this seat's view, each solved with all hands open"
)
UNIFORM = "uniform"
BEHAVIOUR = "behaviour:greedy"
MODELS = (UNIFORM, BEHAVIOUR)
"""The deal models the advisor samples from (`advise(..., model=)`)."""
POOL = 128
"""behaviour:greedy: uniform deals weighed per answer (every consistent deal when fewer)."""
BEHAVIOUR_LABEL = (
    "optimistic perfect-information estimate: deals drawn from the behaviour:greedy "
    "posterior of this seat's view (each other seat taken to play as greedy's scores say, "
    "with a fitted inverse temperature per player: uniform deals weighed by how likely the "
    "plays seen were with each, then resampled), each solved with all hands open; the "
    "interval counts at most the pool's effective sample size of deals"
)
LABELS = {UNIFORM: LABEL, BEHAVIOUR: BEHAVIOUR_LABEL}
Z95 = 1.959963984540054


class UnknownModel(ValueError):
    """A deal model the advisor does not offer."""


@dataclass(frozen=True)
class Advice:
    tile: Tile
    end: End | None
    expected_points: float
    """Mean over deals of points to the seat's team minus the other team's, this hand."""
    p_win_hand: float
    """Share of deals in which the seat's team scores the hand (value > 0)."""
    samples: int
    ci: tuple[float, float]
    """95% interval of expected_points from sampling alone (not the optimism); unbounded
    with a single deal."""
    exact_share: float
    """Share of deals solved to the end (the rest: depth budget + horizon heuristic)."""
    label: str = LABEL

    def to_dict(self) -> dict:
        return {
            "tile": str(self.tile),
            "end": self.end,
            "expected_points": round(self.expected_points, 3),
            "p_win_hand": round(self.p_win_hand, 4),
            "samples": self.samples,
            "ci": [_finite(self.ci[0]), _finite(self.ci[1])],
            "exact_share": round(self.exact_share, 3),
            "label": self.label,
        }


def _finite(x: float) -> float | None:
    return round(x, 3) if math.isfinite(x) else None


def distinct_moves(moves: Iterable[Move], left: int | None, right: int | None) -> list[Move]:
    """The first of each group of moves leaving the same open ends, in order.

    With both ends showing the same number, 4-6 on a lone 6-6 fits "left" and "right" and
    either way leaves ends 4 and 6: the same position, so the same value (the key
    Solver.move_values shares its search by). Listing it twice would look like two choices.
    """
    out: list[Move] = []
    seen: set[tuple[Tile, int, int]] = set()
    for move in moves:
        a, b = child_ends(-1 if left is None else left, -1 if right is None else right, move)
        key = (move.tile, min(a, b), max(a, b))
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


@dataclass(frozen=True)
class Advised:
    """One answer: the ranked moves and what they were computed under."""

    moves: list[Advice]
    model: str
    label: str
    ess: float | None
    """Effective sample size of the deals: the number drawn under `uniform` (independent
    exact draws), the weighted pool's (Σw)²/Σw² under `behaviour:greedy`; None: no move."""
    pool: int | None = None
    """behaviour:greedy: the deals weighed (None under uniform)."""
    exact_pool: bool | None = None
    """behaviour:greedy: the pool is every consistent deal (else uniform draws)."""

    def to_dict(self) -> dict:
        return {
            "model": self.model,
            "label": self.label,
            "ess": None if self.ess is None else round(self.ess, 2),
            "pool": self.pool,
            "exact_pool": self.exact_pool,
            "moves": [a.to_dict() for a in self.moves],
        }


def advise(
    events: Iterable[Event],
    seat: Seat,
    samples: int = 32,
    rng: random.Random | None = None,
    time_budget: float = 1.0,
    model: str = UNIFORM,
) -> list[Advice]:
    """Advice for each distinct legal move of `seat` now (empty when it has none), best first.

    Moves that leave the same open ends are one move (distinct_moves), listed once.
    """
    return advise_with(events, seat, samples, rng, time_budget, model).moves


def advise_with(
    events: Iterable[Event],
    seat: Seat,
    samples: int = 32,
    rng: random.Random | None = None,
    time_budget: float = 1.0,
    model: str = UNIFORM,
    pool: int = POOL,
) -> Advised:
    """`advise`, with the model it used and its effective sample size. Under
    `behaviour:greedy` the weighing comes out of `time_budget` (as the pimc-behaviour bot's
    does), and each move's interval counts min(deals drawn, pool ESS) deals: resampling a
    pool cannot know more than the pool does."""
    if model not in LABELS:
        raise UnknownModel(f"no deal model {model!r} (offered: {', '.join(MODELS)})")
    label = LABELS[model]
    started = time.perf_counter()
    view = SeatView.from_events(events, seat)
    moves = view.legal_moves()
    if not moves:
        return Advised([], model, label, None)
    hand = view.state.hand if view.state is not None else None
    if hand is not None:
        moves = distinct_moves(moves, hand.left, hand.right)
    rng = rng or random.Random()
    draw = None
    ess: float | None = None
    weighed: int | None = None
    exact_pool: bool | None = None
    if model == BEHAVIOUR:
        draw, weighted = behaviour_sampler(view, rng, pool)
        ess, weighed, exact_pool = weighted.ess, len(weighted.deals), weighted.exact
        time_budget = max(time_budget / 4, time_budget - (time.perf_counter() - started))
    sampled = sample_values(view, moves, rng, samples, time_budget, draw=draw)
    n = len(sampled.values)
    if ess is None:
        ess = float(n)
    counted = min(float(n), ess)
    exact_share = sum(sampled.exact) / n
    advice = []
    for j, move in enumerate(moves):
        xs = [row[j] for row in sampled.values]
        mean = sum(xs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(counted) if n > 1 and counted > 1 else math.inf
        advice.append(
            Advice(
                tile=move.tile,
                end=move.end,
                expected_points=mean,
                p_win_hand=sum(x > 0 for x in xs) / n,
                samples=n,
                ci=(mean - half, mean + half),
                exact_share=exact_share,
                label=label,
            )
        )
    advice.sort(key=lambda a: -a.expected_points)
    return Advised(advice, model, label, ess, weighed, exact_pool)
