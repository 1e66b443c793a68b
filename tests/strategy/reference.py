"""Plain full-width minimax through games.dominoes.rules (no pruning, no table): the referee.

Independent of strategy/: it plays the real commands through decide/evolve and reads the
value off the hand_ended event, so it checks the solver's rules as well as its search.
"""

from __future__ import annotations

import random

from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.events import HandEnded
from games.dominoes.rules import decide, evolve, legal_moves
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, full_set, team_of
from tests.games.dominoes.positions import position


def minimax(state: MatchState) -> int:
    """Points to NS minus points to EW under best play, NS maximising."""
    assert state.hand is not None
    seat = state.hand.turn
    moves = legal_moves(state, seat)
    if not moves:
        (event,) = decide(state, PassTurn(seat))
        return minimax(evolve(state, event))
    values = []
    for move in moves:
        after = state
        ended = None
        for event in decide(state, PlayTile(seat, move.tile, move.end)):
            after = evolve(after, event)
            if isinstance(event, HandEnded):
                ended = event
        if ended is not None:
            sign = 0 if ended.winner is None else (1 if ended.winner == "NS" else -1)
            values.append(sign * ended.points)
        else:
            values.append(minimax(after))
    return max(values) if team_of(seat) == "NS" else min(values)


def random_endgame(
    rng: random.Random, per_hand: int, scoring: str = "losers", uneven: bool = False
) -> MatchState:
    """Four random hands of about `per_hand` tiles, random open ends, some seat can play."""
    while True:
        tiles = list(full_set(6))
        rng.shuffle(tiles)
        sizes = [rng.randint(1, per_hand) if uneven else per_hand for _ in SEATS]
        hands, k = {}, 0
        for seat, n in zip(SEATS, sizes, strict=True):
            hands[seat] = [str(t) for t in tiles[k : k + n]]
            k += n
        left, right = rng.randint(0, 6), rng.randint(0, 6)
        state = position(hands, rng.choice(SEATS), line=[(left, right)], scoring=scoring)
        held = [t for ts in hands.values() for t in ts]
        if any(left in map(int, t.split("-")) or right in map(int, t.split("-")) for t in held):
            return state
