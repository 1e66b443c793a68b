"""Exact counting over items and holders, knowing no game.

Public entry points: `Position` (the pure counting problem), `solve`/`marginals` (exact
counting), `sample_deal` (exact uniform sampling) and `InconsistentLog` (a log no deal fits).
Each game builds its positions from its own events (games/<name>/); this package imports none.
"""

from inference.classes import POOL, Position
from inference.counting import Solution, marginals, solve
from inference.errors import InconsistentLog, Infeasible
from inference.sampler import sample_deal

__all__ = [
    "POOL",
    "InconsistentLog",
    "Infeasible",
    "Position",
    "Solution",
    "marginals",
    "sample_deal",
    "solve",
]
