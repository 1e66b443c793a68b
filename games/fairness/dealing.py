"""What a game declares about its deals, so that generic code can prove any audience's log.

A game that deals fairly declares one in its `Capabilities.fair_dealing` (games/interface.py),
answering four questions about its own events; `games.fairness.proof` needs nothing else from
it beyond the game interface. A seed belongs to one deal (`deal`, a name the game picks: "hand 2",
"match"): the event that commits it and the event that reveals it name the same deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from games.fairness.scheme import Scheme


@dataclass(frozen=True)
class Commitment:
    """sha256 of a deal's seed, published in an event every audience sees before the deal."""

    deal: str
    sha256: str


@dataclass(frozen=True)
class Seed:
    """A deal's seed as an event carries it: the referee's own copy, or the reveal."""

    deal: str
    seed: str


class Dealing(Protocol):
    """How one game's log commits and reveals its seeds."""

    name: str
    """The scheme new matches deal with (`list_variants` shows it)."""

    def scheme(self, first: Any) -> Scheme:
        """The scheme the log's `match_started` names (the game's old one when none)."""
        ...

    def commitment(self, event: Any) -> Commitment | None:
        """The commitment `event` publishes (every audience sees it), if any."""
        ...

    def seed(self, event: Any) -> Seed | None:
        """The seed `event` carries, if this copy of it shows one."""
        ...

    def command_for(self, event: Any) -> Any | None:
        """The command a run opening with `event` re-decides, when the event as any audience
        sees it says which (match_started, a public move); None: the prover searches the
        legal moves for one whose events this audience sees as logged."""
        ...


def dealing_of(game: Any) -> Dealing | None:
    """A game's declaration of its deals (`capabilities.fair_dealing`); None for a game that
    declares none."""
    capabilities = getattr(game, "capabilities", None)
    return getattr(capabilities, "fair_dealing", None)
