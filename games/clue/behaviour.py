"""`behaviour:shows`, Clue's behaviour layer (games.behaviour.BehaviourModel): the exact
uniform belief's deals weighed by how likely the cards the observer was shown were under a
model of which card a refuter shows (games.clue.show_model), learnt from stored matches by
`calibrate` and shown as a labelled estimate beside the exact belief, never instead of it.

Only what the observer saw is weighed: the cards shown *to it* (it is the suggester). A seat
or spectator that saw only "a card was shown" learns nothing from the choice (every deal
consistent with its view has the refuter holding one of the three, so a card is shown in all
of them: the likelihood is 1); the refuter knows its own hand, so its own choice weighs every
deal alike. A deal's weight is the product over the shows the observer saw of P(the card
shown | the cards of the three the deal gives the refuter).

The deals come from the observer's exact position (games.clue.belief.position_of): *listed*
when there are at most `exact_budget` of them within a work budget of search nodes (checked
against the exact belief's `consistent_deals`; the weighted marginals are then exact, error
0 — clue-mini), else drawn uniformly (games.clue.information.draw_deals: the exact sampler,
kept when every disjunction holds) and importance-weighted — self-normalised,
ESS = (Σw)²/Σw², a delta-method standard error per card and holder, more draws while the ESS
is under its target, and the shown value pulled toward the uniform belief by
shrink / (shrink + ESS). Budgets are deals, nodes and draws, seeded by the caller: the same
position gives the same answer on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from games.behaviour import Fitted, Matches, NotModelled, fit_players
from games.clue.belief import ClueBelief, position_of
from games.clue.events import parse_event
from games.clue.information import draw_deals
from games.clue.knowledge import ENVELOPE, Knowledge
from games.clue.show_model import (
    FEATURES,
    UNIFORM_CHOICE,
    Show,
    ShowTracker,
    Weights,
    fit,
    training_rows,
)
from games.clue.variants import VARIANTS
from inference.errors import Infeasible
from inference.inclusion_exclusion import NotAll, simplify
from inference.weighted import Budget, Weighted

JSON = dict[str, Any]
MODEL = "behaviour:shows"
LABEL = ("uniform deals weighed by how likely the cards shown to this observer were with the "
         "hands the deal gives the refuters: a logit model of which of the suggested cards a "
         "refuter shows (one already shown to this suggester, its kind), fitted on stored "
         "matches (an assumption about the players, not a fact)")
Z95 = 1.959963984540054
SAMPLES = 256
ESS_TARGET = 50.0
MAX_SAMPLES = 1024
EXACT_BUDGET = 2000
NODES_PER_DEAL = 50
"""The listing's search gives up after NODES_PER_DEAL × exact_budget nodes (work, not time)."""
SHRINK = 10.0
PRIOR = UNIFORM_CHOICE
"""The live layer's weights (no person's own history yet): a refuter picking uniformly among
the cards it holds, which the project's bots do (games.clue.bots) and the pooled fits on
their stores agree with (docs/calibration.md)."""

Deal = dict[str, int]
"""card -> holder index of the position (seats, then the three envelope slots)."""


def list_deals(knowledge: Knowledge, limit: int) -> list[Deal] | None:
    """Every deal consistent with the observer's view (card -> holder index), or None when
    there are more than `limit` or the search passes its node budget."""
    position, constraints = position_of(knowledge)
    try:
        simple = simplify(position, constraints)
    except Infeasible:
        return []
    allowed = simple.position.allowed
    cards = sorted(allowed, key=lambda c: (bin(allowed[c]).count("1"), c))
    left = list(simple.position.counts)
    out: list[Deal] = []
    where: Deal = {}
    nodes = [NODES_PER_DEAL * max(limit, 1)]  # the search's node budget, spent in place
    found = _walk_deals(0, cards, allowed, simple.constraints, left, where, out, nodes, limit)
    return out if found else None


def _walk_deals(i: int, cards: Sequence[str], allowed: Mapping[str, int],
                constraints: Sequence[NotAll[str]], left: list[int], where: Deal,
                out: list[Deal], nodes: list[int], limit: int) -> bool:
    """`list_deals`' search from card `i` on: appends the deals satisfying `constraints` to
    `out`, spending `nodes[0]`; False once past the node budget or `limit` deals. Module level,
    not a closure: a recursive closure is a reference cycle."""
    nodes[0] -= 1
    if nodes[0] < 0:
        return False
    if i == len(cards):
        if all(c.satisfied_by(where) for c in constraints):
            out.append(dict(where))
        return len(out) <= limit
    card = cards[i]
    mask = allowed[card]
    for h in range(len(left)):
        if mask >> h & 1 and left[h] > 0:
            left[h] -= 1
            where[card] = h
            ok = _walk_deals(i + 1, cards, allowed, constraints, left, where, out, nodes, limit)
            left[h] += 1
            del where[card]
            if not ok:
                return False
    return True


def _holder_names(knowledge: Knowledge) -> list[str]:
    """Holder index -> the name the belief shows (the three envelope slots as ENVELOPE)."""
    return [*knowledge.seats, ENVELOPE, ENVELOPE, ENVELOPE]


def log_weight(deal: Deal, shows: Sequence[Show], weights: Mapping[str, Weights],
               names: Sequence[str]) -> float:
    total = 0.0
    for show in shows:
        held = frozenset(c for c in show.triple if names[deal[c]] == show.refuter)
        total += weights[show.refuter].log_p(held, show)
        if total == -math.inf:
            break
    return total


def weigh_deals(uniform: Mapping[str, Mapping[str, float]], deals: Sequence[Deal],
                logs: Sequence[float], names: Sequence[str], exact: bool,
                shrink: float) -> Weighted:
    """The weighted card -> holder probabilities over these deals, their standard errors (0
    when listed), the ESS; sampled estimates mixed toward `uniform` by shrink/(shrink+ESS)."""
    top = max(logs)
    w = [math.exp(x - top) if x > -math.inf else 0.0 for x in logs]
    total = sum(w)
    squares = sum(x * x for x in w)
    ess = total * total / squares if squares else 0.0
    lam = 0.0 if exact else shrink / (shrink + ess)
    marginals: dict[str, dict[str, float]] = {}
    stderr: dict[str, dict[str, float]] = {}
    n = len(deals)
    for card, row in uniform.items():
        marginals[card] = {}
        stderr[card] = {}
        for holder, base in row.items():
            hits = [1.0 if names[d[card]] == holder else 0.0 for d in deals]
            p = sum(wi * x for wi, x in zip(w, hits, strict=True)) / total
            if exact:
                marginals[card][holder] = p
                stderr[card][holder] = 0.0
                continue
            # the difference estimator: the exact uniform value plus what the weights move
            # on the same draws (their plain mean is the uniform's sampled twin), so the
            # draws' noise in the uniform part cancels
            q = sum(hits) / n
            se = math.sqrt(sum((wi * (x - p) / total - (x - q) / n) ** 2
                               for wi, x in zip(w, hits, strict=True)))
            shifted = float(base) + p - q
            marginals[card][holder] = min(1.0, max(0.0, (1 - lam) * shifted
                                                   + lam * float(base)))
            stderr[card][holder] = se
    return Weighted(marginals, stderr, ess, len(deals), exact)


def unweighed(uniform: Mapping[str, Mapping[str, float]], exact: bool) -> Weighted:
    """The layer equal to the uniform belief: `exact` when no show is weighed (every deal
    weighs the same), not exact when no deal could be drawn (not computed)."""
    marginals = {card: dict(row) for card, row in uniform.items()}
    zero = {card: dict.fromkeys(row, 0.0) for card, row in uniform.items()}
    return Weighted(marginals, zero, 0.0, 0, exact)


def behaviour_weighted(knowledge: Knowledge, consistent: int | None,
                       uniform: Mapping[str, Mapping[str, float]], shows: Sequence[Show],
                       weights: Mapping[str, Weights], budget: Budget,
                       rng: random.Random) -> Weighted:
    """The behaviour layer's card -> holder odds (`uniform`: the exact belief's, by card;
    `consistent`: its count of consistent deals, when exact)."""
    shows = [s for s in shows if s.refuter in weights]
    if not uniform or not shows:
        return unweighed(uniform, True)
    names = _holder_names(knowledge)
    listed = list_deals(knowledge, budget.exact_budget) if consistent is not None else None
    if listed is not None and len(listed) == consistent:
        return weigh_deals(uniform, listed, [log_weight(d, shows, weights, names)
                                             for d in listed], names, True, budget.shrink)
    deals: list[Deal] = []
    logs: list[float] = []
    cap = max(budget.max_samples, budget.samples)
    while True:
        got = draw_deals(knowledge, rng, budget.samples)
        if not got:
            break
        deals.extend(got)
        logs.extend(log_weight(d, shows, weights, names) for d in got)
        if len(deals) >= cap or _ess(logs) >= budget.ess_target:
            break
    if not deals or max(logs) == -math.inf:
        return unweighed(uniform, False)
    return weigh_deals(uniform, deals, logs, names, False, budget.shrink)


def _ess(logs: Sequence[float]) -> float:
    top = max(logs)
    if top == -math.inf:
        return 0.0
    w = [math.exp(x - top) for x in logs]
    return sum(w) ** 2 / sum(x * x for x in w)


def by_card(snapshot: JSON) -> dict[str, dict[str, float]]:
    """The snapshot's holder -> card odds as card -> holder."""
    out: dict[str, dict[str, float]] = {}
    for holder, row in (snapshot.get("marginals") or {}).items():
        for card, p in row.items():
            out.setdefault(card, {})[holder] = float(p)
    return out


class ShowWeigher:
    """One observer's behaviour layer along a log, fed the observer's view (games.behaviour
    .Weigher): the exact belief beside it, and every card shown to the observer."""

    def __init__(self, observer: str, weights: Mapping[str, Weights]) -> None:
        self.belief = ClueBelief(observer)
        self.observer = observer
        self.weights = {s: w for s, w in weights.items() if s != observer}
        self.tracker = ShowTracker()
        self.shows: list[Show] = []

    def apply(self, event: Any) -> None:
        self.belief.apply(event)
        show = self.tracker.apply(event)
        if show is not None and show.suggester == self.observer \
                and show.refuter != self.observer:
            self.shows.append(show)

    def weigh(self, index: int, snapshot: JSON, budget: Budget,
              rng: random.Random) -> Weighted:
        consistent = snapshot.get("consistent_deals") if snapshot.get("status") == "exact" \
            else None
        return behaviour_weighted(self.belief.knowledge, consistent, by_card(snapshot),
                                  self.shows, self.weights, budget, rng)


def behaviour_odds(events: Sequence[Any], observer: str, rng: random.Random,
                   weights: Weights = PRIOR) -> JSON:
    """The behaviour layer after the observer's own `events`, belief-shaped (holder -> card
    marginals and stderr), with error_95, ess, samples, exact. NotModelled when no odds are
    shown there."""
    if not events:
        raise NotModelled("no match")
    weigher = ShowWeigher(observer, {})
    for event in events:
        weigher.apply(event)
    k = weigher.belief.knowledge
    if not k.dealt or k.over:
        raise NotModelled("no hand is in play")
    weigher.weights = {s: weights for s in k.seats if s != observer}
    snapshot = weigher.belief.snapshot_dict()
    if snapshot.get("status") not in ("exact", "estimate"):
        raise NotModelled("the exact belief has no odds here")
    budget = Budget(SAMPLES, EXACT_BUDGET, ESS_TARGET, MAX_SAMPLES, 0, SHRINK)
    weighted = weigher.weigh(len(events) - 1, snapshot, budget, rng)
    marginals, stderr, worst = weighted.by_holder()
    return {
        "seq": snapshot.get("seq"), "observer": observer, "model": MODEL, "label": LABEL,
        "status": "live" if weighted.exact else "estimate", "exact": weighted.exact,
        "consistent_deals": snapshot.get("consistent_deals"), "marginals": marginals,
        "stderr": stderr, "error_95": None if weighted.exact else round(Z95 * worst, 6),
        "ess": round(weighted.ess, 2), "samples": weighted.samples, "shrink": SHRINK,
        "weighed": len(weigher.shows), "weights": list(weights.theta),
    }


class BehaviourShows:
    """games.behaviour.BehaviourModel for Clue (a plain object: pickles by class)."""

    name = MODEL
    label = LABEL

    def check(self, state: Any) -> None:
        if state is None or getattr(state, "phase", "deal") in ("deal", "over"):
            raise NotModelled("no hand is in play")

    def odds(self, view: Sequence[JSON], observer: str, seed: int) -> JSON:
        try:
            return behaviour_odds([parse_event(e) for e in view], observer, random.Random(seed))
        except NotModelled as error:
            return {"error": str(error)}

    def covers(self, variant: str) -> bool:
        return variant in VARIANTS

    def fit(self, matches: Matches, strength: float | None = None) -> Fitted:
        """θ pooled and per player (pulled toward the pool by `strength`, None: chosen on
        held-out matches) from every real choice of a card in the matches."""
        return fit_players(matches, training_rows, len(FEATURES), partial(fit, prior=PRIOR),
                           strength)

    def weigher(self, events: Sequence[Any], players: Mapping[str, str], fitted: Fitted,
                observer: str) -> ShowWeigher:
        per, pooled = fitted.params
        seats = {seat: per.get(name, pooled) for seat, name in players.items()}
        return ShowWeigher(observer, seats)


BEHAVIOUR_SHOWS = BehaviourShows()
