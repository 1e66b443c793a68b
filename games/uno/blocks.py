"""Exact counting over kinds whose state is the fill of *blocks* of interchangeable batches.

counting.Programme keeps how full every hand batch is, so its state count is the product of
(batch size + 1): long draw sequences blow it up (each one-card draw doubles it). Yet two
batches of one hand, from one source, are told apart by a kind only if one of that kind's
checks (a play of it, or a "nothing to play" draw where it was legal) lies between them.
So before each kind of the walk, the batches that none of the kinds still to come tells
apart are merged into one block, and the state is how full each block is.

Counting is done in *slots*: a block of F free slots takes x labelled copies of a kind in
F!/(F-x)! ways, which is a function of the block's total alone, and two blocks merge exactly
(Vandermonde: the falling factorials convolve). Kind k's copies of source s (U of them),
x_b into each block and the rest to the deck (a set), make U!/x_deck! * prod_b C(F_b, x_b)
labelled ways. The count of labelled assignments to batches (as sets), as Programme gives
it, is the slot count divided by prod (batch size)!.

Kinds are walked latest-last-check first. For one unknown hand that makes the state tiny:
when kind i is reached, every kind after it has its last check before kind i's, so every
batch drawn after that check is one block, and the earlier batches hold only what played
kinds (walked earlier) put there. The spectator has two timelines; the order is the same
and the state is what it is (measured in clients/bench/uno.py). But a hand that drew many
single cards and later played some of them makes those played kinds (walked first, their
plays being the latest checks) fill any of the one-card batches: 2^draws states. The
"fewest" order walks next, greedily, the kind with the fewest options on the current layer
(kinds nobody played sit only after their last check), which fits about twice as many such
positions. Any order gives the same count. Layers and options are built as the walk reaches
them, so an over-budget walk stops early. Python ints throughout: the result is exact
(Fractions).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.uno.counting import DECK, Infeasible, Position, Result, _run


class OverBudget(RuntimeError):
    """The walk needs more states in one layer (or more steps) than it was allowed."""

    def __init__(self, message: str, work: int = 0) -> None:
        super().__init__(message)
        self.work = work
        """The steps spent before giving up (budgets shared by several walks count them)."""


Pick = tuple[int, Any, Any]
"""(integer weight, option, the state it leads to)."""


def pick_weighted(picks: list[Pick], rng: random.Random) -> tuple[Pick, int]:
    """One of `picks` drawn with probability weight / total, and the total (the exact
    sampler and the importance walks draw their steps alike)."""
    total = sum(w for w, _, _ in picks)
    pick = rng.randrange(total)
    chosen = picks[-1]
    for entry in picks:
        if pick < entry[0]:
            chosen = entry
            break
        pick -= entry[0]
    return chosen, total

@dataclass(frozen=True)
class _Option:
    """One way a kind's copies sit: per block of its layer, and in the deck."""

    takes: tuple[tuple[int, int], ...]
    """(block index in the layer, copies)."""
    base: int
    """prod over sources of U!/x_deck! (the copies' labels)."""
    held: tuple[int, ...]
    """Copies each unknown hand holds now (Position.owners() order)."""
    deck: int


@dataclass
class _Layer:
    blocks: tuple[tuple[int, int, int], ...]
    """(owner index, source, cuts before): batches with one key are one block."""
    capacity: tuple[int, ...]
    first: tuple[int, ...]
    """A representative hand column per block (its earliest)."""
    of: dict[int, int]
    """Hand column -> its block."""


class BlockProgramme:
    """Forward and backward passes over kinds; states are block fills (dicts, sparse)."""

    def __init__(self, position: Position, budget: int | None = None, work: int | None = None,
                 order: str | Sequence[str] = "last", count: bool = True,
                 order_work: int | None = None) -> None:
        self.position = position
        self.owners = position.owners()
        columns = position.columns
        self.hand = [c for c, col in enumerate(columns) if col.owner != DECK]
        self.deck_source = next(col.source for col in columns if col.owner == DECK)
        # where each column is drawn on its owner's timeline, and each kind's checks there
        self.at: dict[int, int] = {}
        checks: dict[tuple[int, str], list[int]] = defaultdict(list)
        last: dict[str, tuple[int, int]] = {}
        for o, owner in enumerate(self.owners):
            timeline = position.timelines[owner]
            for p, step in enumerate(timeline):
                if step.what == "draw":
                    self.at[step.column] = p
                    continue
                kinds = [step.kind] if step.what == "play" else step.legal
                for kind in kinds:
                    checks[(o, kind)].append(p)
                    last[kind] = max(last.get(kind, (-1, -1)), (step.seq, p))
        self.checks = checks
        self.steps = 0
        """Steps of the forward pass so far (states x options per kind)."""
        self.enumerated = 0
        """Compositions checked against the timelines so far (the order's and the options'
        cost, deterministic)."""
        self.order_work = order_work
        """Compositions the greedy order may check before the rest of the kinds follow by
        latest last check (see _fewest_first)."""
        self.stop_at: int | None = order_work
        """Work (`self.work`) past which an enumeration of options stops with OverBudget:
        the order's budget while the order is chosen, then the count's `work`. Checked per
        composition, since one kind's options alone can run to millions (an uno-2
        spectator's update once spent minutes inside one enumeration)."""
        self.events = {key: [(p, position.timelines[self.owners[key[0]]][p].what == "play")
                             for p in points] for key, points in checks.items()}
        """(owner, kind) -> its checks in timeline order: (position, is a play of it)."""
        present = [k for k in position.kinds if any(s.get(k, 0) for s in position.sources)]
        played = {s.kind for t in position.timelines.values() for s in t if s.what == "play"}
        self.played = played
        self.last = last
        self.kinds = _order(self, present, order) if isinstance(order, str) else \
            [k for k in order if k in set(present)]
        self.stop_at = work
        # layers, options and merges are built as the walk reaches them (an over-budget walk
        # stops early, before the later kinds' options are enumerated)
        self.layers = [self._layer(self.kinds)]
        self.options: list[list[_Option]] = []
        self.merge: list[list[int]] = []
        self.forward: list[dict[tuple[int, ...], int]] = [{(0,) * len(self.layers[0].blocks): 1}]
        self.states = 1
        if not count:
            return
        for i in range(len(self.kinds)):
            self.reach(i)
            if work is not None and self.work > work:  # the options alone can cost that much
                raise OverBudget(f"{self.work} steps at kind {i + 1} (work budget {work})",
                                 self.work)
            nxt: dict[tuple[int, ...], int] = defaultdict(int)
            for state, n in self.forward[-1].items():
                for _, out, ways in self.moves(i, state):
                    nxt[out] += n * ways
                self.steps += len(self.options[i])
                if work is not None and self.work > work:
                    raise OverBudget(f"{self.work} steps in kind {i + 1} (work budget {work})",
                                     self.work)
            self.forward.append(dict(nxt))
            self.states = max(self.states, len(nxt))
            if budget is not None and len(nxt) > budget:
                raise OverBudget(f"{len(nxt)} states after {i + 1} kinds (budget {budget})",
                                 self.work)
        full = tuple(self.layers[-1].capacity)
        slots = self.forward[-1].get(full, 0)
        self.slots = slots
        self.backward: list[dict[tuple[int, ...], int]] = [{full: 1} if slots else {}]
        for i in range(len(self.kinds) - 1, -1, -1):
            later = self.backward[-1]
            here: dict[tuple[int, ...], int] = {}
            for state in self.forward[i]:
                w = 0
                for _, out, ways in self.moves(i, state):
                    w += ways * later.get(out, 0)
                if w:
                    here[state] = w
            self.backward.append(here)
        self.backward.reverse()
        self.total = slots // self.batch_ways()
        """Labelled assignments to batches (as sets), as counting.Programme counts them."""

    @property
    def work(self) -> int:
        """A deterministic measure of the cost so far, bounded by the `work` argument
        (OverBudget past it): forward steps plus compositions checked for options."""
        return self.steps + self.enumerated

    def batch_ways(self) -> int:
        """prod (batch size)!: slot counts over this are counts of batches as sets."""
        ways = 1
        for c in self.hand:
            ways *= math.factorial(self.position.columns[c].size)
        return ways

    def reach(self, i: int) -> None:
        """Build layer i+1, kind i's options and layer i's merge into i+1 (once)."""
        while len(self.options) <= i:
            j = len(self.options)
            self.layers.append(self._layer(self.kinds[j + 1:]))
            self.options.append(self._options(j))
            self.merge.append(self._merge(j))

    # -- layout ------------------------------------------------------------------------------
    def _layer(self, remaining: Sequence[str]) -> _Layer:
        cuts: list[list[int]] = []
        for o in range(len(self.owners)):
            points = sorted({p for k in remaining for p in self.checks.get((o, k), ())})
            cuts.append(points)
        keys: dict[tuple[int, int, int], list[int]] = defaultdict(list)
        for c in self.hand:
            col = self.position.columns[c]
            o = self.owners.index(col.owner)
            keys[(o, col.source, bisect.bisect_left(cuts[o], self.at[c]))].append(c)
        blocks = tuple(sorted(keys))
        return _Layer(blocks,
                      tuple(sum(self.position.columns[c].size for c in keys[b]) for b in blocks),
                      tuple(min(keys[b], key=lambda c: self.at[c]) for b in blocks),
                      {c: n for n, b in enumerate(blocks) for c in keys[b]})

    def _merge(self, i: int) -> list[int]:
        """Block of layer i -> its block in layer i+1 (blocks only merge)."""
        old, new = self.layers[i], self.layers[i + 1]
        return [new.of[old.first[b]] for b in range(len(old.blocks))]

    def _options(self, i: int) -> list[_Option]:
        return self._options_of(self.kinds[i], self.layers[i])

    def _options_of(self, kind: str, layer: _Layer) -> list[_Option]:
        """Kind's options on a layer (cached: the greedy order asks again while the blocks
        stay the same)."""
        key = (kind, layer.blocks)
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = self._enumerate(kind, layer)
        return cache[key]

    def _enumerate(self, kind: str, layer: _Layer, cap: int | None = None) -> list[_Option]:
        """Kind's options on a layer; with `cap`, stop once more than `cap` are found (the
        greedy order only compares counts)."""
        position = self.position
        per_source = []
        for s, totals in enumerate(position.sources):
            u = totals.get(kind, 0)
            idx = [b for b, key in enumerate(layer.blocks)
                   if key[1] == s and self._may_hold(kind, key[0], layer.first[b])]
            caps = [min(u, layer.capacity[b]) for b in idx]
            if s == self.deck_source:
                caps.append(u)
            per_source.append((u, idx, caps, s == self.deck_source))
        options = []
        stop_at = self.stop_at
        for combo in _combos(per_source):
            self.enumerated += 1
            if stop_at is not None and self.steps + self.enumerated > stop_at:
                raise OverBudget(f"{self.work} steps enumerating {kind}'s options (work "
                                 f"budget {stop_at})", self.work)
            takes = tuple(t for part in combo for t in part[0])
            held = []
            for o in range(len(self.owners)):
                n = self._held(o, kind, sorted((self.at[layer.first[b]], x) for b, x in takes
                                               if layer.blocks[b][0] == o))
                if n is None:
                    break
                held.append(n)
            else:
                base = math.prod(part[1] for part in combo)
                options.append(_Option(takes, base, tuple(held), sum(p[2] for p in combo)))
                if cap is not None and len(options) > cap:
                    break
        return options

    def _held(self, o: int, kind: str, draws: list[tuple[int, int]]) -> int | None:
        """counting._run on owner o's timeline for a row whose copies are `draws` (timeline
        position, copies; sorted): only the kind's own checks are visited (the same answer,
        without walking the whole timeline per composition)."""
        count = d = 0
        for p, play in self.events.get((o, kind), ()):
            while d < len(draws) and draws[d][0] < p:
                count += draws[d][1]
                d += 1
            if play:
                if count < 1:
                    return None
                count -= 1
            elif count:
                return None
        return count + sum(x for _, x in draws[d:])

    def _may_hold(self, kind: str, owner: int, column: int) -> bool:
        """Whether a copy of `kind` may sit in `column` at all: the next check of the kind on
        its owner's timeline after the draw must be a play of it (a 'nothing to play' check
        there would see the copy), or there is none. Necessary for every row; it prunes the
        compositions before each row is checked in full."""
        after = self.at[column]
        for p in self.checks.get((owner, kind), ()):
            if p > after:
                step = self.position.timelines[self.owners[owner]][p]
                return step.what == "play" and step.kind == kind
        return True

    def moves(self, i: int, state: tuple[int, ...]
              ) -> Iterator[tuple[_Option, tuple[int, ...], int]]:
        """Kind i's options that fit `state`, in order: (option, the state of layer i+1 it
        leads to, its slot ways). The state is merged once, each option only adds its takes."""
        capacity = self.layers[i].capacity
        merge = self.merge[i]
        merged = [0] * len(self.layers[i + 1].blocks)
        for b, n in enumerate(state):
            merged[merge[b]] += n
        comb = math.comb
        for option in self.options[i]:
            ways = option.base
            for b, x in option.takes:
                free = capacity[b] - state[b]
                if x > free:
                    break
                ways *= comb(free, x)
            else:
                out = merged.copy()
                for b, x in option.takes:
                    out[merge[b]] += x
                yield option, tuple(out), ways

    # -- results -----------------------------------------------------------------------------
    def result(self) -> Result:
        if not self.slots:
            raise Infeasible("no assignment of the hidden cards fits the history")
        owners = self.owners
        holders = [*owners, DECK]
        expected: dict[str, dict[str, Fraction | float]] = {o: {} for o in holders}
        at_least_one: dict[str, dict[str, Fraction | float]] = {o: {} for o in holders}
        at_least: dict[str, dict[str, list[Fraction | float]]] = {o: {} for o in holders}
        for kind in self.position.kinds:
            for holder in holders:
                expected[holder][kind] = Fraction(0)
                at_least_one[holder][kind] = Fraction(0)
                at_least[holder][kind] = []
        for i, kind in enumerate(self.kinds):
            mass: Counter[int] = Counter()
            index = {id(option): j for j, option in enumerate(self.options[i])}
            later = self.backward[i + 1]
            for state, count in self.forward[i].items():
                for option, out, ways in self.moves(i, state):
                    mass[index[id(option)]] += count * ways * later.get(out, 0)
            for h, holder in enumerate(holders):
                law: Counter[int] = Counter()
                for j, option in enumerate(self.options[i]):
                    law[option.held[h] if h < len(owners) else option.deck] += mass[j]
                expected[holder][kind] = Fraction(sum(n * m for n, m in law.items()), self.slots)
                top = max((n for n, m in law.items() if m), default=0)
                tail: list[Fraction | float] = [
                    Fraction(sum(m for n, m in law.items() if n >= j), self.slots)
                    for j in range(1, top + 1)]
                at_least[holder][kind] = tail
                at_least_one[holder][kind] = tail[0] if tail else Fraction(0)
        return Result(self.total * self.position.factor, expected, at_least_one, self.states,
                      at_least)

    def sample(self, rng: random.Random) -> tuple[dict[str, Counter[str]], Counter[str]]:
        """One assignment drawn exactly from the posterior: each unknown hand's kinds now,
        and the deck's."""
        rows = self.sample_rows(rng)
        hands: dict[str, Counter[str]] = {o: Counter() for o in self.owners}
        deck: Counter[str] = Counter()
        deck_column = len(self.position.columns) - 1
        for kind, row in rows.items():
            for owner in self.owners:
                hands[owner][kind] = _run(self.position.timelines[owner], kind, row) or 0
            deck[kind] = row[deck_column]
        return {o: +h for o, h in hands.items()}, +deck

    def sample_rows(self, rng: random.Random) -> dict[str, list[int]]:
        """kind -> copies per column (the deck last), drawn exactly: each kind's option by
        the backward weights, then which free slots of each block it takes, uniformly (the
        count weighs every choice of free slots alike)."""
        if not self.slots:
            raise Infeasible("no assignment of the hidden cards fits the history")
        columns = self.position.columns
        free = {c: columns[c].size for c in self.hand}
        rows: dict[str, list[int]] = {}
        state = next(iter(self.forward[0]))
        for i, kind in enumerate(self.kinds):
            picks = []
            for option, out, ways in self.moves(i, state):
                w = ways * self.backward[i + 1].get(out, 0)
                if w:
                    picks.append((w, option, out))
            _, option, state = pick_weighted(picks, rng)[0]
            rows[kind] = self.place(i, option, free, rng)
        return rows

    def place(self, i: int, option: _Option, free: dict[int, int], rng: random.Random
              ) -> list[int]:
        """Kind i's row (copies per column, the deck last) for `option`: which free slots of
        each block it takes, uniformly (the slot count weighs every choice alike); `free`
        (hand column -> free slots) is updated."""
        row = [0] * len(self.position.columns)
        layer = self.layers[i]
        for b, x in option.takes:
            slots = [c for c in self.hand if layer.of[c] == b for _ in range(free[c])]
            for c in rng.sample(slots, x):
                row[c] += 1
                free[c] -= 1
        row[-1] = option.deck
        return row


def _order(prog: BlockProgramme, present: list[str], order: str) -> list[str]:
    """The walk's order of kinds: latest last check first ("last"), or the kinds some hand
    played first, each group by latest last check ("played-first")."""
    by_last = sorted(present, key=lambda k: prog.last.get(k, (-1, -1)), reverse=True)
    if order == "last":
        return by_last
    if order == "played-first":
        return [k for k in by_last if k in prog.played] + \
            [k for k in by_last if k not in prog.played]
    if order == "played-last":
        return [k for k in by_last if k not in prog.played] + \
            [k for k in by_last if k in prog.played]
    if order == "fewest":
        return _fewest_first(prog, by_last)
    raise ValueError(f"no order {order!r}")


def _fewest_first(prog: BlockProgramme, by_last: list[str]) -> list[str]:
    """Greedy: next the kind with the fewest ways to sit in the current layer's blocks (ties:
    latest last check first). Kinds that can sit in few places leave the frontier small.

    The same choice as counting every candidate's options, cheaper: candidates are tried
    smallest-known-count first (last layer's counts), so the running best is small early
    and every other enumeration stops once it passes it (an exact count, or a lower bound,
    is kept per (kind, blocks)).

    Past `prog.order_work` compositions checked, the rest of the kinds follow in by_last
    order: on the 330 over-budget updates of the bench's six matches, every position whose
    greedy order fits 1000 states took at most 11,458 compositions, and none beyond 12,000
    fit (the order's own cost predicts the walk's size)."""
    remaining = list(by_last)
    rank = {k: i for i, k in enumerate(by_last)}
    known: dict[tuple[str, tuple[tuple[int, int, int], ...]], tuple[int, bool]] = {}
    """(kind, blocks) -> (count, exact?): a count, or a lower bound when not exact."""
    hint: dict[str, int] = {}
    chosen: list[str] = []
    cache = prog.__dict__.get("_cache", {})
    while remaining:
        if prog.order_work is not None and prog.enumerated > prog.order_work:
            return chosen + remaining
        layer = prog._layer(remaining)
        best: tuple[int, int] | None = None
        for k in sorted(remaining, key=lambda k: (hint.get(k, 0), rank[k])):
            key = (k, layer.blocks)
            if key in cache:
                known[key] = (len(cache[key]), True)
            n, exact = known.get(key, (0, False))
            if best is not None and (n, rank[k]) > best:
                continue
            if not exact:
                cap = None if best is None else best[0]
                try:
                    n = len(prog._enumerate(k, layer, cap))
                except OverBudget:  # past order_work inside one kind's options
                    return chosen + remaining
                exact = cap is None or n <= cap
                known[key] = (n, exact)
            hint[k] = n
            if exact and (best is None or (n, rank[k]) < best):
                best = (n, rank[k])
        assert best is not None
        pick = by_last[best[1]]
        chosen.append(pick)
        remaining.remove(pick)
    return chosen


@functools.lru_cache(maxsize=1024)
def _compositions(total: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to put `total` copies into columns with these capacities, in lexicographic
    order (kept: one layer asks the same question for many kinds)."""
    if not caps:
        return ((),) if total == 0 else ()
    return tuple((first, *rest) for first in range(min(total, caps[0]) + 1)
                 for rest in _compositions(total - first, caps[1:]))


@functools.lru_cache(maxsize=4096)
def _source_parts(u: int, idx: tuple[int, ...], caps: tuple[int, ...], deck_here: bool
                  ) -> tuple[tuple[tuple[tuple[int, int], ...], int, int], ...]:
    """One source's ways: ((block, copies) taken, U!/x_deck!, copies in the deck)."""
    out = []
    for parts in _compositions(u, caps):
        deck = parts[-1] if deck_here else 0
        out.append((tuple((b, x) for b, x in zip(idx, parts[:len(idx)], strict=True) if x),
                    math.factorial(u) // math.factorial(deck), deck))
    return tuple(out)


def _combos(per_source: list[tuple[int, list[int], list[int], bool]]
            ) -> Iterator[tuple[tuple[tuple[tuple[int, int], ...], int, int], ...]]:
    """Per source (copies, blocks, capacities, has the deck), every way its copies sit:
    ((block, copies) taken, U!/x_deck!, copies in the deck), lazily, one tuple per source
    (the first source's ways outermost)."""
    return itertools.product(*(_source_parts(u, tuple(idx), tuple(caps), deck_here)
                               for u, idx, caps, deck_here in per_source))
