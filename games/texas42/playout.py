"""Play-outs: a whole deal played to the end by imperfect-information players (each seat sees
its own hand and the plays only), to measure how often the oracle's "makes it" comes true.

The player is PIMC, as the pimc bot (games.texas42.pimc): at each turn it draws `samples`
deals exactly and uniformly from what it knows (the other hands' sizes and the voids the plays
showed: a seat that did not follow a suit holds none of it), solves each double-dummy for every
legal domino (games.texas42.kernel) and plays the best total for its team (ties: the lowest
domino). Seeded: the same deal and seed give the same play. Pure: no I/O, no clock.
"""

from __future__ import annotations

import random

from games.texas42.dominoes import SEATS, TILES
from games.texas42.kernel import FOLLOW, LEAD, POINTS, POWER, FastSolver
from games.texas42.solver import Hands, bits, four, mask_of
from inference.classes import Position
from inference.sampler import sample_deal

SAMPLES = 8


def _trick_winner(trick: list[tuple[int, int]], trump: int) -> int:
    suit = int(LEAD[trump, trick[0][1]])
    return max(trick, key=lambda play: int(POWER[trump, suit, play[1]]))[0]


def pimc_play(seat: int, hands: Hands, trick: tuple[tuple[int, int], ...], leader: int,
              voids: list[int], trump: int, rng: random.Random, samples: int = SAMPLES) -> int:
    """The PIMC player's domino for `seat`, knowing its own hand, the other hands' sizes, the
    plays (`trick`) and `voids[s]` (a mask of the suits s showed it lacks)."""
    solver = FastSolver(trump)
    legal = solver.legal(hands[seat], trick)
    if legal & (legal - 1) == 0:
        return bits(legal)[0]
    others = tuple(SEATS[s] for s in range(4) if s != seat)
    index = {SEATS[s]: s for s in range(4)}
    unseen = [t for t in range(28) if any(hands[s] >> t & 1 for s in range(4) if s != seat)]
    allowed = {}
    for t in unseen:
        mask = 0
        for k, name in enumerate(others):
            s = index[name]
            if not any(voids[s] >> suit & 1 and FOLLOW[trump, suit] >> t & 1
                       for suit in range(8)):
                mask |= 1 << k
        allowed[TILES[t]] = mask
    position = Position(others, allowed, tuple(hands[index[name]].bit_count()
                                               for name in others))
    totals: dict[int, int] = {}
    for _ in range(samples):
        drawn = sample_deal(position, rng)
        world = four([hands[s] if s == seat else mask_of(drawn[SEATS[s]]) for s in range(4)])
        for tile, value in FastSolver(trump).move_values(world, leader, trick).items():
            totals[tile] = totals.get(tile, 0) + value
    ours = seat % 2 == 0
    return max(sorted(totals), key=lambda t: totals[t] if ours else -totals[t])


def play_out(hands: Hands, trump: int, leader: int, rng: random.Random,
             samples: int = SAMPLES) -> int:
    """NS points when all four seats are PIMC players (see the module docstring)."""
    held = list(hands)
    voids = [0, 0, 0, 0]
    ns = 0
    for _ in range(7):
        trick: list[tuple[int, int]] = []
        for k in range(4):
            seat = (leader + k) % 4
            tile = pimc_play(seat, four(held), tuple(trick), leader, voids, trump, rng,
                             samples)
            if trick:
                suit = int(LEAD[trump, trick[0][1]])
                if not FOLLOW[trump, suit] >> tile & 1:
                    voids[seat] |= 1 << suit
            held[seat] ^= 1 << tile
            trick.append((seat, tile))
        winner = _trick_winner(trick, trump)
        if winner % 2 == 0:
            ns += 1 + sum(int(POINTS[t]) for _, t in trick)
        leader = winner
    return ns
