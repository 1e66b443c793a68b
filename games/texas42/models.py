"""Completion models for the bidding oracle: what the bids so far say about the other hands.

Seed 003 asks for a probability labelled with its completion model and for the sensitivity of
the recommendation to that model. `uniform` (games.texas42.oracle.completions) ignores the
bids. `bids:greedy` keeps only the completions in which every seat that bid before acted as
the greedy bidder would (games.texas42.greedy.choose_bid: pass unless its strength in its best
trump says the next bid is worth it), by rejection sampling from the uniform draws: exact for
that behaviour model, and a stated assumption about how people bid, not a fact.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.texas42.dominoes import Tile
from games.texas42.greedy import choose_bid
from games.texas42.oracle import completions

BIDS_GREEDY = "bids:greedy"
BIDS_GREEDY_LABEL = ("uniform over deals consistent with the bidder's own hand in which every "
                     "earlier bid is the one the greedy bidder (games.texas42.greedy) would "
                     "have made with that hand (rejection sampling)")
MAX_DRAWS_PER_COMPLETION = 400
"""Rejection gives up (ModelUnlikely) past this many uniform draws per completion asked for."""


class ModelUnlikely(ValueError):
    """The bids are too unlikely under the model for rejection sampling to reach N."""


def consistent(deal: dict[str, tuple[Tile, ...]], bids: Sequence[tuple[str, int]],
               dealer: str | None = None, dealer_must_bid: bool = False) -> bool:
    """Whether every bid in `bids` (in order) is the greedy bidder's with its hand."""
    high = 0
    for k, (seat, bid) in enumerate(bids):
        forced = dealer_must_bid and seat == dealer and k == 3 and high == 0
        if choose_bid(deal[seat], high, forced) != bid:
            return False
        high = max(high, bid)
    return True


def conditioned_completions(hand: Sequence[Tile], seat: str, bids: Sequence[tuple[str, int]],
                            n: int, rng: random.Random, dealer: str | None = None,
                            dealer_must_bid: bool = False
                            ) -> list[dict[str, tuple[Tile, ...]]]:
    """n deals drawn uniformly given `seat`'s hand and kept only when `bids` are what the
    greedy bidder would have bid (ModelUnlikely if the draws run out)."""
    out: list[dict[str, tuple[Tile, ...]]] = []
    draws = 0
    while len(out) < n:
        if draws >= MAX_DRAWS_PER_COMPLETION * n:
            raise ModelUnlikely(f"only {len(out)} of {n} completions in {draws} draws fit the "
                                "bids as the greedy bidder would make them")
        batch = completions(hand, seat, 64, rng)
        draws += len(batch)
        out.extend(d for d in batch if consistent(d, bids, dealer, dealer_must_bid))
    return out[:n]
