"""Plain full-width minimax through games.dominoes.rules (no pruning, no table): the referee.

Independent of strategy/: it plays the real commands through decide/evolve and reads the
value off the hand_ended event, so it checks the solver's rules as well as its search. It
plays every variant: a seat with nothing to play draws when the rules say it must (draw-2,
the referee drawing in the seed's order) and passes otherwise.
"""

from __future__ import annotations

import random

from games.dominoes.commands import Command, DrawTiles, PassTurn, PlayTile
from games.dominoes.events import HandEnded
from games.dominoes.fairness import boneyard
from games.dominoes.rules import decide, evolve, legal_moves, must_draw
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, full_set
from games.dominoes.variants import get_variant
from tests.games.dominoes.positions import position


def _after(state: MatchState, command: Command) -> tuple[MatchState, HandEnded | None]:
    ended = None
    for event in decide(state, command):
        state = evolve(state, event)
        if isinstance(event, HandEnded):
            ended = event
    return state, ended


def minimax(state: MatchState) -> int:
    """Points to the first side minus the second (NS - EW, or S - N) under best play, the
    first side maximising."""
    assert state.hand is not None
    first = state.variant.sides[0]
    seat = state.hand.turn
    moves = legal_moves(state, seat)
    if not moves:
        stuck = DrawTiles(seat) if must_draw(state, seat) else PassTurn(seat)
        commands: list[Command] = [stuck]
    else:
        commands = [PlayTile(seat, m.tile, m.end) for m in moves]
    values = []
    for command in commands:
        after, ended = _after(state, command)
        if ended is not None:
            sign = 0 if ended.winner is None else (1 if ended.winner == first else -1)
            values.append(sign * ended.points)
        else:
            values.append(minimax(after))
    return max(values) if state.variant.side_of(seat) == first else min(values)


def _fits(tile: str, left: int, right: int) -> bool:
    return left in map(int, tile.split("-")) or right in map(int, tile.split("-"))


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
        if any(_fits(t, left, right) for t in held):
            return state


def random_two_player_endgame(
    rng: random.Random,
    variant: str,
    per_hand: int,
    to_draw: int = 0,
    scoring: str = "losers",
    uneven: bool = False,
) -> MatchState:
    """S and N with about `per_hand` random tiles each, random open ends, and in draw-2
    `to_draw` tiles left in the boneyard: the last ones of a random seed's draw order (the
    referee draws them in that order). The hand is not over: some seat can play or draw."""
    rules = get_variant(variant)
    while True:
        seed = f"{rng.getrandbits(256):064x}"
        order = boneyard(seed, rules) if rules.draws else ()
        bones = order[len(order) - to_draw :] if to_draw else ()
        tiles = [t for t in full_set(6) if t not in bones]
        rng.shuffle(tiles)
        sizes = [rng.randint(1, per_hand) if uneven else per_hand for _ in rules.seats]
        hands, k = {}, 0
        for seat, n in zip(rules.seats, sizes, strict=True):
            hands[seat] = [str(t) for t in tiles[k : k + n]]
            k += n
        left, right = rng.randint(0, 6), rng.randint(0, 6)
        state = position(hands, rng.choice(rules.seats), line=[(left, right)], scoring=scoring,
                         variant=variant, boneyard=len(bones), seed=seed)
        held = [t for ts in hands.values() for t in ts]
        if bones or any(_fits(t, left, right) for t in held):
            return state
