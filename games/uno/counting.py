"""Exact counting over card kinds with multiplicities, hands made of draw batches.

The hidden cards of an observer are split into *columns*: each unknown hand is a union of
batches (its deal, each draw; batches no constraint separates are merged into one column)
and the deck is one more column. Every column is filled from one *source*: the shuffle the
cards came from (the deal's deck, or a reshuffled pile), a known multiset of kinds.

Under the uniform model every labelled assignment of a source's physical cards to its
columns (column sizes fixed) is equally likely a priori, and the history only keeps or drops
it. What the history says is per kind: along an owner's timeline its count of kind k is
(copies of k in the columns drawn so far) minus (copies of k it played so far); a play of k
needs that count >= 1 first, a draw "with nothing to play" needs it = 0 for every kind that
was legal then. So the count of consistent labelled assignments is

    sum over matrices b[k][c] (copies of kind k in column c) with column sums = sizes of
    prod_k [kind k's row passes its own timeline checks] * prod_k prod_s multinomial(U_s[k];
    b[k][columns of s])

a dynamic programme over kinds whose state is how full each non-deck column is. Forward and
backward passes give every kind's distribution in every column exactly, and walking the
programme forward with the backward weights samples assignments exactly (no rejection).
Counts are Python ints (probabilities Fractions) or, for the 108-card deck, float64 (the
same sums; a relative error near 1e-15, tested against the ints on the reduced deck).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

DECK = "deck"
FIELD = 9
"""Bits per column in a packed state: 8 for the fill (plus a bias), 1 guard for overflow."""
LOW = (1 << (FIELD - 1)) - 1


@dataclass(frozen=True)
class Column:
    owner: str
    """A seat whose hand holds this batch, or DECK."""
    size: int
    source: int


@dataclass(frozen=True)
class Step:
    """One entry of an owner's timeline: a draw of a column, a play, or 'nothing to play'."""

    what: str  # "draw" | "play" | "none"
    column: int = -1
    kind: str = ""
    legal: frozenset[str] = frozenset()
    seq: int = 0
    """When it happened (orders the steps of different owners; a deal is 0)."""


@dataclass
class Position:
    """What the observer knows, as columns, sources and timelines."""

    kinds: tuple[str, ...]
    sources: list[dict[str, int]]
    columns: list[Column] = field(default_factory=list)
    timelines: dict[str, list[Step]] = field(default_factory=dict)
    factor: int = 1
    """Ways to split merged columns back into their batches (a constant of the count)."""
    batches: list[int] = field(default_factory=list)
    """The ledger's batch -> the column it was merged into."""

    def owners(self) -> list[str]:
        return list(self.timelines)


@dataclass(frozen=True)
class Option:
    """One way a kind's copies sit in the columns: its row, weight and owners' final counts."""

    row: tuple[int, ...]
    packed: int
    weight: int
    held: tuple[int, ...]
    """Final count per owner (Position.owners() order)."""
    deck: int


class Infeasible(ValueError):
    """No assignment fits the history (a bug or a forged view)."""


def _compositions(total: int, caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to put `total` copies into columns with these capacities."""
    if not caps:
        return [()] if total == 0 else []
    out = []
    for first in range(min(total, caps[0]) + 1):
        for rest in _compositions(total - first, caps[1:]):
            out.append((first, *rest))
    return out


def kind_options(position: Position, kind: str) -> list[Option]:
    columns = position.columns
    owners = position.owners()
    per_source: list[list[tuple[int, ...]]] = []
    source_columns: list[list[int]] = []
    for s, totals in enumerate(position.sources):
        idx = [c for c, col in enumerate(columns) if col.source == s]
        source_columns.append(idx)
        per_source.append(_compositions(totals.get(kind, 0), [columns[c].size for c in idx]))
    options = []
    for combo in itertools.product(*per_source):
        row = [0] * len(columns)
        weight = 1
        for s, parts in enumerate(combo):
            for c, n in zip(source_columns[s], parts, strict=True):
                row[c] = n
            weight *= math.factorial(position.sources[s].get(kind, 0))
            denominator = 1
            for n in parts:
                denominator *= math.factorial(n)
            weight //= denominator
        held = []
        for owner in owners:
            count = _run(position.timelines[owner], kind, row)
            if count is None:
                break
            held.append(count)
        else:
            packed = 0
            deck = 0
            for c, n in enumerate(row):
                if columns[c].owner == DECK:
                    deck += n
                else:
                    packed += n << (FIELD * c)
            options.append(Option(tuple(row), packed, weight, tuple(held), deck))
    return options


def _run(timeline: Sequence[Step], kind: str, row: Sequence[int]) -> int | None:
    """`kind`'s count along one owner's timeline; None where a check fails."""
    count = 0
    for step in timeline:
        if step.what == "draw":
            count += row[step.column]
        elif step.what == "play":
            if step.kind == kind:
                if count < 1:
                    return None
                count -= 1
        elif kind in step.legal and count != 0:
            return None
    return count


@dataclass
class Result:
    total: int | float
    """Consistent labelled assignments (times Position.factor)."""
    expected: dict[str, dict[str, Fraction | float]]
    """owner -> kind -> expected copies held now (DECK: in the deck)."""
    at_least_one: dict[str, dict[str, Fraction | float]]
    states: int
    at_least: dict[str, dict[str, list[Fraction | float]]] = field(default_factory=dict)
    """owner -> kind -> [P(>= 1 copy), P(>= 2), ...] up to the kind's copies."""


class Programme:
    """The forward and backward passes over kinds for one position.

    Layers are dense arrays indexed by how full each hand column is (the deck column is what
    is left); an option of a kind shifts a layer by its row. The arrays hold Python ints
    (dtype=object): exact counts, numpy's loops."""

    def __init__(self, position: Position, exact: bool = True) -> None:
        self.position = position
        self.dtype: Any = object if exact else np.float64
        self.kinds = position.kinds
        self.hand_columns = [c for c, col in enumerate(position.columns) if col.owner != DECK]
        self.shape = tuple(position.columns[c].size + 1 for c in self.hand_columns)
        self.options = [[o for o in kind_options(position, k) if self._fits(o)]
                        for k in self.kinds]
        start = np.zeros(self.shape, dtype=self.dtype)
        start[(0,) * len(self.shape)] = 1
        forward = [start]
        for options in self.options:
            layer = np.zeros(self.shape, dtype=self.dtype)
            for option in options:
                dst, src = self._slices(option)
                layer[dst] += forward[-1][src] * option.weight
            forward.append(layer)
        self.forward = forward
        full = tuple(n - 1 for n in self.shape)
        end = np.zeros(self.shape, dtype=self.dtype)
        end[full] = 1
        backward = [end]
        for options in reversed(self.options):
            layer = np.zeros(self.shape, dtype=self.dtype)
            for option in options:
                dst, src = self._slices(option)
                layer[src] += backward[-1][dst] * option.weight
            backward.append(layer)
        backward.reverse()
        self.backward = backward
        self.total = forward[-1][full] if exact else float(forward[-1][full])
        self.exact = exact

    def _shift(self, option: Option) -> tuple[int, ...]:
        return tuple(option.row[c] for c in self.hand_columns)

    def _fits(self, option: Option) -> bool:
        return all(v < n for v, n in zip(self._shift(option), self.shape, strict=True))

    def _slices(self, option: Option) -> tuple[tuple[slice, ...], tuple[slice, ...]]:
        """(states after, states before) of every move this option makes."""
        shift = self._shift(option)
        dst = tuple(slice(v, None) for v in shift)
        src = tuple(slice(0, n - v) for v, n in zip(shift, self.shape, strict=True))
        return dst, src

    def result(self) -> Result:
        if not self.total:
            raise Infeasible("no assignment of the hidden cards fits the history")
        owners = self.position.owners()
        expected: dict[str, dict[str, Fraction | float]] = {o: {} for o in [*owners, DECK]}
        at_least: dict[str, dict[str, Fraction | float]] = {o: {} for o in [*owners, DECK]}
        at_least_n: dict[str, dict[str, list[Fraction | float]]] = {}
        for i, kind in enumerate(self.kinds):
            options = self.options[i]
            mass = []
            for option in options:
                dst, src = self._slices(option)
                mass.append((self.forward[i][src] * self.backward[i + 1][dst]).sum()
                            * option.weight)
            for o, owner in enumerate(owners):
                expected[owner][kind] = self._ratio(
                    sum(m * opt.held[o] for m, opt in zip(mass, options, strict=True)))
                at_least[owner][kind] = self._ratio(
                    sum(m for m, opt in zip(mass, options, strict=True) if opt.held[o]))
            for o, owner in enumerate([*owners, DECK]):
                copies = [opt.held[o] if owner != DECK else opt.deck for opt in options]
                top = max(copies, default=0)
                tail = [self._ratio(sum(m for m, n in zip(mass, copies, strict=True) if n >= j))
                        for j in range(1, top + 1)]
                at_least_n.setdefault(owner, {})[kind] = tail
            expected[DECK][kind] = self._ratio(
                sum(m * opt.deck for m, opt in zip(mass, options, strict=True)))
            at_least[DECK][kind] = self._ratio(
                sum(m for m, opt in zip(mass, options, strict=True) if opt.deck))
        states = math.prod(self.shape)
        return Result(self.total * self.position.factor, expected, at_least, states, at_least_n)

    def _ratio(self, part: Any) -> Fraction | float:
        return Fraction(int(part), int(self.total)) if self.exact else float(part) / self.total

    def sample_rows(self, rng: random.Random) -> list[tuple[int, ...]]:
        """One assignment drawn exactly from the posterior: each kind's row of columns."""
        if not self.total:
            raise Infeasible("no assignment of the hidden cards fits the history")
        if not hasattr(self, "_shifts"):
            self._shifts = [np.array([self._shift(o) for o in options], dtype=np.int64)
                            .reshape(len(options), len(self.shape)) for options in self.options]
            self._weights = [np.array([o.weight for o in options], dtype=self.dtype)
                             for options in self.options]
        limit = np.array(self.shape, dtype=np.int64)
        state = np.zeros(len(self.shape), dtype=np.int64)
        rows = []
        for i, options in enumerate(self.options):
            nxt = self._shifts[i] + state
            fits = (nxt < limit).all(axis=1)
            weights = np.zeros(len(options), dtype=self.dtype)
            if fits.any():
                inside = nxt[fits]
                weights[fits] = self.backward[i + 1][tuple(inside.T)] * self._weights[i][fits]
            pick = rng.random() * float(weights.sum())
            chosen = max(j for j, w in enumerate(weights) if w)  # (rounding at the end)
            for j, w in enumerate(weights):
                if pick < w:
                    chosen = j
                    break
                pick -= w
            rows.append(options[chosen].row)
            state = nxt[chosen]
        return rows


def state_bound(position: Position) -> int:
    """An upper bound on the programme's states per layer: prod (size + 1), hands only."""
    return math.prod(col.size + 1 for col in position.columns if col.owner != DECK)
