"""One match between bots, refereed by games.dominoes.rules: the loop the tournament runs.

One bot per seat of the variant (four in partnership, S and N for two players). Every event
goes to each seat's SeatView through the audience projection, so a bot sees what a person in
its seat would. A seat with nothing to play draws when the rules say it must (draw-2) and
passes otherwise: neither is a choice, so the loop makes it, as it deals. Deal seeds come from
a function of the hand number, which is how a mirrored pair of matches gets the same deals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from games.dominoes.commands import Command, DealHand, DrawTiles, PassTurn, PlayTile, StartMatch
from games.dominoes.events import Event, HandEnded
from games.dominoes.rules import decide, evolve, legal_moves, must_draw
from games.dominoes.seat_view import SeatView
from games.dominoes.state import MatchState
from games.dominoes.strategy.bots import Bot
from games.dominoes.tiles import Seat, Side
from games.dominoes.variants import DEFAULT_VARIANT, Scoring, get_variant


@dataclass
class MatchResult:
    winner: Side
    scores: dict[Side, int]
    hands: int
    hand_points: list[dict[Side, int]] = field(default_factory=list)
    """Points each side (team, or seat for two players) scored in each hand."""
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
    """Play a whole match; `hand_seed(n)` is the 64-hex deal seed of hand n (1-based).
    `bots` has one bot per seat of `variant`."""
    rules = get_variant(variant)
    seats = rules.seats
    if set(bots) != set(seats):
        raise ValueError(f"{variant} seats {', '.join(seats)}: one bot each")
    views = {s: SeatView(s, "referee" if bots[s].sees_all else s) for s in seats}
    timings: dict[Seat, list[float]] = {s: [] for s in seats}
    hand_points: list[dict[Side, int]] = []
    state: MatchState | None = None
    seq = 0
    command: Command | None = StartMatch(
        match_id=match_id,
        players={s: bots[s].name for s in seats},
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
                points: dict[Side, int] = dict.fromkeys(rules.sides, 0)
                if stamped.winner is not None:
                    points[stamped.winner] = stamped.points
                hand_points.append(points)
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
        return DrawTiles(seat) if must_draw(state, seat) else PassTurn(seat)
    bot = bots[seat]
    started = time.perf_counter()
    move = bot.choose(views[seat], moves, bot.rng)
    if len(moves) > 1:
        timings[seat].append((time.perf_counter() - started) * 1000)
    if move not in moves:
        raise ValueError(f"bot {bot.name} at {seat} chose an illegal move {move}")
    return PlayTile(seat, move.tile, move.end)
