"""Exact counting of consistent deals and exact marginals by a DP over tile classes.

Tiles with the same allowed set are interchangeable, so a deal is described (up to
relabelling) by how many tiles of each class go to each holder: a split per class.
A class of n tiles split as k_1..k_m stands for n!/(k_1!...k_m!) deals. The programme runs
over classes; its state is the vector of tiles handed out so far, encoded as one int with
one 8-bit field per holder. Guard bits (the top bit of each field) let one subtraction and
one AND check "every field stays within bounds" without decoding the vector.

forward F_k(g): weighted ways classes < k hand out exactly g;
backward B_k(g): weighted ways classes >= k complete g to the counts r.
|Ω| = B_0(0); the numerator of E[K[c][h]] is Σ_g F_c(g) Σ_split w·split_h·B_{c+1}(g+split).
All arithmetic is on Python ints (exact at any size); floats appear only in `marginals`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from domino.tiles import Tile
from inference.classes import ClassKey, Position, popcount
from inference.errors import Infeasible

BITS = 8
GUARD = 1 << (BITS - 1)
FIELD = (1 << BITS) - 1
FACT = [math.factorial(i) for i in range(128)]

Split = tuple[int, int, tuple[int, ...]]
"""(encoded split, weight n!/Π k_h!, the split as a per-holder vector)."""


def encode(vector: tuple[int, ...] | list[int]) -> int:
    code = 0
    for i, value in enumerate(vector):
        code |= value << (BITS * i)
    return code


def decode(code: int, m: int) -> tuple[int, ...]:
    return tuple((code >> (BITS * i)) & FIELD for i in range(m))


@lru_cache(maxsize=4096)
def splits(mask: int, n: int, caps: tuple[int, ...]) -> tuple[Split, ...]:
    """Every way to hand n interchangeable tiles to the holders in `mask`, within `caps`."""
    members = [i for i in range(len(caps)) if mask >> i & 1]
    out: list[Split] = []
    vector = [0] * len(caps)

    def rec(j: int, left: int, denom: int) -> None:
        h = members[j]
        if j == len(members) - 1:
            if left <= caps[h]:
                vector[h] = left
                out.append((encode(vector), FACT[n] // (denom * FACT[left]), tuple(vector)))
                vector[h] = 0
            return
        rest = sum(caps[x] for x in members[j + 1 :])
        for k in range(max(0, left - rest), min(left, caps[h]) + 1):
            vector[h] = k
            rec(j + 1, left - k, denom * FACT[k])
        vector[h] = 0

    if members:
        rec(0, n, 1)
    elif n == 0:
        out.append((0, 1, tuple(vector)))
    return tuple(out)


@dataclass(frozen=True)
class Solution:
    """Result of the programme for one class key: exact count and exact numerators.

    `order` is the processing order of the free classes; `numerators[k][h]` is
    Σ_deals K[order[k]][h] (an int), so P(h holds t in class k) = num / (n_k · total).
    `backward[k]` maps a state g (tiles handed out by classes < k) to B_k(g) for the
    classes enumerated split by split; the last one (or two, when `pair`) are closed form.
    The exact sampler walks forward with these.
    """

    order: tuple[tuple[int, int], ...]
    counts: tuple[int, ...]
    total: int
    numerators: tuple[tuple[int, ...], ...]
    backward: tuple[dict[int, int], ...]
    pair: bool = False

    def class_index(self, mask: int) -> int:
        for k, (m, _) in enumerate(self.order):
            if m == mask:
                return k
        raise KeyError(mask)


def _order(classes: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], bool]:
    """Small classes first, the widest last (its split is implied by what is left).

    If another class's mask lies inside the last one's, it goes second to last and the
    pair is done in closed form (see `_pair`): True as the second item.
    """
    ordered = sorted(classes, key=lambda c: (popcount(c[0]), c[1], c[0]))
    if len(ordered) >= 2:
        last = ordered[-1]
        inside = [c for c in ordered[:-1] if c[0] & ~last[0] == 0]
        if inside:
            ordered.remove(inside[-1])
            ordered.insert(len(ordered) - 1, inside[-1])
            return tuple(ordered), True
    return tuple(ordered), False


def _tail(
    states: dict[int, int], order: tuple[tuple[int, int], ...], r: tuple[int, ...], pair: bool
) -> tuple[dict[int, int], list[tuple[int, ...]]]:
    """B(g) of the closed-form tail for every state g, and the tail classes' numerators.

    With q = r - g, 1/Π q_h! = P(q)/D where D = Π r_h! and P(q) = Π r_h!/q_h! (an int), so
    the sums are accumulated over one common denominator and divided once at the end.
    """
    m = len(r)
    last_mask, last_n = order[-1]
    R = encode(r)
    outside = encode([0 if last_mask >> h & 1 else FIELD for h in range(m)])
    shifts = [BITS * h for h in range(m)]
    fall = [[FACT[r[h]] // FACT[v] for v in range(r[h] + 1)] for h in range(m)]
    D = 1
    for v in r:
        D *= FACT[v]
    if pair:
        a_mask, n_a = order[-2]
        a_idx = [h for h in range(m) if a_mask >> h & 1]
        base = FACT[n_a] * FACT[last_n]
        top = sum(r) + 1
        comb_a = [math.comb(x, n_a) for x in range(top)]
        comb_a1 = [math.comb(x - 1, n_a - 1) if x and n_a else 0 for x in range(top)]
    else:
        a_idx, base, comb_a, comb_a1 = [], FACT[last_n], [1] * (sum(r) + 1), []
    b_tail: dict[int, int] = {}
    s_a = [0] * m
    s_f = [0] * m
    for g, f in states.items():
        need = R - g
        if need & outside:
            continue
        q = [(need >> sh) & FIELD for sh in shifts]
        q_a = 0
        for h in a_idx:
            q_a += q[h]
        c = comb_a[q_a]
        if not c:
            continue
        p = 1
        for h in range(m):
            p *= fall[h][q[h]]
        b_tail[g] = base * c * p // D
        fp = f * p
        fpc = fp * c
        for h in range(m):
            if q[h]:
                s_f[h] += fpc * q[h]
        if pair and n_a:
            fpc1 = fp * comb_a1[q_a]
            for h in a_idx:
                if q[h]:
                    s_a[h] += fpc1 * q[h]
    num_a = [base * v // D for v in s_a]
    num_f = [base * s_f[h] // D - num_a[h] for h in range(m)]
    return b_tail, ([tuple(num_f), tuple(num_a)] if pair else [tuple(num_f)])


@lru_cache(maxsize=512)
def solve_key(key: ClassKey) -> Solution:
    """The DP for a canonical key, with its tables (cached: positions repeat)."""
    classes, r = key
    m = len(r)
    order, pair = _order(classes)
    K = len(order)
    if sum(n for _, n in order) != sum(r) or min(r, default=0) < 0:
        return Solution(order, r, 0, tuple((0,) * m for _ in order), (), pair)
    if K == 0:
        return Solution(order, r, 1, (), ({0: 1},), pair)
    guards = encode([GUARD] * m)
    R = encode(r)
    RG = R + guards
    E = K - 2 if pair else K - 1  # classes enumerated split by split; the rest in closed form
    split_lists = [[(s, w) for s, w, _ in splits(mask, n, r)] for mask, n in order[:E]]
    # lows[k]: per holder, tiles that classes >= k can no longer supply must be given by now
    lows = [0] * (K + 1)
    supply = [0] * m
    for k in range(K - 1, -1, -1):
        mask, n = order[k]
        for h in range(m):
            if mask >> h & 1:
                supply[h] += n
        lows[k] = guards - encode([max(0, r[h] - supply[h]) for h in range(m)])

    forward: list[dict[int, int]] = [{0: 1}]
    cur = forward[0]
    for k in range(E):
        nxt: dict[int, int] = {}
        low = lows[k + 1]
        get = nxt.get
        for g, f in cur.items():
            room = RG - g
            for s, w in split_lists[k]:
                if (room - s) & guards != guards:
                    continue
                ng = g + s
                if (ng + low) & guards != guards:
                    continue
                nxt[ng] = get(ng, 0) + f * w
        forward.append(nxt)
        cur = nxt

    # the tail: the last class (or the last two) in closed form from what is left
    b_tail, tail_nums = _tail(cur, order, r, pair)
    backward: list[dict[int, int]] = [b_tail]
    numerators: list[tuple[int, ...]] = list(tail_nums)  # last class first, like backward
    nxt_b = b_tail
    for k in range(E - 1, -1, -1):
        bk: dict[int, int] = {}
        lst = split_lists[k]
        acc = [0] * len(lst)
        get = nxt_b.get
        for g, f in forward[k].items():
            tot = 0
            for j, (s, w) in enumerate(lst):
                b = get(g + s)
                if b:
                    v = w * b
                    tot += v
                    acc[j] += f * v
            if tot:
                bk[g] = tot
        num = [0] * m
        for j, (_, _, vec) in enumerate(splits(order[k][0], order[k][1], r)):
            if acc[j]:
                for h in range(m):
                    if vec[h]:
                        num[h] += acc[j] * vec[h]
        backward.append(bk)
        numerators.append(tuple(num))
        nxt_b = bk
    backward.reverse()
    numerators.reverse()
    total = backward[0].get(0, 0)
    return Solution(order, r, total, tuple(numerators), tuple(backward), pair)


@lru_cache(maxsize=16384)
def count_key(key: ClassKey) -> Solution:
    """Count and numerators only (no tables): the big cache behind marginals."""
    solution = solve_key(key)
    return Solution(solution.order, solution.counts, solution.total, solution.numerators, (),
                    solution.pair)


def solve(position: Position, tables: bool = False) -> Solution:
    """Exact count and numerators for a position (raises Infeasible if no deal fits).

    `tables=True` keeps the backward tables the sampler needs (a smaller cache).
    """
    key = position.key()
    solution = (solve_key if tables else count_key)(key) if key is not None else None
    if solution is None or solution.total == 0:
        raise Infeasible("no deal of the unseen tiles fits the constraints")
    return solution


def marginals(position: Position, solution: Solution | None = None) -> dict[str, dict[Tile, float]]:
    """P(h holds t) for every holder and unseen tile, exact up to the final float division."""
    solution = solution or solve(position)
    holders = position.holders
    out: dict[str, dict[Tile, float]] = {h: {} for h in holders}
    total = solution.total
    for mask, tiles in position.classes().items():
        if mask & (mask - 1) == 0:
            probs = [1.0 if mask >> h & 1 else 0.0 for h in range(len(holders))]
        else:
            k = solution.class_index(mask)
            denom = len(tiles) * total
            probs = [num / denom for num in solution.numerators[k]]
        for h, name in enumerate(holders):
            p = probs[h]
            column = out[name]
            for t in tiles:
                column[t] = p
    return out


def exact_marginals(position: Position) -> dict[str, dict[Tile, tuple[int, int]]]:
    """Marginals as exact (numerator, denominator) pairs, for tests."""
    solution = solve(position)
    out: dict[str, dict[Tile, tuple[int, int]]] = {h: {} for h in position.holders}
    for mask, tiles in position.classes().items():
        for h, name in enumerate(position.holders):
            if mask & (mask - 1) == 0:
                pair = (1 if mask >> h & 1 else 0, 1)
            else:
                k = solution.class_index(mask)
                pair = (solution.numerators[k][h], len(tiles) * solution.total)
            for t in tiles:
                out[name][t] = pair
    return out


def entropy(probs: list[float]) -> float:
    """Shannon entropy in bits of one tile's holder distribution."""
    return -sum(p * math.log2(p) for p in probs if 0.0 < p < 1.0)
