"""Dominoes behind the game interface: the adapter the generic layers call.

Everything here delegates to the pure modules beside it; this file only translates between
the interface's vocabulary (seats, wire payloads, referee steps) and the dominoes rules. What
dominoes offers beyond its rules (bots, advice, behaviour models, ...) is declared in
games/dominoes/game.py, which builds DOMINOES from this class; `RULES` is the same class with
its variants only, for the package's own folds (they need no bots or advisor, and must not
import the strategy that is built on them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.dominoes.audience import view
from games.dominoes.belief_partnership import Belief
from games.dominoes.belief_two import TwoPlayerBelief, two_player
from games.dominoes.commands import (
    Command,
    DealHand,
    DrawTiles,
    Move,
    PassTurn,
    PlayTile,
    StartMatch,
)
from games.dominoes.errors import IllegalMove
from games.dominoes.events import Event, event_to_dict, parse_event
from games.dominoes.rules import decide, evolve, legal_moves, must_draw
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, TileError, parse_tile
from games.dominoes.tiles import Seat as DominoSeat
from games.dominoes.validate import check_log
from games.dominoes.variants import VARIANTS
from games.interface import (
    JSON,
    Audience,
    Bot,
    Capabilities,
    Seat,
    TableOption,
    VariantInfo,
)

_TITLES = {
    "partnership-6": "Partnership dominoes, double-six",
    "partnership-9": "Partnership dominoes, double-nine",
    "block-2": "Dominoes for two, block (no drawing)",
    "draw-2": "Dominoes for two, draw from the boneyard",
}


def _seat(seat: Seat) -> DominoSeat:
    """A seat name from outside, checked (a typed error, never a bad state)."""
    if seat not in SEATS:
        raise IllegalMove(f"no seat {seat!r} at dominoes (seats: {', '.join(SEATS)})")
    return seat


def _move_command(seat: Seat, move: Move) -> Command:
    return PlayTile(_seat(seat), move.tile, move.end)


def _stuck_command(state: MatchState, seat: Seat) -> Command:
    """What a seat with no tile to play does: draw (draw-2, boneyard not empty) or pass."""
    return DrawTiles(_seat(seat)) if must_draw(state, _seat(seat)) else PassTurn(_seat(seat))


OPTIONS = (
    TableOption.integer("target", "Points to win the match", 100, 1, 10_000),
    TableOption.choice("scoring", "Scoring", "losers", ("losers", "all")),
)
"""Every variant's table options: the match's target score, and whose pips a hand's winner
scores (`losers`: the losing sides' hands; `all`: every hand). Table config records written
before they were options carried them as fields of their own, with these defaults."""

VARIANT_INFOS: dict[str, VariantInfo] = {
    name: VariantInfo(name=name, game="dominoes", seats=tuple(v.seats),
                      title=_TITLES.get(name, name), declared=OPTIONS, sides=tuple(v.sides))
    for name, v in VARIANTS.items()
}


class Dominoes:
    """The dominoes family: partnership (4 seats) and the two-player games."""

    name = "dominoes"

    def __init__(self, capabilities: Capabilities | None = None) -> None:
        self.capabilities = capabilities or Capabilities(renderer="dominoes",
                                                         variants=VARIANT_INFOS)

    def variants(self) -> Mapping[str, VariantInfo]:
        return self.capabilities.variants

    # --- the log
    def parse_event(self, data: JSON | str | bytes) -> Event:
        return parse_event(data)

    def event_to_dict(self, event: Event) -> JSON:
        return event_to_dict(event)

    def view(self, event: Event, audience: Audience) -> Event:
        return view(event, audience)

    # --- the rules
    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> StartMatch:
        return StartMatch(match_id=match_id, players={_seat(s): p for s, p in players.items()},
                          variant=variant, target=int(options.get("target", 100)),
                          scoring=options.get("scoring", "losers"))  # defaults: OPTIONS

    def decide(self, state: MatchState | None, command: Command) -> list[Event]:
        return decide(state, command)

    def evolve(self, state: MatchState | None, event: Event) -> MatchState:
        return evolve(state, event)

    def referee_step(self, state: MatchState, secret: str) -> Command | None:
        return DealHand(seed=secret) if state.phase == "between_hands" else None

    def to_act(self, state: MatchState) -> tuple[Seat, ...]:
        seat = state.to_move
        return () if seat is None else (seat,)

    def is_over(self, state: MatchState) -> bool:
        return state.phase == "finished"

    def winners(self, state: MatchState) -> tuple[Seat, ...]:
        if state.phase != "finished" or state.winner is None:
            return ()
        variant = state.variant
        return tuple(s for s in variant.seats if variant.side_of(s) == state.winner)

    def legal_moves(self, state: MatchState, seat: Seat) -> list[Command]:
        if seat not in self.to_act(state):
            return []
        moves = legal_moves(state, _seat(seat))
        return [_move_command(seat, m) for m in moves] or [_stuck_command(state, seat)]

    def command_from_wire(self, seat: Seat, payload: JSON) -> Command:
        kind = payload.get("kind", "play" if "tile" in payload else "pass")
        if kind == "pass":
            return PassTurn(_seat(seat))
        if kind == "draw":
            return DrawTiles(_seat(seat))
        if kind != "play":
            raise IllegalMove(f"unknown move kind {kind!r} (expected 'play', 'pass' or 'draw')")
        try:
            tile = parse_tile(str(payload.get("tile")))
        except TileError as error:
            raise IllegalMove(str(error)) from None
        end = payload.get("end")
        if end not in (None, "left", "right"):
            raise IllegalMove(f"end must be 'left' or 'right', not {end!r}")
        return PlayTile(_seat(seat), tile, end)

    def command_to_wire(self, command: Command) -> JSON:
        if isinstance(command, PassTurn):
            return {"kind": "pass"}
        if isinstance(command, DrawTiles):
            return {"kind": "draw"}
        if isinstance(command, PlayTile):
            return {"kind": "play", "tile": str(command.tile), "end": command.end}
        raise TypeError(f"not a player's command: {command!r}")

    # --- knowledge
    def belief(self, observer: Audience, variant: str) -> DominoesBelief:
        if two_player(variant):  # block-2, draw-2: draw batches (games.dominoes.belief_two)
            return DominoesBelief(TwoPlayerBelief(observer, variant))
        return DominoesBelief(Belief(observer, variant))

    def check_log(self, events: Sequence[Event]) -> None:
        check_log(events)  # raises games.interface.LogProblem

    def bots(self) -> Mapping[str, Bot[Event, Command]]:
        return self.capabilities.bots


MODEL = "uniform: every deal consistent with the public moves is equally likely"
"""The label of the exact belief: it ignores how players choose (docs/inference.md)."""


class DominoesBelief:
    """The exact dominoes belief with the interface's JSON snapshot (`belief`: the fold
    itself, for what reads more than the snapshot: a sampler of its deals)."""

    costly = False
    """An update takes well under a millisecond."""

    def __init__(self, belief: Belief | TwoPlayerBelief) -> None:
        self.belief = belief

    def apply(self, event: Event) -> None:
        self.belief.apply(event)

    def snapshot_dict(self) -> JSON:
        return {**self.belief.snapshot().to_json_dict(), "model": MODEL}


RULES = Dominoes()
"""The rules and variants alone (no bots, no advisor): for folds inside this package."""
