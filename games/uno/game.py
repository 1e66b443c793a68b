"""Uno behind the game interface: the adapter the generic layers call. Every part lives in
the pure modules beside it; this file only maps the interface onto them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.interface import (
    JSON,
    Audience,
    Bot,
    Capabilities,
    Game,
    Seat,
    VariantInfo,
    uniform_belief,
)
from games.uno.advisor import ADVISOR
from games.uno.audience import view
from games.uno.behaviour import BEHAVIOUR_PLAYS
from games.uno.belief import MODEL, UnoBelief
from games.uno.bots import GreedyBot, RandomBot
from games.uno.check import check_log
from games.uno.commands import Command, Deal, Move, Reshuffle, StartMatch
from games.uno.dealing import UnoDealing
from games.uno.events import GAME, UnoEvent, event_to_dict, parse_event
from games.uno.pimc import PimcBot
from games.uno.revealed import uno_forecasts, uno_moments
from games.uno.rules import decide, legal_moves
from games.uno.state import UnoState, evolve
from games.uno.variants import SEATS, VARIANTS
from games.uno.wire import command_from_wire, command_to_wire


class Uno:
    name = GAME

    @property
    def capabilities(self) -> Capabilities:
        """What Uno offers beyond its rules (games.interface.Capabilities)."""
        return CAPABILITIES

    def variants(self) -> Mapping[str, VariantInfo]:
        return CAPABILITIES.variants

    def parse_event(self, data: JSON | str | bytes) -> UnoEvent:
        return parse_event(data)

    def event_to_dict(self, event: UnoEvent) -> JSON:
        return event_to_dict(event)

    def view(self, event: UnoEvent, audience: Audience) -> UnoEvent:
        return view(event, audience)

    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> StartMatch:
        return StartMatch(match_id, variant, dict(players))

    def decide(self, state: UnoState | None, command: Command) -> list[UnoEvent]:
        return decide(state, command)

    def evolve(self, state: UnoState | None, event: UnoEvent) -> UnoState:
        return evolve(state, event)

    def referee_step(self, state: UnoState, secret: str) -> Deal | Reshuffle | None:
        if state.over:
            return None
        if not state.dealt:
            return Deal(secret)
        if not state.needs_reshuffle():
            return None
        return Reshuffle(None if state.scheme.commits else secret)  # the seed fixed it

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

    def legal_moves(self, state: UnoState, seat: Seat) -> list[Move]:
        return legal_moves(state, seat)

    def command_from_wire(self, seat: Seat, payload: JSON) -> Move:
        return command_from_wire(seat, payload)

    def command_to_wire(self, command: Command) -> JSON:
        return command_to_wire(command)

    def belief(self, observer: Audience, variant: str) -> UnoBelief:
        return UnoBelief(observer, variant)

    def check_log(self, events: Sequence[UnoEvent]) -> None:
        check_log(events)

    def bots(self) -> Mapping[str, Bot[UnoEvent, Command]]:
        return CAPABILITIES.bots


CAPABILITIES = Capabilities(
    renderer="uno",
    variants={name: VariantInfo(name=name, game=GAME, seats=SEATS, title=v.title)
              for name, v in VARIANTS.items()},
    bots={"random": RandomBot(), "greedy": GreedyBot(), "pimc": PimcBot()},
    stand_in="greedy",
    advisor=ADVISOR,  # PIMC over the seat's belief (games.advice)
    beliefs=(uniform_belief(MODEL),),
    behaviour={BEHAVIOUR_PLAYS.name: BEHAVIOUR_PLAYS},  # the play-aware layer (games.behaviour)
    fair_dealing=UnoDealing(),  # the match's seed: committed at the deal, revealed in
                                # match_ended; the reshuffles derived from it
    reveal=uno_moments,  # who held what, for calibrate
    forecasts=uno_forecasts,  # its odds are "holds at least n copies" events
)
UNO: Game[UnoState, Command, UnoEvent] = Uno()
