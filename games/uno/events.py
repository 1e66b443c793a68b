"""The Uno log format: every change to a match is one of these events.

Private parts (a seat's cards, the referee's shuffle secrets) are fields that `audience.view`
blanks for whoever may not see them; every event reaches every audience, so seqs stay
contiguous. Unknown fields are refused: a typo in an imported log is an error.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, TypeAdapter

from games.event_base import GameEvent, Secret
from games.fairness.scheme import NamesScheme, SchemeName

GAME: Final = "uno"
Kind = Annotated[str, Field(pattern=r"^([rygb]([0-9]|S|R|\+2)|W|W\+4)$")]
Colour = Literal["r", "y", "g", "b"]
UnoSeat = Literal["S", "N"]


class MatchStarted(GameEvent, NamesScheme):
    """`fairness` names the dealing scheme (absent in older logs: CPython's shuffle)."""

    type: Literal["match_started"] = "match_started"
    game: Literal["uno"] = GAME
    match_id: str = Field(min_length=1, max_length=64)
    variant: str
    players: dict[UnoSeat, str]
    fairness: SchemeName | None = None


class HandDealt(GameEvent, NamesScheme):
    """`seat`'s starting hand, seen by that seat only. The first deal (S's) publishes the
    sha256 `commitment` of the match's seed to everyone; its referee's copy carries the seed
    itself as `secret` (the whole deck order, every reshuffle's too, follows from it)."""

    fairness_fields = ("commitment",)
    type: Literal["hand_dealt"] = "hand_dealt"
    seat: UnoSeat
    cards: list[Kind] | None
    secret: Secret | None = None
    commitment: Secret | None = None


class StarterTurned(GameEvent):
    """The deck's next card starts the pile, face up (its action, if any, does not apply)."""

    type: Literal["starter_turned"] = "starter_turned"
    card: Kind


class CardPlayed(GameEvent):
    """Public. `colour` is the colour a wild names (None for coloured cards)."""

    type: Literal["card_played"] = "card_played"
    seat: UnoSeat
    card: Kind
    colour: Colour | None = None


class CardsDrawn(GameEvent):
    """`count` cards from the deck's top; `cards` seen by the drawing seat only. `penalty`:
    forced by a +2/+4 (else: the seat had no card to play)."""

    type: Literal["cards_drawn"] = "cards_drawn"
    seat: UnoSeat
    count: int = Field(ge=1)
    cards: list[Kind] | None
    penalty: bool


class DeckReshuffled(GameEvent):
    """The deck ran out: the pile under its top card becomes the deck (public: how many
    cards; hidden: their order, fixed by the match's committed seed). `secret`: an older
    log's referee's copy only, whose reshuffles each had a fresh secret of their own."""

    type: Literal["deck_reshuffled"] = "deck_reshuffled"
    count: int = Field(ge=1)
    secret: Secret | None = None


class TurnPassed(GameEvent):
    """Nothing left to draw (deck and pile under the top both empty): the turn passes."""

    type: Literal["turn_passed"] = "turn_passed"
    seat: UnoSeat
    penalty: bool


class MatchEnded(GameEvent, NamesScheme):
    """`winner` emptied their hand (None: blocked with equal hands). Both hands are shown,
    and the match's `seed` is revealed (absent in older logs, whose seeds were never
    committed)."""

    fairness_fields = ("seed",)
    type: Literal["match_ended"] = "match_ended"
    winner: UnoSeat | None
    reason: Literal["out", "blocked"]
    hands: dict[UnoSeat, list[Kind]]
    seed: Secret | None = None


UnoEvent = Annotated[
    MatchStarted | HandDealt | StarterTurned | CardPlayed | CardsDrawn | DeckReshuffled
    | TurnPassed | MatchEnded,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[UnoEvent] = TypeAdapter(UnoEvent)


def parse_event(data: dict[str, Any] | str | bytes) -> UnoEvent:
    if isinstance(data, str | bytes):
        return ADAPTER.validate_json(data)
    return ADAPTER.validate_python(data)


def event_to_dict(event: UnoEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")
