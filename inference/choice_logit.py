"""Conditional logit: a player picks one of its options with P(option) ∝ exp(θ · x(option)).

The behaviour models of Uno (which legal card is played) and Clue (which held card is shown)
are this one model over their own features; here are its log-likelihood and its fit, so both
score and learn alike. Pure numerics, no game.
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
class LogitFit:
    theta: tuple[float, ...]
    stderr: tuple[float, ...]
    """From the observed information (the ridge included)."""
    log_loss: float
    """Mean −ln P(the option chosen) per choice at θ (nats)."""
    log_loss_uniform: float
    """The same for a player picking uniformly among its options (θ = 0)."""
    at_bound: bool
    informative: tuple[int, ...]
    """Per feature, the choices whose options differ in it (0: the feature is not learnt)."""


def fit_choices(rows: Sequence[Row], features: int) -> LogitFit:
    """Maximum-likelihood θ (Newton's method with the weak ridge) over at least one row."""
    theta = np.zeros(features)
    hessian = RIDGE * np.eye(features)
    for _ in range(NEWTON_STEPS):
        gradient = RIDGE * theta
        hessian = RIDGE * np.eye(features)
        for x, j in rows:
            s = x @ theta
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ x
            gradient = gradient - (x[j] - mean)
            centred = x - mean
            hessian = hessian + (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hessian, gradient)
        theta = np.clip(theta - step, -BOUND, BOUND)
        if float(np.max(np.abs(step))) < 1e-9:
            break
    stderr = tuple(float(math.sqrt(max(v, 0.0))) for v in np.diag(np.linalg.inv(hessian)))
    loss = 0.0
    for x, j in rows:
        s = x @ theta
        loss -= float(s[j] - s.max() - math.log(np.exp(s - s.max()).sum()))
    uniform = sum(math.log(len(x)) for x, _ in rows)
    informative = tuple(sum(1 for x, _ in rows if float(np.ptp(x[:, i])) > 0)
                        for i in range(features))
    return LogitFit(tuple(float(t) for t in theta), stderr, loss / len(rows),
                    uniform / len(rows), bool(np.any(np.abs(theta) >= BOUND - 1e-9)),
                    informative)
