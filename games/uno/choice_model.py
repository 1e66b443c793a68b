"""A model of which card an Uno player plays among its legal ones, learnt from what it played:
the likelihood behind Uno's behaviour layer (games.uno.behaviour).

A draw is never a choice here (a seat must play when it can, games.uno.rules), and a
penalty draw is forced; a play is a choice among the legal moves of the hand then held (a
wild once per colour it may name). The model is a conditional logit over those moves:

    P(move j | hand, top, colour) = exp(θ·f_j) / Σ_k exp(θ·f_k)

with the features f of a move (`FEATURES`): `black` (a wild or wild +4), `colour` (a
coloured card of the colour in force; a coloured card that is not matches by value, the
reference), `action` (skip, reverse, +2, wild +4), `share` (the share of the rest of the hand
in the colour the move leaves in force: the card's, or the one a wild names). θ = 0 is a
player picking uniformly among its legal moves (the random bot) — *not* the uniform belief:
a hand with more legal moves makes any one of them less likely, so even random players leave
a trace. θ is fitted by maximum likelihood (Newton's method with a weak ridge, so a player who
never plays a wild while it has a coloured card stays finite) on stored matches, whose hands
are revealed: per player and pooled. It is an assumption about players, labelled so.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.uno.cards import colour_of, is_black, matches, penalty_of, skips
from games.uno.events import CardPlayed
from games.uno.state import UnoState, evolve
from inference.choice_logit import LogitFit, Row, choice_log_p, fit_choices

FEATURES = ("black", "colour", "action", "share")

Move = tuple[str, str | None]
"""(card, the colour a wild names; None for a coloured card)."""


@dataclass(frozen=True)
class Decision:
    """The public context of one play: who, the top card and colour in force before it, the
    colours a wild may name, and the move made."""

    seat: str
    seq: int
    top: str
    colour: str | None
    colours: tuple[str, ...]
    move: Move


def legal(hand: Mapping[str, int], decision: Decision) -> list[Move]:
    """The moves `hand` allows at the decision (games.uno.rules.legal_moves' order)."""
    out: list[Move] = []
    for card in sorted(k for k, n in hand.items() if n > 0):
        if not matches(card, decision.top, decision.colour):
            continue
        if is_black(card):
            out.extend((card, c) for c in decision.colours)
        else:
            out.append((card, None))
    return out


def features(move: Move, hand: Mapping[str, int], colour: str | None) -> tuple[float, ...]:
    card, named = move
    black = is_black(card)
    leaves = named if black else colour_of(card)
    rest = sum(hand.values()) - 1
    same = sum(n for k, n in hand.items() if colour_of(k) == leaves) - (0 if black else 1)
    return (1.0 if black else 0.0,
            1.0 if not black and colour is not None and colour_of(card) == colour else 0.0,
            1.0 if penalty_of(card) or skips(card) else 0.0,
            same / rest if rest > 0 else 0.0)


def design(hand: Mapping[str, int], decision: Decision) -> tuple[np.ndarray, int] | None:
    """The features of every legal move and the index of the one made; None when the hand
    had one legal move (no choice) or could not have made it."""
    moves = legal(hand, decision)
    if len(moves) < 2 or decision.move not in moves:
        return None
    x = np.array([features(m, hand, decision.colour) for m in moves], dtype=np.float64)
    return x, moves.index(decision.move)


@dataclass(frozen=True)
class Weights:
    theta: tuple[float, ...]

    def log_p(self, hand: Mapping[str, int], decision: Decision) -> float:
        """ln P(the move made | hand): 0 when it was the only legal move, -inf when the hand
        could not have made it."""
        moves = legal(hand, decision)
        if decision.move not in moves:
            return -math.inf
        return choice_log_p(self.theta, [features(m, hand, decision.colour) for m in moves],
                            moves.index(decision.move))


UNIFORM_CHOICE = Weights((0.0,) * len(FEATURES))


@dataclass(frozen=True)
class Fit:
    player: str
    weights: Weights
    stderr: tuple[float, ...]
    choices: int
    log_loss: float
    """Mean −ln P(move made) per choice at the fitted weights (nats)."""
    log_loss_uniform: float
    """The same for a player picking uniformly among its legal moves (θ = 0)."""
    at_bound: bool

    def to_dict(self) -> dict[str, object]:
        share = FEATURES.index("share")
        return {"player": self.player, "beta": round(self.weights.theta[share], 4),
                "beta_stderr": round(self.stderr[share], 4), "choices": self.choices,
                "at_bound": self.at_bound,
                "weights": {n: round(t, 4) for n, t in zip(FEATURES, self.weights.theta,
                                                           strict=True)},
                "stderr": {n: round(s, 4) for n, s in zip(FEATURES, self.stderr, strict=True)},
                "log_loss": round(self.log_loss, 4),
                "log_loss_uniform": round(self.log_loss_uniform, 4)}



def fit(player: str, rows: Sequence[Row], found: LogitFit | None = None,
        prior: Weights = UNIFORM_CHOICE) -> Fit:
    """`found` (default: the maximum-likelihood θ with the weak ridge, fitted here), its
    standard errors and the mean log loss per choice on `rows`; `prior` when there are no
    choices."""
    d = len(FEATURES)
    if not rows:
        return Fit(player, prior, (math.inf,) * d, 0, math.nan, math.nan, False)
    found = found or fit_choices(rows, d)
    return Fit(player, Weights(found.theta), found.stderr, len(rows), found.log_loss,
               found.log_loss_uniform, found.at_bound)


def decisions(events: Sequence[Any]) -> Iterator[tuple[int, UnoState, Decision]]:
    """Along a log (a referee's or any view): each play's index, the state before it, and its
    public decision."""
    state: UnoState | None = None
    for index, event in enumerate(events):
        before = state
        state = evolve(state, event)
        if isinstance(event, CardPlayed) and before is not None:
            yield index, before, Decision(event.seat, event.seq, before.top, before.colour,
                                          before.variant.deck.colours,
                                          (event.card, event.colour))


def training_rows(events: Sequence[Any], players: Mapping[str, str]
                  ) -> Iterator[tuple[str, Row]]:
    """(player, the play's design) for every real choice in a referee log (hands known)."""
    for _, before, decision in decisions(events):
        hand = before.hands.get(decision.seat)
        if hand is None:
            continue
        row = design(Counter(hand), decision)
        if row is not None:
            yield players.get(decision.seat, decision.seat), row
