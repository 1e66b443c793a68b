"""Who held what at each position, from the referee's log (the dominoes adapter)."""

from __future__ import annotations

import random

from calibration.truth import moments
from games.dominoes.events import HandDealt, HandEnded, TilePlayed
from games.dominoes.game import DOMINOES
from games.dominoes.revealed import tile_name
from games.dominoes.selfplay import random_match_events
from games.dominoes.tiles import parse_tile
from inference.classes import POOL


def test_moments_follow_the_hand_from_the_deal_to_its_end() -> None:
    events = random_match_events(random.Random(2), "block-2", target=1)
    found = list(moments(DOMINOES, events))
    first, last = found[0], found[-1]
    dealt = {e.seat: set(e.tiles or ()) for e in events if isinstance(e, HandDealt)
             and e.hand == first.hand}
    assert isinstance(events[first.index], HandDealt) and first.move == 0
    assert {t for t, h in first.holders.items() if h == "S"} == dealt["S"]
    assert {t for t, h in first.holders.items() if h == "N"} == dealt["N"]
    assert sum(1 for h in first.holders.values() if h == POOL) == 14  # 28 - 2 x 7 sleep
    assert [m.move for m in found if m.hand == first.hand] == \
        list(range(len([m for m in found if m.hand == first.hand])))
    # every played tile leaves the truth; the next event after the last position ends it
    for m in found:
        played = {e.tile for e in events[:m.index + 1] if isinstance(e, TilePlayed)
                  and e.hand == m.hand}
        assert not played & set(m.holders)
    assert isinstance(events[last.index + 1], HandEnded)
    ended = events[last.index + 1]
    for seat, tiles in ended.remaining.items():
        assert {t for t, h in last.holders.items() if h == seat} == set(tiles)
    assert {t for t, h in last.holders.items() if h == POOL} == set(ended.pool)
    assert tile_name(parse_tile("6-4")) == "4-6"  # as the beliefs name items
