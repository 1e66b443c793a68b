"""95% intervals of match results, shared by every game's tournaments (the generic arena and a
game's own): Wilson's for a win rate over independent matches, and the paired one over
mirrored pairs of matches that share their deals."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a rate of k in n (the whole [0, 1] when n is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_rate_interval(wins: int, matches: int, pairs: int, pair_sd: float) -> tuple[float, float]:
    """95% interval of a match win rate, paired by mirrored deals (the two matches of a pair
    share their deals, so they are not independent): from the pairs' spread; Wilson's over
    matches when the pairs say nothing about the spread (fewer than two, or all alike). One
    run's report and pooled runs both use it."""
    if pairs < 2 or pair_sd == 0:
        return wilson(wins, matches)
    rate, half = wins / matches, Z95 * pair_sd / math.sqrt(pairs)
    return (max(0.0, rate - half), min(1.0, rate + half))
