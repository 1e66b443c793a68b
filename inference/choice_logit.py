"""Conditional logit: a player picks one of its options with P(option) ∝ exp(θ · x(option)).

The behaviour models of Uno (which legal card is played), Clue (which held card is shown) and
Texas 42 (bid or pass: the bid's features against a pass's zeros) are this one model over
their own features; here are its log-likelihood and its fit, so all three score and learn
alike. The fit takes an optional Gaussian prior (a centre and a precision matrix) on top of
the weak ridge: that is how a player's own fit is pulled toward the population's
(inference.shrinkage). Pure numerics, no game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

RIDGE = 0.1
"""A weak ridge: a weight no choice informs stays 0, with the standard error 1/√RIDGE."""
NEWTON_STEPS = 60
BOUND = 30.0
"""|θ_i| at most this (a perfectly separated feature would run off to infinity)."""

Row = tuple[np.ndarray, int]
"""One choice: the options' features (one row per option) and the index of the one chosen."""


@dataclass(frozen=True)
class Prior:
    """A Gaussian prior on θ beyond the ridge: −½(θ − centre)ᵀ precision (θ − centre)."""

    centre: np.ndarray
    precision: np.ndarray


def choice_log_p(theta: Sequence[float], options: Sequence[Sequence[float]],
                 chosen: int) -> float:
    """ln P(option `chosen` | these options) under θ (0 when there was one option)."""
    if len(options) == 1:
        return 0.0
    scores = [sum(t * f for t, f in zip(theta, x, strict=True)) for x in options]
    top = max(scores)
    total = sum(math.exp(s - top) for s in scores)
    return scores[chosen] - top - math.log(total)


@dataclass(frozen=True)
class Stacked:
    """Rows padded to one array (choices × most options × features) for whole-array steps."""

    x: np.ndarray
    mask: np.ndarray
    """True where an option exists."""
    chosen: np.ndarray
    features: int

    @staticmethod
    def of(rows: Sequence[Row], features: int) -> Stacked:
        width = max((len(x) for x, _ in rows), default=1)
        x = np.zeros((len(rows), width, features))
        mask = np.zeros((len(rows), width), dtype=bool)
        for i, (options, _) in enumerate(rows):
            x[i, : len(options)] = options
            mask[i, : len(options)] = True
        return Stacked(x, mask, np.array([j for _, j in rows], dtype=np.int64), features)

    def __len__(self) -> int:
        return len(self.chosen)

    def probabilities(self, theta: np.ndarray) -> np.ndarray:
        s = np.where(self.mask, self.x @ theta, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    def log_p(self, theta: np.ndarray) -> np.ndarray:
        """ln P(the option chosen) per row."""
        s = np.where(self.mask, self.x @ theta, -np.inf)
        top = s.max(axis=1)
        total = np.log(np.exp(s - top[:, None]).sum(axis=1))
        return s[np.arange(len(self)), self.chosen] - top - total

    def gradient_information(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The log-likelihood's gradient and observed information (no prior) at θ."""
        p = self.probabilities(theta)
        mean = np.einsum("rk,rkf->rf", p, self.x)
        taken = self.x[np.arange(len(self)), self.chosen]
        centred = self.x - mean[:, None, :]
        information = np.einsum("rk,rkf,rkg->fg", p, centred, centred)
        return (taken - mean).sum(axis=0), information


@dataclass(frozen=True)
class LogitFit:
    theta: tuple[float, ...]
    stderr: tuple[float, ...]
    """From the observed information (the ridge and any prior included)."""
    log_loss: float
    """Mean −ln P(the option chosen) per choice at θ (nats)."""
    log_loss_uniform: float
    """The same for a player picking uniformly among its options (θ = 0)."""
    at_bound: bool
    informative: tuple[int, ...]
    """Per feature, the choices whose options differ in it (0: the feature is not learnt)."""
    information: tuple[tuple[float, ...], ...] = ()
    """The likelihood's own observed information at θ (no ridge, no prior): what a prior
    worth some number of such choices is scaled by."""

    def unit_information(self, choices: int) -> np.ndarray:
        """The information per choice (d × d)."""
        return np.array(self.information) / max(1, choices)


def fit_choices(rows: Sequence[Row], features: int, prior: Prior | None = None) -> LogitFit:
    """Maximum a posteriori θ (Newton's method; the weak ridge toward 0, plus `prior` when
    given) over at least one row; maximum likelihood with the ridge alone when not."""
    data = Stacked.of(rows, features)
    ridge = RIDGE * np.eye(features)
    extra = prior.precision if prior is not None else np.zeros((features, features))
    centre = prior.centre if prior is not None else np.zeros(features)
    theta = np.clip(centre.astype(np.float64).copy(), -BOUND, BOUND)
    penalty = ridge + extra
    for _ in range(NEWTON_STEPS):
        gradient, information = data.gradient_information(theta)
        gradient = gradient - RIDGE * theta - extra @ (theta - centre)
        step = np.linalg.solve(information + penalty, gradient)
        theta = np.clip(theta + step, -BOUND, BOUND)
        if float(np.max(np.abs(step))) < 1e-9:
            break
    _, information = data.gradient_information(theta)
    covariance = np.linalg.inv(information + penalty)
    stderr = tuple(float(math.sqrt(max(v, 0.0))) for v in np.diag(covariance))
    return evaluated(tuple(float(t) for t in theta), rows, features, stderr, data)


def evaluated(theta: Sequence[float], rows: Sequence[Row], features: int,
              stderr: Sequence[float], data: Stacked | None = None) -> LogitFit:
    """The fit summary of a given θ on `rows` (at least one): its log loss there, the
    information there; `stderr` as given (they come from where θ was fitted)."""
    data = data if data is not None else Stacked.of(rows, features)
    at = np.asarray(theta, dtype=np.float64)
    _, information = data.gradient_information(at)
    loss = -float(data.log_p(at).sum())
    uniform = sum(math.log(len(x)) for x, _ in rows)
    informative = tuple(sum(1 for x, _ in rows if float(np.ptp(x[:, i])) > 0)
                        for i in range(features))
    return LogitFit(tuple(float(t) for t in at), tuple(stderr), loss / len(rows),
                    uniform / len(rows), bool(np.any(np.abs(at) >= BOUND - 1e-9)),
                    informative, tuple(tuple(float(v) for v in r) for r in information))


def log_likelihood(theta: Sequence[float], rows: Sequence[Row], features: int) -> float:
    """Σ ln P(the option chosen) over `rows` under θ (0 for no rows)."""
    if not rows:
        return 0.0
    return float(Stacked.of(rows, features).log_p(np.asarray(theta, dtype=np.float64)).sum())
