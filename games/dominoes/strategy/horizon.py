"""The value the solver assumes where a depth budget stops it: an expected-points guess.

At the horizon nobody has won yet. The hand will go to the team that dominoes or, if it
blocks, to the team with fewer pips. Both favour the team whose closest seat has fewer tiles
left (it is nearer to going out) and the team with fewer pips. So, for the team to move:

    p   = logistic(0.9 · (tiles_opp − tiles_me + 0.5) + 0.04 · (pips_opp − pips_me))
    'losers':  value = p · pips_opp − (1 − p) · pips_me
    'all':     value = (2p − 1) · (pips_me + pips_opp)

tiles_* is the fewest tiles held by a seat of that team; +0.5 is the tempo of moving first.
The winner's prize is taken at today's pips (an over-estimate, since tiles keep being shed —
it only needs to rank positions, and the same bias applies to every move compared).
It is a weak guess, and measured as such: on 250 random positions with 14-18 tiles left its
correlation with the exact value is 0.21 (RMSE 27 points); other constants in the same form
score 0.19-0.22 (docs/strategy.md). It only matters for deals still too big to solve exactly
within the budget (over 21 tiles in hands), where it is applied 8-12 plays deep.
"""

from __future__ import annotations

import math


def horizon_value(
    tiles_me: int, tiles_opp: int, pips_me: int, pips_opp: int, scoring_all: bool
) -> float:
    """Expected points to the team to move minus points to the other team (a heuristic)."""
    x = 0.9 * (tiles_opp - tiles_me + 0.5) + 0.04 * (pips_opp - pips_me)
    p = 1.0 / (1.0 + math.exp(-x))
    if scoring_all:
        return (2.0 * p - 1.0) * (pips_me + pips_opp)
    return p * pips_opp - (1.0 - p) * pips_me
