"""The event log format: every change to a match is one of these, appended and never edited.

These models are the public interchange format (docs/events.md). Unknown fields are
rejected so that a typo in an imported log is an error, not silently dropped data.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from games.dominoes.tiles import SEATS, TILE_SYNTAX, End, Seat, Side, parse_tile
from games.dominoes.variants import VARIANTS, Scoring
from games.fairness.scheme import NamesScheme, SchemeName

GAME: Final = "dominoes"
"""What `match_started.game` names; a log written before the field existed reads as this."""

TileName = Annotated[str, Field(pattern=f"^{TILE_SYNTAX}$")]
Seed = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


def _canonical(name: str) -> str:
    return str(parse_tile(name))


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int = Field(0, ge=0, description="Position in the stream, 1-based; 0 before append.")


class MatchStarted(_Event, NamesScheme):
    """The match's table. `game` names the game (absent in older logs: read as dominoes);
    `fairness` the dealing scheme (absent in older logs: the same shuffle, named since)."""

    type: Literal["match_started"] = "match_started"
    game: Literal["dominoes"] = GAME
    match_id: str = Field(min_length=1, max_length=64)
    variant: str
    target: int = Field(100, ge=1, le=10_000)
    players: dict[Seat, str]
    scoring: Scoring = "losers"
    fairness: SchemeName | None = None

    @model_validator(mode="after")
    def _the_variants_seats(self) -> MatchStarted:
        """Players name exactly the variant's seats (an unknown variant: all four, as ever;
        the rules refuse the unknown name itself)."""
        known = VARIANTS.get(self.variant)
        seats = known.seats if known is not None else SEATS
        if set(self.players) != set(seats):
            if seats == SEATS:
                raise ValueError("players must name all four seats S, W, N, E")
            raise ValueError(f"players must name the seats {', '.join(seats)} of {self.variant}")
        return self


class HandStarted(_Event):
    """The deal is fixed: sha256 of the shuffle seed is public at once.

    `seed` itself is the referee's secret (so a restarted server can finish the hand); every
    audience sees it as None until hand_ended reveals it.
    """

    type: Literal["hand_started"] = "hand_started"
    hand: int = Field(ge=1)
    leader: Seat
    seed_sha256: Seed
    seed: Seed | None = None


class HandDealt(_Event):
    """Private to `seat`: its tiles. Other audiences see it with `tiles` = None."""

    type: Literal["hand_dealt"] = "hand_dealt"
    hand: int = Field(ge=1)
    seat: Seat
    tiles: list[TileName] | None

    @field_validator("tiles")
    @classmethod
    def _canonical_tiles(cls, tiles: list[str] | None) -> list[str] | None:
        return None if tiles is None else [_canonical(t) for t in tiles]


class TilePlayed(_Event):
    type: Literal["tile_played"] = "tile_played"
    hand: int = Field(ge=1)
    seat: Seat
    tile: TileName
    end: End | None

    @field_validator("tile")
    @classmethod
    def _canonical_tile(cls, name: str) -> str:
        return _canonical(name)


class TilesDrawn(_Event):
    """A seat that could not play drew from the boneyard until a tile fitted or it emptied.

    `count` is public; `tiles` (in the order drawn) only for the drawer, None for everyone
    else. When the last tile drawn fits, the drawer must play it next (nothing else fits)."""

    type: Literal["tiles_drawn"] = "tiles_drawn"
    hand: int = Field(ge=1)
    seat: Seat
    tiles: list[TileName] | None
    count: int = Field(ge=1)

    @field_validator("tiles")
    @classmethod
    def _canonical_tiles(cls, tiles: list[str] | None) -> list[str] | None:
        return None if tiles is None else [_canonical(t) for t in tiles]

    @model_validator(mode="after")
    def _count_matches(self) -> TilesDrawn:
        if self.tiles is not None and len(self.tiles) != self.count:
            raise ValueError(f"count is {self.count} but {len(self.tiles)} tiles are listed")
        return self


class Passed(_Event):
    type: Literal["passed"] = "passed"
    hand: int = Field(ge=1)
    seat: Seat


class HandEnded(_Event):
    type: Literal["hand_ended"] = "hand_ended"
    hand: int = Field(ge=1)
    reason: Literal["domino", "blocked"]
    winner: Side | None
    points: int = Field(ge=0)
    remaining: dict[Seat, list[TileName]]
    pool: list[TileName] = Field(default_factory=list)
    """The tiles nobody held: sleeping all hand, or left in the boneyard undrawn."""
    seed: Seed
    scores: dict[Side, int]


class MatchEnded(_Event):
    type: Literal["match_ended"] = "match_ended"
    scores: dict[Side, int]
    winner: Side


Event = Annotated[
    MatchStarted
    | HandStarted
    | HandDealt
    | TilePlayed
    | TilesDrawn
    | Passed
    | HandEnded
    | MatchEnded,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)

PRIVATE_TYPES = frozenset({"hand_dealt", "tiles_drawn"})


def parse_event(data: dict | str | bytes) -> Event:
    """Validate one event from a dict or a JSON text (raises pydantic.ValidationError)."""
    if isinstance(data, str | bytes):
        return EVENT_ADAPTER.validate_json(data)
    return EVENT_ADAPTER.validate_python(data)


def event_to_dict(event: Event) -> dict:
    """The event as plain JSON-ready data, in the log format."""
    return event.model_dump(mode="json")
