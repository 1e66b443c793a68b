"""The behaviour belief of one observer's own view, now: what the server's `odds` request
answers beside the exact uniform belief (never instead of it).

Input: the observer's own events (a seat's, or the spectator's: already redacted for it by
the server), nothing else; so the answer cannot hold a tile the observer may not see. The
uniform belief is folded from them (games.dominoes, `Game.belief`); the behaviour model
weighs its deals by the likelihood of the plays seen (games.dominoes.behaviour.model, from the
observer's view: `observed_decisions`), with the βs of games.dominoes.behaviour.betas. Exact (every
consistent deal listed and weighted) when the deals are few; else importance-weighted exact
uniform draws, more while the ESS is under its target, with per-marginal standard errors.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.dominoes.adapter import RULES
from games.dominoes.behaviour import model as bhv
from games.dominoes.behaviour.betas import DEFAULT, betas_for
from games.dominoes.revealed import tile_name
from games.dominoes.seat_view import SeatView
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import get_variant
from inference.sampler import DealSampler
from inference.weighted import behaviour_belief

MODELS = (bhv.MODEL,)
"""The models `odds` offers (the uniform one is the `belief` feed itself)."""
Z95 = 1.959963984540054
SAMPLES = 128
ESS_TARGET = 30.0
MAX_SAMPLES = 1024
EXACT_BUDGET = 2000
SHRINK = 10.0
"""The shown estimate at a sampled position leans on the exact uniform belief with weight
SHRINK / (SHRINK + ESS) (inference.weighted). On block-2 greedy players' sampled positions
(`calibrate ... --limit 30 --shrink K`, docs/calibration.md) K = 1 held 4 of 10 reliability
bins and K = 10 7 of 10 with a lower log loss; K = 30 was underconfident."""
MOVES = 0
"""Resample-move proposals per tile after the draws (inference.weighted.resample_move).
It makes the sampled estimates better calibrated (docs/calibration.md) but took 1-20 s a
position with up to 1,024 draws in a rough check (`behaviour_odds(..., moves=4)` on greedy
partnership-6 and block-2 positions, the machine loaded): too slow for a live answer, so
off here; the answer carries its ESS and error instead."""


def behaviour_odds(events: Sequence[Any], observer: str, rng: random.Random, *,
                   samples: int = SAMPLES, ess_target: float = ESS_TARGET,
                   max_samples: int = MAX_SAMPLES, exact_budget: int = EXACT_BUDGET,
                   moves: int = MOVES, shrink: float = SHRINK,
                   betas: Mapping[str, float] | None = None) -> dict[str, Any]:
    """The behaviour belief after `events` (the observer's own, in order) as a belief-shaped
    dict: marginals and stderr by holder and tile, error_95, ess, samples, exact, status.
    NotModelled when no hand is in play."""
    if not events:
        raise bhv.NotModelled("no match has started")
    variant = get_variant(str(getattr(events[0], "variant", "")))
    belief = RULES.belief(observer, variant.name)
    view = SeatView(observer, observer)
    for event in events:
        belief.apply(event)
        view.apply(event)
    snapshot = belief.snapshot_dict()
    if snapshot.get("status") != "live" or view.state is None or view.state.hand is None:
        raise bhv.NotModelled("no hand is in play")
    uniform: dict[str, dict[str, float]] = {}
    for holder, row in (snapshot.get("marginals") or {}).items():
        for item, p in row.items():
            uniform.setdefault(item, {})[holder] = float(p)
    decisions, draws = bhv.observed_decisions(view)
    if betas is None:
        betas = betas_for(variant.name, variant.partnership)
    likelihood = bhv.HandLikelihood(decisions, betas, DEFAULT, draws=draws)
    upto = len(view.events)
    consistent = snapshot.get("consistent_deals")
    weighted = behaviour_belief(
        uniform, int(consistent) if consistent is not None else None,
        snapshot.get("remaining") or {}, parse_tile, tile_name,
        DealSampler.of(belief.belief),
        lambda deal: likelihood.log_weight(deal, upto, observer), rng, samples, exact_budget,
        ess_target, max_samples, moves, shrink)
    marginals, stderr, worst = weighted.by_holder()
    return {
        "seq": getattr(events[-1], "seq", len(events)),
        "observer": observer,
        "model": bhv.MODEL,
        "label": bhv.LABEL,
        "hand": snapshot.get("hand"),
        "status": "live" if weighted.exact else "estimate",
        "exact": weighted.exact,
        "consistent_deals": consistent,
        "remaining": snapshot.get("remaining") or {},
        "marginals": marginals,
        "stderr": stderr,
        "error_95": None if weighted.exact else round(Z95 * worst, 6),
        "ess": round(weighted.ess, 2),
        "samples": weighted.samples,
        "moved": weighted.moved,
        "shrink": shrink,
        "betas": {seat: likelihood.beta(name) for seat, name in _players(events).items()
                  if seat != observer},
    }


def _players(events: Sequence[Any]) -> dict[str, str]:
    return dict(getattr(events[0], "players", None) or {})


def odds_job(events: list[dict[str, Any]], observer: str, seed: int) -> dict[str, Any]:
    """behaviour_odds in a worker process, from JSON-able events (server/tables/odds.py).
    {"error": reason} when there is nothing to estimate."""
    from games.dominoes.events import parse_event

    try:
        return behaviour_odds([parse_event(e) for e in events], observer,
                              random.Random(seed))
    except bhv.NotModelled as error:
        return {"error": str(error)}
