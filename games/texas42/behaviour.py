"""`behaviour:bids`, Texas 42's bid-aware belief (games.behaviour.BehaviourModel): the exact
uniform belief's deals weighed by how likely the bids seen were under a model of how the
players bid (games.texas42.bidding_model), learnt from stored matches by `calibrate` and shown
live as a labelled second layer beside the exact belief, never instead of it.

Each deal the exact sampler draws gives every bidder a hand (what it still holds plus what it
has played this hand, both public or drawn); the deal's weight is the product over the hand's
unforced bids of P(that bid or pass | that hand). Exact (every deal listed and weighed) when
the consistent deals are few, late in a hand; else importance-weighted exact draws, more while
the effective sample is under its target, each figure with its standard error. Budgets are
draws, seeded from the request: the same view gives the same answer anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.behaviour import Fitted, Matches, NotModelled, fit_players
from games.texas42.belief import Texas42Belief
from games.texas42.bidding_model import (
    FEATURES,
    PRIOR,
    BidChoice,
    Weights,
    fit,
    hand_bids,
    mask_of,
    played_this_hand,
    strength_of_mask,
    training_rows,
)
from games.texas42.dominoes import Tile, parse_tile
from games.texas42.events import parse_event
from games.texas42.state import State
from inference.sampler import DealSampler
from inference.weighted import Budget, Weighted, behaviour_belief

JSON = dict[str, Any]
MODEL = "behaviour:bids"
LABEL = ("uniform deals weighed by how likely each seat's bids and passes were with the hand "
         "the deal gives it: a logistic model of bidding on the hand's strength in its best "
         "trump, fitted on stored matches (an assumption about the players, not a fact)")
Z95 = 1.959963984540054
SAMPLES = 512
ESS_TARGET = 50.0
MAX_SAMPLES = 2048
EXACT_BUDGET = 2000
SHRINK = 10.0
"""The sampled estimate leans on the exact uniform belief with weight SHRINK / (SHRINK + ESS)
(inference.weighted), as dominoes' behaviour layer does."""
IN_HAND = ("bidding", "trump", "playing")
VARIANTS = ("texas-42", "texas-42-dealer-bids")
"""Texas 42's variant names (games.texas42.game, which imports this module)."""


def _log_weight(deal: Mapping[str, Sequence[Tile]], choices: Sequence[BidChoice],
                played: Mapping[str, int], weights: Mapping[str, Weights]) -> float:
    total = 0.0
    for choice in choices:
        held = deal.get(choice.seat)
        if held is None:  # the observer's own hand: the same in every deal
            continue
        hand = mask_of(held) | played.get(choice.seat, 0)
        total += weights[choice.seat].log_p(strength_of_mask(hand), choice.level, choice.bid)
    return total


def _weigh(belief: Texas42Belief, snapshot: JSON, choices: Sequence[BidChoice],
           weights: Mapping[str, Weights], budget: Budget, rng: random.Random) -> Weighted:
    state = belief.state
    position = belief.position()
    if state is None or position is None:
        raise NotModelled("no hand is in play")
    played = {seat: mask_of(tiles) for seat, tiles in played_this_hand(state).items()}
    uniform: dict[str, dict[str, float]] = {}
    for holder, row in (snapshot.get("marginals") or {}).items():
        for item, p in row.items():
            uniform.setdefault(item, {})[holder] = float(p)
    consistent = snapshot.get("consistent_deals")
    if not any(choice.seat in weights and choice.seat != belief.observer for choice in choices):
        # no bid of another seat to weigh: every deal weighs the same, the layer is the
        # exact belief itself (not a noisy sample of it)
        zero = {item: dict.fromkeys(row, 0.0) for item, row in uniform.items()}
        return Weighted(uniform, zero, 0.0, 0, True)
    return behaviour_belief(
        uniform, int(consistent) if consistent is not None else None,
        snapshot.get("remaining") or {}, parse_tile, str, DealSampler.over(position),
        lambda deal: _log_weight(deal, choices, played, weights), rng, budget.samples,
        budget.exact_budget, budget.ess_target, budget.max_samples, budget.moves,
        budget.shrink)


def hand_choices(events: Sequence[Any]) -> dict[int, list[BidChoice]]:
    """After each event of a log: the unforced bid choices of the hand under way."""
    out: dict[int, list[BidChoice]] = {}
    hand: list[BidChoice] = []
    for index, _, choice in hand_bids(events):
        if getattr(events[index], "type", "") == "hand_started":
            hand = []
        if choice is not None:
            hand = [*hand, choice]
        out[index] = hand
    return out


def behaviour_odds(events: Sequence[Any], observer: str, rng: random.Random,
                   weights: Weights = PRIOR) -> JSON:
    """The bid-aware belief after the observer's own `events`, belief-shaped (marginals and
    stderr by holder and tile, error_95, ess, samples, exact). NotModelled outside a hand."""
    belief = Texas42Belief(observer)
    for event in events:
        belief.apply(event)
    state = belief.state
    if state is None or state.phase not in IN_HAND:
        raise NotModelled("no hand is in play")
    snapshot = belief.snapshot_dict()
    choices = hand_choices(events)[len(events) - 1]
    by_seat = {c.seat: weights for c in choices}
    budget = Budget(SAMPLES, EXACT_BUDGET, ESS_TARGET, MAX_SAMPLES, 0, SHRINK)
    weighted = _weigh(belief, snapshot, choices, by_seat, budget, rng)
    marginals, stderr, worst = weighted.by_holder()
    return {
        "seq": snapshot.get("seq"), "observer": observer, "model": MODEL, "label": LABEL,
        "hand": snapshot.get("hand"), "status": "live" if weighted.exact else "estimate",
        "exact": weighted.exact, "consistent_deals": snapshot.get("consistent_deals"),
        "remaining": snapshot.get("remaining") or {}, "marginals": marginals,
        "stderr": stderr, "error_95": None if weighted.exact else round(Z95 * worst, 6),
        "ess": round(weighted.ess, 2), "samples": weighted.samples, "moved": weighted.moved,
        "shrink": SHRINK, "weighed": len([c for c in choices if c.seat != observer]),
        "weights": {"a": weights.a, "b": weights.b, "c": weights.c},
    }


class HandWeigher:
    """One observer's bid-aware belief along a referee log, fed the observer's view."""

    def __init__(self, events: Sequence[Any], players: Mapping[str, str],
                 weights: Mapping[str, Weights], pooled: Weights, observer: str) -> None:
        self.belief = Texas42Belief(observer)
        self.choices = hand_choices(events)
        self.weights = {seat: weights.get(name, pooled) for seat, name in players.items()}

    def apply(self, event: Any) -> None:
        self.belief.apply(event)

    def weigh(self, index: int, snapshot: JSON, budget: Budget,
              rng: random.Random) -> Weighted:
        choices = [c for c in self.choices.get(index, []) if c.seat in self.weights]
        return _weigh(self.belief, snapshot, choices, self.weights, budget, rng)


class BehaviourBids:
    """games.behaviour.BehaviourModel for Texas 42 (a plain object: pickles by class)."""

    name = MODEL
    label = LABEL

    def check(self, state: State | None) -> None:
        if state is None or state.phase not in IN_HAND:
            raise NotModelled("no hand is being bid or played")

    def odds(self, view: Sequence[JSON], observer: str, seed: int) -> JSON:
        try:
            return behaviour_odds([parse_event(e) for e in view], observer, random.Random(seed))
        except NotModelled as error:
            return {"error": str(error)}

    def covers(self, variant: str) -> bool:
        return variant in VARIANTS

    def fit(self, matches: Matches, strength: float | None = None) -> Fitted:
        """The weights pooled and per player (pulled toward the pool by `strength`, None:
        chosen on held-out matches) from every unforced bid in the matches."""
        return fit_players(matches, training_rows, len(FEATURES), fit, strength)

    def weigher(self, events: Sequence[Any], players: Mapping[str, str], fitted: Fitted,
                observer: str) -> HandWeigher:
        weights, pooled = fitted.params
        return HandWeigher(events, players, weights, pooled, observer)


BEHAVIOUR_BIDS = BehaviourBids()
