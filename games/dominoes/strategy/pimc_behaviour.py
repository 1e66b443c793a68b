"""Deals for pimc drawn from the behaviour posterior instead of the uniform one.

The uniform posterior (.sampling.sampler) treats every deal consistent with the moves as
equally likely. The behaviour posterior (games.dominoes.behaviour.model, `behaviour:greedy`)
also asks how likely the plays seen were with each deal: each other seat plays legal move j with
probability ∝ exp(β·greedy score of j), β per player name (games.dominoes.behaviour.betas).

Per decision: `pool` deals are drawn exactly and uniformly from the seat's belief — or, when
the consistent deals are at most `pool` and no disjunction is pending, every one of them is
listed — and weighted by the likelihood of the plays since each seat's latest draw
(HandLikelihood.log_weight). pimc's deals are then drawn from that weighted set in
proportion to the weights (sampling-importance-resampling): the same deal may come twice,
and games.dominoes.strategy.sampling solves it once. Everything comes from the seat's own view
(observed_decisions), so no hidden tile is read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from games.dominoes.behaviour.betas import DEFAULT, betas_for
from games.dominoes.behaviour.model import HandLikelihood, observed_decisions
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.sampling import Deal, complete_deal
from games.dominoes.tiles import as_seat
from inference.sampler import DealSampler
from inference.weighted import list_deals


@dataclass(frozen=True)
class WeightedPool:
    """The weighted deals one decision draws from, and what they say of themselves."""

    deals: list[dict[str, list]]
    weights: list[float]
    exact: bool
    """Every consistent deal listed (else `pool` uniform draws)."""

    @property
    def ess(self) -> float:
        total = sum(self.weights)
        return total * total / sum(w * w for w in self.weights)


def weighted_pool(view: SeatView, rng: random.Random, pool: int,
                  betas: Mapping[str, float] | None = None,
                  default: float = DEFAULT, flat: bool = False) -> WeightedPool:
    """The seat's unseen-tile deals weighted by the behaviour model (module docstring);
    `flat`: every weight 1 (the uniform posterior through the same pool: an ablation)."""
    state = view.state
    assert state is not None and state.hand is not None
    belief = view.belief()
    sampler = DealSampler.of(belief)
    if betas is None:
        betas = betas_for(state.variant.name, state.variant.partnership)
    decisions, draws = observed_decisions(view)
    likelihood = HandLikelihood(decisions, betas, default, draws=draws)
    deals: list[dict[str, list]] | None = None
    exact = False
    if len(sampler.parts) == 1 and sampler.total <= pool:
        position = sampler.parts[0]
        support = {t: [h for i, h in enumerate(position.holders) if mask >> i & 1]
                   for t, mask in position.allowed.items()}
        listed = list_deals(support, dict(zip(position.holders, position.counts, strict=True)),
                            pool)
        if listed is not None and len(listed) == sampler.total:
            deals, exact = listed, True
    if deals is None:
        deals = [sampler(rng) for _ in range(pool)]
    upto = len(view.events)
    if flat:
        return WeightedPool(deals, [1.0] * len(deals), exact)
    logs = [likelihood.log_weight(d, upto, view.seat) for d in deals]
    top = max(logs)
    return WeightedPool(deals, [math.exp(x - top) for x in logs], exact)


def behaviour_sampler(view: SeatView, rng: random.Random, pool: int,
                      betas: Mapping[str, float] | None = None, default: float = DEFAULT,
                      flat: bool = False
                      ) -> tuple[Callable[[random.Random], Deal], WeightedPool]:
    """A function drawing whole deals (as games.dominoes.strategy.sampling.sampler does) from the
    behaviour posterior, and the weighted pool it resamples."""
    weighted = weighted_pool(view, rng, pool, betas, default, flat)
    state = view.state
    assert state is not None and state.hand is not None
    hand, seat = state.hand, as_seat(view.seat)
    own = sorted(hand.hands[seat] or ())
    indices = range(len(weighted.deals))

    def draw(r: random.Random) -> Deal:
        k = r.choices(indices, weights=weighted.weights)[0]
        return complete_deal(weighted.deals[k], seat, own, state.variant, hand.boneyard, r)

    return draw, weighted
