"""Belief from events: who can hold which unseen tile, counted exactly.

Public entry points: `Belief` (the per-observer fold), `BeliefSnapshot` (its JSON-able
result), `Position` (the pure counting problem), `solve`/`marginals` (exact counting),
`sample_deal` (exact uniform sampling) and `InconsistentLog` (a log no deal fits).
"""

from inference.belief import Belief, ObserverError
from inference.classes import POOL, Position
from inference.counting import Solution, marginals, solve
from inference.errors import InconsistentLog, Infeasible
from inference.sampler import sample_deal
from inference.snapshot import METHODS, BeliefSnapshot

__all__ = [
    "METHODS",
    "POOL",
    "Belief",
    "BeliefSnapshot",
    "InconsistentLog",
    "Infeasible",
    "ObserverError",
    "Position",
    "Solution",
    "marginals",
    "sample_deal",
    "solve",
]
