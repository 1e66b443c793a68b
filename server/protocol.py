"""The wire protocol: every JSON text frame on /ws is one of these models.

Names are the contract: extend (new optional fields, new message types), never rename.
Unknown fields are rejected so a client's typo is an error, not silently ignored.
docs/protocol.md carries the JSON Schema generated from these models (server/schema_doc.py).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, TypeAdapter

from games.dominoes.tiles import End
from games.dominoes.variants import DEFAULT_VARIANT, Scoring

TableId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
MAX_SAFE_INTEGER = 2**53
"""Integer ids above this are not exact in JavaScript (and a 4,300-digit id costs to parse)."""
CommandId = Annotated[str, Strict(), Field(min_length=1, max_length=64)] | Annotated[
    int, Strict(), Field(ge=0, le=MAX_SAFE_INTEGER)]
"""A string of 1-64 characters or an integer 0..2^53; never a boolean (`true` is not `1`)."""
TileName = Annotated[str, Field(pattern=r"^\d{1,2}-\d{1,2}$")]
Token = Annotated[str, Field(min_length=16, max_length=128)]
Seat = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
"""A seat of the table's variant (dominoes: S, W, N, E; two players: S, N); the table checks."""

RESERVED_NAME_PREFIX = "bot:"
"""Seats held by bots are listed as `bot:<name>`: a person may not take a name like that."""


def check_person_name(name: str) -> str:
    """A person's display name: no control, format (bidi, zero-width), private-use or
    line-separator characters, and not the `bot:` prefix the listing uses for bots (nor a
    look-alike of it: compared after NFKC folding)."""
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            raise ValueError(f"the name holds a control or formatting character "
                             f"(U+{ord(char):04X})")
    if unicodedata.normalize("NFKC", name).strip().casefold().startswith(RESERVED_NAME_PREFIX):
        raise ValueError(f"names starting with {RESERVED_NAME_PREFIX!r} are kept for bots")
    return name


PersonName = Annotated[str, Field(max_length=40), AfterValidator(check_person_name)]

ErrorCode = Literal[
    "bad_request",
    "unknown_table",
    "seat_taken",
    "unauthorized",
    "not_your_turn",
    "illegal_move",
    "wrong_phase",
    "rate_limited",
    "too_large",
    "unknown_bot",
    "advice_disabled",
    "no_choice",
    "internal",
    "shutting_down",
    "busy",
    "limit_reached",
    "unavailable",
    "bad_option",
    "unknown_model",
]
TableStatus = Literal["waiting", "playing", "finished"]


OptionName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_]*$")]
OptionValue = (Annotated[bool, Strict()]
               | Annotated[int, Strict(), Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]
               | Annotated[float, Strict()]
               | Annotated[str, Strict(), Field(max_length=64)]
               | None)
"""One option's value as sent: any JSON scalar (the game's declaration then checks its type
and bounds, so a wrong type is a `bad_option` naming the option, not a shape error)."""
MAX_TABLE_OPTIONS = 16
"""Most options in one create_table (games.interface.MAX_OPTIONS: no variant declares more)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Command(_Message):
    id: CommandId | None = Field(None, description="Echoed in the reply; retries reuse it.")


# ---------------------------------------------------------------------------------------------
# client -> server


class CreateTable(_Command):
    type: Literal["create_table"] = "create_table"
    variant: str = DEFAULT_VARIANT
    target: int = Field(100, ge=1, le=10_000)
    scoring: Scoring = "losers"
    bots: dict[Seat, Annotated[str, Field(min_length=1, max_length=32)]] = Field(
        default_factory=dict, description="Seats filled by bots: seat -> bot name."
    )
    advice: bool = Field(
        False, description="Offer move advice (`advise`) to the seated players at this table."
    )
    turn_clock: float | None = Field(
        None, ge=1, le=600, description="Seconds a person may take over a move; then a "
        "stand-in bot makes that move for them (null: no clock)."
    )
    rematch_of: TableId | None = Field(
        None, description="The finished table this one is a rematch of: that table's "
        "listing then names this one (`tables.rematch`), so its people can follow."
    )
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict, max_length=MAX_TABLE_OPTIONS,
        description="The variant's own table options, by name (`list_variants` declares "
        "them: type, bounds or choices, default). Unknown names and bad values are refused "
        "with `bad_option` naming the option, and nothing is created; options left out take "
        "their defaults. Clue: {\"players\": 3..6}.")


LIST_PAGE = 100
"""Most tables in one `tables` reply (a lobby of thousands is read page by page)."""


class ListTables(_Command):
    type: Literal["list_tables"] = "list_tables"
    after: TableId | None = Field(None, description="Continue after this table id (the "
                                                    "previous reply's `next`).")
    limit: int = Field(LIST_PAGE, ge=1, le=LIST_PAGE, description="Most tables in the reply.")


class ListVariants(_Command):
    """Every variant this server hosts and the table options each declares (the lobby
    renders its form from this)."""

    type: Literal["list_variants"] = "list_variants"


class Join(_Command):
    type: Literal["join"] = "join"
    table_id: TableId
    seat: Seat
    name: PersonName = ""


class Resume(_Command):
    type: Literal["resume"] = "resume"
    table_id: TableId
    token: Token
    after_seq: int = Field(0, ge=0)


class Watch(_Command):
    type: Literal["watch"] = "watch"
    table_id: TableId
    after_seq: int = Field(0, ge=0)


class Play(_Command):
    type: Literal["play"] = "play"
    table_id: TableId
    tile: TileName
    end: End | None = None


class Pass(_Command):
    type: Literal["pass"] = "pass"
    table_id: TableId


class Draw(_Command):
    """Dominoes with a boneyard: nothing fits, so draw until a tile fits or it is empty."""

    type: Literal["draw"] = "draw"
    table_id: TableId


class MoveCommand(_Command):
    """Any game's move, as that game reads it (`Game.command_from_wire`)."""

    type: Literal["move"] = "move"
    table_id: TableId
    move: dict[str, Any] = Field(description="The game's own move payload.")


class Leave(_Command):
    type: Literal["leave"] = "leave"
    table_id: TableId


class Advise(_Command):
    """The advisor's estimate of each of the seat's legal moves now (server/tables/advice.py)."""

    type: Literal["advise"] = "advise"
    table_id: TableId
    model: str = Field(
        "uniform", min_length=1, max_length=64,
        description="The model of the hidden hands the deals are drawn from: `uniform` "
        "(every deal consistent with your view alike) or, at dominoes tables, "
        "`behaviour:greedy` (deals weighed by how likely the others' plays were under a "
        "greedy softmax). Another model, or one the game does not offer: `unknown_model`.")


class Odds(_Command):
    """The asker's own view under a model other than the exact uniform one, e.g.
    `behaviour:greedy` (server/tables/odds.py): a labelled estimate beside the `belief`
    feed, never instead of it. A seat gets its own view's, a spectator the spectator's."""

    type: Literal["odds"] = "odds"
    table_id: TableId
    model: str = Field(min_length=1, max_length=64, description="behaviour:greedy")


ClientMessage = Annotated[
    CreateTable
    | ListTables
    | ListVariants
    | Join
    | Resume
    | Watch
    | Play
    | Pass
    | Draw
    | MoveCommand
    | Leave
    | Advise
    | Odds,
    Field(discriminator="type"),
]
CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# ---------------------------------------------------------------------------------------------
# server -> client


class _Reply(_Message):
    id: CommandId | None = None


class TableCreated(_Reply):
    type: Literal["table_created"] = "table_created"
    table_id: TableId


class TableInfo(_Message):
    table_id: TableId
    game: str = Field("dominoes", description="The game the variant belongs to.")
    variant: str
    target: int
    seats: dict[Seat, str | None] = Field(
        description="Who sits where: a name, 'bot:<name>', or null for an empty seat."
    )
    status: TableStatus
    spectators: int
    turn_clock: float | None = Field(None, description="The table's turn clock in seconds "
                                                       "(null: none).")
    clocks: dict[Seat, float] = Field(
        default_factory=dict, description="Running turn clocks: seat -> when it started "
        "(Unix time, seconds).")
    stand_ins: list[StandInMove] = Field(
        default_factory=list, description="Moves stand-in bots made for people, oldest first.")
    rematch: TableId | None = Field(None, description="The table created as this one's "
                                                      "rematch (`create_table.rematch_of`).")
    options: dict[str, Any] = Field(
        default_factory=dict, description="The variant's declared table options as this "
        "table has them (defaults filled in; empty for a variant that declares none, and for "
        "tables created before options existed).")


class StandInMove(_Message):
    """A move a stand-in bot made for a person: the event's seq, the seat, and why."""

    seq: int
    seat: Seat
    reason: Literal["clock", "away"] = Field(
        description="clock: the turn clock ran out; away: disconnected past the grace period.")


class Tables(_Reply):
    type: Literal["tables"] = "tables"
    tables: list[TableInfo]
    next: str | None = Field(None, description="More tables follow: send `list_tables` with "
                                               "`after` set to this; null on the last page.")


class TableOptionInfo(_Message):
    """One table option a variant declares (games.interface.TableOption)."""

    name: str
    kind: Literal["int", "bool", "choice"]
    default: Any
    label: str
    minimum: int | None = None
    maximum: int | None = None
    choices: list[str] | None = None
    decides_seats: bool = Field(False, description="Its value changes the table's seats "
                                                   "(see `VariantListing.seats_by`).")


class VariantListing(_Message):
    game: str
    name: str
    title: str
    description: str = ""
    seats: list[Seat] = Field(description="The seats at the options' defaults.")
    options: list[TableOptionInfo] = Field(default_factory=list)
    seats_by: dict[str, dict[str, list[Seat]]] = Field(
        default_factory=dict, description="For each option that decides the seats: its "
        "value (as a string) -> the table's seats with it (the others at their defaults).")


class Variants(_Reply):
    """The reply to `list_variants` (aliases kept only for old logs are left out)."""

    type: Literal["variants"] = "variants"
    variants: list[VariantListing]


class Joined(_Reply):
    type: Literal["joined"] = "joined"
    table_id: TableId
    seat: Seat
    token: str = Field(description="Keep it: `resume` with it after a dropped connection.")
    last_seq: int = Field(description="The table's last seq when joined; events follow.")
    advice: bool = Field(False, description="Whether this table answers `advise`.")


class Resumed(_Reply):
    type: Literal["resumed"] = "resumed"
    table_id: TableId
    seat: Seat
    after_seq: int
    last_seq: int
    advice: bool = Field(False, description="Whether this table answers `advise`.")
    finished: bool = Field(False, description="The match is over: the events up to last_seq "
                                              "and the final belief follow, nothing after.")


class Watching(_Reply):
    type: Literal["watching"] = "watching"
    table_id: TableId
    after_seq: int
    last_seq: int
    finished: bool = Field(False, description="The match is over: the events up to last_seq "
                                              "and the final belief follow, nothing after.")


class Ack(_Reply):
    type: Literal["ack"] = "ack"
    seq: int = Field(description="Seq of the event that records the move (durable).")


class Left(_Reply):
    type: Literal["left"] = "left"
    table_id: TableId


class EventMessage(_Message):
    type: Literal["event"] = "event"
    table_id: TableId
    seq: int
    event: dict[str, Any] = Field(description="One event in the log format, redacted.")


class BeliefMessage(_Message):
    """One observer's exact belief (the shape of `infer --json`), after event `seq`."""

    type: Literal["belief"] = "belief"
    table_id: TableId
    seq: int = Field(description="The last event this belief reflects.")
    observer: str = Field(description="A seat, or 'spectator' for the public belief.")
    model: str | None = Field(None, description="What the probabilities assume (the label "
                                                "every estimate carries).")
    hand: int | None = Field(None, description="The hand it is about (null before the first).")
    status: str | None = Field(
        None, description="idle (no hand yet), waiting (own tiles not dealt), live, ended."
    )
    consistent_deals: int | str | None = Field(
        description="|Ω|, the deals consistent with what the observer saw; a decimal string "
        "above 2^53 (exact for JavaScript); null outside a hand in play."
    )
    entropy_bits: float | None = Field(description="log2 |Ω|.")
    marginals: dict[str, dict[str, float]] = Field(
        description="holder -> tile -> probability that holder has it (unseen tiles only)."
    )
    facts: list[Any] = Field(description="Certainties found by propagation, in words.")
    remaining: dict[str, int] = Field(default_factory=dict, description="Tiles left per holder.")
    tile_entropy_bits: dict[str, float] = Field(default_factory=dict)
    error_95: float | None = Field(
        None, description="When the probabilities are an estimate (status 'estimate'), the "
        "half-width of their 95% interval; null when they are exact.")
    details: dict[str, Any] = Field(
        default_factory=dict, description="The game's own further fields of its belief.")


class AdviceMove(_Message):
    """One legal move with its estimate (strategy.advisor.Advice)."""

    tile: TileName
    end: End | None
    expected_points: float = Field(
        description="Mean over sampled deals of the seat's team's points minus the other "
        "team's, this hand, with every hand open (optimistic)."
    )
    p_win_hand: float = Field(description="Share of deals in which the seat's team scores.")
    samples: int = Field(description="Deals drawn from the seat's posterior and solved.")
    ci: list[float | None] = Field(
        description="95% interval of expected_points from sampling alone; null bounds with "
        "a single deal."
    )
    exact_share: float = Field(description="Share of deals solved to the end of the hand.")


class AdviceMessage(_Reply):
    """The reply to `advise`: dominoes' legal moves of the seat at `seq`, best first (`moves`),
    or another game's own advice (`advice`)."""

    type: Literal["advice"] = "advice"
    table_id: TableId
    seat: Seat
    seq: int = Field(description="The last event the advice is about; stale once it moves.")
    moves: list[AdviceMove] = Field(description="Dominoes: every legal move ranked (empty "
                                                "for another game).")
    label: str = Field(description="What the figures are: an optimistic perfect-information "
                                   "estimate, not an achievable expectation.")
    elapsed_ms: float
    model: str | None = Field(
        None, description="Dominoes: the model of the hidden hands the deals were drawn "
        "from (`uniform` or `behaviour:greedy`), as asked.")
    ess: float | None = Field(
        None, description="Dominoes: the deals' effective sample size: the number drawn "
        "under `uniform`; under `behaviour:greedy` the weighted pool's (Σw)²/Σw², which "
        "bounds the deals each `ci` counts.")
    pool: int | None = Field(
        None, description="behaviour:greedy: deals weighed before resampling (every "
        "consistent deal when `exact_pool`).")
    exact_pool: bool | None = Field(
        None, description="behaviour:greedy: the pool was every consistent deal.")
    advice: dict[str, Any] | None = Field(
        None, description="Another game's advice, as its advisor (games.advice) gives it, "
        "every number labelled with its model and evaluator; absent for dominoes. Texas 42: "
        "`kind` 'bid' or 'trump' (seed 003's bidding oracle table in `oracle`) or 'play' "
        "(ranked plays in `moves`).")


class OddsBelief(_Reply):
    """The reply to `odds`: the asker's belief under `model`, shaped as `belief` is, with its
    sampling error. An estimate unless `exact` (every consistent deal listed and weighed)."""

    type: Literal["odds_belief"] = "odds_belief"
    table_id: TableId
    seq: int = Field(description="The last event it reflects; stale once the table moves.")
    observer: str = Field(description="A seat, or 'spectator'.")
    model: str = Field(description="The model it assumes, e.g. behaviour:greedy.")
    label: str = Field(description="What the model assumes, in words.")
    hand: int | None
    status: str = Field(description="estimate (sampled), or live (exact under the model).")
    exact: bool
    consistent_deals: int | str | None = Field(
        description="|Ω| of the uniform belief: the deals the model weighs.")
    remaining: dict[str, int] = Field(default_factory=dict)
    marginals: dict[str, dict[str, float]] = Field(
        description="holder -> tile -> probability under `model` (unseen tiles only).")
    stderr: dict[str, dict[str, float]] = Field(
        description="holder -> tile -> standard error of that probability (0 when exact).")
    error_95: float | None = Field(description="The largest half-width of a 95% interval "
                                               "among the marginals; null when exact.")
    ess: float = Field(description="Effective sample size of the weighted deals.")
    samples: int = Field(description="Deals weighed (drawn, or listed when exact).")
    betas: dict[str, float] = Field(
        default_factory=dict, description="The inverse temperature used for each other seat.")
    elapsed_ms: float


class ErrorMessage(_Reply):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str


ServerMessage = Annotated[
    TableCreated
    | Tables
    | Variants
    | Joined
    | Resumed
    | Watching
    | Ack
    | Left
    | EventMessage
    | BeliefMessage
    | AdviceMessage
    | OddsBelief
    | ErrorMessage,
    Field(discriminator="type"),
]
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def move_payload(message: Play | Pass | Draw | MoveCommand) -> dict[str, Any]:
    """A move message as its game's wire payload (`Game.command_from_wire` reads it).

    `play`, `pass` and `draw` are the dominoes moves, kept as their own messages (the
    protocol only ever grows); `move` carries any game's payload as it is."""
    if isinstance(message, Play):
        return {"kind": "play", "tile": message.tile, "end": message.end}
    if isinstance(message, Pass):
        return {"kind": "pass"}
    if isinstance(message, Draw):
        return {"kind": "draw"}
    return dict(message.move)


def parse_client(text: str | bytes) -> ClientMessage:
    """Validate one client frame (raises pydantic.ValidationError)."""
    return CLIENT_ADAPTER.validate_json(text)


def parse_server(text: str | bytes) -> ServerMessage:
    return SERVER_ADAPTER.validate_json(text)


class ProtocolError(Exception):
    """A command refused with a protocol error code (sent back as `error`)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
