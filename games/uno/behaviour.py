"""`behaviour:plays`, Uno's behaviour layer (games.behaviour.BehaviourModel): the exact uniform
belief's arrangements weighed by how likely the plays seen were under a model of how the
players choose their card (games.uno.choice_model), learnt from stored matches by `calibrate`
and shown as a labelled estimate beside the exact belief, never instead of it.

An arrangement of the hidden cards (each kind's copies per column: every unknown hand's
batches, the deck; games.uno.counting) fixes the hand each unknown seat held at each of its
plays (its batches drawn so far, less what it played), so its weight is the product over
those plays of P(the move made | that hand). The arrangements come from the same exact
programme as the uniform belief: *listed* with their multiplicities when there are at most
`exact_budget` distinct ones (the weighted marginals are then exact, error 0), else drawn
exactly and uniformly (`Programme.sample_rows`, or the block count's when the plain
programme is over its budget) and importance-weighted — self-normalised, ESS = (Σw)²/Σw²,
a delta-method standard error per event, more draws while the ESS is under its target, and
the shown value pulled toward the uniform belief by shrink / (shrink + ESS). Where neither
exact programme fits its budget the layer is not computed (the answer says so). Budgets are
draws and listed arrangements, seeded by the caller: the same position gives the same answer
on any machine.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from games.behaviour import Fitted, Matches, NotModelled, fit_players
from games.uno.belief import UnoBelief
from games.uno.choice_model import (
    FEATURES,
    Decision,
    Weights,
    decisions,
    fit,
    training_rows,
)
from games.uno.counting import DECK, Position, Programme, state_bound
from games.uno.events import CardPlayed, parse_event
from games.uno.revealed import NO, YES, uno_forecasts
from games.uno.state import UnoState
from games.uno.variants import VARIANTS
from inference.weighted import Budget, Weighted

JSON = dict[str, Any]
MODEL = "behaviour:plays"
LABEL = ("uniform arrangements weighed by how likely each seat's plays were with the hand the "
         "arrangement gives it: a logit model of which legal card a player plays (wild or "
         "coloured, the colour in force, action cards, the colour it keeps), fitted on stored "
         "matches (an assumption about the players, not a fact)")
Z95 = 1.959963984540054
SAMPLES = 256
ESS_TARGET = 50.0
MAX_SAMPLES = 1024
EXACT_BUDGET = 2000
SHRINK = 10.0
PRIOR = Weights((-15.27, -1.57, 3.49, 7.92))
"""The live layer's weights (no person's own history yet): the pooled fit on 200 uno-2-mini
matches of the project's greedy bots (docs/calibration.md). Steep (greedy holds its wilds and
keeps the colour it holds most); people are not known to play so, and the label says it is an
assumption."""

Rows = dict[str, list[int]]
"""kind -> copies per column of the position (the deck last)."""


def enumerate_rows(programme: Programme, limit: int) -> list[tuple[Rows, int]] | None:
    """Every arrangement the exact programme counts, as (rows, labelled multiplicity); None
    when there are more than `limit` distinct ones."""
    out: list[tuple[Rows, int]] = []
    chosen: list[tuple[int, ...]] = []

    start = (0,) * len(programme.shape)
    return out if _walk_rows(0, start, 1, programme, limit, chosen, out) else None


def _walk_rows(i: int, state: tuple[int, ...], weight: int, programme: Programme, limit: int,
               chosen: list[tuple[int, ...]], out: list[tuple[Rows, int]]) -> bool:
    """`enumerate_rows`' search from kind `i` on, the rows so far in `chosen`: appends each
    arrangement to `out`; False once there are more than `limit`. Module level, not a closure:
    a recursive closure is a reference cycle."""
    kinds = programme.kinds
    shape = programme.shape
    if i == len(kinds):
        out.append(({k: list(r) for k, r in zip(kinds, chosen, strict=True)}, weight))
        return len(out) <= limit
    for option in programme.options[i]:
        shift = programme._shift(option)
        nxt = tuple(a + b for a, b in zip(state, shift, strict=True))
        if any(v >= n for v, n in zip(nxt, shape, strict=True)):
            continue
        if not programme.backward[i + 1][nxt]:
            continue
        chosen.append(option.row)
        ok = _walk_rows(i + 1, nxt, weight * int(option.weight), programme, limit, chosen, out)
        chosen.pop()
        if not ok:
            return False
    return True


class Arrangements:
    """The hands an arrangement gives at the plays to weigh, and what every place holds now."""

    def __init__(self, position: Position, plays: Mapping[int, Decision]) -> None:
        self.position = position
        self.deck_column = next(c for c, col in enumerate(position.columns)
                                if col.owner == DECK)
        # per owner: its plays to weigh, each with the columns drawn before it and the
        # kinds played before it; and all its draws and plays (for what it holds now)
        self.checks: list[tuple[Decision, list[int], Counter[str]]] = []
        self.final: dict[str, tuple[list[int], Counter[str]]] = {}
        for owner, steps in position.timelines.items():
            drawn: list[int] = []
            played: Counter[str] = Counter()
            for step in steps:
                if step.what == "draw":
                    drawn.append(step.column)
                elif step.what == "play":
                    decision = plays.get(step.seq)
                    if decision is not None and decision.seat == owner:
                        self.checks.append((decision, list(drawn), +played))
                    played[step.kind] += 1
            self.final[owner] = (drawn, played)

    def log_weight(self, rows: Rows, weights: Mapping[str, Weights],
                   cache: dict[tuple[Any, ...], float]) -> float:
        total = 0.0
        for decision, drawn, played in self.checks:
            hand: Counter[str] = Counter()
            for kind, row in rows.items():
                n = sum(row[c] for c in drawn) - played[kind]
                if n:
                    hand[kind] = n
            key = (decision.seq, tuple(sorted(hand.items())))
            value = cache.get(key)
            if value is None:
                value = weights[decision.seat].log_p(hand, decision)
                cache[key] = value
            total += value
            if total == -math.inf:
                break
        return total

    def holdings(self, rows: Rows) -> dict[str, Counter[str]]:
        """What every unknown hand and the deck hold now."""
        out: dict[str, Counter[str]] = {}
        for owner, (drawn, played) in self.final.items():
            out[owner] = Counter({k: sum(row[c] for c in drawn) - played[k]
                                  for k, row in rows.items()})
        out[DECK] = Counter({k: row[self.deck_column] for k, row in rows.items()})
        return out


def _event(item: str) -> tuple[str, str, int]:
    place, rest = item.split(":", 1)
    kind, _, at_least = rest.partition(">=")
    return place, kind, int(at_least) if at_least else 1


def weigh_events(uniform: Mapping[str, Mapping[str, float]],
                 held: Sequence[Mapping[str, Counter[str]]], log_weights: Sequence[float],
                 multiplicity: Sequence[float], exact: bool, shrink: float) -> Weighted:
    """The events' weighted probabilities (item -> yes/no -> p) over arrangements with these
    holdings, log weights and multiplicities (1 for draws), their standard errors (0 when
    listed), and the ESS; sampled estimates mixed toward `uniform` by shrink / (shrink + ESS)."""
    top = max(log_weights)
    w = [m * math.exp(x - top) if x > -math.inf else 0.0
         for x, m in zip(log_weights, multiplicity, strict=True)]
    total = sum(w)
    squares = sum(x * x for x in w)
    ess = total * total / squares if squares else 0.0
    lam = 0.0 if exact else shrink / (shrink + ess)
    marginals: dict[str, dict[str, float]] = {}
    stderr: dict[str, dict[str, float]] = {}
    for item, base in uniform.items():
        place, kind, at_least = _event(item)
        hits = [1.0 if h[place][kind] >= at_least else 0.0 for h in held]
        p = sum(wi * x for wi, x in zip(w, hits, strict=True)) / total
        se = 0.0 if exact else math.sqrt(sum(wi * wi * (x - p) ** 2 for wi, x in
                                             zip(w, hits, strict=True))) / total
        shown = min(1.0, max(0.0, (1 - lam) * p + lam * float(base.get(YES, 0.0))))
        marginals[item] = {YES: shown, NO: 1.0 - shown}
        stderr[item] = {YES: se, NO: se}
    return Weighted(marginals, stderr, ess, len(held), exact)


def unweighed(uniform: Mapping[str, Mapping[str, float]], exact: bool) -> Weighted:
    """The layer equal to the uniform belief: `exact` when no play is weighed (every
    arrangement weighs the same), not exact when no exact programme fits (not computed)."""
    marginals = {item: dict(row) for item, row in uniform.items()}
    zero = {item: dict.fromkeys(row, 0.0) for item, row in uniform.items()}
    return Weighted(marginals, zero, 0.0, 0, exact)


def behaviour_weighted(belief: UnoBelief, uniform: Mapping[str, Mapping[str, float]],
                       plays: Mapping[int, Decision], weights: Mapping[str, Weights],
                       budget: Budget, rng: random.Random) -> Weighted:
    """The behaviour layer's events at the belief's position (`uniform`: its exact events,
    uno_forecasts of its snapshot)."""
    if not uniform:
        return unweighed(uniform, True)
    position = belief.ledger.position()
    arrangements = Arrangements(position, {s: d for s, d in plays.items()
                                           if d.seat in weights})
    if not arrangements.checks:
        return unweighed(uniform, True)
    cache: dict[tuple[Any, ...], float] = {}

    def log_weight(rows: Rows) -> float:
        return arrangements.log_weight(rows, weights, cache)

    draw: Callable[[random.Random], Rows]
    if state_bound(position) <= belief.budget:
        programme = Programme(position, exact=belief.integers)
        listed = enumerate_rows(programme, budget.exact_budget) if belief.integers else None
        if listed is not None:
            return weigh_events(uniform, [arrangements.holdings(rows) for rows, _ in listed],
                                [log_weight(r) for r, _ in listed],
                                [float(m) for _, m in listed], True, budget.shrink)
        kinds = programme.kinds

        def draw(r: random.Random) -> Rows:
            return {k: list(row) for k, row in zip(kinds, programme.sample_rows(r),
                                                   strict=True)}
    else:
        blocks = belief.blocks(position)
        if blocks is None:
            return unweighed(uniform, False)
        width = len(position.columns)

        def draw(r: random.Random) -> Rows:
            got = blocks.sample_rows(r)
            return {k: list(got.get(k, [0] * width)) for k in position.kinds}
    held: list[dict[str, Counter[str]]] = []
    logs: list[float] = []
    cap = max(budget.max_samples, budget.samples)
    while True:
        for _ in range(budget.samples):
            rows = draw(rng)
            held.append(arrangements.holdings(rows))
            logs.append(log_weight(rows))
        if len(held) >= cap or _ess(logs) >= budget.ess_target:
            break
    if max(logs) == -math.inf:  # cannot happen for consistent draws; say so, do not divide
        return unweighed(uniform, False)
    return weigh_events(uniform, held, logs, [1.0] * len(held), False, budget.shrink)


def _ess(logs: Sequence[float]) -> float:
    top = max(logs)
    if top == -math.inf:
        return 0.0
    w = [math.exp(x - top) for x in logs]
    return sum(w) ** 2 / sum(x * x for x in w)


class PlayWeigher:
    """One observer's behaviour layer along a log, fed the observer's view (games.behaviour
    .Weigher): the exact belief beside it, and the public context of every play."""

    def __init__(self, variant: str, observer: str, weights: Mapping[str, Weights]) -> None:
        self.belief = UnoBelief(observer, variant)
        self.observer = observer
        self.weights = {s: w for s, w in weights.items() if s != observer}
        self.plays: dict[int, Decision] = {}
        self.state: UnoState | None = None

    def apply(self, event: Any) -> None:
        before = self.belief.ledger.state
        self.belief.apply(event)
        if isinstance(event, CardPlayed) and before is not None and before.dealt \
                and event.seat != self.observer:
            self.plays[event.seq] = Decision(event.seat, event.seq, before.top, before.colour,
                                             before.variant.deck.colours,
                                             (event.card, event.colour))

    def weigh(self, index: int, snapshot: JSON, budget: Budget,
              rng: random.Random) -> Weighted:
        return behaviour_weighted(self.belief, uno_forecasts(snapshot), self.plays,
                                  self.weights, budget, rng)


def behaviour_odds(events: Sequence[Any], observer: str, rng: random.Random,
                   weights: Weights = PRIOR) -> JSON:
    """The behaviour layer after the observer's own `events`, belief-shaped (marginals and
    stderr by place and item, as the belief shows them: "r7", "r7>=2"), with error_95, ess,
    samples, exact. NotModelled when no odds are shown there."""
    if not events:
        raise NotModelled("no match")
    variant = str(getattr(events[0], "variant", ""))
    weigher = PlayWeigher(variant, observer, {"S": weights, "N": weights})
    for event in events:
        weigher.apply(event)
    state = weigher.belief.ledger.state
    if state is None or not state.dealt or state.over:
        raise NotModelled("no hand is in play")
    snapshot = weigher.belief.snapshot_dict()
    if snapshot.get("status") != "exact":
        raise NotModelled("the behaviour layer is computed over the exact belief only")
    budget = Budget(SAMPLES, EXACT_BUDGET, ESS_TARGET, MAX_SAMPLES, 0, SHRINK)
    weighted = weigher.weigh(len(events) - 1, snapshot, budget, rng)
    marginals: dict[str, dict[str, float]] = {}
    stderr: dict[str, dict[str, float]] = {}
    for item, row in weighted.marginals.items():
        place, kind, at_least = _event(item)
        name = kind if at_least == 1 else f"{kind}>={at_least}"
        if row[YES] > 0:
            marginals.setdefault(place, {})[name] = round(row[YES], 6)
            stderr.setdefault(place, {})[name] = round(weighted.stderr[item][YES], 6)
    worst = max((e for row in stderr.values() for e in row.values()), default=0.0)
    return {
        "seq": snapshot.get("seq"), "observer": observer, "model": MODEL, "label": LABEL,
        "hand": 1, "status": "live" if weighted.exact else "estimate", "exact": weighted.exact,
        "consistent_deals": snapshot.get("consistent_deals"),
        "remaining": snapshot.get("remaining") or {}, "marginals": marginals,
        "stderr": stderr, "error_95": None if weighted.exact else round(Z95 * worst, 6),
        "ess": round(weighted.ess, 2), "samples": weighted.samples, "shrink": SHRINK,
        "weighed": len(weigher.plays), "weights": list(weights.theta),
    }


class BehaviourPlays:
    """games.behaviour.BehaviourModel for Uno (a plain object: pickles by class)."""

    name = MODEL
    label = LABEL

    def check(self, state: UnoState | None) -> None:
        if state is None or not state.dealt or state.over:
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
                observer: str) -> PlayWeigher:
        per, pooled = fitted.params
        variant = str(getattr(events[0], "variant", ""))
        seats = {seat: per.get(name, pooled) for seat, name in players.items()}
        return PlayWeigher(variant, observer, seats)


BEHAVIOUR_PLAYS = BehaviourPlays()


def plays_of(events: Sequence[Any]) -> Iterator[Decision]:
    """Every play's public decision along a log (for tests and tools)."""
    for _, _, decision in decisions(events):
        yield decision
