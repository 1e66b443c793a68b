"""One observer's belief: exact where the counting fits a stated budget, else a labelled
relaxation (never silently).

Exact: counting.Programme over the ledger's position (every labelled assignment of the hidden
cards consistent with the history, equally likely). Over budget (more than STATE_BUDGET
states per layer): the oldest "nothing to play" checks are dropped until the relaxed position
fits; the snapshot says so ("status": "relaxed", and which checks), and inference/bench_uno.py
measures how far such relaxed beliefs are from the exact ones.
"""

from __future__ import annotations

import math
from typing import Any

from games.interface import JSON, SPECTATOR
from games.uno.cards import COLOUR_NAMES
from games.uno.counting import DECK, Infeasible, Programme, state_bound
from games.uno.events import MatchEnded
from games.uno.ledger import Ledger

MODEL = "uniform: every deal and draw consistent with the public moves is equally likely"
STATE_BUDGET = 32768
"""Most states per layer the exact programme may have (prod of batch sizes + 1)."""
INTEGER_VARIANTS = frozenset({"uno-2-mini"})
"""Variants counted in Python ints; others in float64 (relative error about 1e-15; the
tests compare the two on the reduced deck and on uno-2 positions)."""


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
                    top=state.top, colour=state.colour,
                    remaining={**{s: state.counts[s] for s in self.ledger.unknown},
                               DECK: state.deck_count})
        if self.over is not None:
            return {**head, "status": "over", "consistent_deals": 1, "marginals": {},
                    "revealed": self.over.hands}
        position = self.ledger.position()
        if state_bound(position) <= self.budget:
            result = Programme(position, exact=self.integers).result()
            body = _exact_body(result.expected, result.at_least)
            return {**head, **body, "status": "exact", "consistent_deals": result.total,
                    "arithmetic": "python ints" if self.integers else "float64",
                    "entropy_bits": round(math.log2(result.total), 3),
                    "facts": facts(body["expected"], self.ledger.unknown,
                                   state.variant.deck.colours)}
        return {**head, **self._relaxed(), "consistent_deals": None}

    def _relaxed(self) -> JSON:
        """Over budget: drop the oldest 'nothing to play' checks (merging the batches they
        separated) until the count fits; every consistent deal is still counted, so this
        belief never rules out the truth, but it is wider than the exact one."""
        draws = sorted({s.seq for steps in self.ledger.timelines.values() for s in steps
                        if s.what == "draw" and s.seq})
        relaxed, until = self.ledger.position(), 0
        for until in draws:
            relaxed = self.ledger.position(relax_until=until)
            if state_bound(relaxed) <= self.budget:
                break
        result = Programme(relaxed, exact=self.integers).result()
        return {**_exact_body(result.expected, result.at_least), "status": "relaxed",
                "estimate": f"relaxed: the exact count without the 'nothing to play' checks "
                            f"up to seq {until} (exact needs {state_bound(self.ledger.position())}"
                            f" states, the budget is {self.budget}); its error is measured in "
                            f"docs/games/uno.md, not bounded here",
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
