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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Self, TypeVar, runtime_checkable

from games.advice import Advisor
from games.behaviour import BehaviourModel
from games.fairness.dealing import Dealing
from games.revealed import Forecasts, Revealer

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


class OptionError(GameError):
    """A table option the variant refuses: unknown, or a value of the wrong type or out of
    bounds. `option` names it (the server answers with the typed error `bad_option`)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


OptionKind = Literal["int", "bool", "choice"]
MAX_OPTIONS = 16
"""Most options one table may set (the protocol bounds the request the same way)."""
MAX_OPTION_VALUES = 32
"""Most values an int option whose value decides the seats may span (they are listed)."""


@dataclass(frozen=True)
class TableOption:
    """One option a table may set at create_table, declared by its game: what a client needs
    to validate and render it (type, bounds or choices, a label) and its default.

    `decides_seats`: the option changes which seats the table has (Clue's `players`); the
    game's `seats(variant, options)` says how, and listings spell out the seats per value."""

    name: str
    kind: OptionKind
    default: Any
    label: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    decides_seats: bool = False

    @classmethod
    def integer(cls, name: str, label: str, default: int, minimum: int, maximum: int, *,
                decides_seats: bool = False) -> TableOption:
        return cls(name, "int", default, label, minimum, maximum, (), decides_seats)

    @classmethod
    def switch(cls, name: str, label: str, default: bool = False) -> TableOption:
        return cls(name, "bool", default, label)

    @classmethod
    def choice(cls, name: str, label: str, default: str, choices: Sequence[str], *,
               decides_seats: bool = False) -> TableOption:
        return cls(name, "choice", default, label, choices=tuple(choices),
                   decides_seats=decides_seats)

    def __post_init__(self) -> None:
        if self.kind == "int" and (self.minimum is None or self.maximum is None):
            raise ValueError(f"int option {self.name!r} needs both bounds")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"choice option {self.name!r} needs choices")
        if self.decides_seats and len(self.values()) > MAX_OPTION_VALUES:
            raise ValueError(f"option {self.name!r} decides seats over too many values")
        self.check(self.default)

    def check(self, value: Any) -> Any:
        """`value` if this option takes it, else OptionError naming the option."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(self.name, f"option {self.name!r} is true or false, "
                                             f"not {value!r}")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(self.name, f"option {self.name!r} is a whole number, "
                                             f"not {value!r}")
            assert self.minimum is not None and self.maximum is not None
            if not self.minimum <= value <= self.maximum:
                raise OptionError(self.name, f"option {self.name!r} is {self.minimum} to "
                                             f"{self.maximum}, not {value}")
            return value
        if value not in self.choices:
            raise OptionError(self.name, f"option {self.name!r} is one of "
                                         f"{', '.join(self.choices)}, not {value!r}")
        return value

    def values(self) -> tuple[Any, ...]:
        """Every value it takes (bool and choice always; int between its bounds)."""
        if self.kind == "bool":
            return (False, True)
        if self.kind == "choice":
            return self.choices
        assert self.minimum is not None and self.maximum is not None
        return tuple(range(self.minimum, self.maximum + 1))

    def to_dict(self) -> JSON:
        """The declaration as clients read it (`variants` reply, docs/protocol.md)."""
        out: JSON = {"name": self.name, "kind": self.kind, "default": self.default,
                     "label": self.label}
        if self.kind == "int":
            out.update(minimum=self.minimum, maximum=self.maximum)
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        if self.decides_seats:
            out["decides_seats"] = True
        return out


@dataclass(frozen=True)
class VariantInfo:
    """One playable variant: names are unique across all games (the CLI takes them)."""

    name: str
    game: str
    seats: tuple[Seat, ...]
    """The seats at the options' defaults (a game with `seats(variant, options)` may seat
    another number when a table sets an option that decides seats)."""
    title: str
    description: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Option defaults (target score, scoring rule, ...), the declared ones' included."""
    declared: tuple[TableOption, ...] = ()
    """The options a table may set (create_table `options`, the CLI's `--option`)."""
    alias_of: str | None = None
    """An old variant name kept so old logs and tables still read and play; tools and the
    lobby offer the variant it names instead."""
    sides: tuple[str, ...] = ()
    """The sides its matches score, as `scores` names them (teams or seats); each at 0
    before a match scores its first points. Empty: the game keeps no such score."""

    def __post_init__(self) -> None:
        names = [o.name for o in self.declared]
        if len(set(names)) != len(names) or len(names) > MAX_OPTIONS:
            raise ValueError(f"{self.name}: option names must be unique, at most {MAX_OPTIONS}")
        defaults = {o.name: o.default for o in self.declared}
        object.__setattr__(self, "options", {**self.options, **defaults})

    def option(self, name: str) -> TableOption | None:
        return next((o for o in self.declared if o.name == name), None)

    def resolve(self, chosen: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every declared option's value: `chosen`, checked, over the defaults. Unknown
        names and bad values raise OptionError naming the option; nothing else is done."""
        chosen = dict(chosen or {})
        if len(chosen) > MAX_OPTIONS:
            raise OptionError(next(iter(chosen)), f"at most {MAX_OPTIONS} options")
        out = {o.name: o.default for o in self.declared}
        for name, value in chosen.items():
            spec = self.option(name)
            if spec is None:
                known = ", ".join(out) or "none"
                raise OptionError(name, f"{self.name} has no option {name!r} "
                                        f"(its options: {known})")
            out[name] = spec.check(value)
        return out

    def to_dict(self) -> JSON:
        return {"name": self.name, "game": self.game, "title": self.title,
                "description": self.description, "seats": list(self.seats),
                "options": [o.to_dict() for o in self.declared]}


@runtime_checkable
class Event(Protocol):
    """Every event has a type name and its 1-based position in the stream, and is copied
    with fields replaced (the table stamps each new event's seq)."""

    @property
    def type(self) -> str: ...

    @property
    def seq(self) -> int: ...

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False
                   ) -> Self: ...


StateT = TypeVar("StateT")
"""A game's state: what its events fold into."""
CommandT = TypeVar("CommandT")
"""A game's commands: its players' moves and its referee's steps."""
EventT = TypeVar("EventT", bound=Event)
"""A game's events."""
EventT_contra = TypeVar("EventT_contra", bound=Event, contravariant=True)
CommandT_co = TypeVar("CommandT_co", covariant=True)


class BeliefModel(Protocol[EventT_contra]):
    """One observer's exact belief, rebuilt event by event from what it may see."""

    costly: bool
    """An update may take long (seconds): the server computes it off the event loop."""

    def apply(self, event: EventT_contra) -> None:
        """Fold one event of the observer's own view."""

    def snapshot_dict(self) -> JSON:
        """JSON-ready, with at least `seq` (the last event folded), `observer`, `model` (what
        the probabilities assume), `marginals` (holder -> item -> probability), and where
        known `consistent_deals`, `entropy_bits`, `facts`, `status`, `hand`, `remaining`."""


class Bot(Protocol[EventT_contra, CommandT_co]):
    """A player that sees only its own seat's view."""

    def choose(self, view: Sequence[EventT_contra], seat: Seat, rng: random.Random
               ) -> CommandT_co:
        """A legal command for `seat` given the events it has seen (redacted for it)."""


@dataclass(frozen=True)
class LogProblem(Exception):
    """The first event of a log that the rules refuse, and why."""

    seq: int
    reason: str

    def __str__(self) -> str:
        return f"event seq {self.seq}: {self.reason}"


UNIFORM = "uniform"
"""The model of every game's exact belief: every deal consistent with the view alike."""


@dataclass(frozen=True)
class BeliefInfo:
    """One model of the hidden items a game offers: its name (how clients ask for it), what
    it assumes in words, and whether its probabilities are exact or a labelled estimate."""

    name: str
    label: str
    exact: bool

    def to_dict(self) -> JSON:
        return {"name": self.name, "label": self.label, "exact": self.exact}


class Inspector(Protocol):
    """A game's own `infer`: reference samplers beside the exact method and its own picture
    of a belief for a person (dominoes' triangle). Pure: no printing."""

    methods: tuple[str, ...]
    """Every method it takes, `exact` first."""

    def inspect(self, view: Sequence[Any], observer: Audience, variant: str, method: str,
                samples: int, seed: int, as_json: bool) -> str:
        """The belief of `observer` after `view` (its own events) by `method`, as JSON text
        or for a person. ValueError with a message for a log or method it refuses."""
        ...


class SelfPlay(Protocol):
    """A game's own fast self-play (simple policies on its rules, no Bot in between)."""

    policies: tuple[str, ...]

    def match(self, rng: random.Random, variant: str, options: Mapping[str, Any],
              policy: str) -> list[Any]:
        """One complete referee log of `variant`, every seat playing `policy`."""
        ...


class Tournament(Protocol):
    """A game's own tournament of two bot teams (points, budgets, parallel processes); a game
    without one plays `tournament` through the generic arena (strategy/arena.py)."""

    bots: tuple[str, ...]
    """The bots it takes (it may take more than the game seats at tables)."""

    def play(self, variant: str, team_a: str, team_b: str, matches: int, seed: int,
             options: Mapping[str, Any], budgets: Mapping[str, float],
             workers: int, progress: Callable[[int, int], None] | None) -> JSON:
        """The report of `matches` (mirrored pairs): JSON-ready. `budgets`: work per decision
        where given — `nodes` (a solver's) and `samples` (deals) — never time, so the same
        seed gives the same report on any machine."""
        ...

    def describe(self, report: JSON, seed: int, options: Mapping[str, Any]) -> str:
        """The report for a person (`seed` and the table `options` it was played with)."""
        ...

    def pool(self, reports: Sequence[JSON]) -> JSON:
        """Runs of one match-up with different seeds as one report (ValueError if they
        cannot be pooled)."""
        ...


Narrator = Callable[[Sequence[Any]], Iterable[str]]
"""A referee log -> lines telling it move by move (`replay` in the terminal)."""


@dataclass(frozen=True)
class Capabilities:
    """What a game offers, declared once (in the spirit of OpenSpiel's GameType): the generic
    layers read these fields and never test a game's name. `Game.variants()` and `Game.bots()`
    return this record's `variants` and `bots`."""

    renderer: str
    """The web renderer registered under this name in clients/web/js/games/."""
    variants: Mapping[str, VariantInfo]
    """Every variant it hosts, by name, each with its table options."""
    bots: Mapping[str, Bot[Any, Any]] = field(default_factory=dict)
    """The bots that may fill a seat at a table, by name."""
    stand_in: str | None = None
    """The bot that moves for a person absent on their turn (None: its first bot)."""
    pooled_bots: frozenset[str] = frozenset()
    """Bots whose decisions take up to a second: the server runs them in its strategy worker
    processes (each must pickle and offer `choose_wire(view, seat, seed)`: its move as the
    wire payload, from the seat's events as dicts)."""
    fallback_bot: str | None = None
    """Plays instead of a pooled bot when no worker is free in time."""
    advisor: Advisor | None = None
    """Move advice (games.advice), or None: a table asking for advice is refused."""
    beliefs: tuple[BeliefInfo, ...] = ()
    """Every model of the hidden items it offers, its exact uniform belief first."""
    behaviour: Mapping[str, BehaviourModel] = field(default_factory=dict)
    """The models in `beliefs` that are not exact, by name: live `odds`, replay odds and
    calibrate compute them (games.behaviour)."""
    fair_dealing: Dealing | None = None
    """Where its log commits each deal's seed and reveals it (games.fairness.dealing), so
    that any audience's export is proved by `verify` (docs/fairness.md); None when its deals
    cannot be proved."""
    reveal: Revealer | None = None
    """Who held what at each position of a referee log, for calibrate (games.revealed)."""
    forecasts: Forecasts | None = None
    """How its belief's snapshot reads as forecasts for calibrate, when its marginals are not
    "who holds this item" (games.revealed; None: they are)."""
    inspect: Inspector | None = None
    """Its own `infer` (reference samplers, a picture of the belief); None: the generic one."""
    narrate: Narrator | None = None
    """Its own telling of a match for `replay` (None: one line per event)."""
    self_play: SelfPlay | None = None
    """Its own fast self-play for `selfplay` (None: its bots through games.play)."""
    tournament: Tournament | None = None
    """Its own tournament (None: its bots in the generic arena)."""

    def belief_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.beliefs)

    def to_dict(self) -> JSON:
        """What clients are told (`list_variants`): no objects, only names and flags."""
        return {"renderer": self.renderer, "bots": list(self.bots),
                "advice": self.advisor is not None,
                "advice_models": list(getattr(self.advisor, "models", None) or (UNIFORM,))
                if self.advisor is not None else [],
                "beliefs": [b.to_dict() for b in self.beliefs],
                "fair_dealing": None if self.fair_dealing is None else self.fair_dealing.name}


def uniform_belief(label: str) -> BeliefInfo:
    """The exact uniform belief, labelled as the game's snapshots label it."""
    return BeliefInfo(UNIFORM, label, exact=True)


class Game(Protocol[StateT, CommandT, EventT]):
    """The whole API of one game. Implementations are plain objects, one per game, each
    declared as a `Game` of its own state, command and event types (the generic layers take
    any `Game`)."""

    name: str
    """Unique; written in `match_started.game`."""

    @property
    def capabilities(self) -> Capabilities:
        """What it offers beyond its rules: variants, bots, advice, belief models, fair
        dealing, renderer and its own tools (the generic layers read this; they never test
        `name`)."""
        ...

    def variants(self) -> Mapping[str, VariantInfo]:
        """Every variant this game hosts, by name (`capabilities.variants`)."""
        ...

    # --- the log ---------------------------------------------------------------------------
    def parse_event(self, data: JSON | str | bytes) -> EventT:
        """Validate one event (a typed error for bad input)."""
        ...

    def event_to_dict(self, event: EventT) -> JSON:
        """The event in the log format."""
        ...

    def view(self, event: EventT, audience: Audience) -> EventT:
        """`event` as `audience` may see it. Every event is delivered, redacted, so seqs stay
        contiguous for every audience. The only gate hidden information passes through."""
        ...

    # --- the rules (pure) -----------------------------------------------------------------
    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> CommandT:
        """The command that starts a match."""
        ...

    def decide(self, state: StateT | None, command: CommandT) -> list[EventT]:
        """The events `command` causes, or a typed RuleViolation."""
        ...

    def evolve(self, state: StateT | None, event: EventT) -> StateT:
        """The state after `event`. Total and pure: replay is a fold of this."""
        ...

    def referee_step(self, state: StateT, secret: str) -> CommandT | None:
        """The referee's own next command (deal, reshuffle), using `secret` (64 hex digits of
        fresh randomness) if it needs any; None when players are to move or the match is over."""
        ...

    def to_act(self, state: StateT) -> tuple[Seat, ...]:
        """The seats whose move the table awaits now (empty when none: referee or over)."""
        ...

    def is_over(self, state: StateT) -> bool:
        ...

    def winners(self, state: StateT) -> tuple[Seat, ...]:
        """Once over: the seats on the winning side (empty for a draw or a match in play)."""
        ...

    def legal_moves(self, state: StateT, seat: Seat) -> Sequence[CommandT]:
        """Every command `seat` may send now."""
        ...

    def command_from_wire(self, seat: Seat, payload: JSON) -> CommandT:
        """A player's `move` payload as a command (a typed error for bad input)."""
        ...

    def command_to_wire(self, command: CommandT) -> JSON:
        """The inverse of `command_from_wire` for one legal move (what clients are offered)."""
        ...

    # --- knowledge ------------------------------------------------------------------------
    def belief(self, observer: Audience, variant: str) -> BeliefModel[EventT]:
        """An empty belief for `observer`, to be fed the observer's view of the events."""
        ...

    def check_log(self, events: Sequence[EventT]) -> None:
        """Re-decide a whole referee log; raise LogProblem at the first refused event."""
        ...

    def bots(self) -> Mapping[str, Bot[EventT, CommandT]]:
        """The bots that can fill a seat, by name (`capabilities.bots`)."""
        ...

    # optional: `seats(variant, options) -> tuple[Seat, ...]`, the seats a table of `variant`
    # has with these options (every declared option given), for a game with an option that
    # `decides_seats`; without it a table has its variant's seats. Call `table_seats`.


def table_seats(game: Game, variant: str, options: Mapping[str, Any] | None = None
                ) -> tuple[Seat, ...]:
    """The seats of a `variant` table with `options` (checked already; defaults filled in)."""
    info = game.variants()[variant]
    decide = getattr(game, "seats", None)
    if decide is None:
        return info.seats
    return tuple(decide(variant, {**info.options, **(options or {})}))


def match_seats(game: Game, first: Any) -> tuple[Seat, ...]:
    """The seats a match was played at, from its first event (typed, or as JSON):
    `match_started.players` (every game's match_started names its players by seat), in the
    variant's order, then any seat the variant's defaults lack (Clue's P5 at a five-player
    table) in the log's order; the variant's seats when the event names none."""

    def read(name: str) -> Any:
        return first.get(name) if isinstance(first, Mapping) else getattr(first, name, None)

    info = game.variants().get(str(read("variant")))
    default = info.seats if info is not None else ()
    players = read("players") if read("type") == "match_started" else None
    if not isinstance(players, Mapping) or not players:
        return default
    return (*(s for s in default if s in players), *(s for s in players if s not in default))
