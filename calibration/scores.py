"""Scoring shown probabilities against what was later revealed: pure arithmetic, no games.

One *forecast* is one unseen item at one position: a distribution over its possible holders
and the holder that turned out to have it. Each forecast scores
  - log loss: −ln p(true holder), in nats (0 when the model was sure and right);
  - Brier: Σ_h (p_h − [h is the true holder])², from 0 (sure and right) to 2 (sure and wrong);
and every (item, holder) pair the model was unsure of (0 < p < 1) falls in a reliability bin:
predicted probability against the observed frequency, with Wilson's 95% interval.

Items a model is sure of (one holder at probability 1) score 0 and would only dilute the
averages, so the averages are over *uncertain* items; their count is reported beside them.
Positions within one hand are strongly correlated (the same deal seen again and again), so a
bin's Wilson interval, which assumes independent pairs, is narrower than the truth; the
paired comparison of two models (`paired_difference`) is clustered by hand for that reason.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054
FLOOR = 1e-12
"""A probability the model gave the truth is floored here before the log (a model that is
sure and wrong would otherwise score infinity); each such floor is counted as `impossible`."""
BINS = 10


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for k successes in n trials (the whole [0, 1] when n = 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def log_loss(dist: Mapping[str, float], truth: str) -> float:
    """−ln of the probability `dist` gave the holder that had the item."""
    return -math.log(max(dist.get(truth, 0.0), FLOOR))


def brier(dist: Mapping[str, float], truth: str) -> float:
    """Multi-class Brier score over the holders `dist` names (and the truth, if it names none)."""
    total = sum((p - (1.0 if h == truth else 0.0)) ** 2 for h, p in dist.items())
    return total if truth in dist else total + 1.0


def uncertain_items(forecasts: Mapping[str, Mapping[str, float]]) -> set[str]:
    return {item for item, dist in forecasts.items() if uncertain(dist)}


def uncertain(dist: Mapping[str, float]) -> bool:
    """Whether the model leaves the item's holder open (no holder at probability 1)."""
    return max(dist.values(), default=1.0) < 1.0 - 1e-12


@dataclass
class Bin:
    """Pairs predicted in [low, high): how many, their mean prediction, how many came true."""

    low: float
    high: float
    count: int = 0
    predicted: float = 0.0
    hits: int = 0

    def to_dict(self) -> dict[str, object]:
        low, high = wilson(self.hits, self.count)
        mean = self.predicted / self.count if self.count else None
        return {
            "bin": [round(self.low, 3), round(self.high, 3)],
            "count": self.count,
            "mean_predicted": None if mean is None else round(mean, 5),
            "observed": round(self.hits / self.count, 5) if self.count else None,
            "wilson95": [round(low, 5), round(high, 5)],
            "consistent": None if mean is None else low <= mean <= high,
        }


@dataclass
class Tally:
    """Sums of one group of forecasts (a model overall, or at one move number)."""

    positions: int = 0
    items: int = 0
    log_loss: float = 0.0
    brier: float = 0.0
    impossible: int = 0

    def add(self, loss: float, score: float, floored: bool) -> None:
        self.items += 1
        self.log_loss += loss
        self.brier += score
        self.impossible += floored

    def to_dict(self) -> dict[str, object]:
        n = max(self.items, 1)
        return {"positions": self.positions, "items": self.items,
                "log_loss": round(self.log_loss / n, 6), "brier": round(self.brier / n, 6),
                "impossible": self.impossible}


@dataclass
class Scorecard:
    """Every forecast of one model: overall, by move number, in reliability bins, and the
    mean log loss of each position (for pairing two models position by position)."""

    bins: int = BINS
    overall: Tally = field(default_factory=Tally)
    by_move: dict[int, Tally] = field(default_factory=dict)
    reliability: list[Bin] = field(default_factory=list)
    per_position: dict[tuple[str, ...], float] = field(default_factory=dict)
    """Position key -> mean log loss over its uncertain items."""

    def __post_init__(self) -> None:
        if not self.reliability:
            self.reliability = [Bin(i / self.bins, (i + 1) / self.bins) for i in range(self.bins)]

    def add_position(self, key: tuple[str, ...], move: int,
                     forecasts: Mapping[str, Mapping[str, float]],
                     truth: Mapping[str, str], items: Collection[str] | None = None) -> None:
        """One position: item -> its distribution over holders, and item -> true holder.
        Scores `items` (default: those the model itself is unsure of; module docstring):
        comparing two models, both are scored on the reference model's uncertain items, so
        a model that is sure (and perhaps wrong) where the other is not still pays for it."""
        at_move = self.by_move.setdefault(move, Tally())
        losses = []
        for item, dist in forecasts.items():
            if (not uncertain(dist)) if items is None else item not in items:
                continue
            holder = truth[item]
            loss = log_loss(dist, holder)
            score = brier(dist, holder)
            floored = dist.get(holder, 0.0) < FLOOR
            self.overall.add(loss, score, floored)
            at_move.add(loss, score, floored)
            losses.append(loss)
            for h, p in dist.items():
                if 0.0 < p < 1.0:
                    b = self.reliability[min(int(p * self.bins), self.bins - 1)]
                    b.count += 1
                    b.predicted += p
                    b.hits += h == holder
        if losses:
            self.overall.positions += 1
            at_move.positions += 1
            self.per_position[key] = sum(losses) / len(losses)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.overall.to_dict(),
            "reliability": [b.to_dict() for b in self.reliability],
            "by_move": [{"move": m, **t.to_dict()} for m, t in sorted(self.by_move.items())],
        }


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval (the interval is the mean itself for fewer than two)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def paired_difference(a: Scorecard, b: Scorecard, cluster: int = 3) -> dict[str, object]:
    """Model b's mean log loss minus model a's over the positions both scored, paired by
    position; the interval treats each cluster (positions sharing the first `cluster` parts
    of their key: one hand) as one observation, since positions of a hand are not
    independent. Negative: b predicts better."""
    shared = sorted(set(a.per_position) & set(b.per_position))
    clusters: dict[tuple[str, ...], list[tuple[float, float]]] = {}
    for key in shared:
        clusters.setdefault(key[:cluster], []).append((a.per_position[key], b.per_position[key]))
    per_cluster = [sum(y - x for x, y in v) / len(v) for v in clusters.values()]
    mean, low, high = mean_interval(per_cluster)
    base = mean_interval([sum(x for x, _ in v) / len(v) for v in clusters.values()])[0]
    return {"positions": len(shared), "hands": len(per_cluster),
            "difference": round(mean, 6), "ci95": [round(low, 6), round(high, 6)],
            "relative": round(mean / base, 6) if base else None}
