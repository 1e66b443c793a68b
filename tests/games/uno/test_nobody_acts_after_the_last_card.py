"""Once a hand is empty nobody is to act, though `match_ended` is the next event.

A client (or the server's own bots) folds events one at a time: between the winning card and
`match_ended` of the same commit, a seat shown as "to act" would send a move the referee can
only refuse (`no match in play`). Random matches, every one won by emptying a hand.
"""

from __future__ import annotations

import itertools
import random

from games.play import play_match
from games.uno.game import UNO


def test_nobody_is_to_act_between_the_last_card_and_match_ended() -> None:
    rng = random.Random(7)
    bot = UNO.bots()["random"]
    checked = 0
    for _ in range(20):
        events = play_match(UNO, "uno-2-mini", {"S": bot, "N": bot}, rng, {})
        state = None
        for before, after in itertools.pairwise(events):
            state = UNO.evolve(state, before)
            if after.type == "match_ended" and any(n == 0 for n in state.counts.values()):
                assert UNO.to_act(state) == (), before
                checked += 1
    assert checked >= 10  # most random matches end by a hand emptied
