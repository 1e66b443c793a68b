"""Play one whole match of any registered game between bots: pure, the randomness passed in.

The loop every generic tool shares (self-play, tournaments, the toy-game test): ask the
referee for its step (a deal, with fresh secret randomness), else ask the seat to act for a
command, decide it, stamp each event's seq and evolve. Each bot sees only its own view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.interface import Bot, CommandT, EventT, Game, Seat, StateT, table_seats

MAX_EVENTS = 100_000
"""A match longer than this is a broken game or bot, not a long match."""


class RunawayMatch(RuntimeError):
    """A match that never ends (a game or bot bug), stopped rather than run forever."""


def secret_from(rng: random.Random) -> str:
    """64 hex digits of referee randomness from a seeded source (production uses `secrets`)."""
    return f"{rng.getrandbits(256):064x}"


def play_match(
    game: Game[StateT, CommandT, EventT],
    variant: str,
    bots: Mapping[Seat, Bot[EventT, CommandT]],
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    match_id: str | None = None,
    referee_rng: random.Random | None = None,
) -> list[EventT]:
    """Every event of one complete match, seq filled in (1, 2, ...).

    `referee_rng` (default: `rng`) alone makes the deals, so two matches given equal referee
    sources get the same deals whatever their bots do (mirrored pairs)."""
    referee = referee_rng or rng
    seats = table_seats(game, variant, options)  # an option may decide them (Clue's players)
    players = {seat: f"bot-{seat}" for seat in seats}
    start = game.start(match_id or f"m-{rng.getrandbits(64):016x}", variant, players,
                       options or {})
    events: list[EventT] = []
    views: dict[Seat, list[EventT]] = {seat: [] for seat in seats}

    def apply(state: StateT | None, command: CommandT) -> StateT:
        """The state after `command`'s events, each stamped, kept and shown to every seat."""
        for event in game.decide(state, command):
            stamped = event.model_copy(update={"seq": len(events) + 1})
            events.append(stamped)
            state = game.evolve(state, stamped)
            for seat in seats:
                views[seat].append(game.view(stamped, seat))
        if state is None:
            raise RunawayMatch(f"{game.name} {variant}: the start wrote no event")
        return state

    state = apply(None, start)
    while not game.is_over(state):
        if len(events) > MAX_EVENTS:
            raise RunawayMatch(f"{game.name} {variant}: over {MAX_EVENTS} events")
        acting = game.to_act(state)
        if not acting:  # the referee's turn (a deal): its randomness is drawn only then
            step = game.referee_step(state, secret_from(referee))
            if step is None:
                raise RunawayMatch(f"{game.name} {variant}: nobody to act, not over")
            state = apply(state, step)
            continue
        seat = acting[0]
        state = apply(state, bots[seat].choose(views[seat], seat, rng))
    return events
