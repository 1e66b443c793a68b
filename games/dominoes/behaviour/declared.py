"""`behaviour:greedy` as dominoes declares it (games.behaviour.BehaviourModel): the live odds
(games.dominoes.behaviour.odds) and what calibrate needs to score it: its β fitted on stored
matches (games.dominoes.behaviour.temperature) and, for each observer, the behaviour belief at
each position (importance weights over exact uniform deals, inference.weighted).

In draw-2 the plays made before a seat's latest draw are left out of the likelihood
(games.dominoes.behaviour.model).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.behaviour import Fitted, NotModelled
from games.dominoes.behaviour import model as bhv
from games.dominoes.behaviour.odds import odds_job
from games.dominoes.behaviour.temperature import Choice, choices, fit_players
from games.dominoes.belief_partnership import Belief
from games.dominoes.belief_two import TwoPlayerBelief
from games.dominoes.revealed import tile_name
from games.dominoes.state import MatchState
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import VARIANTS
from inference.sampler import DealSampler
from inference.weighted import Budget, Weighted, behaviour_belief

JSON = dict[str, Any]


class HandWeigher:
    """One observer's behaviour belief along a referee log, fed the observer's view."""

    def __init__(self, events: Sequence[Any], players: Mapping[str, str],
                 betas: Mapping[str, float], default: float, observer: str,
                 variant: str) -> None:
        self.observer = observer
        rules = VARIANTS[variant]
        self.raw: Belief | TwoPlayerBelief = (Belief(observer, rules) if rules.partnership
                                              else TwoPlayerBelief(observer, rules))
        """The dominoes belief itself: the exact sampler needs its position and condition."""
        self.likelihoods: dict[int, bhv.HandLikelihood] = {}
        for start, stop in bhv.hands_of(events):
            decisions = bhv.hand_decisions(events, start, stop, players)
            likelihood = bhv.HandLikelihood(decisions, betas, default,
                                            draws=bhv.hand_draws(events, start, stop))
            for index in range(start, stop):
                self.likelihoods[index] = likelihood

    def apply(self, event: Any) -> None:
        self.raw.apply(event)

    def weigh(self, index: int, snapshot: JSON, budget: Budget,
              rng: random.Random) -> Weighted:
        uniform: dict[str, dict[str, float]] = {}
        for holder, row in (snapshot.get("marginals") or {}).items():
            for item, p in row.items():
                uniform.setdefault(item, {})[holder] = float(p)
        likelihood = self.likelihoods[index]
        consistent = snapshot.get("consistent_deals")
        return behaviour_belief(
            uniform, int(consistent) if consistent is not None else None,
            snapshot.get("remaining") or {}, parse_tile, tile_name, DealSampler.of(self.raw),
            lambda deal: likelihood.log_weight(deal, index + 1, self.observer), rng,
            budget.samples, budget.exact_budget, budget.ess_target, budget.max_samples,
            budget.moves, budget.shrink)


class BehaviourGreedy:
    """games.behaviour.BehaviourModel for dominoes (a plain object: pickles by class)."""

    name = bhv.MODEL
    label = bhv.LABEL

    def check(self, state: MatchState | None) -> None:
        if state is None or state.phase != "playing" or state.hand is None:
            raise NotModelled("no hand is in play")

    def odds(self, view: Sequence[JSON], observer: str, seed: int) -> JSON:
        return odds_job(list(view), observer, seed)

    def covers(self, variant: str) -> bool:
        return variant in VARIANTS

    def fit(self, matches: Sequence[tuple[Sequence[Any], Mapping[str, str]]],
            strength: float | None = None) -> Fitted:
        """β per player (and pooled) from every choice in the matches. `strength` is not used:
        a player's own β (one parameter) needs at least 10 choices, else the pooled one."""
        data: list[Choice] = []
        for events, players in matches:
            for start, stop in bhv.hands_of(events):
                data.extend(choices(bhv.hand_decisions(events, start, stop, players)))
        pooled, per = fit_players(data)
        return Fitted([f.to_dict() for f in (pooled, *per.values())],
                      ({name: f.beta for name, f in per.items()}, pooled.beta))

    def weigher(self, events: Sequence[Any], players: Mapping[str, str], fitted: Fitted,
                observer: str) -> HandWeigher:
        betas, default = fitted.params
        variant = str(getattr(events[0], "variant", "")) if events else ""
        return HandWeigher(events, players, betas, default, observer, variant)


BEHAVIOUR_GREEDY = BehaviourGreedy()
