"""The seed's algorithms (seed 000 §7, §8), kept as references to check and time against.

They read the same `Position` (candidate sets C(h) = tiles whose allowed mask has h) and
return the same shape. Only `enumerate_deals` is exact; `rejection` (numpy-vectorised),
`rejection_seed` (§7.1 literally, pure Python) and `mcmc` are unbiased
only in the limit (mcmc also needs its swap chain to be irreducible, which it is not
always); `constrained` is biased by construction (§7.2 admits it) and is implemented as
written, without the importance-weight correction.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic

import numpy as np

from inference.classes import Item, Position


class BudgetExceeded(RuntimeError):
    """Enumeration would visit more nodes than its budget allows."""


class SamplerGaveUp(RuntimeError):
    """A sampler hit its attempt cap before collecting the samples asked for."""


@dataclass(frozen=True)
class Estimate(Generic[Item]):
    marginals: dict[str, dict[Item, float]]
    consistent_deals: int | None
    samples: int | None = None
    attempts: int | None = None


def _candidates(position: Position[Item]) -> list[set[Item]]:
    return [
        {t for t, mask in position.allowed.items() if mask >> h & 1}
        for h in range(len(position.holders))
    ]


def enumerate_deals(position: Position[Item], budget: int = 2_000_000) -> Estimate[Item]:
    """§8.2 for any number of holders: subsets of C(h) of size r(h), smallest C(h) first.

    Counts are accumulated per chosen subset (times its completions), not per leaf.
    """
    holders, r = position.holders, position.counts
    cands = _candidates(position)
    order = sorted(range(len(holders)), key=lambda h: (len(cands[h]), h))
    counts = [dict.fromkeys(position.allowed, 0) for _ in holders]
    nodes = [0]  # visited search nodes, counted against `budget`
    if not holders:
        return Estimate({}, 1)
    total = _enumerate_from(0, frozenset(position.allowed), order, cands, r, counts, nodes,
                            budget)
    if total == 0:
        return Estimate({h: dict.fromkeys(position.allowed, 0.0) for h in holders}, 0)
    # counts were added once per completion below each subset: divide by deals
    marg = {}
    for h, holder in enumerate(holders):
        marg[holder] = {t: counts[h][t] / total for t in sorted(position.allowed)}
    return Estimate(marg, total)


def _enumerate_from(i: int, remaining: frozenset[Item], order: list[int],
                    cands: list[set[Item]], r: tuple[int, ...], counts: list[dict[Item, int]],
                    nodes: list[int], budget: int) -> int:
    """`enumerate_deals`' search from holder `order[i]` on: adds into `counts` and counts
    visited nodes in `nodes[0]`. Module level, not a closure: a recursive closure is a
    reference cycle (function -> cell -> function) that outlives each call."""
    h = order[i]
    if i == len(order) - 1:
        if len(remaining) != r[h] or not remaining <= cands[h]:
            return 0
        for t in remaining:
            counts[h][t] += 1
        return 1
    later = set().union(*(cands[x] for x in order[i + 1 :]))
    total = 0
    eligible = sorted(cands[h] & remaining)
    for combo in itertools.combinations(eligible, r[h]):
        nodes[0] += 1
        if nodes[0] > budget:
            raise BudgetExceeded(f"enumeration passed {budget} nodes")
        rest = remaining.difference(combo)
        if not rest <= later and i < len(order) - 1:  # §8.4: prune dead branches early
            continue
        sub = _enumerate_from(i + 1, rest, order, cands, r, counts, nodes, budget)
        if sub:
            total += sub
            for t in combo:
                counts[h][t] += sub
    return total


def _arrays(position: Position[Item]) -> tuple[list[Item], np.ndarray, np.ndarray]:
    tiles = sorted(position.allowed)
    m = len(position.holders)
    allowed = np.array([[position.allowed[t] >> h & 1 for h in range(m)] for t in tiles], bool)
    slots = np.repeat(np.arange(m), position.counts)
    return tiles, allowed.reshape(len(tiles), m), slots


def _to_marginals(position: Position[Item], tiles: list[Item], counts: np.ndarray, n: int
                  ) -> dict[str, dict[Item, float]]:
    return {
        holder: {t: float(counts[i, h]) / n for i, t in enumerate(tiles)}
        for h, holder in enumerate(position.holders)
    }


def rejection(
    position: Position[Item], rng: random.Random, samples: int = 10_000,
    max_attempts: int = 5_000_000
) -> Estimate[Item]:
    """§7.1: shuffle U, cut it by r (RANDOM_PARTITION), keep it if every tile is allowed.

    Vectorised with numpy in batches; the first `samples` accepted partitions are used.
    """
    tiles, allowed, slots = _arrays(position)
    n, m = len(tiles), len(position.holders)
    gen = np.random.default_rng(rng.getrandbits(64))
    counts = np.zeros((n, m), np.int64)
    accepted = attempts = 0
    batch = 4096
    while accepted < samples:
        if attempts >= max_attempts:
            raise SamplerGaveUp(f"rejection: {accepted} of {samples} after {attempts} tries")
        perms = np.argsort(gen.random((batch, n)), axis=1)  # perms[i, j]: tile in slot j
        ok = allowed[perms, slots].all(axis=1)
        good = perms[ok][: samples - accepted]
        attempts += batch
        if len(good):
            np.add.at(counts, (good, np.broadcast_to(slots, good.shape)), 1)
            accepted += len(good)
        batch = min(65536, batch * 2)
    return Estimate(_to_marginals(position, tiles, counts, samples), None, samples, attempts)


def rejection_seed(
    position: Position[Item], rng: random.Random, samples: int = 10_000,
    max_attempts: int = 5_000_000
) -> Estimate[Item]:
    """§7.1 exactly as the seed writes it, in pure Python (the baseline of its speed target).

    Per sample: RANDOM_PARTITION shuffles U (`random.shuffle`) and cuts it into hands of
    r(h) tiles in holder order; IS_CONSISTENT keeps it if every tile is in its holder's
    candidate set C(h); counts are taken until `samples` partitions are accepted. Gives up
    (SamplerGaveUp) after `max_attempts` partitions, like `rejection`.
    """
    tiles = sorted(position.allowed)
    r = position.counts
    m = len(r)
    candidates = _candidates(position)
    counts = [dict.fromkeys(tiles, 0) for _ in range(m)]
    cuts = []
    start = 0
    for h in range(m):
        cuts.append((h, start, start + r[h]))
        start += r[h]
    U = list(tiles)
    accepted = attempts = 0
    while accepted < samples:
        if attempts >= max_attempts:
            raise SamplerGaveUp(f"rejection-seed: {accepted} of {samples} after {attempts} tries")
        attempts += 1
        rng.shuffle(U)  # RANDOM_PARTITION: shuffle, then hand out r(h) tiles in turn
        if all(t in candidates[h] for h, a, b in cuts for t in U[a:b]):  # IS_CONSISTENT
            accepted += 1
            for h, a, b in cuts:
                column = counts[h]
                for t in U[a:b]:
                    column[t] += 1
    marg = {holder: {t: counts[h][t] / samples for t in tiles}
            for h, holder in enumerate(position.holders)}
    return Estimate(marg, None, samples, attempts)


def constrained(
    position: Position[Item], rng: random.Random, samples: int = 10_000,
    max_attempts: int = 5_000_000
) -> Estimate[Item]:
    """§7.2: holder by holder, draw r(h) tiles uniformly from C(h) ∩ remaining.

    BIASED: a deal's chance is the product of 1/C(|eligible|, r(h)) along the way, which
    differs between deals, so marginals drift (measured in docs/inference.md).
    """
    tiles, allowed, _ = _arrays(position)
    n, m = len(tiles), len(position.holders)
    r = position.counts
    gen = np.random.default_rng(rng.getrandbits(64))
    counts = np.zeros((n, m), np.int64)
    accepted = attempts = 0
    batch = 4096
    while accepted < samples:
        if attempts >= max_attempts:
            raise SamplerGaveUp(f"constrained: {accepted} of {samples} after {attempts} tries")
        taken = np.zeros((batch, n), bool)
        ok = np.ones(batch, bool)
        owner = np.full((batch, n), -1)
        for h in range(m):
            if r[h] == 0:
                continue
            keys = gen.random((batch, n))
            eligible = allowed[:, h][None, :] & ~taken
            keys[~eligible] = 2.0
            pick = np.argpartition(keys, r[h] - 1, axis=1)[:, : r[h]]
            ok &= (np.take_along_axis(keys, pick, axis=1) < 2.0).all(axis=1)
            rows = np.arange(batch)[:, None]
            taken[rows, pick] = True
            owner[rows, pick] = h
        ok &= taken.all(axis=1)
        good = owner[ok][: samples - accepted]
        attempts += batch
        for h in range(m):
            counts[:, h] += (good == h).sum(axis=0)
        accepted += len(good)
        batch = min(65536, batch * 2)
    return Estimate(_to_marginals(position, tiles, counts, samples), None, samples, attempts)


def _place(t: Item, seen: set[int], allowed: Mapping[Item, int], r: tuple[int, ...],
           owner: dict[Item, int], by_holder: list[list[Item]]) -> bool:
    """Give `t` a holder, moving others along an augmenting path (`any_deal`); updates
    `owner` and `by_holder` in place. Module level, not a closure: a recursive closure is a
    reference cycle."""
    mask = allowed[t]
    holders = [h for h in range(len(r)) if mask >> h & 1]
    for h in holders:
        if len(by_holder[h]) < r[h]:
            owner[t] = h
            by_holder[h].append(t)
            return True
    for h in holders:
        if h in seen:
            continue
        seen.add(h)
        for other in list(by_holder[h]):
            by_holder[h].remove(other)
            del owner[other]
            if _place(other, seen, allowed, r, owner, by_holder):
                owner[t] = h
                by_holder[h].append(t)
                return True
            owner[other] = h
            by_holder[h].append(other)
    return False


def any_deal(position: Position[Item]) -> dict[Item, int]:
    """One consistent deal (tile -> holder index) by augmenting paths, for MCMC's start."""
    r = position.counts
    tiles = sorted(position.allowed)
    owner: dict[Item, int] = {}
    by_holder: list[list[Item]] = [[] for _ in r]

    for t in tiles:
        if not _place(t, set(), position.allowed, r, owner, by_holder):
            raise ValueError("no consistent deal")
    return owner


def mcmc(
    position: Position[Item], rng: random.Random, samples: int = 10_000, thin: int | None = None,
    burn_in: int | None = None,
) -> Estimate[Item]:
    """§7.5 swap chain: swap two tiles of two holders when both may hold the other's tile.

    Records the state every `thin` steps (default |U|) after `burn_in` (default 20·|U|).
    The uniform law is stationary, but the chain is not always irreducible (a 3-cycle of
    allowed sets has two deals no single swap connects); then it stays where it started.
    """
    tiles = sorted(position.allowed)
    m = len(position.holders)
    owner = any_deal(position)
    hands: list[list[Item]] = [[] for _ in range(m)]
    for t in tiles:
        hands[owner[t]].append(t)
    allowed = position.allowed
    active = [h for h in range(m) if hands[h]]
    thin = thin or max(1, len(tiles))
    burn_in = burn_in if burn_in is not None else 20 * len(tiles)
    counts = {t: [0] * m for t in tiles}
    steps = burn_in + samples * thin
    rand = rng.random
    for step in range(steps):
        if len(active) >= 2:
            i = int(rand() * len(active))
            j = int(rand() * (len(active) - 1))
            p1 = active[i]
            p2 = active[j + (j >= i)]
            h1, h2 = hands[p1], hands[p2]
            a, b = int(rand() * len(h1)), int(rand() * len(h2))
            t1, t2 = h1[a], h2[b]
            if allowed[t1] >> p2 & 1 and allowed[t2] >> p1 & 1:
                h1[a], h2[b] = t2, t1
        if step >= burn_in and (step - burn_in) % thin == thin - 1:
            for h in active:
                for t in hands[h]:
                    counts[t][h] += 1
    marg = {holder: {t: counts[t][h] / samples for t in tiles}
            for h, holder in enumerate(position.holders)}
    return Estimate(marg, None, samples, steps)
