"""The Clue adapter: the game interface over games.clue's pure modules (`CLUE`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.clue import audience, check, commands, events, rules
from games.clue.advisor import ADVISOR
from games.clue.behaviour import BEHAVIOUR_SHOWS
from games.clue.belief import MODEL, ClueBelief
from games.clue.bots import InfoMaxBot, RandomBot
from games.clue.commands import Command, Deal, Move, Start
from games.clue.dealing import ClueDealing
from games.clue.events import ClueEvent
from games.clue.revealed import clue_moments
from games.clue.state import ClueState, evolve
from games.clue.variants import (
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VARIANTS,
    ClueVariant,
    seats_for,
)
from games.interface import (
    JSON,
    Audience,
    Bot,
    Capabilities,
    Game,
    Seat,
    TableOption,
    VariantInfo,
    uniform_belief,
)

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

    @property
    def capabilities(self) -> Capabilities:
        """What Clue offers beyond its rules (games.interface.Capabilities)."""
        return CAPABILITIES

    def variants(self) -> Mapping[str, VariantInfo]:
        return CAPABILITIES.variants

    def seats(self, variant: str, options: Mapping[str, Any]) -> tuple[Seat, ...]:
        """`clue` seats as many as its `players` option; the others are fixed."""
        base = VARIANTS[variant]
        return seats_for(int(options.get("players", base.players))) if base.name == "clue" \
            else base.seats

    def parse_event(self, data: JSON | str | bytes) -> ClueEvent:
        return events.parse_event(data)

    def event_to_dict(self, event: ClueEvent) -> JSON:
        return events.event_to_dict(event)

    def view(self, event: ClueEvent, audience_: Audience) -> ClueEvent:
        return audience.view(event, audience_)

    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> Start:
        return Start(match_id, variant, dict(players),
                     {k: v for k, v in options.items() if k == PLAYERS.name})

    def decide(self, state: ClueState | None, command: Command) -> list[ClueEvent]:
        return rules.decide(state, command)

    def evolve(self, state: ClueState | None, event: ClueEvent) -> ClueState:
        return evolve(state, event)

    def referee_step(self, state: ClueState, secret: str) -> Deal | None:
        return Deal(secret) if state.phase == "deal" else None

    def to_act(self, state: ClueState) -> tuple[Seat, ...]:
        return rules.to_act(state)

    def is_over(self, state: ClueState) -> bool:
        return state.phase == "over"

    def winners(self, state: ClueState) -> tuple[Seat, ...]:
        return (state.winner,) if state.phase == "over" and state.winner else ()

    def legal_moves(self, state: ClueState, seat: Seat) -> list[Move]:
        return rules.legal_moves(state, seat)

    def command_from_wire(self, seat: Seat, payload: JSON) -> Move:
        return commands.command_from_wire(seat, payload)

    def command_to_wire(self, command: Command) -> JSON:
        return commands.command_to_wire(command)

    def belief(self, observer: Audience, variant: str) -> ClueBelief:
        return ClueBelief(observer)

    def check_log(self, events_: Sequence[ClueEvent]) -> None:
        check.check_log(events_)

    def bots(self) -> Mapping[str, Bot[ClueEvent, Command]]:
        return CAPABILITIES.bots


def _bots() -> dict[str, Bot[ClueEvent, Command]]:
    infomax = InfoMaxBot()
    # "greedy" is infomax under the name the lobby offers by default and the server's
    # stand-ins use: it is the one-step (greedy) maximiser of information
    return {"random": RandomBot(), "infomax": infomax, "greedy": infomax}


CAPABILITIES = Capabilities(
    renderer="clue",
    variants={name: _info("clue", v) for name, v in VARIANTS.items()},
    bots=_bots(),
    stand_in="greedy",
    advisor=ADVISOR,  # suggestions by expected information, when to accuse, what to show
    beliefs=(uniform_belief(MODEL),),
    reveal=clue_moments,  # who held what, for calibrate
    fair_dealing=ClueDealing(),  # the deal's seed: committed in dealt, revealed in match_ended
    behaviour={BEHAVIOUR_SHOWS.name: BEHAVIOUR_SHOWS},  # the show-aware layer (games.behaviour)
)
CLUE: Game[ClueState, Command, ClueEvent] = Clue()
