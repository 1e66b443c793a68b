"""The adversarial audit: exchanges keep the bidder's hand and every hand's size; a descent
never ends above where it started; a bid that cannot fail has no fragile verdict."""

from __future__ import annotations

import random

from games.texas42.audit import audit, exchange, fragility, score, worst_case
from games.texas42.dominoes import SEATS, parse_tile
from games.texas42.oracle import completions

HAND = [parse_tile(t) for t in ["1-1", "0-2", "0-5", "2-5", "3-5", "1-6", "4-6"]]


def test_an_exchange_is_a_deal_the_bidder_cannot_tell_apart() -> None:
    deal = completions(HAND, "S", 1, random.Random(1))[0]
    other = exchange(deal, "S", random.Random(2))
    assert other["S"] == deal["S"] and other != deal
    assert sorted(t for s in SEATS for t in other[s]) == sorted(t for s in SEATS
                                                               for t in deal[s])
    assert all(len(other[s]) == 7 for s in SEATS)
    assert sum(len(set(other[s]) ^ set(deal[s])) for s in SEATS) == 4  # one swap


def test_the_descent_only_goes_down_and_a_sure_bid_is_never_fragile() -> None:
    deals = completions(HAND, "S", 3, random.Random(3))
    for deal in deals:
        low, kept = worst_case(deal, 6, "S", random.Random(4), steps=3, tries=3)
        assert low <= score(deal, 6, "S") and 0 <= kept <= 3
    sixes = [parse_tile(t) for t in ["0-6", "1-6", "2-6", "3-6", "4-6", "5-6", "6-6"]]
    sure = completions(sixes, "S", 3, random.Random(5))
    assert fragility(sure, 6, "S", 42, random.Random(6), tries=3) == 0.0
    report = audit(deals, 6, "S", 30, random.Random(7), starts=2, tries=2, steps=2)
    assert report["completions"] == 3 and len(report["worst_scores"]) == 2
    assert all(w <= s for w, s in zip(report["worst_scores"], report["start_scores"],
                                      strict=True))
