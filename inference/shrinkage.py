"""Each player's conditional-logit fit pulled toward the population's, by a strength chosen
on held-out choices.

A player seen a few dozen times fitted alone overfits (its weights chase its own few
choices); the pooled fit ignores how players differ. The compromise is a Gaussian prior on the
player's θ centred on the pooled estimate, with precision κ · Ī, where Ī is the pooled fit's
observed information per choice: the pool counts as κ choices of the player's own. κ = 0 is
the player's own fit, κ = ∞ the pooled one; a player with n choices is pulled roughly by
κ / (κ + n), so one with few choices is pulled more. κ is chosen from `STRENGTHS` by K-fold
cross-validation over matches (match k in fold k mod K): the pool and each player's shrunk fit
are refitted on the other folds, and the κ whose held-out choices are best predicted (highest
log likelihood; a tie goes to the stronger pull) is used. Everything is deterministic given
the rows and their matches. Pure numerics, no game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from inference.choice_logit import LogitFit, Prior, Row, evaluated, fit_choices, log_likelihood

STRENGTHS = (0.0, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, math.inf)
"""The strengths tried, in pooled choices' worth."""
FOLDS = 5
DEFAULT = 30.0
"""The strength used when there are too few matches to hold any out (fewer than two)."""

Tagged = tuple[int, Row]
"""A choice and the index of the match it was made in (the unit of a fold)."""


@dataclass(frozen=True)
class Choice:
    """The strength used and why (the fit report's `shrinkage`)."""

    strength: float
    how: str
    """"held-out" (chosen by cross-validation), "given", or "default" (too few matches)."""
    folds: int = 0
    held_out: tuple[tuple[float, float], ...] = ()
    """(κ, mean held-out log loss per choice, nats) for every κ tried."""
    choices: int = 0

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"strength": _json_strength(self.strength), "how": self.how,
                                  "choices": self.choices}
        if self.held_out:
            out["folds"] = self.folds
            out["held_out_log_loss"] = {str(_json_strength(k)): round(v, 6)
                                        for k, v in self.held_out}
            losses = dict(self.held_out)
            out["why"] = (f"lowest held-out log loss per choice ({losses[self.strength]:.4f} "
                          f"nats over {self.choices} choices, {self.folds} folds by match; "
                          f"each player's own fit {losses.get(0.0, math.nan):.4f}, the pool "
                          f"alone {losses.get(math.inf, math.nan):.4f})")
        return out


def _json_strength(k: float) -> float | str:
    return "inf" if math.isinf(k) else k


def shrunk_fit(rows: Sequence[Row], features: int, pooled: LogitFit, pooled_choices: int,
               strength: float) -> LogitFit:
    """A player's fit on `rows` (at least one) with the prior N(pooled θ, (strength · Ī)⁻¹):
    the pooled θ itself at strength ∞ (summarised on `rows`), the player's own (the ridge
    alone) at 0."""
    if math.isinf(strength):
        return evaluated(pooled.theta, rows, features, pooled.stderr)
    if strength == 0.0:
        return fit_choices(rows, features)
    precision = strength * pooled.unit_information(pooled_choices)
    return fit_choices(rows, features, Prior(np.array(pooled.theta), precision))


def _fit_pool(rows: Sequence[Row], features: int) -> LogitFit | None:
    return fit_choices(rows, features) if rows else None


def held_out_scores(by_player: Mapping[str, Sequence[Tagged]], features: int,
                    folds: int = FOLDS, strengths: Sequence[float] = STRENGTHS
                    ) -> dict[float, float]:
    """κ -> total held-out log likelihood of every choice, each fold's choices predicted by
    fits on the other folds' (a player with no choice outside the fold: the fold's pool)."""
    total = dict.fromkeys(strengths, 0.0)
    # folds over the matches that have choices, renumbered: raw match numbers can all share
    # one residue (matches 0, 3, 6 with three folds), leaving every fold's training empty
    rank = {m: i for i, m in enumerate(sorted({m for rows in by_player.values()
                                               for m, _ in rows}))}
    for fold in range(folds):
        train = {p: [r for m, r in rows if rank[m] % folds != fold]
                 for p, rows in by_player.items()}
        test = {p: [r for m, r in rows if rank[m] % folds == fold]
                for p, rows in by_player.items()}
        pool_rows = [r for rows in train.values() for r in rows]
        pool = _fit_pool(pool_rows, features)
        for player, held in test.items():
            if not held:
                continue
            for k in strengths:
                if pool is None:
                    theta: Sequence[float] = (0.0,) * features
                elif not train[player]:
                    theta = pool.theta
                else:
                    theta = shrunk_fit(train[player], features, pool, len(pool_rows), k).theta
                total[k] += log_likelihood(theta, held, features)
    return total


def choose(by_player: Mapping[str, Sequence[Tagged]], features: int,
           folds: int = FOLDS) -> Choice:
    """The strength whose held-out choices are best predicted (ties: the stronger pull)."""
    matches = {m for rows in by_player.values() for m, _ in rows}
    count = sum(len(rows) for rows in by_player.values())
    if len(matches) < 2:
        return Choice(DEFAULT, "default", choices=count)
    folds = min(folds, len(matches))
    scores = held_out_scores(by_player, features, folds)
    best = max(STRENGTHS, key=lambda k: (round(scores[k], 9), k))
    return Choice(best, "held-out", folds,
                  tuple((k, -scores[k] / max(1, count)) for k in STRENGTHS), count)
