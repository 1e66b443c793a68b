"""Server -> client: every JSON text frame the server sends on /ws (replies and pushes)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, TypeAdapter, model_serializer

from protocol.chat import ChatHistory, ChatMessage
from protocol.errors import ErrorCode
from protocol.fields import End, Message, Reply, Seat, TableId, TableStatus, TileName


class TableCreated(Reply):
    type: Literal["table_created"] = "table_created"
    table_id: TableId


class TableInfo(Message):
    table_id: TableId
    game: str = Field(description="The game the variant belongs to.")
    variant: str
    target: int | None = Field(None, description="`options.target`, where the variant "
                               "declares one (kept for clients from before table options).")
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
    ended_at: float | None = Field(None, description="When the match finished or was "
                                   "abandoned (Unix time, seconds): the lobby lists the latest "
                                   "first. Null while in play, and for a table restored after "
                                   "it ended.")
    rematch: TableId | None = Field(None, description="The table created as this one's "
                                                      "rematch (`create_table.rematch_of`).")
    options: dict[str, Any] = Field(
        default_factory=dict, description="The variant's declared table options as this "
        "table has them (defaults filled in; empty for a variant that declares none, and for "
        "tables created before options existed).")


class StandInMove(Message):
    """A move a stand-in bot made for a person: the event's seq, the seat, and why."""

    seq: int
    seat: Seat
    reason: Literal["clock", "away"] = Field(
        description="clock: the turn clock ran out; away: disconnected past the grace period.")


class Tables(Reply):
    type: Literal["tables"] = "tables"
    tables: list[TableInfo]
    next: str | None = Field(None, description="More tables follow: send `list_tables` with "
                                               "`after` set to this; null on the last page.")


class TableOptionInfo(Message):
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


class BeliefModelInfo(Message):
    """One model of the hidden items a game offers (games.interface.BeliefInfo)."""

    name: str = Field(description="`uniform` (the `belief` feed), or a behaviour model "
                                  "(`odds {model}`).")
    label: str = Field(description="What its probabilities assume, in words.")
    exact: bool = Field(description="Exact probabilities; false: a labelled estimate.")


class VariantListing(Message):
    game: str
    name: str
    title: str
    description: str = ""
    seats: list[Seat] = Field(description="The seats at the options' defaults.")
    options: list[TableOptionInfo] = Field(default_factory=list)
    seats_by: dict[str, dict[str, list[Seat]]] = Field(
        default_factory=dict, description="For each option that decides the seats: its "
        "value (as a string) -> the table's seats with it (the others at their defaults).")
    renderer: str | None = Field(None, description="The web renderer that draws its tables "
                                                   "(what its game declares).")
    bots: list[str] = Field(default_factory=list, description="The bots a seat may have "
                                                              "(`create_table.bots`).")
    advice: bool = Field(False, description="Its game offers move advice (`advise`); a "
                                            "create_table asking for it elsewhere is refused.")
    advice_models: list[str] = Field(default_factory=list, description="The models `advise` "
                                     "takes (`uniform` first); empty without advice.")
    beliefs: list[BeliefModelInfo] = Field(
        default_factory=list, description="The models of the hidden items it offers: the "
        "exact `uniform` one first, then behaviour models (`odds`).")
    fair_dealing: str | None = Field(None, description="The scheme its deals are committed "
                                     "and proved with; null: its deals are not provable.")


class Variants(Reply):
    """The reply to `list_variants` (aliases kept only for old logs are left out)."""

    type: Literal["variants"] = "variants"
    variants: list[VariantListing]


class Joined(Reply):
    type: Literal["joined"] = "joined"
    table_id: TableId
    seat: Seat
    token: str = Field(description="Keep it: `resume` with it after a dropped connection.")
    last_seq: int = Field(description="The table's last seq when joined; events follow.")
    advice: bool = Field(False, description="Whether this table answers `advise`.")


class Resumed(Reply):
    type: Literal["resumed"] = "resumed"
    table_id: TableId
    seat: Seat
    after_seq: int
    last_seq: int
    advice: bool = Field(False, description="Whether this table answers `advise`.")
    finished: bool = Field(False, description="The match is over: the events up to last_seq "
                                              "and the final belief follow; after them only chat.")


class Watching(Reply):
    type: Literal["watching"] = "watching"
    table_id: TableId
    after_seq: int
    last_seq: int
    finished: bool = Field(False, description="The match is over: the events up to last_seq "
                                              "and the final belief follow; after them only chat.")


class Ack(Reply):
    type: Literal["ack"] = "ack"
    seq: int = Field(description="Seq of the event that records the move (durable).")


class Left(Reply):
    type: Literal["left"] = "left"
    table_id: TableId


class EventMessage(Message):
    type: Literal["event"] = "event"
    table_id: TableId
    seq: int
    event: dict[str, Any] = Field(description="One event in the log format, redacted.")
    legal_moves: list[dict[str, Any]] | None = Field(
        None, description="Only in a seat's own feed, on the event after which that seat is "
        "to act (live, and last in a backlog): every move it may make now, each a `move` "
        "payload to send back as it is. Never sent to other seats nor to spectators.")

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Dumped as the frame is sent: without `legal_moves` where none were offered."""
        data: dict[str, Any] = handler(self)
        if data.get("legal_moves") is None:
            data.pop("legal_moves", None)
        return data


class BeliefMessage(Message):
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


class AdviceMove(Message):
    """One legal move with its estimate (games.dominoes.strategy.advisor.Advice)."""

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


class AdviceMessage(Reply):
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


class AdviceProgress(Reply):
    """A partial answer to `advise {progress: true}`, before its `advice` (same id): another
    game's advice as it grows (Texas 42: the bidding oracle's table after N of N_target
    completions, `partial` true, its intervals wider than the answer's). Superseded by the
    next frame; the `advice` frame that follows is the answer."""

    type: Literal["advice_progress"] = "advice_progress"
    table_id: TableId
    seat: Seat
    seq: int = Field(description="The last event the advice is about, as in `advice`.")
    step: int = Field(description="1, 2, ...: this frame's place among the request's.")
    label: str
    elapsed_ms: float
    advice: dict[str, Any] = Field(description="The partial payload, shaped as `advice`'s "
                                   "(a partial oracle table's cells leave out the labels "
                                   "the table carries).")


class OddsBelief(Reply):
    """The reply to `odds`: the asker's belief under `model`, shaped as `belief` is, with its
    sampling error. An estimate unless `exact` (every consistent deal listed and weighed)."""

    type: Literal["odds_belief"] = "odds_belief"
    table_id: TableId
    seq: int = Field(description="The last event it reflects; stale once the table moves.")
    observer: str = Field(description="A seat, or 'spectator'.")
    model: str = Field(description="The model it assumes, e.g. behaviour:greedy.")
    label: str = Field(description="What the model assumes, in words.")
    hand: int | None = Field(None, description="The hand it reflects, in games of hands; "
                                               "null in one-deal games (Clue).")
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
    weighed: int | None = Field(None, description="How many of the other players' choices "
                                "the model weighed (Texas 42: bids and passes); null when "
                                "the model does not say.")
    elapsed_ms: float


class ErrorMessage(Reply):
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
    | AdviceProgress
    | OddsBelief
    | ChatMessage
    | ChatHistory
    | ErrorMessage,
    Field(discriminator="type"),
]
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def parse_server(text: str | bytes) -> ServerMessage:
    return SERVER_ADAPTER.validate_json(text)


