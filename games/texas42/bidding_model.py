"""A model of how Texas 42 players bid, learnt from what they bid: the likelihood behind the
bid-aware belief (games.texas42.behaviour).

The exact belief treats every deal consistent with a seat's view alike, so a seat that bid 34
is as likely to hold a weak hand as a strong one. Players do not bid at random: whether a seat
bids or passes depends on its hand. This model says how, as a logistic regression

    P(bid | hand, level) = sigma(a + b * strength + c * (level - 30) / 4)

where `strength` is the hand's strength in its best trump (games.texas42.greedy's measure:
trumps, the trump double twice, other doubles) and `level` the lowest bid it could make.
Its three weights are fitted by maximum likelihood (Newton's method, a weak ridge so a player
who always bids the same way stays finite) on stored matches, whose hands are revealed: per
player and pooled, each player's pulled toward the pool (games.behaviour.fit_players; the
model is a two-option conditional logit, inference.choice_logit, bid against pass). A forced
bid (the dealer when the option says so) carries no information and is left out. It is an
assumption about people, fitted on whom it was fitted on, and labelled so; never a fact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.texas42.dominoes import INDEX, TILES, Tile
from games.texas42.greedy import choose_trump, trump_strength
from games.texas42.rules import evolve, forced_to_bid
from games.texas42.scoring import BIDS, PASS
from games.texas42.state import State
from inference.choice_logit import LogitFit, Row, fit_choices

LOGIT_BOUND = 30.0


@dataclass(frozen=True)
class Weights:
    """The model's weights: intercept, per point of strength, per bid level above 30."""

    a: float
    b: float
    c: float

    def logit(self, strength: int, level: int) -> float:
        z = self.a + self.b * strength + self.c * (level - 30) / 4.0
        return max(-LOGIT_BOUND, min(LOGIT_BOUND, z))

    def log_p(self, strength: int, level: int, bid: bool) -> float:
        """ln P(the choice made): bid (True) or pass (False)."""
        z = self.logit(strength, level)
        return -math.log1p(math.exp(-z)) if bid else -math.log1p(math.exp(z))


PRIOR = Weights(-13.16, 2.36, -9.69)
"""The live layer's weights: the pooled fit on 40 matches of the project's greedy bots
(`selfplay --variant texas-42 --matches 40 --seed 1 --option target_marks=1`, then `calibrate
--variant texas-42 --samples 256 --shrink 10 --seed 1`; docs/calibration.md). A steep model
(greedy bids by a threshold); people at a table are not known to bid so, and the layer says
it is an assumption."""


@dataclass(frozen=True)
class BidChoice:
    """One unforced bid decision: who, the lowest bid open to them, and whether they bid."""

    seat: str
    level: int
    bid: bool


@dataclass(frozen=True)
class Fit:
    player: str
    weights: Weights
    stderr: tuple[float, float, float]
    choices: int
    bids: int
    log_loss: float
    """Mean negative log likelihood per choice (nats) at the fitted weights."""

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "beta": round(self.weights.b, 4),
                "beta_stderr": round(self.stderr[1], 4), "choices": self.choices,
                "at_bound": False, "weights": {"a": round(self.weights.a, 4),
                                               "b": round(self.weights.b, 4),
                                               "c": round(self.weights.c, 4)},
                "bids": self.bids, "log_loss": round(self.log_loss, 4)}


def strength(hand: Iterable[Tile]) -> int:
    """The hand's strength in its best trump, as greedy measures it (the slow reference)."""
    tiles = list(hand)
    return trump_strength(tiles, choose_trump(tiles))


def _bit(tile: Tile) -> int:
    return 1 << INDEX[tile]


_DOUBLES = sum(_bit(t) for t in TILES if t.is_double)
_SUIT = [sum(_bit(t) for t in TILES if t.has(n)) for n in range(7)]
_DOUBLE_OF = [_bit(Tile(n, n)) for n in range(7)]
_SIX_SIX = _bit(Tile(6, 6))


def mask_of(hand: Iterable[Tile]) -> int:
    return sum(_bit(t) for t in hand)


def strength_of_mask(hand: int) -> int:
    """`strength` of the hand held as a 28-bit mask: the same number, a hundred times
    cheaper (it is asked for every bidder of every deal weighed)."""
    best = (hand & _DOUBLES).bit_count() + (1 if hand & _SIX_SIX else 0)  # doubles as trump
    for n in range(7):
        trumps = hand & _SUIT[n]
        value = (trumps.bit_count() + (1 if hand & _DOUBLE_OF[n] else 0)
                 + (hand & _DOUBLES & ~trumps).bit_count())
        best = max(best, value)
    return best


def lowest_open(high: int) -> int | None:
    return next((b for b in BIDS if b > high), None)


def hand_bids(events: Sequence[Any]) -> Iterator[tuple[int, State, BidChoice | None]]:
    """Along a log (a referee's or a seat's view): each event's index, the state after it,
    and the unforced bid decision it records (None for anything else)."""
    state: State | None = None
    for index, event in enumerate(events):
        before = state
        state = evolve(state, event)
        choice = None
        if getattr(event, "type", None) == "bid" and before is not None:
            seat = str(event.seat)
            level = lowest_open(before.high_bid)
            if level is not None and not forced_to_bid(before, seat):
                choice = BidChoice(seat, level, int(event.bid) != PASS)
        yield index, state, choice


def training_rows(events: Sequence[Any], players: Mapping[str, str]
                  ) -> Iterator[tuple[str, Row]]:
    """(player, the decision as a `choice_row`) for every unforced bid in a referee log (hands
    known, all seven still in hand while bidding)."""
    for _, state, choice in hand_bids(events):
        hand = state.hands.get(choice.seat) if choice is not None else None
        if choice is not None and hand is not None:
            yield (players.get(choice.seat, choice.seat),
                   choice_row(strength(hand), choice.level, choice.bid))


def played_this_hand(state: State) -> dict[str, set[Tile]]:
    """What each seat has played in the hand under way (public)."""
    out: dict[str, set[Tile]] = {}
    for trick in (*state.tricks, state.trick):
        for seat, tile in trick:
            out.setdefault(seat, set()).add(tile)
    return out


FEATURES = ("a", "b", "c")
"""The weights' names: a bid's features are (1, strength, (level − 30) / 4), a pass's 0."""


def choice_row(hand_strength: int, level: int, bid: bool) -> Row:
    """One bid-or-pass decision as a conditional-logit choice between bidding (the features)
    and passing (all 0): P(bid) = σ(a + b·strength + c·(level − 30)/4), the same model."""
    x = np.array([[1.0, float(hand_strength), (level - 30) / 4.0], [0.0, 0.0, 0.0]])
    return x, 0 if bid else 1


def fit(player: str, rows: Sequence[Row], found: LogitFit | None = None,
        prior: Weights = PRIOR) -> Fit:
    """`found` (default: the maximum-likelihood weights with the weak ridge, fitted here),
    their standard errors, and the mean log loss per choice on `rows` (`choice_row`s);
    `prior` when there are none."""
    if not rows:
        return Fit(player, prior, (math.inf,) * 3, 0, 0, math.nan)
    found = found or fit_choices(rows, len(FEATURES))
    a, b, c = found.theta
    bids = sum(1 for _, j in rows if j == 0)
    return Fit(player, Weights(a, b, c), found.stderr, len(rows), bids,  # type: ignore[arg-type]
               found.log_loss)
