"""The event log of a Clue match: every change is one of these, appended, never edited.

Hidden information lives in these fields only: `dealt.hands` (each seat sees its own),
`dealt.envelope` and `dealt.secret` (the referee's, until `match_ended.seed` reveals the
secret), `card_shown.card` (the suggester and the refuter) and `accused.envelope` (the
accuser, after a wrong accusation). `games.clue.audience`
blanks them for everyone else. Unknown fields are refused so a typo in an imported log is an
error, not silently dropped data.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, TypeAdapter

from games.event_base import GameEvent, Secret
from games.fairness.scheme import NamesScheme, SchemeName

GAME: Final = "clue"

SeatName = Annotated[str, Field(pattern=r"^P[1-6]$")]
Card = Annotated[str, Field(min_length=1, max_length=32)]


class MatchStarted(GameEvent, NamesScheme):
    """`fairness` names the dealing scheme (absent in older logs: CPython's shuffle)."""

    type: Literal["match_started"] = "match_started"
    game: Literal["clue"] = GAME
    match_id: str = Field(min_length=1, max_length=64)
    variant: str
    players: dict[SeatName, str]
    fairness: SchemeName | None = None


class Dealt(GameEvent, NamesScheme):
    """Hand sizes are public, and so is `commitment`, the sha256 of the deal's seed (absent
    in older logs, whose seeds were never committed); each hand is its seat's; the envelope
    and the seed itself (`secret`) the referee's."""

    fairness_fields = ("commitment",)
    type: Literal["dealt"] = "dealt"
    hand_sizes: dict[SeatName, int]
    hands: dict[SeatName, list[Card] | None]
    envelope: list[Card] | None = None
    secret: Secret | None = None
    commitment: Secret | None = None


class Suggested(GameEvent):
    """A suggestion and its public outcome: who could not refute, and who refutes (if any)."""

    type: Literal["suggested"] = "suggested"
    seat: SeatName
    suspect: Card
    weapon: Card
    room: Card
    passed: list[SeatName]
    refuter: SeatName | None


class CardShown(GameEvent):
    """The refuter shows one card to the suggester: the card is theirs to see only."""

    type: Literal["card_shown"] = "card_shown"
    seat: SeatName
    to: SeatName
    card: Card | None


class Accused(GameEvent):
    """An accusation checked against the envelope; a wrong one shows it to the accuser."""

    type: Literal["accused"] = "accused"
    seat: SeatName
    suspect: Card
    weapon: Card
    room: Card
    correct: bool
    envelope: list[Card] | None = None


class TurnPassed(GameEvent):
    type: Literal["turn_passed"] = "turn_passed"
    seat: SeatName
    to: SeatName


class MatchEnded(GameEvent, NamesScheme):
    """The envelope is opened for everyone, and the deal's `seed` revealed (absent in older
    logs, whose seeds were never committed)."""

    fairness_fields = ("seed",)
    type: Literal["match_ended"] = "match_ended"
    winner: SeatName | None
    envelope: list[Card]
    seed: Secret | None = None


ClueEvent = Annotated[MatchStarted | Dealt | Suggested | CardShown | Accused | TurnPassed
                      | MatchEnded, Field(discriminator="type")]
ADAPTER: TypeAdapter[ClueEvent] = TypeAdapter(ClueEvent)
EVENT_TYPES = (MatchStarted, Dealt, Suggested, CardShown, Accused, TurnPassed, MatchEnded)


def parse_event(data: dict[str, Any] | str | bytes) -> ClueEvent:
    if isinstance(data, str | bytes):
        return ADAPTER.validate_json(data)
    return ADAPTER.validate_python(data)


def event_to_dict(event: ClueEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")
