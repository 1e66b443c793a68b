"""Complete matches between simple legal bots: test data, benchmark data and demos.

Pure: the random source is passed in, so a seed reproduces a match exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from games.dominoes.commands import (
    Command,
    DealHand,
    DrawTiles,
    Move,
    PassTurn,
    PlayTile,
    StartMatch,
)
from games.dominoes.events import Event
from games.dominoes.rules import decide, evolve, legal_moves, must_draw
from games.dominoes.state import MatchState
from games.dominoes.tiles import Seat
from games.dominoes.variants import DEFAULT_VARIANT, Scoring, get_variant

Policy = Callable[[MatchState, Seat, list[Move], random.Random], Move]


def random_policy(_state: MatchState, _seat: Seat, moves: list[Move], rng: random.Random) -> Move:
    return rng.choice(moves)


def heaviest_policy(_state: MatchState, _seat: Seat, moves: list[Move], rng: random.Random) -> Move:
    """Dump the most pips first (ties broken at random): a classic beginner's plan."""
    best = max(m.tile.pips for m in moves)
    return rng.choice([m for m in moves if m.tile.pips == best])


def seed_from(rng: random.Random) -> str:
    """A 256-bit deal seed from a test's random source (production uses `secrets`)."""
    return f"{rng.getrandbits(256):064x}"


def next_command(
    state: MatchState, rng: random.Random, policy: Policy = random_policy
) -> Command | None:
    """What the table would do next under `policy`; None when the match is over."""
    if state.phase == "finished":
        return None
    if state.phase == "between_hands":
        return DealHand(seed=seed_from(rng))
    assert state.hand is not None
    seat = state.hand.turn
    moves = legal_moves(state, seat)
    if not moves:
        return DrawTiles(seat) if must_draw(state, seat) else PassTurn(seat)
    move = policy(state, seat, moves, rng)
    return PlayTile(seat, move.tile, move.end)


def random_match_events(
    rng: random.Random,
    variant: str = DEFAULT_VARIANT,
    target: int = 100,
    scoring: Scoring = "losers",
    policy: Policy = random_policy,
    match_id: str | None = None,
) -> list[Event]:
    """Every event of one complete legal match, with seq filled in (1, 2, ...)."""
    players = {seat: f"bot-{seat}" for seat in get_variant(variant).seats}
    command: Command | None = StartMatch(
        match_id=match_id or f"m-{rng.getrandbits(64):016x}",
        players=players,
        variant=variant,
        target=target,
        scoring=scoring,
    )
    state: MatchState | None = None
    events: list[Event] = []
    while command is not None:
        for event in decide(state, command):
            stamped = event.model_copy(update={"seq": len(events) + 1})
            events.append(stamped)
            state = evolve(state, stamped)
        assert state is not None
        command = next_command(state, rng, policy)
    return events


POLICIES: dict[str, Policy] = {"random": random_policy, "heaviest": heaviest_policy}


class DominoesSelfPlay:
    """`selfplay` for dominoes (games.interface.SelfPlay): these policies on the rules alone,
    faster than bots through the generic match loop."""

    policies: tuple[str, ...] = tuple(POLICIES)

    def match(self, rng: random.Random, variant: str, options: Mapping[str, Any],
              policy: str) -> list[Event]:
        return random_match_events(rng, variant, int(options.get("target", 100)),
                                   options.get("scoring", "losers"), policy=POLICIES[policy])


SELF_PLAY = DominoesSelfPlay()
