"""High card for two: a toy game that exists only to prove the game interface.

Seven cards 1..7; each of two seats is dealt three, one stays face down. Three rounds: the
leader plays a card, the other answers, the higher card wins the round and leads the next.
Hidden information (the hands and the face-down card) is redacted per audience exactly as a
real game's is, and the belief is exact through inference's items-and-holders counting.
Nothing outside this package knows the game: tests register it beside dominoes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from games.interface import (
    JSON,
    REFEREE,
    Audience,
    Capabilities,
    RuleViolation,
    Seat,
    VariantInfo,
    uniform_belief,
)
from games.redecide import redecide
from inference.classes import Position
from inference.counting import marginals, tile_counts

VARIANT = "toy-high-card"
SEATS: tuple[Seat, ...] = ("S", "N")
CARDS = tuple(range(1, 8))
HAND = 3
KITTY = "kitty"
MODEL = "uniform over the deals consistent with the view"
"""The label of the toy's exact belief, on its snapshots and in its declaration."""


class ToyRuleViolation(RuleViolation):
    """A command the toy rules refuse."""


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = 0


class Started(_Event):
    type: Literal["match_started"] = "match_started"
    game: Literal["toy"] = "toy"
    match_id: str
    variant: str
    players: dict[str, str]


class Dealt(_Event):
    """Private to `seat`; the referee's copy also carries the shuffle's secret."""

    type: Literal["dealt"] = "dealt"
    seat: str
    cards: list[int] | None
    secret: str | None = None


class Played(_Event):
    type: Literal["played"] = "played"
    seat: str
    card: int


class Ended(_Event):
    type: Literal["match_ended"] = "match_ended"
    winner: str | None
    rounds: dict[str, int]
    kitty: int


ToyEvent = Annotated[Started | Dealt | Played | Ended, Field(discriminator="type")]
ADAPTER: TypeAdapter[Any] = TypeAdapter(ToyEvent)


@dataclass(frozen=True)
class Start:
    match_id: str
    players: dict[str, str]


@dataclass(frozen=True)
class Deal:
    secret: str


@dataclass(frozen=True)
class Play:
    seat: str
    card: int


@dataclass(frozen=True)
class ToyState:
    players: dict[str, str]
    hands: dict[str, frozenset[int] | None] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    secret: str | None = None
    leader: str = "S"
    trick: tuple[tuple[str, int], ...] = ()
    rounds: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    played: tuple[int, ...] = ()
    over: bool = False

    @property
    def dealt(self) -> bool:
        """Both hands dealt (a seat's view folds the two `dealt` events one at a time)."""
        return len(self.counts) == len(SEATS)

    @property
    def turn(self) -> str:
        return self.leader if not self.trick else _other(self.trick[0][0])


def _other(seat: str) -> str:
    return "N" if seat == "S" else "S"


def deal(secret: str) -> tuple[dict[str, list[int]], int]:
    """The hands and the face-down card that `secret` shuffles to (toy: not cryptographic)."""
    cards = list(CARDS)
    random.Random(secret).shuffle(cards)
    return {"S": sorted(cards[:HAND]), "N": sorted(cards[HAND:2 * HAND])}, cards[-1]


def decide(state: ToyState | None, command: Any) -> list[Any]:
    if isinstance(command, Start):
        if state is not None:
            raise ToyRuleViolation("wrong_phase", "the match has already started")
        return [Started(match_id=command.match_id, variant=VARIANT, players=command.players)]
    if state is None or state.over:
        raise ToyRuleViolation("wrong_phase", "no match in play")
    if isinstance(command, Deal):
        if state.dealt:
            raise ToyRuleViolation("wrong_phase", "already dealt")
        hands, _ = deal(command.secret)
        return [Dealt(seat=s, cards=hands[s], secret=command.secret if s == "S" else None)
                for s in SEATS]
    if isinstance(command, Play):
        if not state.dealt:
            raise ToyRuleViolation("wrong_phase", "not dealt yet")
        if command.seat != state.turn:
            raise ToyRuleViolation("not_your_turn", f"it is {state.turn}'s turn")
        hand = state.hands.get(command.seat) or frozenset()
        if command.card not in hand:
            raise ToyRuleViolation("illegal_move", f"{command.card} is not in your hand")
        played = Played(seat=command.seat, card=command.card)
        after = evolve(state, played)
        if len(after.played) < 2 * HAND:
            return [played]
        rounds = after.rounds
        best = max(rounds.values())
        leaders = [s for s in SEATS if rounds[s] == best]
        _, kitty = deal(state.secret or "")
        return [played, Ended(winner=leaders[0] if len(leaders) == 1 else None,
                              rounds=rounds, kitty=kitty)]
    raise ToyRuleViolation("illegal_move", f"not a command: {command!r}")


def evolve(state: ToyState | None, event: Any) -> ToyState:
    if isinstance(event, Started):
        return ToyState(players=dict(event.players))
    assert state is not None
    if isinstance(event, Dealt):
        hands = {**state.hands, event.seat: None if event.cards is None
                 else frozenset(event.cards)}
        return replace(state, hands=hands, counts={**state.counts, event.seat: HAND},
                       secret=event.secret or state.secret)
    if isinstance(event, Played):
        own = state.hands.get(event.seat)
        hands = {**state.hands, event.seat: None if own is None else own - {event.card}}
        counts = {**state.counts, event.seat: state.counts[event.seat] - 1}
        trick = (*state.trick, (event.seat, event.card))
        rounds, leader = state.rounds, state.leader
        if len(trick) == 2:
            winner = max(trick, key=lambda p: p[1])[0]
            rounds = {**rounds, winner: rounds[winner] + 1}
            leader, trick = winner, ()
        return replace(state, hands=hands, counts=counts, trick=trick, rounds=rounds,
                       leader=leader, played=(*state.played, event.card))
    if isinstance(event, Ended):
        return replace(state, over=True)
    raise ValueError(f"not a toy event: {event!r}")


def view(event: Any, audience: Audience) -> Any:
    if audience == REFEREE:
        return event
    if isinstance(event, Dealt):
        cards = event.cards if event.seat == audience else None
        return event.model_copy(update={"cards": cards, "secret": None})
    return event


class ToyBelief:
    """Exact: the unseen cards among the other hands and the face-down card, uniformly."""

    costly = False
    """Seven cards: instant."""

    def __init__(self, observer: str) -> None:
        self.observer = observer
        self.state: ToyState | None = None
        self.seq = 0

    def apply(self, event: Any) -> None:
        self.state = evolve(self.state, event)
        self.seq = event.seq

    def position(self) -> Position | None:
        state = self.state
        if state is None or not state.dealt or state.over:
            return None
        own = state.hands.get(self.observer) or frozenset()
        holders = (*[s for s in SEATS if s != self.observer], KITTY)
        unseen = [c for c in CARDS if c not in own and c not in state.played]
        every = (1 << len(holders)) - 1
        counts = tuple(1 if h == KITTY else state.counts[h] for h in holders)
        return Position(holders, dict.fromkeys(unseen, every), counts)

    def snapshot_dict(self) -> JSON:
        position = self.position()
        head = {"seq": self.seq, "observer": self.observer, "model": MODEL}
        if position is None:
            return {**head, "consistent_deals": None, "marginals": {}}
        total, _ = tile_counts(position)
        probs = marginals(position)
        return {**head, "consistent_deals": total,
                "marginals": {h: {str(c): p for c, p in row.items()} for h, row in probs.items()}}


class RandomToyBot:
    def choose(self, view: Sequence[Any], seat: Seat, rng: random.Random) -> Play:
        state: ToyState | None = None
        for event in view:
            state = evolve(state, event)
        assert state is not None
        return Play(seat, rng.choice(sorted(state.hands.get(seat) or ())))


class Toy:
    name = "toy"

    @property
    def capabilities(self) -> Capabilities:
        """The toy declares its variant, its one bot and its exact belief; nothing else."""
        return CAPABILITIES

    def variants(self) -> Mapping[str, VariantInfo]:
        return CAPABILITIES.variants

    def parse_event(self, data: JSON | str | bytes) -> Any:
        if isinstance(data, str | bytes):
            return ADAPTER.validate_json(data)
        return ADAPTER.validate_python(data)

    def event_to_dict(self, event: Any) -> JSON:
        return event.model_dump(mode="json")

    def view(self, event: Any, audience: Audience) -> Any:
        return view(event, audience)

    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> Start:
        return Start(match_id, dict(players))

    def decide(self, state: Any | None, command: Any) -> list[Any]:
        return decide(state, command)

    def evolve(self, state: Any | None, event: Any) -> ToyState:
        return evolve(state, event)

    def referee_step(self, state: ToyState, secret: str) -> Deal | None:
        return None if state.dealt else Deal(secret)

    def to_act(self, state: ToyState) -> tuple[Seat, ...]:
        if state.over or not state.dealt or len(state.played) == 2 * HAND:
            return ()  # (a seat's view may not have folded the match_ended yet)
        return (state.turn,)

    def is_over(self, state: ToyState) -> bool:
        return state.over

    def winners(self, state: ToyState) -> tuple[Seat, ...]:
        if not state.over:
            return ()
        best = max(state.rounds.values())
        leaders = tuple(s for s in SEATS if state.rounds[s] == best)
        return leaders if len(leaders) == 1 else ()

    def legal_moves(self, state: ToyState, seat: Seat) -> list[Play]:
        if seat not in self.to_act(state):
            return []
        return [Play(seat, c) for c in sorted(state.hands.get(seat) or ())]

    def command_from_wire(self, seat: Seat, payload: JSON) -> Play:
        card = payload.get("card")
        if not isinstance(card, int) or isinstance(card, bool):
            raise ToyRuleViolation("illegal_move", "a toy move is {\"card\": N}")
        return Play(seat, card)

    def command_to_wire(self, command: Any) -> JSON:
        return {"card": command.card}

    def belief(self, observer: Audience, variant: str) -> ToyBelief:
        return ToyBelief(observer)

    def check_log(self, events: Sequence[Any]) -> None:
        redecide(events, _command_for, decide, evolve)

    def bots(self) -> Mapping[str, Any]:
        return CAPABILITIES.bots


def _command_for(event: Any) -> Any:
    if isinstance(event, Started):
        return Start(event.match_id, dict(event.players))
    if isinstance(event, Dealt) and event.secret is not None:
        return Deal(event.secret)
    if isinstance(event, Played):
        return Play(event.seat, event.card)
    return None


CAPABILITIES = Capabilities(
    renderer="toy",
    variants={VARIANT: VariantInfo(VARIANT, "toy", SEATS, "High card for two (a toy)")},
    bots={"random": RandomToyBot()},
    beliefs=(uniform_belief(MODEL),),
)
TOY = Toy()
