"""Over budget: an estimate of the posterior, with its 95% error, never called exact (the
belief's estimate is games.uno.chain's Markov chain; these are its fallback and pimc's deals).

`importance` (tried first when no chain finds a consistent arrangement, and pimc's deals
past both budgets): sequential importance sampling through the real history's block
walk, guided by the block count of a relaxed position with the same columns; weighted
draws, ESS, delta-method / Wilson bars (`summarise_weighted`).

`draw` (the fallback, and pimc's deals): the relaxed position (the oldest "nothing to play"
checks dropped, merging the batches they separated, until blocks.BlockProgramme fits
PROPOSAL_BUDGET states, or else counting.Programme its budget), sampled exactly: each
kind's copies per merged batch by the programme's sample_rows, then each merged batch's
labelled cards split uniformly at random into the batches it merged (the relaxed model does
not tell them apart, so that split is uniform under it). A sample is kept when every check
of the real history holds on it; kept samples are then exact draws from the real posterior
(rejection sampling: the acceptance rate is exactly count(real) / count(relaxed)). Every
probability is the kept share with a Wilson 95% interval, every expected count a mean with
1.96 standard errors.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.uno.blocks import BlockProgramme, OverBudget, pick_weighted
from games.uno.counting import DECK, Position, Programme, Step, _run, state_bound
from games.uno.ledger import Ledger

PROPOSAL_WORK = 500_000
"""Work (forward steps plus compositions) one relaxed proposal count may spend: the state
budget alone does not bound it (a kind's options are enumerated before states are
counted; games/uno/belief.py BLOCK_WORK says the same for the exact count)."""

Z95 = 1.96


@dataclass
class Draws:
    kept: list[tuple[dict[str, Counter[str]], Counter[str]]]
    drawn: int
    relaxed_until: int


def relaxed_blocks(ledger: Ledger, budget: int, order: str | Sequence[str] = "last"
                   ) -> tuple[Position, int, BlockProgramme] | None:
    """The least relaxed position (oldest checks dropped first) whose block count fits
    `budget` states, found by bisection over how many draws are relaxed; None if even the
    most relaxed one does not fit."""
    draws = sorted({s.seq for steps in ledger.timelines.values() for s in steps
                    if s.what == "draw" and s.seq})
    found = None
    low, high = 0, len(draws) - 1
    while low <= high:
        mid = (low + high) // 2
        position = ledger.position(relax_until=draws[mid])
        try:
            found = (position, draws[mid], BlockProgramme(position, budget=budget,
                                                          work=PROPOSAL_WORK, order=order))
            high = mid - 1
        except OverBudget:
            low = mid + 1
    return found


def relaxed(ledger: Ledger, budget: int) -> tuple[Position, int]:
    """The least relaxed position whose programme fits `budget` states per layer."""
    draws = sorted({s.seq for steps in ledger.timelines.values() for s in steps
                    if s.what == "draw" and s.seq})
    position, until = ledger.position(), 0
    if state_bound(position) <= budget:
        return position, 0
    for until in draws:
        position = ledger.position(relax_until=until)
        if state_bound(position) <= budget:
            break
    return position, until


def proposal_sample(full: Position, loose: Position, programme: Programme | BlockProgramme,
                    sizes: list[int], rng: random.Random
                    ) -> tuple[dict[str, Counter[str]], Counter[str]] | None:
    """One exact draw of the relaxed posterior, refined to the real batches; None when a
    check of the real history fails on it."""
    rows: Sequence[Sequence[int]]
    if isinstance(programme, BlockProgramme):
        by_kind = programme.sample_rows(rng)
        rows = [by_kind.get(k, [0] * len(loose.columns)) for k in loose.kinds]
    else:
        rows = programme.sample_rows(rng)
    full_rows = {k: [0] * len(full.columns) for k in full.kinds}
    for c in range(len(loose.columns)):
        cards = [k for k, row in zip(loose.kinds, rows, strict=True) for _ in range(row[c])]
        if loose.columns[c].owner == DECK:
            deck_full = len(full.columns) - 1
            for k in cards:
                full_rows[k][deck_full] += 1
            continue
        rng.shuffle(cards)
        at = 0
        for b, into in enumerate(loose.batches):
            if into != c:
                continue
            for k in cards[at:at + sizes[b]]:
                full_rows[k][full.batches[b]] += 1
            at += sizes[b]
    hands: dict[str, Counter[str]] = {o: Counter() for o in full.owners()}
    deck: Counter[str] = Counter()
    for kind, row in full_rows.items():
        for owner in full.owners():
            held = _run(full.timelines[owner], kind, row)
            if held is None:
                return None
            hands[owner][kind] = held
        deck[kind] = row[-1]
    return {o: +h for o, h in hands.items()}, +deck


def draw(ledger: Ledger, budget: int, rng: random.Random, tries: int,
         keep: int | None = None, block_budget: int | None = None) -> Draws:
    """Up to `tries` proposals (stopping at `keep` kept), the kept ones exact posterior draws.
    The proposal: the block count of the least relaxed position within `block_budget`
    states when given and found, else the per-batch programme within `budget`."""
    full = ledger.position()
    programme: Programme | BlockProgramme
    found = relaxed_blocks(ledger, block_budget) if block_budget else None
    if found is not None:
        loose, until, programme = found
    else:
        loose, until = relaxed(ledger, budget)
        programme = Programme(loose, exact=False)
    sizes = [b.size for b in ledger.batches]
    kept: list[tuple[dict[str, Counter[str]], Counter[str]]] = []
    drawn = 0
    while drawn < tries and (keep is None or len(kept) < keep):
        drawn += 1
        sample = proposal_sample(full, loose, programme, sizes, rng)
        if sample is not None:
            kept.append(sample)
    return Draws(kept, drawn, until)


def wilson(p: float, n: int) -> float:
    """Half-width (the larger side) of the Wilson 95% interval around p from n draws."""
    if n == 0:
        return 1.0
    centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    spread = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
    return max(centre + spread - p, p - (centre - spread))


def summarise(draws: Draws, holders: list[str], kinds: tuple[str, ...]) -> dict:
    """Marginals ("r7", "r7>=2" items), expected counts and their 95% half-widths."""
    n = len(draws.kept)
    marginals: dict[str, dict[str, float]] = {}
    expected: dict[str, dict[str, float]] = {}
    errors: dict[str, dict[str, float]] = {}
    expected_errors: dict[str, dict[str, float]] = {}
    for holder in holders:
        marginals[holder], expected[holder] = {}, {}
        errors[holder], expected_errors[holder] = {}, {}
        for kind in kinds:
            counts = [(hands.get(holder, Counter()) if holder != DECK else deck)[kind]
                      for hands, deck in draws.kept]
            if not counts or not any(counts):
                continue
            mean = sum(counts) / n
            var = sum((x - mean) ** 2 for x in counts) / max(1, n - 1)
            expected[holder][kind] = mean
            expected_errors[holder][kind] = Z95 * math.sqrt(var / n)
            for j in range(1, max(counts) + 1):
                p = sum(1 for x in counts if x >= j) / n
                item = kind if j == 1 else f"{kind}>={j}"
                marginals[holder][item] = p
                errors[holder][item] = wilson(p, n)
    worst = max((e for row in errors.values() for e in row.values()), default=wilson(0.0, n))
    return {"marginals": marginals, "expected": expected, "marginal_error_95": errors,
            "expected_error_95": expected_errors, "error_95": worst}


@dataclass
class Weighted:
    """Paths of the importance sampler: the draws with their log weights (dead paths, weight
    0, are left out of `draws` but counted in `paths`)."""

    draws: list[tuple[dict[str, Counter[str]], Counter[str]]]
    log_weights: list[float]
    paths: int
    relaxed_until: int
    guide_states: int

    def normalised(self) -> list[float]:
        if not self.log_weights:
            return []
        top = max(self.log_weights)
        raw = [math.exp(x - top) for x in self.log_weights]
        total = sum(raw)
        return [w / total for w in raw]

    def ess(self) -> float:
        """Kish's effective sample size, (sum w)^2 / sum w^2."""
        weights = self.normalised()
        return 1.0 / sum(w * w for w in weights) if weights else 0.0


def without_checks(position: Position, until: int, plays_until: int = 0) -> Position:
    """The position with the 'nothing to play' checks up to seq `until` dropped (and, once
    all of them are, the plays up to `plays_until`: with no 'nothing to play' check left a
    play only asks for a copy, so dropping it relaxes too): the same columns (so every
    block of the real walk lies inside one block of this one's), fewer cuts, more
    assignments."""
    def kept(step: Step) -> bool:
        if step.what == "none":
            return step.seq > until
        return step.what != "play" or step.seq > plays_until

    timelines = {owner: [s for s in steps if kept(s)]
                 for owner, steps in position.timelines.items()}
    return replace(position, timelines=timelines)


def _ladder(seqs: list[int]) -> list[int]:
    """Which of the oldest `seqs` to drop: 1, 3, 5, 8, 13, 22, 39, ... then all."""
    counts = {min(len(seqs), 1 + (1 << j) // 2 + j) for j in range(12)} | {len(seqs)}
    return [seqs[n - 1] for n in sorted(counts - {0})]


def guide_blocks(full: Position, budget: int, order: Sequence[str], work: int | None = None
                 ) -> tuple[int, BlockProgramme] | None:
    """The block count (walk order `order`) of a least relaxed position within `budget`
    states: the oldest 'nothing to play' checks dropped, more and more, then every one and
    the oldest plays (more dropped checks need not mean fewer states, a kind may then sit
    in more blocks: so a ladder, no bisection); (the last seq dropped, the count), or None
    if none fits.

    `work` bounds the ladder's cost in forward steps (states x options, deterministic):
    the rungs share it, and once it is spent only the last rung (every check dropped) is
    tried, with `work` of its own."""
    steps = [s for t in full.timelines.values() for s in t]
    nones = sorted({s.seq for s in steps if s.what == "none"})
    plays = sorted({s.seq for s in steps if s.what == "play"})
    last = nones[-1] if nones else 0
    tries = [(until, 0) for until in _ladder(nones)] + \
        [(last, until) for until in _ladder(plays)]
    spent = 0
    for n, (until, plays_until) in enumerate(tries):
        final = n == len(tries) - 1
        if work is not None and spent >= work and not final:
            continue
        try:
            return max(until, plays_until), BlockProgramme(
                without_checks(full, until, plays_until), budget=budget, order=order,
                work=None if work is None else (work if final else work - spent))
        except OverBudget as over:
            spent += over.work
    return None


def importance(ledger: Ledger, rng: random.Random, paths: int, guide_budget: int,
               order: str | Sequence[str] = "fewest", guide_work: int | None = None
               ) -> Weighted | None:
    """Sequential importance sampling through the real history's block walk.

    The guide is the block count of the same columns with the oldest 'nothing to play'
    checks dropped (guide_blocks, within `guide_budget` states, same walk order). The walk
    goes over the *real* position's kinds, from one block fill to the next by the real
    options only (so every check holds on every path), choosing kind i's option o with
    probability proportional to w(o) * h(next), h the guide's backward count at the real
    fill summed into the guide's blocks (fewer cuts: every real block lies inside one guide
    block; and the guide is a relaxation, so h > 0 wherever the real walk can still finish).
    A path's weight is prod_i Z_i / h(s_{i+1}), Z_i the sum over kind i's options: its
    expectation is the real slot count, so weighted draws estimate the real posterior
    (exactly when h is exact). None when no guide fits its budget, or when the real walk's
    options alone pass `guide_work` (they are all listed here, before the first path)."""
    full = ledger.position()
    walk = BlockProgramme(full, order=order, count=False, work=guide_work)
    found = guide_blocks(full, guide_budget, walk.kinds, guide_work)
    if found is None:
        return None
    try:
        for i in range(len(walk.kinds)):
            walk.reach(i)
    except OverBudget:  # one kind's options ran past the work budget
        return None
    until, guide = found
    hand = walk.hand
    owners = full.owners()
    maps: list[list[int]] = []

    def agg(i: int, state: tuple[int, ...]) -> list[int]:
        """The guide's fill of layer i holding the real fill `state`."""
        while len(maps) <= i:
            j = len(maps)
            if j:
                walk.reach(j - 1)
            maps.append([guide.layers[j].of[c] for c in walk.layers[j].first])
        out = [0] * len(guide.layers[i].blocks)
        for b, n in enumerate(state):
            out[maps[i][b]] += n
        return out

    draws: list[tuple[dict[str, Counter[str]], Counter[str]]] = []
    logs: list[float] = []
    for _ in range(paths):
        state = next(iter(walk.forward[0]))
        free = {c: full.columns[c].size for c in hand}
        log_weight = 0.0
        rows: dict[str, list[int]] = {}
        for i, kind in enumerate(walk.kinds):
            walk.reach(i)
            later = guide.backward[i + 1]
            # the guide's fill after each option: the merged fill's, plus the option's takes
            # (agg is linear; one aggregation per state instead of one per option)
            merge = walk.merge[i]
            merged = [0] * len(walk.layers[i + 1].blocks)
            for b, n in enumerate(state):
                merged[merge[b]] += n
            base = agg(i + 1, tuple(merged))
            into = maps[i + 1]
            picks = []
            for option, out, ways in walk.moves(i, state):
                fill = base.copy()
                for b, x in option.takes:
                    fill[into[merge[b]]] += x
                w = ways * later.get(tuple(fill), 0)
                if w:
                    picks.append((w, option, (out, tuple(fill))))
            if not picks:
                break
            (_, option, (state, guided)), z = pick_weighted(picks, rng)
            log_weight += math.log(z) - math.log(later[guided])
            rows[kind] = walk.place(i, option, free, rng)
        else:
            hands: dict[str, Counter[str]] = {o: Counter() for o in owners}
            deck: Counter[str] = Counter()
            for kind, row in rows.items():
                for owner in owners:
                    held = _run(full.timelines[owner], kind, row)
                    assert held is not None, "a real option broke a check"
                    hands[owner][kind] = held
                deck[kind] = row[-1]
            draws.append(({o: +h for o, h in hands.items()}, +deck))
            logs.append(log_weight)
    return Weighted(draws, logs, paths, until, guide.states)


def summarise_weighted(sample: Weighted, holders: list[str], kinds: tuple[str, ...]) -> dict:
    """Weighted marginals and expected counts with 95% half-widths: the larger of the delta
    method's 1.96 standard errors (sum of w^2 (x - mean)^2, normalised w) and, for
    probabilities, the Wilson half-width at n = ESS (so an item no path shows still gets the
    width its effective sample allows)."""
    weights = sample.normalised()
    ess = sample.ess()
    n_eff = max(1, int(ess))
    marginals: dict[str, dict[str, float]] = {}
    expected: dict[str, dict[str, float]] = {}
    errors: dict[str, dict[str, float]] = {}
    expected_errors: dict[str, dict[str, float]] = {}
    for holder in holders:
        marginals[holder], expected[holder] = {}, {}
        errors[holder], expected_errors[holder] = {}, {}
        for kind in kinds:
            counts = [(hands.get(holder, Counter()) if holder != DECK else deck)[kind]
                      for hands, deck in sample.draws]
            if not counts or not any(counts):
                continue
            mean = sum(w * x for w, x in zip(weights, counts, strict=True))
            spread = sum(w * w * (x - mean) ** 2 for w, x in zip(weights, counts, strict=True))
            expected[holder][kind] = mean
            expected_errors[holder][kind] = Z95 * math.sqrt(spread)
            for j in range(1, max(counts) + 1):
                hits = [1.0 if x >= j else 0.0 for x in counts]
                # normalised weights can sum a hair past 1: a probability is at most 1
                p = min(1.0, sum(w * h for w, h in zip(weights, hits, strict=True)))
                se = math.sqrt(sum(w * w * (h - p) ** 2
                                   for w, h in zip(weights, hits, strict=True)))
                item = kind if j == 1 else f"{kind}>={j}"
                marginals[holder][item] = p
                errors[holder][item] = max(Z95 * se, wilson(p, n_eff))
    worst = max((e for row in errors.values() for e in row.values()),
                default=wilson(0.0, n_eff))
    return {"marginals": marginals, "expected": expected, "marginal_error_95": errors,
            "expected_error_95": expected_errors, "error_95": worst, "ess": round(ess, 1)}
