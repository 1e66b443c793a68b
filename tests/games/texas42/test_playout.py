"""Play-outs by PIMC players at every seat (the calibration's "real play"): legal, seeded,
and right where the answer is certain."""

from __future__ import annotations

import random

from games.texas42.dominoes import TILES, parse_tile
from games.texas42.kernel import FastSolver
from games.texas42.playout import pimc_play, play_out
from games.texas42.solver import hands_of


def test_a_hand_of_all_seven_trumps_takes_every_point() -> None:
    sixes = [parse_tile(t) for t in ["0-6", "1-6", "2-6", "3-6", "4-6", "5-6", "6-6"]]
    rest = [t for t in TILES if t not in sixes]
    random.Random(1).shuffle(rest)
    hands = hands_of([sixes, rest[0:7], rest[7:14], rest[14:21]])
    assert play_out(hands, 6, 0, random.Random(2), samples=2) == 42


def test_play_outs_are_seeded_and_the_choice_is_legal() -> None:
    rng = random.Random(3)
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = hands_of([tiles[k * 7:(k + 1) * 7] for k in range(4)])
    first = play_out(hands, 4, 1, random.Random(5), samples=2)
    assert 0 <= first <= 42
    assert play_out(hands, 4, 1, random.Random(5), samples=2) == first
    # the second seat of a trick plays a legal domino (it follows the lead when it can)
    lead = max(range(28), key=lambda t: hands[1] >> t & 1)
    after = (hands[0], hands[1] ^ (1 << lead), hands[2], hands[3])
    tile = pimc_play(2, after, ((1, lead),), 1, [0, 0, 0, 0], 4, random.Random(6), samples=2)
    assert FastSolver(4).legal(after[2], ((1, lead),)) >> tile & 1
