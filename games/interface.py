"""The game interface: what the server, store, replay, CLI and bots need from one game.

In the spirit of OpenSpiel's `State` and the Decider pattern. A game is pure and I/O-free:
`decide(state, command) -> events` and `evolve(state, event) -> state`, a redaction per
audience, legal moves, a belief model, a log checker, bots, and the name of its web renderer.
Everything generic (tables, seats, tokens, stand-ins, fan-out, store, replay, verify, infer,
selfplay, tournaments) speaks only this interface, so adding a game touches its own package,
its web renderer and one registration line (`games.registry`).

Shapes chosen so the games to come fit: trick-taking and bidding (Texas 42) are phases inside
a game's state; a draw pile and duplicate cards (Uno) are the game's own items; a private
"show one card to one player" (Clue) is an event whose `view` differs per audience. The
referee's own steps (dealing a hand, reshuffling) come from `referee_step`, given fresh
secret randomness by the caller so the rules stay pure.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Seat = str
"""A seat's name as the game writes it in events ("S", "N", ...)."""
Audience = str
"""A seat, "spectator" (public information only) or "referee" (everything)."""
SPECTATOR = "spectator"
REFEREE = "referee"

JSON = dict[str, Any]


class GameError(ValueError):
    """A request about games the registry cannot answer (unknown game or variant)."""


class UnknownGame(GameError):
    """No registered game or variant has this name."""


class RuleViolation(Exception):
    """A command a game's rules refuse. `code` is stable ('illegal_move', 'not_your_turn',
    'wrong_phase', ...): the server sends it to the client as a typed error."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class VariantInfo:
    """One playable variant: names are unique across all games (the CLI takes them)."""

    name: str
    game: str
    seats: tuple[Seat, ...]
    title: str
    description: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Table options and their defaults (target score, scoring rule, ...)."""


@runtime_checkable
class Event(Protocol):
    """Every event has a type name and its 1-based position in the stream."""

    @property
    def type(self) -> str: ...

    @property
    def seq(self) -> int: ...


class BeliefModel(Protocol):
    """One observer's exact belief, rebuilt event by event from what it may see."""

    def apply(self, event: Any) -> None:
        """Fold one event of the observer's own view."""

    def snapshot_dict(self) -> JSON:
        """JSON-ready, with at least `seq` (the last event folded), `observer`, `model` (what
        the probabilities assume), `marginals` (holder -> item -> probability), and where
        known `consistent_deals`, `entropy_bits`, `facts`, `status`, `hand`, `remaining`."""


class Bot(Protocol):
    """A player that sees only its own seat's view."""

    def choose(self, view: Sequence[Any], seat: Seat, rng: random.Random) -> Any:
        """A legal command for `seat` given the events it has seen (redacted for it)."""


@dataclass(frozen=True)
class LogProblem(Exception):
    """The first event of a log that the rules refuse, and why."""

    seq: int
    reason: str

    def __str__(self) -> str:
        return f"event seq {self.seq}: {self.reason}"


class Game(Protocol):
    """The whole API of one game. Implementations are plain objects, one per game."""

    name: str
    """Unique; written in `match_started.game`."""
    renderer: str
    """The web renderer registered under this name in clients/web/js/games/."""

    def variants(self) -> Mapping[str, VariantInfo]:
        """Every variant this game hosts, by name."""
        ...

    # --- the log ---------------------------------------------------------------------------
    def parse_event(self, data: JSON | str | bytes) -> Any:
        """Validate one event (a typed error for bad input)."""
        ...

    def event_to_dict(self, event: Any) -> JSON:
        """The event in the log format."""
        ...

    def view(self, event: Any, audience: Audience) -> Any:
        """`event` as `audience` may see it. Every event is delivered, redacted, so seqs stay
        contiguous for every audience. The only gate hidden information passes through."""
        ...

    # --- the rules (pure) -----------------------------------------------------------------
    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> Any:
        """The command that starts a match."""
        ...

    def decide(self, state: Any | None, command: Any) -> list[Any]:
        """The events `command` causes, or a typed RuleViolation."""
        ...

    def evolve(self, state: Any | None, event: Any) -> Any:
        """The state after `event`. Total and pure: replay is a fold of this."""
        ...

    def referee_step(self, state: Any, secret: str) -> Any | None:
        """The referee's own next command (deal, reshuffle), using `secret` (64 hex digits of
        fresh randomness) if it needs any; None when players are to move or the match is over."""
        ...

    def to_act(self, state: Any) -> tuple[Seat, ...]:
        """The seats whose move the table awaits now (empty when none: referee or over)."""
        ...

    def is_over(self, state: Any) -> bool:
        ...

    def winners(self, state: Any) -> tuple[Seat, ...]:
        """Once over: the seats on the winning side (empty for a draw or a match in play)."""
        ...

    def legal_moves(self, state: Any, seat: Seat) -> list[Any]:
        """Every command `seat` may send now."""
        ...

    def command_from_wire(self, seat: Seat, payload: JSON) -> Any:
        """A player's `move` payload as a command (a typed error for bad input)."""
        ...

    def command_to_wire(self, command: Any) -> JSON:
        """The inverse of `command_from_wire` for one legal move (what clients are offered)."""
        ...

    # --- knowledge ------------------------------------------------------------------------
    def belief(self, observer: Audience, variant: str) -> BeliefModel:
        """An empty belief for `observer`, to be fed the observer's view of the events."""
        ...

    def check_log(self, events: Sequence[Any]) -> None:
        """Re-decide a whole referee log; raise LogProblem at the first refused event."""
        ...

    def bots(self) -> Mapping[str, Bot]:
        """The bots that can fill a seat, by name ("random", "greedy", ...)."""
        ...
