"""Over budget: the posterior estimated by a Markov chain over arrangements consistent with
the history (games.uno.chain_kernel), with its effective sample size and 95% bars.

CHAINS chains, each started from its own draw of the prior (every source's cards shuffled
into its slots), which first searches for a consistent arrangement (at most SEARCH steps),
then is burnt in for BURN steps and keeps a draw every THIN steps until KEEP draws. While
the estimate's ESS is under TARGET, every chain goes on for another KEEP draws, up to ROUNDS
rounds in all (hard positions pay more, easy ones stop after one). All counts are steps
(proposals), so the work per estimate is bounded and the same everywhere: at most CHAINS x
(SEARCH + BURN + ROUNDS x KEEP x THIN). Each chain's seed (per round) is sha256 of the
caller's label, the chain's number and the round: the same position gives the same answer
on any machine.

From the kept draws: every item ("r7": holds at least one, "r7>=2": at least two) of every
unknown hand and the deck, its share of the draws, its ESS (games.uno.mixing) and a 95%
half-width, the larger of 1.96 sqrt(var / ESS) and the Wilson half-width at the estimate's
ESS (so an item few draws show still gets the width the sample allows); the expected copies
with 1.96 sqrt(var / ESS). An item no draw shows is left out, as the exact belief leaves out
P = 0.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from games.uno.arrangement import Layout, layout
from games.uno.counting import Position
from games.uno.mixing import Z95, ess, headline, split, wilson

CHAINS = 4
SEARCH = 200_000
"""Steps a chain may spend finding a consistent arrangement from its prior draw."""
BURN = 20_000
KEEP = 400
THIN = 250
"""Steps between kept draws."""
ROUNDS = 4
TARGET = 100.0
"""The ESS at which no further round is run."""


@dataclass(frozen=True)
class Budget:
    chains: int = CHAINS
    search: int = SEARCH
    burn: int = BURN
    keep: int = KEEP
    thin: int = THIN
    rounds: int = ROUNDS
    target: float = TARGET

    @property
    def work(self) -> int:
        """The most steps an estimate may take."""
        return self.chains * (self.search + self.burn + self.rounds * self.keep * self.thin)


DEFAULT = Budget()


@dataclass
class Run:
    """The chains' kept draws and what they cost."""

    layout: Layout
    draws: np.ndarray
    """(chains, keep, holders, kinds): copies each holder held in each kept draw."""
    started: list[int]
    """Per chain, the steps its search took (-1: it found no consistent arrangement)."""
    accepted: int
    steps: int
    rounds: int = 1
    summary: Summary | None = None
    """The draws' summary (computed to decide on another round)."""

    @property
    def chains(self) -> int:
        """Chains that found a consistent arrangement (their draws are kept)."""
        return int(self.draws.shape[0])


def chain_seed(label: str, chain: int, round_: int = 0) -> np.uint64:
    text = f"{label}:chain {chain}" + (f":round {round_}" if round_ else "")
    digest = hashlib.sha256(text.encode()).digest()
    return np.uint64(int.from_bytes(digest[:8], "big"))


def run(position: Position, label: str, budget: Budget = DEFAULT) -> Run:
    """The chains on `position`, seeded by `label` (e.g. "seed:observer:seq"); the draws
    of the chains that found a consistent arrangement, in as many rounds as it took."""
    from games.uno import chain_kernel  # numba's import and cache load: only when estimating

    lay = layout(position)
    states: list[np.ndarray] = []
    draws: list[list[np.ndarray]] = []
    started: list[int] = []
    accepted = steps = 0

    def step(slots: np.ndarray, seed: np.uint64, first: bool) -> tuple[int, np.ndarray]:
        nonlocal accepted, steps
        found, kept, _, used, out = chain_kernel.run_chain(
            slots, lay.slot_col, lay.slot_src, lay.src_lo, lay.src_hi, lay.movers,
            lay.col_owner, lay.owner_cols, lay.owner_ncols, lay.chk_lo, lay.chk_hi,
            lay.chk_d, lay.chk_q, lay.chk_play, lay.plays, len(lay.kinds), seed,
            budget.search if first else 0, budget.burn if first else 0, budget.keep,
            budget.thin, first)
        accepted += int(kept)
        steps += int(used)
        return int(found), out

    for c in range(budget.chains):
        slots = np.concatenate(lay.source_cards) if lay.source_cards else \
            np.zeros(0, dtype=np.int64)
        found, out = step(slots, chain_seed(label, c), True)
        started.append(found)
        if found >= 0:
            states.append(slots)
            draws.append([out])
    result = _result(lay, budget, draws, started, accepted, steps, 1)
    rounds = 1
    while rounds < budget.rounds and result.chains >= 2:
        result.summary = summarise(result)
        if result.summary.ess >= budget.target:
            break
        for c, slots in enumerate(states):
            draws[c].append(step(slots, chain_seed(label, c, rounds), False)[1])
        rounds += 1
        result = _result(lay, budget, draws, started, accepted, steps, rounds)
    return result


def _result(lay: Layout, budget: Budget, draws: list[list[np.ndarray]], started: list[int],
            accepted: int, steps: int, rounds: int) -> Run:
    if not draws:
        shape = (0, budget.keep, len(lay.owners) + 1, len(lay.kinds))
        return Run(lay, np.zeros(shape, np.int16), started, accepted, steps, rounds)
    stacked = np.stack([np.concatenate(parts, axis=0) for parts in draws])
    return Run(lay, stacked, started, accepted, steps, rounds)


@dataclass
class Summary:
    marginals: dict[str, dict[str, float]]
    expected: dict[str, dict[str, float]]
    errors: dict[str, dict[str, float]]
    expected_errors: dict[str, dict[str, float]]
    item_ess: dict[str, dict[str, float]]
    ess: float
    draws: int

    @property
    def error_95(self) -> float:
        return max((e for row in self.errors.values() for e in row.values()),
                   default=wilson(0.0, self.ess))


def summarise(result: Run) -> Summary:
    if result.summary is not None:
        return result.summary
    lay = result.layout
    _, _, holders, kinds = result.draws.shape
    halves = split(result.draws)
    total = halves.shape[0] * halves.shape[1]
    flat = halves.reshape(halves.shape[0], halves.shape[1], holders * kinds)
    top = flat.max(axis=(0, 1))
    names: list[tuple[int, int, int]] = []
    columns = []
    for h in range(holders):
        for k in range(kinds):
            for j in range(1, int(top[h * kinds + k]) + 1):
                names.append((h, k, j))
                columns.append(flat[:, :, h * kinds + k] >= j)
    series = np.stack(columns, axis=2) if columns else np.zeros((*flat.shape[:2], 0), bool)
    means = series.mean(axis=(0, 1)) if columns else np.zeros(0)
    values = ess(series) if columns else np.zeros(0)
    overall = headline(values, means, total)
    count_ess = ess(flat)
    count_mean = flat.mean(axis=(0, 1))
    count_var = flat.astype(np.float64).var(axis=(0, 1))
    holder_names = lay.holders()
    out = Summary({h: {} for h in holder_names}, {h: {} for h in holder_names},
                  {h: {} for h in holder_names}, {h: {} for h in holder_names},
                  {h: {} for h in holder_names}, overall, total)
    for n, (h, k, j) in enumerate(names):
        holder, kind = holder_names[h], lay.kinds[k]
        item = kind if j == 1 else f"{kind}>={j}"
        p = float(means[n])
        if p == 0.0:
            continue
        own = float(values[n]) if not np.isnan(values[n]) else float(total)
        spread = Z95 * float(np.sqrt(p * (1 - p) / own)) if own > 0 else 1.0
        out.marginals[holder][item] = p
        out.errors[holder][item] = max(spread, wilson(p, overall))
        out.item_ess[holder][item] = round(own, 1)
    for h, holder in enumerate(holder_names):
        for k, kind in enumerate(lay.kinds):
            i = h * kinds + k
            if count_mean[i] == 0:
                continue
            own = float(count_ess[i]) if not np.isnan(count_ess[i]) else float(total)
            out.expected[holder][kind] = float(count_mean[i])
            out.expected_errors[holder][kind] = Z95 * float(np.sqrt(count_var[i] / own))
    return out
