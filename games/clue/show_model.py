"""A model of which card a Clue refuter shows when it holds more than one of the three
suggested cards, learnt from what it showed: the likelihood behind Clue's behaviour layer
(games.clue.behaviour).

A refuter holding one of the three has no choice; holding two or three, it picks one. The
model is a conditional logit over the cards it holds among the three:

    P(show c | the cards held among the three) = exp(θ·f_c) / Σ_k exp(θ·f_k)

with the features f of a card (`FEATURES`): `shown_before` (the refuter has already shown
this card to this suggester: showing it again teaches nothing new), `suspect` and `weapon`
(its kind; a room is the reference). How many of the three it holds is no feature of one card
(it is the same for every card it could show); it enters as the size of the choice set, so
θ = 0 — a refuter picking uniformly among the cards it holds, as the project's bots do
(games.clue.bots) — still leaves a trace: a deal in which the refuter holds more of the three
makes the card seen less likely. The uniform belief ignores that; this model does not.
θ is fitted by maximum likelihood (Newton's method with a weak ridge, so a player who always
shows the same kind stays finite) on stored matches, whose hands are revealed: per player and
pooled. It is an assumption about players, labelled so.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.clue.events import CardShown, Dealt, MatchStarted, Suggested
from games.clue.variants import VARIANTS
from inference.choice_logit import LogitFit, Row, choice_log_p, fit_choices

FEATURES = ("shown_before", "suspect", "weapon")

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Show:
    """The context of one card shown, as the suggester sees it: who showed it to whom, the
    three suggested (suspect, weapon, room), the card shown, and the cards this refuter had
    shown to this suggester before."""

    refuter: str
    suggester: str
    seq: int
    triple: Triple
    card: str
    before: frozenset[str]


def features(card: str, show: Show) -> tuple[float, float, float]:
    kind = show.triple.index(card)
    return (1.0 if card in show.before else 0.0, 1.0 if kind == 0 else 0.0,
            1.0 if kind == 1 else 0.0)


def design(held: Sequence[str], show: Show) -> tuple[np.ndarray, int] | None:
    """The features of every card the refuter could show and the index of the one shown;
    None when it had no choice (or could not have shown it)."""
    options = [c for c in show.triple if c in held]
    if len(options) < 2 or show.card not in options:
        return None
    x = np.array([features(c, show) for c in options], dtype=np.float64)
    return x, options.index(show.card)


@dataclass(frozen=True)
class Weights:
    theta: tuple[float, ...]

    def log_p(self, held: Sequence[str] | frozenset[str], show: Show) -> float:
        """ln P(the card shown | the cards of the three the refuter holds): 0 when it held
        one, -inf when it did not hold the card shown."""
        options = [c for c in show.triple if c in held]
        if show.card not in options:
            return -math.inf
        return choice_log_p(self.theta, [features(c, show) for c in options],
                            options.index(show.card))


UNIFORM_CHOICE = Weights((0.0,) * len(FEATURES))


@dataclass(frozen=True)
class Fit:
    player: str
    weights: Weights
    stderr: tuple[float, ...]
    choices: int
    log_loss: float
    """Mean −ln P(card shown) per choice at the fitted weights (nats)."""
    log_loss_uniform: float
    """The same for a refuter picking uniformly among the cards it holds (θ = 0)."""
    at_bound: bool
    informative: tuple[int, ...] = ()
    """Per feature, the choices whose cards differ in it: a feature that never differs is
    not learnt (its weight stays 0, its standard error the ridge's 1/√RIDGE)."""

    def to_dict(self) -> dict[str, object]:
        first = FEATURES.index("shown_before")
        return {"player": self.player, "beta": round(self.weights.theta[first], 4),
                "beta_stderr": round(self.stderr[first], 4), "choices": self.choices,
                "at_bound": self.at_bound,
                "informative": dict(zip(FEATURES, self.informative, strict=True)),
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
        return Fit(player, prior, (math.inf,) * d, 0, math.nan, math.nan, False, (0,) * d)
    found = found or fit_choices(rows, d)
    return Fit(player, Weights(found.theta), found.stderr, len(rows), found.log_loss,
               found.log_loss_uniform, found.at_bound, found.informative)


class ShowTracker:
    """Folds one audience's view and yields the shows it saw (the card not None), each with
    the cards the same refuter had shown the same suggester before."""

    def __init__(self) -> None:
        self.triples: dict[str, Triple] = {}
        """suggester -> its open suggestion's three cards."""
        self.shown: dict[tuple[str, str], set[str]] = {}

    def apply(self, event: Any) -> Show | None:
        if isinstance(event, MatchStarted):
            self.triples.clear()
            self.shown.clear()
        elif isinstance(event, Suggested):
            self.triples[event.seat] = (event.suspect, event.weapon, event.room)
        elif isinstance(event, CardShown) and event.card is not None:
            triple = self.triples.get(event.to)
            if triple is None or event.card not in triple:
                return None
            pair = (event.seat, event.to)
            before = frozenset(self.shown.get(pair, ()))
            self.shown.setdefault(pair, set()).add(event.card)
            return Show(event.seat, event.to, event.seq, triple, event.card, before)
        return None


def training_rows(events: Sequence[Any], players: Mapping[str, str]
                  ) -> Iterator[tuple[str, Row]]:
    """(the refuter's player, the show's design) for every real choice in a referee log."""
    hands: dict[str, frozenset[str]] = {}
    tracker = ShowTracker()
    for event in events:
        if isinstance(event, MatchStarted) and event.variant not in VARIANTS:
            return
        if isinstance(event, Dealt):
            hands = {s: frozenset(h or ()) for s, h in event.hands.items()}
        show = tracker.apply(event)
        if show is None:
            continue
        row = design(sorted(hands.get(show.refuter, frozenset())), show)
        if row is not None:
            yield players.get(show.refuter, show.refuter), row
