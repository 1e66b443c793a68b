"""Fitting the behaviour model's β (inverse temperature) by maximum likelihood.

Over every real choice in the stored matches (a play with two or more legal moves, scored by
greedy from the seat's own view and its actual hand), the log-likelihood
    ℓ(β) = Σ_choices ln softmax(β·s)[chosen]
is concave in β when each logged play is one legal move (log-sum-exp is convex), so a golden
section search on [0, BETA_MAX] finds the maximum; its standard error comes from the observed
information −ℓ''(β). A player who always takes a top-scored move (the greedy bot) has its
maximum at β → ∞: the fit stops at BETA_MAX, and says so (`at_bound`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.dominoes.behaviour.model import Decision, softmax_log_prob

BETA_MAX = 30.0
"""A score gap of 0.3 (one pip of weight) is then a factor e^9 ≈ 8,000: greedy in all but
name. The search stops here rather than chase an infinite optimum."""


@dataclass(frozen=True)
class Choice:
    """One real choice: greedy's scores of the legal moves and which of them was made."""

    player: str
    scores: tuple[float, ...]
    chosen: tuple[int, ...]


def choices(decisions: Iterable[Decision]) -> list[Choice]:
    """The decisions that were choices (two or more legal moves), scored with the actual hand."""
    out = []
    for d in decisions:
        state = d.view.state
        assert state is not None and state.hand is not None
        hand = frozenset(state.hand.hands[d.seat] or ())
        scores, chosen = d.scored(hand)
        if len(scores) > 1:
            out.append(Choice(d.player, tuple(scores), tuple(chosen)))
    return out


def log_likelihood(data: Sequence[Choice], beta: float) -> float:
    return sum(softmax_log_prob(c.scores, c.chosen, beta) for c in data)


@dataclass(frozen=True)
class Fit:
    player: str
    beta: float
    stderr: float | None
    choices: int
    log_likelihood: float
    uniform_log_likelihood: float
    """ℓ(0): the same choices under a player picking uniformly among legal moves."""
    at_bound: bool

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "beta": round(self.beta, 4),
                "beta_stderr": None if self.stderr is None else round(self.stderr, 4),
                "choices": self.choices, "log_likelihood": round(self.log_likelihood, 3),
                "uniform_log_likelihood": round(self.uniform_log_likelihood, 3),
                "at_bound": self.at_bound}


def fit_beta(data: Sequence[Choice], player: str = "*", tolerance: float = 1e-4) -> Fit:
    """The maximum-likelihood β of these choices (golden section on [0, BETA_MAX])."""
    if not data:
        return Fit(player, 0.0, None, 0, 0.0, 0.0, False)
    ratio = (math.sqrt(5) - 1) / 2
    low, high = 0.0, BETA_MAX
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    fa, fb = log_likelihood(data, a), log_likelihood(data, b)
    while high - low > tolerance:
        if fa < fb:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = log_likelihood(data, b)
        else:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = log_likelihood(data, a)
    beta = (low + high) / 2
    if beta < 10 * tolerance:
        beta = 0.0
    at_bound = beta > BETA_MAX - 10 * tolerance
    return Fit(player, beta, _stderr(data, beta), len(data), log_likelihood(data, beta),
               log_likelihood(data, 0.0), at_bound)


def _stderr(data: Sequence[Choice], beta: float) -> float | None:
    """1/sqrt(observed information) by a central second difference (None at a flat optimum)."""
    h = max(1e-3, beta * 1e-3)
    mid = max(beta, h)
    second = (log_likelihood(data, mid + h) - 2 * log_likelihood(data, mid)
              + log_likelihood(data, mid - h)) / (h * h)
    return 1 / math.sqrt(-second) if second < 0 else None


def fit_players(data: Sequence[Choice], minimum: int = 10) -> tuple[Fit, dict[str, Fit]]:
    """The population's fit (every choice) and each player's with at least `minimum` choices."""
    pooled = fit_beta(data)
    players = sorted({c.player for c in data})
    per = {}
    for name in players:
        mine = [c for c in data if c.player == name]
        if len(mine) >= minimum:
            per[name] = fit_beta(mine, name)
    return pooled, per
