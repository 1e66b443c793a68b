"""Client -> server: every JSON text frame a client may send on /ws.

`play`, `pass` and `draw` are short forms of `move` kept since the first game (dominoes) used
them; `move_payload` turns them into the payload the table's game reads with its own
`command_from_wire`. The protocol itself knows no game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from protocol.chat import Chat
from protocol.fields import (
    MAX_TABLE_OPTIONS,
    AfterSeq,
    Command,
    End,
    OptionName,
    OptionValue,
    PersonName,
    Seat,
    TableId,
    TileName,
    Token,
)

LEGACY_OPTIONS = ("target", "scoring")
"""create_table's own fields from before table options: each now sets the option of its name."""


class CreateTable(Command):
    type: Literal["create_table"] = "create_table"
    variant: str | None = Field(None, description="Any variant `list_variants` lists; null: "
                                "the server's default (its default game's first variant).")
    target: int | None = Field(
        None, ge=1, le=10_000, description="Short form of `options.target`, kept from before "
        "table options: it sets that option (over `options`) where the variant declares it, "
        "and is ignored elsewhere.")
    scoring: Annotated[str, Field(min_length=1, max_length=16)] | None = Field(
        None, description="Short form of `options.scoring`, as `target` is.")
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


class ListTables(Command):
    type: Literal["list_tables"] = "list_tables"
    after: TableId | None = Field(None, description="Continue after this table id (the "
                                                    "previous reply's `next`).")
    limit: int = Field(LIST_PAGE, ge=1, le=LIST_PAGE, description="Most tables in the reply.")


class ListVariants(Command):
    """Every variant this server hosts and the table options each declares (the lobby
    renders its form from this)."""

    type: Literal["list_variants"] = "list_variants"


class Join(Command):
    type: Literal["join"] = "join"
    table_id: TableId
    seat: Seat
    name: PersonName = ""


class Resume(Command):
    type: Literal["resume"] = "resume"
    table_id: TableId
    token: Token
    after_seq: AfterSeq = 0


class Watch(Command):
    type: Literal["watch"] = "watch"
    table_id: TableId
    after_seq: AfterSeq = 0


class Play(Command):
    type: Literal["play"] = "play"
    table_id: TableId
    tile: TileName
    end: End | None = None


class Pass(Command):
    type: Literal["pass"] = "pass"
    table_id: TableId


class Draw(Command):
    """Short for `move` {"kind": "draw"} (a boneyard: draw until a tile fits or it is empty)."""

    type: Literal["draw"] = "draw"
    table_id: TableId


class MoveCommand(Command):
    """Any game's move, as that game reads it (`Game.command_from_wire`)."""

    type: Literal["move"] = "move"
    table_id: TableId
    move: dict[str, Any] = Field(description="The game's own move payload.")


class Leave(Command):
    type: Literal["leave"] = "leave"
    table_id: TableId


class Advise(Command):
    """The advisor's estimate of each of the seat's legal moves now (server/tables/advice.py)."""

    type: Literal["advise"] = "advise"
    table_id: TableId
    model: str = Field(
        "uniform", min_length=1, max_length=64,
        description="The model of the hidden hands the deals are drawn from: `uniform` "
        "(every deal consistent with your view alike) or, at dominoes tables, "
        "`behaviour:greedy` (deals weighed by how likely the others' plays were under a "
        "greedy softmax). Another model, or one the game does not offer: `unknown_model`.")
    progress: bool = Field(
        False, description="Also send the answer as it grows: `advice_progress` frames with "
        "this request's id before its `advice` (Texas 42's bidding oracle: the table after "
        "every 25 completions; at most 8 frames; none when the answer was kept). Off by "
        "default: a client that takes the first frame with its id as the answer never gets "
        "one.")


class Odds(Command):
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
    | Odds
    | Chat,
    Field(discriminator="type"),
]
CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def requested_options(message: CreateTable, declared: Callable[[str], bool]
                      ) -> dict[str, Any]:
    """The options a create_table asks for: `options`, and the short-form fields set (they
    win: an old client sends both, its form's value in the short form) where `declared`
    says the variant has an option of that name."""
    short = {name: getattr(message, name) for name in LEGACY_OPTIONS
             if getattr(message, name) is not None and declared(name)}
    return {**message.options, **short}


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


