"""Uno behind the game interface: the adapter the generic layers call. Every part lives in
the pure modules beside it; this file only maps the interface onto them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.interface import JSON, Audience, Bot, Seat, VariantInfo
from games.uno.audience import view
from games.uno.belief import UnoBelief
from games.uno.bots import GreedyBot, RandomBot
from games.uno.check import check_log
from games.uno.commands import Deal, Reshuffle, StartMatch
from games.uno.events import GAME, event_to_dict, parse_event
from games.uno.pimc import PimcBot
from games.uno.rules import decide, legal_moves
from games.uno.state import UnoState, evolve
from games.uno.variants import SEATS, VARIANTS
from games.uno.wire import command_from_wire, command_to_wire


class Uno:
    name = GAME
    renderer = "uno"

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: VariantInfo(name=name, game=self.name, seats=SEATS, title=v.title)
                for name, v in VARIANTS.items()}

    def parse_event(self, data: JSON | str | bytes) -> Any:
        return parse_event(data)

    def event_to_dict(self, event: Any) -> JSON:
        return event_to_dict(event)

    def view(self, event: Any, audience: Audience) -> Any:
        return view(event, audience)

    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> StartMatch:
        return StartMatch(match_id, variant, dict(players))

    def decide(self, state: Any | None, command: Any) -> list[Any]:
        return decide(state, command)

    def evolve(self, state: Any | None, event: Any) -> UnoState:
        return evolve(state, event)

    def referee_step(self, state: UnoState, secret: str) -> Deal | Reshuffle | None:
        if state.over:
            return None
        if not state.dealt:
            return Deal(secret)
        return Reshuffle(secret) if state.needs_reshuffle() else None

    def to_act(self, state: UnoState) -> tuple[Seat, ...]:
        """Nobody once a hand is empty: the match is won, though `match_ended` is the next
        event of the same commit (a client folding event by event must not move between)."""
        if state.over or not state.dealt or state.needs_reshuffle() or state.turn is None:
            return ()
        if any(n == 0 for n in state.counts.values()):
            return ()
        return (state.turn,)

    def is_over(self, state: UnoState) -> bool:
        return state.over

    def winners(self, state: UnoState) -> tuple[Seat, ...]:
        return (state.winner,) if state.over and state.winner else ()

    def legal_moves(self, state: UnoState, seat: Seat) -> list[Any]:
        return legal_moves(state, seat)

    def command_from_wire(self, seat: Seat, payload: JSON) -> Any:
        return command_from_wire(seat, payload)

    def command_to_wire(self, command: Any) -> JSON:
        return command_to_wire(command)

    def belief(self, observer: Audience, variant: str) -> UnoBelief:
        return UnoBelief(observer, variant)

    def check_log(self, events: Sequence[Any]) -> None:
        check_log(events)

    def bots(self) -> Mapping[str, Bot]:
        return {"random": RandomBot(), "greedy": GreedyBot(), "pimc": PimcBot()}


UNO = Uno()
