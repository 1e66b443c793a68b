"""One observer's belief: exact where the counting fits a stated budget, else a labelled
estimate with its error (never silently).

Exact: counting.Programme over the ledger's position (every labelled assignment of the hidden
cards consistent with the history, equally likely). Over budget (more than STATE_BUDGET
states per layer): the oldest "nothing to play" checks are dropped until the relaxed position
fits, the relaxed programme samples assignments exactly, and each sample is kept only if it
passes every dropped check too (rejection: the kept samples are exact draws from the true
posterior); the estimate carries its standard error.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

from games.interface import JSON, SPECTATOR
from games.uno.counting import DECK, Infeasible, Position, Programme, _run, state_bound
from games.uno.events import MatchEnded
from games.uno.ledger import Ledger

MODEL = "uniform: every deal and draw consistent with the public moves is equally likely"
STATE_BUDGET = 32768
"""Most states per layer the exact programme may have (prod of batch sizes + 1)."""
INTEGER_VARIANTS = frozenset({"uno-2-mini"})
"""Variants counted in Python ints; others in float64 (relative error about 1e-15; the
tests compare the two on the reduced deck and on uno-2 positions)."""
SAMPLES = 300
"""Proposals an over-budget estimate draws (a fixed number: bounded time)."""


class UnoBelief:
    def __init__(self, observer: str, variant: str, budget: int = STATE_BUDGET) -> None:
        self.observer = observer
        self.variant = variant
        self.budget = budget
        self.ledger = Ledger(observer)
        self.seq = 0
        self.over: MatchEnded | None = None
        self._cache: tuple[int, JSON] | None = None

    def apply(self, event: Any) -> None:
        self.seq = event.seq
        if isinstance(event, MatchEnded):
            self.over = event
            return
        self.ledger.apply(event)

    @property
    def integers(self) -> bool:
        return self.variant in INTEGER_VARIANTS

    def programme(self) -> Programme:
        """The exact programme (for samplers and tests), whatever its size."""
        return Programme(self.ledger.position(), exact=self.integers)

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
                    top=state.top, colour=state.colour)
        if self.over is not None:
            return {**head, "status": "over", "consistent_deals": 1, "marginals": {},
                    "revealed": self.over.hands}
        position = self.ledger.position()
        if state_bound(position) <= self.budget:
            result = Programme(position, exact=self.integers).result()
            body = _exact_body(result.expected, result.at_least_one)
            return {**head, **body, "status": "exact", "consistent_deals": result.total,
                    "arithmetic": "python ints" if self.integers else "float64",
                    "entropy_bits": round(math.log2(result.total), 3),
                    "facts": facts(body["expected"], self.ledger.unknown)}
        return {**head, **self._estimate(), "consistent_deals": None}

    def _estimate(self) -> JSON:
        exact = self.ledger.position()
        draws = sorted({s.seq for steps in self.ledger.timelines.values() for s in steps
                        if s.what == "draw" and s.seq})
        relaxed, until = exact, 0
        for until in draws:
            relaxed = self.ledger.position(relax_until=until)
            if state_bound(relaxed) <= self.budget:
                break
        programme = Programme(relaxed, exact=self.integers)
        rng = random.Random(f"{self.observer}:{self.seq}")
        kept = [held for held in (_checked(programme, exact, relaxed, rng)
                                  for _ in range(SAMPLES)) if held is not None]
        owners = [*exact.owners(), DECK]
        label = (f"estimate: {len(kept)} exact posterior samples (rejection from the exact "
                 f"count without the 'nothing to play' checks up to seq {until})")
        if not kept:
            result = programme.result()
            body = _exact_body(result.expected, result.at_least_one)
            return {**body, "status": "relaxed", "estimate": label + "; none kept: the "
                    "relaxed exact belief is shown, error not bounded",
                    "facts": []}
        n = len(kept)
        expected = {o: {k: Fraction(sum(h[o][k] for h in kept), n) for k in exact.kinds}
                    for o in owners}
        at_least = {o: {k: Fraction(sum(1 for h in kept if h[o][k]), n) for k in exact.kinds}
                    for o in owners}
        body = _exact_body(expected, at_least)
        return {**body, "status": "estimate", "estimate": label,
                "standard_error": round(0.5 / math.sqrt(n), 4),
                "facts": []}


def _exact_body(expected: dict[str, dict[str, Any]], at_least: dict[str, dict[str, Any]]) -> JSON:
    return {
        "marginals": {o: {k: float(p) for k, p in row.items() if p}
                      for o, row in at_least.items()},
        "expected": {o: {k: float(e) for k, e in row.items() if e}
                     for o, row in expected.items()},
    }


def _checked(programme: Programme, exact: Position, relaxed: Position,
             rng: random.Random) -> dict[str, Counter[str]] | None:
    """One relaxed sample split back into the original batches; None if a dropped check
    fails. Returns owner -> kind -> copies held now."""
    rows = programme.sample_rows(rng)
    mapping = _column_map(exact, relaxed)
    cards: list[list[str]] = [[] for _ in relaxed.columns]
    for kind, row in zip(relaxed.kinds, rows, strict=True):
        for c, n in enumerate(row):
            cards[c].extend([kind] * n)
    original = [Counter[str]() for _ in exact.columns]
    for c, pile in enumerate(cards):
        rng.shuffle(pile)
        at = 0
        for target in mapping[c]:
            size = exact.columns[target].size
            original[target].update(pile[at:at + size])
            at += size
    held: dict[str, Counter[str]] = {o: Counter() for o in [*exact.owners(), DECK]}
    for kind in exact.kinds:
        row = [original[c][kind] for c in range(len(exact.columns))]
        for owner in exact.owners():
            count = _run(exact.timelines[owner], kind, row)
            if count is None:
                return None
            held[owner][kind] = count
        held[DECK][kind] = row[-1]
    return held


def _column_map(exact: Position, relaxed: Position) -> list[list[int]]:
    """Which exact columns each relaxed column is the union of (same owner, in order)."""
    mapping: list[list[int]] = []
    at = 0
    for column in relaxed.columns:
        parts: list[int] = []
        size = 0
        while size < column.size or (column.size == 0 and not parts):
            parts.append(at)
            size += exact.columns[at].size
            at += 1
        mapping.append(parts)
    return mapping


def facts(expected: JSON, unknown: tuple[str, ...]) -> list[str]:
    """Plain-language certainties: a colour an unknown hand cannot hold, a card it must."""
    out: list[str] = []
    for owner in unknown:
        row = expected.get(owner, {})
        colours = {k[0] for k in expected.get(DECK, {}) if k[0] in "rygb"}
        for colour in sorted(colours):
            if not any(k[0] == colour for k in row):
                out.append(f"{owner} holds no {colour} card")
        if not any(k in row for k in ("W", "W+4")):
            out.append(f"{owner} holds no black card")
    return out


def belief(observer: str, variant: str) -> UnoBelief:
    if observer != SPECTATOR and observer not in ("S", "N"):
        raise Infeasible(f"no observer {observer!r} at uno")
    return UnoBelief(observer, variant)
