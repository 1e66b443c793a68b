"""The move advisor: every legal move of a seat with its PIMC estimate, best first.

Pure: from the seat's own events (anything else in them is redacted on the way in) to a list
of Advice. The figures are perfect-information estimates over deals drawn from the seat's
posterior — optimistic (each deal is solved as if every hand were visible, so the value of a
move is what a clairvoyant would get with it), and labelled so.

Two posteriors (`model`): `uniform`, every deal consistent with the seat's view equally
likely (drawn exactly), and `behaviour:greedy` (issue 20), the deals weighed by how likely
the other seats' plays were with each under a greedy softmax — the same weighted pool and
resampling the pimc-behaviour bot plays from (.pimc_behaviour). The answer names its
model and the pool's effective sample size: a pool whose weights pile on a few deals says
less than its size.

Budgets are work, never time: at most `samples` deals and about `nodes` solver nodes in all
(.sampling.sample_values), and under `behaviour:greedy` a pool of `pool` deals. Without a
caller's `rng` the deals are drawn with a seed made from the position (position_seed: the
seat, the hand's events as it saw them, the model and the budgets), so the same position gets
the same advice at a table, in a replay and on any machine.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.events import Event, event_to_dict
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.pimc_behaviour import behaviour_sampler
from games.dominoes.strategy.position import child_ends
from games.dominoes.strategy.sampling import sample_values
from games.dominoes.tiles import End, Seat, Tile

LABEL = (
    "optimistic perfect-information estimate: deals drawn uniformly from those consistent "
    "with this seat's view, each solved with all hands open"
)
UNIFORM = "uniform"
BEHAVIOUR = "behaviour:greedy"
SAMPLES = 32
"""Deals drawn per answer (fewer if the node budget ends first)."""
NODES = 200_000
"""Solver nodes per answer, shared by its deals: about 0.7-0.8 s of CPU here (pimc's rate,
.bots.PIMC_NODES), the 0.8 s wall-clock budget the advice had before, on an idle core."""
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
    """The model's label and, for an answer with moves, the work budget it was computed
    under (budget_words)."""
    ess: float | None
    """Effective sample size of the deals: the number drawn under `uniform` (independent
    exact draws), the weighted pool's (Σw)²/Σw² under `behaviour:greedy`; None: no move."""
    pool: int | None = None
    """behaviour:greedy: the deals weighed (None under uniform)."""
    exact_pool: bool | None = None
    """behaviour:greedy: the pool is every consistent deal (else uniform draws)."""
    nodes: int = 0
    """Solver nodes the answer searched (its budget: `budget`)."""
    budget: str = ""
    """The work budget it was computed under, in words."""

    def to_dict(self) -> dict:
        return {
            "model": self.model,
            "label": self.label,
            "ess": None if self.ess is None else round(self.ess, 2),
            "pool": self.pool,
            "exact_pool": self.exact_pool,
            "nodes": self.nodes,
            "budget": self.budget,
            "moves": [a.to_dict() for a in self.moves],
        }


def budget_words(samples: int, nodes: int, pool: int | None = None) -> str:
    """The work budget of an answer, for people: counted, never timed."""
    words = f"at most {samples} deals and {nodes:,} solver nodes"
    return words + (f", a pool of {pool} deals weighed" if pool is not None else "")


def position_seed(view: SeatView, model: str, samples: int, nodes: int, pool: int) -> int:
    """The deal sampler's seed: a function of the position only — the seat, the current
    hand's events as that seat saw them (its own tiles, every play, draw and pass, redacted
    like its view), the model and the budgets — never the clock, the request or the table."""
    hand = [{k: v for k, v in event_to_dict(e).items() if k != "seq"}
            for e in view.hand_events()]
    text = f"dominoes-advice:{view.seat}:{model}:{samples}:{nodes}:{pool}:{hand}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def advise(
    events: Iterable[Event],
    seat: Seat,
    samples: int = SAMPLES,
    rng: random.Random | None = None,
    nodes: int = NODES,
    model: str = UNIFORM,
) -> list[Advice]:
    """Advice for each distinct legal move of `seat` now (empty when it has none), best first.

    Moves that leave the same open ends are one move (distinct_moves), listed once.
    """
    return advise_with(events, seat, samples, rng, nodes, model).moves


def advise_with(
    events: Iterable[Event],
    seat: Seat,
    samples: int = SAMPLES,
    rng: random.Random | None = None,
    nodes: int = NODES,
    model: str = UNIFORM,
    pool: int = POOL,
) -> Advised:
    """`advise`, with the model it used, its effective sample size and the work it did.
    Under `behaviour:greedy` each move's interval counts min(deals drawn, pool ESS) deals:
    resampling a pool cannot know more than the pool does. `rng` None: seeded from the
    position (position_seed)."""
    if model not in LABELS:
        raise UnknownModel(f"no deal model {model!r} (offered: {', '.join(MODELS)})")
    label = LABELS[model]
    view = SeatView.from_events(events, seat)
    moves = view.legal_moves()
    if not moves:
        return Advised([], model, label, None)
    hand = view.state.hand if view.state is not None else None
    if hand is not None:
        moves = distinct_moves(moves, hand.left, hand.right)
    if rng is None:
        rng = random.Random(position_seed(view, model, samples, nodes, pool))
    draw = None
    ess: float | None = None
    weighed: int | None = None
    exact_pool: bool | None = None
    if model == BEHAVIOUR:
        draw, weighted = behaviour_sampler(view, rng, pool)
        ess, weighed, exact_pool = weighted.ess, len(weighted.deals), weighted.exact
    sampled = sample_values(view, moves, rng, samples, nodes, draw=draw)
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
    words = budget_words(samples, nodes, pool if model == BEHAVIOUR else None)
    return Advised(advice, model, f"{label}; {words} (counted, never timed)", ess, weighed,
                   exact_pool, sampled.nodes, words)
