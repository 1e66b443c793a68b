"""Every event of a Texas 42 match, as it is written to the log and sent on the wire.

Private parts: a seat's `dealt` tiles (its owner only) and the hand's shuffle `seed` in
`hand_started` (the referee only; everyone else sees its sha256 `commitment`, and the seed
itself when `hand_ended` reveals it). `games.texas42.audience.view` redacts.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from games.fairness.scheme import NamesScheme, SchemeName
from games.texas42.dominoes import Tile, parse_tile


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = 0


def _tile(value: Any) -> Tile:
    if isinstance(value, Tile):
        return value
    if isinstance(value, list | tuple) and len(value) == 2:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ValueError(f"not a tile: {value!r} (two integers, or 'a-b')")
        return Tile(*sorted(value))
    return parse_tile(str(value))


class MatchStarted(_Event, NamesScheme):
    type: Literal["match_started"] = "match_started"
    game: Literal["texas42"] = "texas42"
    match_id: str
    variant: str
    players: dict[str, str]
    target_marks: int = 7
    """Marks to win (0 when the match is played to `target_points` instead)."""
    target_points: int = 0
    dealer_must_bid: bool = False
    first_dealer: str = "E"
    nello: bool = False
    """The table option: a mark bidder may name nello (its partner sits out, it must lose
    every trick) instead of a trump."""
    fairness: SchemeName | None = None
    """The dealing scheme (absent in older logs: the same shuffle, named since)."""


class HandStarted(_Event):
    type: Literal["hand_started"] = "hand_started"
    hand: int
    dealer: str
    commitment: str
    seed: str | None = None
    """The shuffle's seed: the referee's copy only, until `hand_ended` reveals it."""


class Dealt(_Event):
    type: Literal["dealt"] = "dealt"
    hand: int
    seat: str
    tiles: list[str] | None
    """The seat's seven tiles ('a-b'); None in every other audience's copy."""

    @field_validator("tiles")
    @classmethod
    def _canonical(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else [str(_tile(t)) for t in value]


class BidMade(_Event):
    type: Literal["bid"] = "bid"
    seat: str
    bid: int
    """0 is a pass; 30..41 points, 42 one mark, 84 two marks."""


class TrumpNamed(_Event):
    type: Literal["trump_named"] = "trump_named"
    seat: str
    trump: str
    """'0'..'6', 'doubles' or 'follow-me'."""


class Played(_Event):
    type: Literal["played"] = "played"
    seat: str
    tile: str

    @field_validator("tile")
    @classmethod
    def _canonical(cls, value: str) -> str:
        return str(_tile(value))


class TrickWon(_Event):
    type: Literal["trick_won"] = "trick_won"
    trick: int
    seat: str
    points: int
    """1 for the trick plus the count dominoes in it."""


class HandEnded(_Event):
    type: Literal["hand_ended"] = "hand_ended"
    hand: int
    seed: str
    outcome: Literal["made", "set", "redeal"]
    bidder: str | None = None
    bid: int = 0
    trump: str | None = None
    points: dict[str, int] = Field(default_factory=dict)
    """Points taken in the hand by each team."""
    award: dict[str, int] = Field(default_factory=dict)
    """What each team scores for the hand (marks, or points in a points game)."""
    totals: dict[str, int] = Field(default_factory=dict)


class MatchEnded(_Event):
    type: Literal["match_ended"] = "match_ended"
    winner: str
    totals: dict[str, int]


Event = Annotated[MatchStarted | HandStarted | Dealt | BidMade | TrumpNamed | Played
                  | TrickWon | HandEnded | MatchEnded, Field(discriminator="type")]
ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def parse_event(data: dict[str, Any] | str | bytes) -> Event:
    """One event from its dict or JSON (pydantic's ValidationError, a ValueError, if bad)."""
    if isinstance(data, str | bytes):
        return ADAPTER.validate_json(data)
    return ADAPTER.validate_python(data)


def event_to_dict(event: Event) -> dict[str, Any]:
    return event.model_dump(mode="json")
