"""What both dominoes beliefs fold alike, event by event: hands starting and dealt, the
line's open ends, and the checks that a log is one this observer could have seen.

The partnership belief (belief_partnership) and the two-player one (belief_two) differ in
what they keep of the hidden tiles (allowed holders vs draw batches); the hand's frame around it
is this one class, so a rule about it is written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Self

from games.dominoes.events import (
    Event,
    HandDealt,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    TilePlayed,
    TilesDrawn,
    parse_event,
)
from games.dominoes.tiles import Tile, parse_tile
from games.dominoes.variants import Variant
from inference.errors import InconsistentLog

InHand = HandStarted | HandDealt | TilePlayed | TilesDrawn | Passed | HandEnded
"""The events that belong to one hand (they name it)."""


class ObserverError(ValueError):
    """The log is not one this observer could have seen (e.g. its own hand is redacted)."""


class HandFold:
    """The frame of one hand: subclasses keep the hidden tiles (`_reset_hand`, `_begin`,
    and an `_on_<event type>` per event the frame does not handle)."""

    observer: str
    variant: Variant
    seq: int
    hand: int | None
    status: str
    """idle: no hand yet; waiting: hand started, own tiles not yet dealt; live; ended."""
    first_hand: bool
    leader: str | None
    ends: tuple[int, int] | None
    own: Set[Tile]
    """The observer's own tiles in this hand."""

    def __init__(self, observer: str, variant: str | Variant = ...) -> None:
        """Each fold checks its observer and variant its own way (and has its default)."""
        raise NotImplementedError

    @classmethod
    def from_events(cls, events: Iterable[Event | dict], observer: str,
                    variant: str | Variant | None = None) -> Self:
        """The fold from scratch (match_started, when present, sets the variant)."""
        belief = cls(observer, variant) if variant is not None else cls(observer)
        for event in events:
            belief.apply(event)
        return belief

    def apply(self, event: Event | dict) -> None:
        """Fold one event in; on InconsistentLog the belief is left as it was."""
        if isinstance(event, dict):
            event = parse_event(event)
        self._handle(event)
        self.seq = event.seq

    def _handle(self, event: Event) -> None:
        """The handler of the event's own type (each takes that type only)."""
        match event:
            case TilePlayed():
                self._on_tile_played(event)
            case Passed():
                self._on_passed(event)
            case TilesDrawn():
                self._on_tiles_drawn(event)
            case HandDealt():
                self._on_hand_dealt(event)
            case HandStarted():
                self._on_hand_started(event)
            case HandEnded():
                self._on_hand_ended(event)
            case MatchStarted():
                self._on_match_started(event)
            case MatchEnded():
                self._on_match_ended(event)

    def _reset_hand(self, hand: int | None) -> None:
        raise NotImplementedError

    def _begin(self, event: HandStarted | HandDealt) -> None:
        raise NotImplementedError

    def _on_match_started(self, event: MatchStarted) -> None:
        raise NotImplementedError

    def _on_hand_dealt(self, event: HandDealt) -> None:
        raise NotImplementedError

    def _on_tile_played(self, event: TilePlayed) -> None:
        raise NotImplementedError

    def _on_tiles_drawn(self, event: TilesDrawn) -> None:
        """A fold of a variant with a boneyard overrides this; elsewhere a draw is a bad log."""
        raise self._fail(event, f"{self.variant.name} has no boneyard to draw from")

    def _on_passed(self, event: Passed) -> None:
        raise NotImplementedError

    def _on_hand_ended(self, event: HandEnded) -> None:
        raise NotImplementedError

    def _on_match_ended(self, event: MatchEnded) -> None:
        raise NotImplementedError

    def _fail(self, event: Event, reason: str) -> InconsistentLog:
        return InconsistentLog(event.seq, reason)

    def _on_hand_started(self, event: HandStarted) -> None:
        self._reset_hand(event.hand)
        self.first_hand = event.hand == 1
        self.leader = event.leader
        if self.observer == "spectator":
            self._begin(event)
        else:
            self.status = "waiting"

    def _dealt_to_us(self, event: HandDealt) -> list[Tile] | None:
        """The observer's own tiles from hand_dealt (None for another seat's: redacted for
        us, whatever the log says), checked against the variant."""
        self._same_hand(event)
        if event.seat != self.observer:
            return None
        if event.tiles is None:
            raise ObserverError(f"event {event.seq}: {event.seat}'s hand is redacted in this "
                                f"log, so it is not {event.seat}'s view")
        tiles = [parse_tile(t) for t in event.tiles]
        if len(tiles) != self.variant.hand_size or len(set(tiles)) != len(tiles):
            raise self._fail(event, f"{event.seat} was dealt {len(set(tiles))} distinct tiles")
        unknown = set(tiles) - set(self.variant.tiles)
        if unknown:
            raise self._fail(event, f"tiles not in {self.variant.name}: {sorted(unknown)}")
        return tiles

    def _same_hand(self, event: InHand) -> None:
        if self.hand is None or event.hand != self.hand:
            raise InconsistentLog(event.seq, f"{event.type} for hand {event.hand} but the "
                                  f"current hand is {self.hand}")

    def _live(self, event: InHand) -> None:
        self._same_hand(event)
        if self.status == "waiting":
            raise ObserverError(f"event {event.seq}: play goes on before {self.observer}'s "
                                f"own hand was dealt in this log, so it is not "
                                f"{self.observer}'s view")
        if self.status != "live":
            raise self._fail(event, f"{event.type} outside a hand in play")

    def _extend(self, event: TilePlayed, t: Tile) -> tuple[int, int]:
        """The open ends after t: the first tile opens low-left, high-right."""
        if self.ends is None:
            if event.end is not None:
                raise self._fail(event, f"the first tile {t} names an end ({event.end})")
            return (t.low, t.high)
        if event.end is None:
            raise self._fail(event, f"{t} names no end but the line is open")
        left, right = self.ends
        value = left if event.end == "left" else right
        if not t.has(value):
            raise self._fail(event, f"{t} does not match the {event.end} end ({value})")
        return (t.other(value), right) if event.end == "left" else (left, t.other(value))
