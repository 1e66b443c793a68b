"""One observer's belief: exact where the counting fits a stated budget, else a labelled
estimate with its 95% error (never silently).

Exact: every labelled assignment of the hidden cards consistent with the history, equally
likely, counted by counting.Programme (a state per batch fill; used while that fits
STATE_BUDGET) or else by blocks.BlockProgramme (batches no remaining kind tells apart merged;
Python ints; used while it fits BLOCK_BUDGET states in one of its walk ORDERS). Beyond
both: chain.py's Markov chain over consistent arrangements, with its effective sample size
and a 95% half-width per probability ("status": "estimate", "error_95" the largest,
"marginal_error_95" each, "ess"); with fewer than MIN_ESS effective samples it says so in
words and shows no probabilities. Only when no chain finds a consistent arrangement,
estimate.py's importance-weighted walks (rejection when no guide fits)."""

from __future__ import annotations

import math
import random
from typing import Any

from games.interface import JSON, SPECTATOR
from games.uno import chain
from games.uno.blocks import BlockProgramme, OverBudget
from games.uno.cards import COLOUR_NAMES
from games.uno.counting import DECK, Infeasible, Position, Programme, Result, state_bound
from games.uno.estimate import Weighted, draw, importance, summarise, summarise_weighted
from games.uno.events import MatchEnded, UnoEvent
from games.uno.ledger import Ledger
from games.uno.seed_belief import MODEL as SEED_MODEL
from games.uno.seed_belief import SeedBelief

MODEL = "uniform: every deal and draw consistent with the public moves is equally likely"
STATE_BUDGET = 32768
"""Most states per layer counting.Programme may have (prod of batch sizes + 1)."""
BLOCK_BUDGET = 1000
"""Most states in one layer BlockProgramme may reach before the belief is estimated."""
ORDERS = ("last", "fewest")
"""The block count's walk orders, tried in turn: latest last check first (cheap), then the
greedy fewest-options-first (its choice costs option lists, and fits about twice as many
long draw sequences)."""
TRIES, KEEP = 200, 200
"""The estimate's proposals at most, and the kept draws it stops at."""
PROPOSAL_BUDGET = 300
"""Block states the rejection fallback's relaxed proposal may have."""
GUIDE_BUDGET = 1000
"""Block states the importance sampler's relaxed guide may have."""
PATHS = 100
"""Importance-weighted walks per estimate."""
ORDER_WORK = 60000
"""Compositions the greedy order may check before the rest of its kinds follow by latest
last check (about 0.2 s here; the estimate walks in the order too, and a better order
gives it a larger effective sample)."""
BLOCK_WORK = 500_000
"""Work (forward steps plus compositions checked) the block count may spend before the
belief is estimated instead: one kind's options can run to millions of compositions
(an uno-2 spectator's update once took minutes, holding the inference thread). The
largest exact block count in two random-bot uno-2 matches took 84,651 (0.2 s here)."""
FIT_WORK = 16000
"""A greedy order that checked more compositions than this is not counted with (predicted
over budget: on the bench's 330 over-budget updates every greedy order that fits 1000
states took at most 11,458, and none past 12,000 fit)."""
GUIDE_WORK = 300_000
"""Forward steps (states x options) the estimate's guide ladder may spend before it jumps
to its last rung (every check dropped): about a quarter of a second here, deterministic."""
MIN_ESS = 30.0
"""Below this effective sample size an estimate shows no probabilities, only why."""
INTEGER_VARIANTS = frozenset({"uno-2-mini"})
"""Variants counted in Python ints; others in float64 (relative error about 1e-15; the
tests compare the two on the reduced deck and on uno-2 positions)."""


class UnoBelief:
    costly = True
    """An update after a reshuffle can take a second: computed off the event loop."""

    def __init__(self, observer: str, variant: str, budget: int = STATE_BUDGET,
                 block_budget: int = BLOCK_BUDGET, seed: int = 0,
                 chain_budget: chain.Budget = chain.DEFAULT) -> None:
        self.observer = observer
        self.chain_budget = chain_budget
        self.variant = variant
        self.budget = budget
        self.block_budget = block_budget
        self.seed = seed
        self.ledger = Ledger(observer)
        self.seed_layer = None if observer == SPECTATOR else SeedBelief(observer)
        """Seed 004's approximate update, shown beside the exact belief (a seat's view)."""
        self.seq = 0
        self.over: MatchEnded | None = None
        self._cache: tuple[int, JSON] | None = None
        self._orders: tuple[int, dict[str, tuple[list[str], int]]] = (-1, {})

    def apply(self, event: UnoEvent) -> None:
        self.seq = event.seq
        if isinstance(event, MatchEnded):
            self.over = event
            return
        self.ledger.apply(event)
        if self.seed_layer is not None:
            self.seed_layer.apply(event)

    def bench_group(self) -> str | None:
        """The kind of position for benchmarks that split their rows (None: ordinary): after
        a reshuffle, or 4+ draws by unknown hands beyond their deals (the costly updates)."""
        ledger = self.ledger
        if not ledger.ready:
            return None
        if len(ledger.sources) > 1:
            return "after a reshuffle"
        draws = sum(1 for steps in ledger.timelines.values() for s in steps if s.what == "draw")
        return "4+ draws" if draws - len(ledger.unknown) >= 4 else None

    @property
    def integers(self) -> bool:
        return self.variant in INTEGER_VARIANTS

    def programme(self) -> Programme:
        """The exact programme (for samplers and tests), whatever its size."""
        return Programme(self.ledger.position(), exact=self.integers)

    def exact(self) -> tuple[Result, str] | None:
        """The exact result and its arithmetic, or None when both counts are over budget."""
        position = self.ledger.position()
        if state_bound(position) <= self.budget:
            return (Programme(position, exact=self.integers).result(),
                    "python ints" if self.integers else "float64")
        blocks = self.blocks(position)
        return None if blocks is None else (blocks.result(), "python ints (blocks)")

    def blocks(self, position: Position) -> BlockProgramme | None:
        """The block count within the block budget in one of ORDERS, or None (a greedy
        order that cost over FIT_WORK compositions is predicted over budget, not tried)."""
        for order in ORDERS:
            kinds, work = self._walk_order(position, order)
            if work > FIT_WORK:
                continue
            try:
                return BlockProgramme(position, budget=self.block_budget, work=BLOCK_WORK,
                                      order=kinds)
            except OverBudget:
                continue
        return None

    def weighted(self, rng: random.Random, paths: int = PATHS) -> Weighted | None:
        """The estimate's importance-weighted walks (None when no guide fits)."""
        position = self.ledger.position()
        return importance(self.ledger, rng, paths, GUIDE_BUDGET,
                          self._walk_order(position, "fewest")[0], GUIDE_WORK)

    def _walk_order(self, position: Position, order: str) -> tuple[list[str], int]:
        """The block walk's kinds in `order` and the compositions the order checked (the
        greedy one stops choosing past ORDER_WORK), computed once per update (the greedy
        order costs option lists; the estimate walks in it too)."""
        if self._orders[0] != self.seq:
            self._orders = (self.seq, {})
        known = self._orders[1]
        if order not in known:
            walk = BlockProgramme(position, order=order, count=False, order_work=ORDER_WORK)
            known[order] = (walk.kinds, walk.enumerated)
        return known[order]

    def snapshot_dict(self) -> JSON:
        if self._cache is not None and self._cache[0] == self.seq:
            return self._cache[1]
        snapshot = self._snapshot()
        self._cache = (self.seq, snapshot)
        return snapshot

    def _snapshot(self) -> JSON:
        head: JSON = {"seq": self.seq, "observer": self.observer, "model": MODEL}
        state = self.ledger.state
        if not self.ledger.ready or state is None:
            return {**head, "status": "waiting for the deal", "consistent_deals": None,
                    "marginals": {}}
        head.update(hand_counts=dict(state.counts), deck_count=state.deck_count,
                    top=state.top, colour=state.colour,
                    remaining={**{s: state.counts[s] for s in self.ledger.unknown},
                               DECK: state.deck_count})
        if self.over is not None:
            return {**head, "status": "over", "consistent_deals": 1, "marginals": {},
                    "revealed": self.over.hands}
        exact = self.exact()
        if exact is not None:
            result, arithmetic = exact
            body = _exact_body(result.expected, result.at_least)
            return {**head, **body, "status": "exact", "consistent_deals": result.total,
                    "arithmetic": arithmetic,
                    "entropy_bits": round(math.log2(result.total), 3),
                    "facts": facts(body["expected"], self.ledger.unknown,
                                   state.variant.deck.colours),
                    **self._seed_beside(body["marginals"], compared=True)}
        estimate = self.estimate()
        return {**head, **estimate, "consistent_deals": None,
                **self._seed_beside(estimate.get("marginals") or {},
                                    compared=bool(estimate.get("marginals")))}

    def _seed_beside(self, marginals: JSON, compared: bool) -> JSON:
        """`seed_update`: seed 004's P(the opponent holds at least one) per kind, beside
        this belief's, and the largest gap between them (a comparison, never the odds; no gap
        when this belief shows no figures, as an estimate with too few samples)."""
        layer = self.seed_layer
        if layer is None or layer.state is None:
            return {}
        seed = layer.marginals()["at_least_one"]
        ours = marginals.get(layer.opponent) or {}
        gaps = {kind: abs(p - ours.get(kind, 0.0)) for kind, p in seed.items()} if compared \
            else {}
        worst = max(gaps, key=lambda kind: gaps[kind], default=None)
        return {"seed_update": {
            "model": SEED_MODEL, "holder": layer.opponent,
            "at_least_one": {kind: round(p, 4) for kind, p in seed.items() if p},
            "largest_gap": round(gaps[worst], 4) if worst is not None else None,
            "largest_gap_kind": worst}}

    def estimate(self) -> JSON:
        """Over both budgets: the Markov chain's estimate (chain.py), with its ESS and bars;
        in words only below MIN_ESS; the importance-weighted one if no chain found a
        consistent arrangement."""
        label = f"{self.seed}:{self.observer}:{self.seq}"
        run = chain.run(self.ledger.position(), label, self.chain_budget)
        if run.chains < 2:
            return self.importance_estimate()
        summary = chain.summarise(run)
        work = (f"{run.chains} Markov chains over the arrangements of the unseen cards "
                f"consistent with the history (swaps of two cards from one shuffle, kept when "
                f"every check still holds), {run.steps} steps in {run.rounds} "
                f"round{'s' if run.rounds > 1 else ''}, {summary.draws} draws kept")
        head: JSON = {"status": "estimate", "sampler": "markov chain", "samples": summary.draws,
                      "ess": round(summary.ess, 1), "chains": run.chains, "steps": run.steps,
                      "rounds": run.rounds, "accepted": run.accepted, "facts": []}
        if summary.ess < MIN_ESS:
            return {**head, "informative": False, "marginals": {}, "expected": {},
                    "marginal_error_95": {}, "expected_error_95": {}, "marginal_ess": {},
                    "error_95": 1.0,
                    "estimate": f"too few effective samples to show probabilities: {work}, "
                                f"effective sample size {summary.ess:.1f}, under the "
                                f"{MIN_ESS:.0f} an estimate needs; exact counting needs over "
                                f"{self.block_budget} block states"}
        return {**head, "informative": True, "marginals": summary.marginals,
                "expected": summary.expected, "marginal_error_95": summary.errors,
                "expected_error_95": summary.expected_errors,
                "marginal_ess": summary.item_ess, "error_95": summary.error_95,
                "estimate": f"estimate: {work}, effective sample size {summary.ess:.1f} (the "
                            f"smallest over the probabilities between 0.05 and 0.95, from "
                            f"the draws' autocorrelation); each probability has a 95% "
                            f"half-width in marginal_error_95, the largest "
                            f"±{summary.error_95:.3f}; exact counting needs over "
                            f"{self.block_budget} block states"}

    def importance_estimate(self, tries: int = TRIES, keep: int = KEEP,
                            proposal_budget: int | None = None, paths: int = PATHS) -> JSON:
        """Marginals from importance-weighted walks through the real
        history (estimate.importance), each with its 95% error and the ESS; only when even
        the most relaxed guide is over its budget, from rejection (`proposal_budget`: the
        guide's states, GUIDE_BUDGET unless a test asks)."""
        rng = random.Random(f"{self.seed}:{self.observer}:{self.seq}")
        holders = [*self.ledger.unknown, DECK]
        kinds = self.ledger.position().kinds
        budget = GUIDE_BUDGET if proposal_budget is None else proposal_budget
        weighted = importance(self.ledger, rng, paths, budget,
                              self._walk_order(self.ledger.position(), "fewest")[0],
                              GUIDE_WORK)
        if weighted is not None and weighted.draws:
            summary = summarise_weighted(weighted, holders, kinds)
            return {**summary, "status": "estimate", "samples": len(weighted.draws),
                    "estimate": f"estimate: {len(weighted.draws)} of {weighted.paths} "
                                f"importance-weighted walks through the real history "
                                f"finished (ESS {summary['ess']:.1f}), guided by the block "
                                f"count without the 'nothing to play' checks up to seq "
                                f"{weighted.relaxed_until}; each probability has a 95% "
                                f"half-width in marginal_error_95, the largest "
                                f"±{summary['error_95']:.3f}; exact counting needs over "
                                f"{self.block_budget} block states",
                    "facts": []}
        draws = draw(self.ledger, self.budget, rng, tries, keep, block_budget=PROPOSAL_BUDGET)
        summary = summarise(draws, holders, kinds)
        return {**summary, "status": "estimate", "samples": len(draws.kept),
                "ess": float(len(draws.kept)),
                "estimate": f"estimate: {len(draws.kept)} exact draws of the posterior kept of "
                            f"{draws.drawn} proposals (rejection from the count without the "
                            f"'nothing to play' checks up to seq {draws.relaxed_until}); each "
                            f"probability has a Wilson 95% half-width in marginal_error_95, "
                            f"the largest ±{summary['error_95']:.3f}; exact counting needs "
                            f"over {self.block_budget} block states",
                "facts": []}


def _exact_body(expected: dict[str, dict[str, Any]],
                at_least: dict[str, dict[str, list[Any]]]) -> JSON:
    """`marginals`: holder -> item -> probability, where item "r7" is "holds at least one r7"
    and "r7>=2" "holds at least two" (so expected copies = the sum over a kind's items, and
    the live belief message carries both); `expected`: holder -> kind -> expected copies."""
    marginals: JSON = {}
    for owner, row in at_least.items():
        items: dict[str, float] = {}
        for kind, tail in row.items():
            for j, p in enumerate(tail, start=1):
                if p:
                    items[kind if j == 1 else f"{kind}>={j}"] = float(p)
        marginals[owner] = items
    return {
        "marginals": marginals,
        "expected": {o: {k: float(e) for k, e in row.items() if e}
                     for o, row in expected.items()},
    }


def facts(expected: JSON, unknown: tuple[str, ...], colours: tuple[str, ...]) -> list[str]:
    """Plain-language certainties: a colour (or black) an unknown hand cannot hold."""
    out: list[str] = []
    for owner in unknown:
        row = expected.get(owner, {})
        if not row:
            continue
        for colour in colours:
            if not any(k[0] == colour for k in row):
                out.append(f"{owner} holds no {COLOUR_NAMES[colour]} card")
        if not any(k in row for k in ("W", "W+4")):
            out.append(f"{owner} holds no black card")
    return out


def belief(observer: str, variant: str) -> UnoBelief:
    if observer != SPECTATOR and observer not in ("S", "N"):
        raise Infeasible(f"no observer {observer!r} at uno")
    return UnoBelief(observer, variant)
