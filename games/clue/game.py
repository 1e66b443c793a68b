"""The Clue adapter: the game interface over games.clue's pure modules (`CLUE`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.clue import audience, check, commands, events, rules
from games.clue.belief import ClueBelief
from games.clue.bots import InfoMaxBot, RandomBot
from games.clue.commands import Deal, Start
from games.clue.state import ClueState, evolve
from games.clue.variants import (
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VARIANTS,
    ClueVariant,
    seats_for,
)
from games.interface import JSON, Audience, BeliefModel, Bot, Seat, TableOption, VariantInfo

PLAYERS = TableOption.integer("players", "Players", DEFAULT_PLAYERS, MIN_PLAYERS, MAX_PLAYERS,
                              decides_seats=True)
"""`clue`'s one table option: how many play (seats P1 ... Pn)."""


def _info(game: str, v: ClueVariant) -> VariantInfo:
    description = "suggest, refute in private, accuse"
    if v.name == "clue":
        return VariantInfo(v.name, game, v.seats, "Clue (6 suspects, 6 weapons, 9 rooms)",
                           description, declared=(PLAYERS,))
    return VariantInfo(v.name, game, v.seats, v.title, description,
                       options={"players": v.players}, alias_of=v.alias_of)


class Clue:
    name = "clue"
    renderer = "clue"

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: _info(self.name, v) for name, v in VARIANTS.items()}

    def seats(self, variant: str, options: Mapping[str, Any]) -> tuple[Seat, ...]:
        """`clue` seats as many as its `players` option; the others are fixed."""
        base = VARIANTS[variant]
        return seats_for(int(options.get("players", base.players))) if base.name == "clue" \
            else base.seats

    def parse_event(self, data: JSON | str | bytes) -> Any:
        return events.parse_event(data)

    def event_to_dict(self, event: Any) -> JSON:
        return events.event_to_dict(event)

    def view(self, event: Any, audience_: Audience) -> Any:
        return audience.view(event, audience_)

    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> Start:
        return Start(match_id, variant, dict(players),
                     {k: v for k, v in options.items() if k == PLAYERS.name})

    def decide(self, state: Any | None, command: Any) -> list[Any]:
        return rules.decide(state, command)

    def evolve(self, state: Any | None, event: Any) -> ClueState:
        return evolve(state, event)

    def referee_step(self, state: ClueState, secret: str) -> Deal | None:
        return Deal(secret) if state.phase == "deal" else None

    def to_act(self, state: ClueState) -> tuple[Seat, ...]:
        return rules.to_act(state)

    def is_over(self, state: ClueState) -> bool:
        return state.phase == "over"

    def winners(self, state: ClueState) -> tuple[Seat, ...]:
        return (state.winner,) if state.phase == "over" and state.winner else ()

    def legal_moves(self, state: ClueState, seat: Seat) -> list[Any]:
        return list(rules.legal_moves(state, seat))

    def command_from_wire(self, seat: Seat, payload: JSON) -> Any:
        return commands.command_from_wire(seat, payload)

    def command_to_wire(self, command: Any) -> JSON:
        return commands.command_to_wire(command)

    def belief(self, observer: Audience, variant: str) -> BeliefModel:
        return ClueBelief(observer)

    def check_log(self, events_: Sequence[Any]) -> None:
        check.check_log(events_)

    def bots(self) -> Mapping[str, Bot]:
        infomax = InfoMaxBot()
        # "greedy" is infomax under the name the lobby offers by default and the server's
        # stand-ins look for: it is the one-step (greedy) maximiser of information
        return {"random": RandomBot(), "infomax": infomax, "greedy": infomax}


CLUE = Clue()
