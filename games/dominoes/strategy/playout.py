"""A random playout: a hand with every tile known, played to its end by uniformly random plays.

Seed 001's first play-out player scores a move by dealing the hidden tiles at random and then
letting both players play at random to the end of the hand; the average tells how the move
fares whatever follows. This is the playing-out half: from a Position (.position), each seat
plays a uniformly random legal play (each distinct tile-and-end placement equally likely), a
seat with nothing to play passes or, in draw-2, draws in the boneyard's order until a tile
fits and must play it at once, and the hand ends on a domino or a block, scored as
games/dominoes/rules.py scores it (as .solver does). Pure and cheap: bit operations only.
"""

from __future__ import annotations

import random

from games.dominoes.strategy.encoding import codec
from games.dominoes.strategy.position import Position


def random_finish(pos: Position, rng: random.Random) -> float:
    """Points to the first side (NS, or S) minus the second's when `pos` is played to its end
    by random plays (the seat to move acts first; a hand already over is scored at once)."""
    c = codec(pos.max_pip)
    suit, low, high = c.suit, c.low, c.high
    hands = list(pos.hands)
    seats = len(hands)
    left, right, turn = pos.left, pos.right, pos.turn
    bone, drawn = pos.boneyard, 0
    whole = (1 << len(c.tiles)) - 1
    while True:
        for s in range(seats):
            if not hands[s]:
                return _domino(c.pips, hands, s, pos.scoring == "all")
        ends = whole if left < 0 else suit[left] | suit[right]
        if drawn >= len(bone) and left >= 0 and not any(h & ends for h in hands):
            return _blocked(c.pips, hands, pos.scoring == "all")
        playable = hands[turn] & ends
        while not playable and drawn < len(bone):
            i = bone[drawn]
            drawn += 1
            hands[turn] |= 1 << i
            if ends >> i & 1:
                playable = 1 << i
        if not playable:
            turn = (turn + 1) % seats  # a pass (a block was ruled out above, or is next)
            continue
        i, left, right = rng.choice(_placements(playable, left, right, low, high))
        hands[turn] ^= 1 << i
        turn = (turn + 1) % seats


def _placements(playable: int, left: int, right: int, low: tuple[int, ...],
                high: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(tile, new left, new right) for each distinct play of the tiles in `playable`."""
    out: list[tuple[int, int, int]] = []
    while playable:
        b = playable & -playable
        playable ^= b
        i = b.bit_length() - 1
        a, z = low[i], high[i]
        if left < 0:
            out.append((i, a, z))
            continue
        if left in (a, z):
            out.append((i, z if a == left else a, right))
        if right in (a, z):
            placed = (left, z if a == right else a)
            if not out or out[-1][0] != i or {out[-1][1], out[-1][2]} != set(placed):
                out.append((i, *placed))
    return out


def _side_pips(pips: tuple[int, ...], hands: list[int]) -> tuple[int, int]:
    """Pips held by the first side (seats 0 and 2) and by the second (1 and 3)."""
    totals = [0, 0]
    for s, m in enumerate(hands):
        while m:
            b = m & -m
            totals[s % 2] += pips[b.bit_length() - 1]
            m ^= b
    return totals[0], totals[1]


def _domino(pips: tuple[int, ...], hands: list[int], seat: int, scoring_all: bool) -> float:
    first, second = _side_pips(pips, hands)
    points = first + second if scoring_all else (second if seat % 2 == 0 else first)
    return points if seat % 2 == 0 else -points


def _blocked(pips: tuple[int, ...], hands: list[int], scoring_all: bool) -> float:
    first, second = _side_pips(pips, hands)
    if first == second:
        return 0.0
    if first < second:
        return first + second if scoring_all else second
    return -(first + second) if scoring_all else -first
