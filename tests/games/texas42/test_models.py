"""The bids-conditioned completion model (seed 003's sensitivity check): every completion it
keeps is one in which the earlier bids are the greedy bidder's; impossible bids say so."""

from __future__ import annotations

import random

import pytest

from games.texas42.dominoes import parse_tile
from games.texas42.greedy import choose_bid
from games.texas42.models import ModelUnlikely, conditioned_completions, consistent
from games.texas42.oracle import bidding_oracle, completions

HAND = [parse_tile(t) for t in ["0-0", "1-2", "2-3", "3-4", "4-5", "0-6", "1-5"]]


def test_kept_completions_agree_with_the_bids_and_drop_the_others() -> None:
    bids = [("W", 0), ("N", 30), ("E", 0)]  # South (the dealer) bids last
    deals = conditioned_completions(HAND, "S", bids, 20, random.Random(1))
    assert len(deals) == 20
    for deal in deals:
        assert choose_bid(deal["W"], 0, False) == 0
        assert choose_bid(deal["N"], 0, False) == 30
        assert choose_bid(deal["E"], 30, False) == 0
    uniform = completions(HAND, "S", 200, random.Random(2))
    assert not all(consistent(d, bids) for d in uniform)  # the condition bites


def test_the_model_moves_the_oracle_and_impossible_bids_are_refused() -> None:
    bids = [("W", 0), ("N", 30), ("E", 0)]
    deals = conditioned_completions(HAND, "S", bids, 12, random.Random(3))
    conditioned = bidding_oracle(HAND, "S", trumps=(0, 5), n=12, deals=deals,
                                 model="bids:greedy", with_leads=False)
    uniform = bidding_oracle(HAND, "S", trumps=(0, 5), n=12, with_leads=False)
    assert conditioned["completion_model"] == "bids:greedy"
    assert conditioned["cache_key"] != uniform["cache_key"]
    # a partner who bid 30 holds a strong hand: the bidders' mean double-dummy score rises
    assert max(conditioned["score_means"].values()) > max(uniform["score_means"].values())
    with pytest.raises(ModelUnlikely):  # the greedy bidder never opens at 35
        conditioned_completions(HAND, "S", [("W", 35)], 2, random.Random(4))
