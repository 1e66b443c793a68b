"""One match between four bots, refereed by games.dominoes.rules: the loop the tournament runs.

Every event goes to each seat's SeatView through the audience projection, so a bot sees what
a person in its seat would. Deal seeds come from a function of the hand number, which is how
a mirrored pair of matches gets the same deals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from games.dominoes.commands import Command, DealHand, PassTurn, PlayTile, StartMatch
from games.dominoes.events import Event, HandEnded
from games.dominoes.rules import decide, evolve, legal_moves
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, Seat, Team
from games.dominoes.variants import DEFAULT_VARIANT, Scoring
from strategy.bots import Bot
from strategy.view import SeatView


@dataclass
class MatchResult:
    winner: Team
    scores: dict[Team, int]
    hands: int
    hand_points: list[dict[Team, int]] = field(default_factory=list)
    """Points each team scored in each hand."""
    decision_ms: dict[Seat, list[float]] = field(default_factory=dict)
    """Wall time of each real decision (two or more legal moves), per seat."""


def play_match(
    bots: Mapping[Seat, Bot],
    hand_seed: Callable[[int], str],
    target: int = 100,
    variant: str = DEFAULT_VARIANT,
    scoring: Scoring = "losers",
    match_id: str = "tournament",
) -> MatchResult:
    """Play a whole match; `hand_seed(n)` is the 64-hex deal seed of hand n (1-based)."""
    views = {s: SeatView(s, "referee" if bots[s].sees_all else s) for s in SEATS}
    timings: dict[Seat, list[float]] = {s: [] for s in SEATS}
    hand_points: list[dict[Team, int]] = []
    state: MatchState | None = None
    seq = 0
    command: Command | None = StartMatch(
        match_id=match_id,
        players={s: bots[s].name for s in SEATS},
        variant=variant,
        target=target,
        scoring=scoring,
    )
    while command is not None:
        for event in decide(state, command):
            seq += 1
            stamped: Event = event.model_copy(update={"seq": seq})
            state = evolve(state, stamped)
            for seat_view in views.values():
                seat_view.apply(stamped)
            if isinstance(stamped, HandEnded):
                points = {"NS": 0, "EW": 0}
                if stamped.winner is not None:
                    points[stamped.winner] = stamped.points
                hand_points.append(points)  # type: ignore[arg-type]
        assert state is not None
        command = _next_command(state, bots, views, timings, hand_seed)
    assert state is not None and state.winner is not None
    return MatchResult(state.winner, dict(state.scores), state.hands_played, hand_points, timings)


def _next_command(
    state: MatchState,
    bots: Mapping[Seat, Bot],
    views: Mapping[Seat, SeatView],
    timings: dict[Seat, list[float]],
    hand_seed: Callable[[int], str],
) -> Command | None:
    if state.phase == "finished":
        return None
    if state.phase == "between_hands":
        return DealHand(seed=hand_seed(state.hands_played + 1))
    assert state.hand is not None
    seat = state.hand.turn
    moves = legal_moves(state, seat)
    if not moves:
        return PassTurn(seat)
    bot = bots[seat]
    started = time.perf_counter()
    move = bot.choose(views[seat], moves, bot.rng)
    if len(moves) > 1:
        timings[seat].append((time.perf_counter() - started) * 1000)
    if move not in moves:
        raise ValueError(f"bot {bot.name} at {seat} chose an illegal move {move}")
    return PlayTile(seat, move.tile, move.end)
