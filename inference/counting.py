"""Exact counting of consistent deals and exact marginals by a DP over item classes.

Items (tiles, cards: anything hashable and orderable) with the same allowed set are
interchangeable, so a deal is described (up to relabelling) by how many items of each
class go to each holder: a split per class. A class of n items split as k_1..k_m stands
for n!/(k_1!...k_m!) deals. The programme runs over classes; its state is the vector of
items handed out so far, encoded as one int with one 8-bit field per holder (so a holder
holds at most 127 unseen items). Guard bits (the top bit of each field) let one subtraction and
one AND check "every field stays within bounds" without decoding the vector.

forward F_k(g): weighted ways classes < k hand out exactly g;
backward B_k(g): weighted ways classes >= k complete g to the counts r.
|Ω| = B_0(0); the numerator of E[K[c][h]] is Σ_g F_c(g) Σ_split w·split_h·B_{c+1}(g+split).
All arithmetic is on Python ints (exact at any size); floats appear only in `marginals`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from inference.classes import ClassKey, Item, Position
from inference.errors import Infeasible
from inference.propagation import clear_cache as clear_propagation_cache

BITS = 8
GUARD = 1 << (BITS - 1)
FIELD = (1 << BITS) - 1
FACT = [math.factorial(i) for i in range(128)]


@lru_cache(maxsize=128)
def falling(r: int) -> tuple[int, ...]:
    """falling(r)[v] = r!/v! (an int): the tail's per-holder factor for v of r items owed."""
    return tuple(FACT[r] // FACT[v] for v in range(r + 1))


Split = tuple[int, int, tuple[int, ...]]
"""(encoded split, weight n!/Π k_h!, the split as a per-holder vector)."""


def encode(vector: tuple[int, ...] | list[int]) -> int:
    code = 0
    for i, value in enumerate(vector):
        code |= value << (BITS * i)
    return code


def decode(code: int, m: int) -> tuple[int, ...]:
    return tuple((code >> (BITS * i)) & FIELD for i in range(m))


def splits(mask: int, n: int, caps: tuple[int, ...]) -> tuple[Split, ...]:
    """Every way to hand n interchangeable tiles to the holders in `mask`, within `caps`.

    Only the caps of the holders in `mask`, each up to n, matter: the cache is keyed by
    those, so positions whose other counts differ share one list.
    """
    return _splits(mask, n, tuple([min(c, n) if mask >> i & 1 else 0
                                   for i, c in enumerate(caps)]))


@lru_cache(maxsize=4096)
def _splits(mask: int, n: int, caps: tuple[int, ...]) -> tuple[Split, ...]:
    members = [i for i in range(len(caps)) if mask >> i & 1]
    if not members:
        return ((0, 1, (0,) * len(caps)),) if n == 0 else ()
    out: list[Split] = []
    vector = [0] * len(caps)
    for part in compositions(n, [caps[h] for h in members]):
        weight = FACT[n]
        for h, k in zip(members, part, strict=True):
            vector[h] = k
            weight //= FACT[k]
        out.append((encode(vector), weight, tuple(vector)))
    return tuple(out)


def compositions(n: int, caps: list[int] | tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every vector x with Σ x = n and 0 <= x_i <= caps[i], in lexicographic order (the
    last one takes the rest).

    An odometer, not a recursive closure: a closure that calls itself is a reference cycle,
    which the server's frozen heap keeps until its reclaim (server/collector.py).
    """
    k = len(caps)
    if k == 0:
        if n == 0:
            yield ()
        return
    rest = [0] * (k + 1)  # rest[i]: what positions i.. can take at most
    for i in range(k - 1, -1, -1):
        rest[i] = rest[i + 1] + caps[i]
    if n > rest[0]:
        return
    x = [0] * k
    left = [0] * k  # left[i]: what positions i.. still have to take
    left[0] = n
    for i in range(k - 1):  # the first vector: each position as little as the rest allows
        x[i] = max(0, left[i] - rest[i + 1])
        left[i + 1] = left[i] - x[i]
    while True:
        x[k - 1] = left[k - 1]
        yield tuple(x)
        i = k - 2  # the rightmost position (not the last) that can still take one more
        while i >= 0 and x[i] >= min(left[i], caps[i]):
            i -= 1
        if i < 0:
            return
        x[i] += 1
        for j in range(i, k - 1):
            if j > i:
                x[j] = max(0, left[j] - rest[j + 1])
            left[j + 1] = left[j] - x[j]


Memo = dict[tuple[tuple[int, ...], tuple[int, ...]], int]
_MEMOS: dict[tuple, Memo] = {}
MEMOS_KEPT = 2048
"""Tails' memos kept (all dropped when there are more): N depends only on which atoms each
inner class covers and the class sizes, so positions of one hand share their tails' sums (a
draw rarely changes that shape). Plain dict operations only: the inference thread and the
loop may both count."""
MEMO_ENTRIES = 50_000
"""A memo handed out with more entries than this starts again empty (memory stays bounded
however many positions share one shape)."""


def _shared_memo(shape: tuple) -> Memo:
    """The memo of N for tails of this shape, shared by every position that has one."""
    memo = _MEMOS.get(shape)
    if memo is None:
        if len(_MEMOS) >= MEMOS_KEPT:
            _MEMOS.clear()
        memo = _MEMOS.setdefault(shape, {})
    elif len(memo) > MEMO_ENTRIES:
        memo.clear()
    return memo


class Tail:
    """The widest class F and the classes T inside it, summed in closed form.

    With q_h tiles still owed to each holder, the tail's weighted count is
    W(q) = Π_c n_c! · N(q) / Π_h q_h!, where N(q) counts the ways to label the Q = Σ q_h
    distinct slots (q_h of them at holder h) with classes, class c taking n_c slots, all at
    holders of c (F takes whatever is left). N depends on q only through the sums over the
    atoms (holders of F with the same membership in the classes of T), so holders that the
    tail cannot tell apart are merged: N is a memoised sum over how each class of T spreads
    over its atoms, Π_a C(Q_a, x_a) per spread (Vandermonde: the last class of T is one
    binomial, so with one class inside F this is the pair formula C(Q_A, n_A)).
    The numerator of class c at holder h is q_h · N with n_c and Q_atom(h) reduced by one.
    """

    def __init__(self, classes: tuple[tuple[int, int], ...], m: int) -> None:
        self.classes = classes
        inner = classes[:-1]
        f_mask = classes[-1][0]
        groups: dict[int, list[int]] = {}  # which inner classes a holder is in -> holders
        for h in range(m):
            if f_mask >> h & 1:
                member = 0
                for i, (c, _) in enumerate(inner):
                    if c >> h & 1:
                        member |= 1 << i
                groups.setdefault(member, []).append(h)
        self.atoms = list(groups.values())
        self.atom_of = [-1] * m
        for a, members in enumerate(self.atoms):
            for h in members:
                self.atom_of[h] = a
        self.class_atoms = [[a for a, hs in enumerate(self.atoms) if c >> hs[0] & 1]
                            for c, _ in inner]
        self.sizes = tuple(n for _, n in inner)
        self.base = 1
        for _, n in classes:
            self.base *= FACT[n]
        self.memo = _shared_memo((tuple(map(tuple, self.class_atoms)), self.sizes))

    def atom_sums(self, q: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sum(q[h] for h in members) for members in self.atoms)

    def ways(self, ns: tuple[int, ...], Q: tuple[int, ...]) -> int:
        """N for the last len(ns) classes of T with sizes ns and atom sums Q."""
        key = (ns, Q)
        value = self.memo.get(key)
        if value is not None:
            return value
        if not ns:
            value = 1
        else:
            atoms = self.class_atoms[len(self.sizes) - len(ns)]
            n = ns[0]
            if not atoms:  # a class no holder may take (the position is infeasible)
                value = self.ways(ns[1:], Q) if n == 0 else 0
            elif len(ns) == 1:
                value = math.comb(sum([Q[a] for a in atoms]), n)
            elif len(ns) == 2 and len(atoms) <= 2:
                # Σ_x C(Q_a, x)·C(Q_b, n - x)·C(Q_next - x·[a in next] - (n-x)·[b in next], n')
                comb = math.comb
                nxt = self.class_atoms[len(self.sizes) - 1]
                q_next = sum([Q[c] for c in nxt])
                n2 = ns[1]
                a = atoms[0]
                in_a = a in nxt
                if len(atoms) == 1:
                    # Q[a] < n: no way, and Q_next - n would go negative
                    value = comb(Q[a], n) * comb(q_next - n * in_a, n2) if Q[a] >= n else 0
                else:
                    b = atoms[1]
                    in_b = b in nxt
                    qa, qb = Q[a], Q[b]
                    value = 0
                    for x in range(max(0, n - qb), min(n, qa) + 1):
                        value += (comb(qa, x) * comb(qb, n - x)
                                  * comb(q_next - x * in_a - (n - x) * in_b, n2))
            elif len(atoms) == 1:
                a = atoms[0]
                value = math.comb(Q[a], n)
                if value:
                    value *= self.ways(ns[1:], (*Q[:a], Q[a] - n, *Q[a + 1 :]))
            else:
                value = 0
                rest = ns[1:]
                for spread in compositions(n, [Q[a] for a in atoms]):
                    coef = 1
                    Q2 = list(Q)
                    for a, v in zip(atoms, spread, strict=True):
                        if v:
                            coef *= math.comb(Q[a], v)
                            Q2[a] -= v
                    value += coef * self.ways(rest, tuple(Q2))
        self.memo[key] = value
        return value

    def sample(self, q: list[int], rng) -> list[tuple[int, ...]]:
        """The tail classes' splits for what is owed (q), drawn with their exact weights."""
        m = len(q)
        q = list(q)
        Q = self.atom_sums(q)
        out: list[tuple[int, ...]] = []
        for level, atoms in enumerate(self.class_atoms):
            ns = self.sizes[level:]
            x = rng.randrange(self.ways(ns, Q))
            for spread in compositions(ns[0], [Q[a] for a in atoms]):
                Q2 = list(Q)
                coef = 1
                for a, v in zip(atoms, spread, strict=True):
                    coef *= math.comb(Q[a], v)
                    Q2[a] -= v
                x -= coef * self.ways(ns[1:], tuple(Q2))
                if x < 0:
                    break
            else:  # pragma: no cover - the weights sum to ways(ns, Q) by construction
                raise AssertionError("tail weights do not add up")
            vec = [0] * m
            for a, v in zip(atoms, spread, strict=True):
                urn = [h for h in self.atoms[a] for _ in range(q[h])]
                for h in rng.sample(urn, v):  # a uniform v of the atom's owed slots
                    vec[h] += 1
            q = [q[h] - vec[h] for h in range(m)]
            Q = tuple(Q2)
            out.append(tuple(vec))
        out.append(tuple(q))
        return out


@dataclass(frozen=True)
class Solution:
    """Result of the programme for one class key: exact count and exact numerators.

    `order` is the processing order of the free classes; `numerators[k][h]` is
    Σ_deals K[order[k]][h] (an int), so P(h holds t in class k) = num / (n_k · total).
    The first len(order) - tail classes are enumerated split by split; `backward[k]` maps a
    state g (tiles handed out by classes < k) to B_k(g) for k up to that point. The last
    `tail` classes are summed in closed form (`closed`, a `Tail`). The exact sampler walks
    forward with these.
    """

    order: tuple[tuple[int, int], ...]
    counts: tuple[int, ...]
    total: int
    numerators: tuple[tuple[int, ...], ...]
    backward: tuple[dict[int, int], ...]
    tail: int = 1
    closed: Tail | None = field(default=None, compare=False, repr=False)

    def class_index(self, mask: int) -> int:
        for k, (m, _) in enumerate(self.order):
            if m == mask:
                return k
        raise KeyError(mask)


TAIL_MAX = 2
"""At most this many classes inside the widest one join it in the closed-form tail."""


def _order(
    classes: tuple[tuple[int, int], ...], r: tuple[int, ...]
) -> tuple[tuple[tuple[int, int], ...], int]:
    """The processing order and how many classes at its end form the closed-form tail.

    The widest class F goes last; of the classes inside F, the TAIL_MAX with the most
    splits (the costliest to enumerate; C(n + |mask| - 1, n), ignoring caps) join it in
    the tail. The rest are enumerated, small
    and narrow classes first.
    """
    if not classes:
        return (), 0
    def narrow_first(c: tuple[int, int]) -> tuple[int, int, int]:
        return (c[0].bit_count(), c[1], c[0])

    widest = max(classes, key=narrow_first)
    inside = [c for c in classes if c != widest and c[0] and c[0] & ~widest[0] == 0]
    inside.sort(key=lambda c: (math.comb(c[1] + c[0].bit_count() - 1, c[1]), c[1], c[0]))
    tail = inside[max(0, len(inside) - TAIL_MAX) :] if TAIL_MAX else []
    tail.sort(key=narrow_first)
    rest = sorted((c for c in classes if c != widest and c not in tail), key=narrow_first)
    return (*rest, *tail, widest), len(tail) + 1


def _tail(
    states: dict[int, int], closed: Tail, r: tuple[int, ...]
) -> tuple[dict[int, int], list[tuple[int, ...]]]:
    """B(g) of the closed-form tail for every state g, and the tail classes' numerators.

    With q = r - g, 1/Π q_h! = P(q)/D where D = Π r_h! and P(q) = Π r_h!/q_h! (an int; both
    over the holders of F), so
    the sums are accumulated over one common denominator and divided once at the end; the
    per-holder sums are grouped by the atom sums Q, on which N depends.
    """
    m = len(r)
    f_mask = closed.classes[-1][0]
    members = [h for h in range(m) if f_mask >> h & 1]
    R = encode(r)
    outside = encode([0 if f_mask >> h & 1 else FIELD for h in range(m)])
    shifts = [BITS * h for h in range(m)]
    fall = [falling(x) for x in r]
    D = 1  # holders outside F owe nothing: q_h = 0 there, so they are left out of P and D
    for h in members:
        D *= FACT[r[h]]
    base = closed.base
    ns = closed.sizes
    ways = closed.ways
    atoms = closed.atoms
    single = len(atoms) == 1
    b_tail: dict[int, int] = {}
    rows: dict[tuple[int, ...], list[int]] = {}
    w_of: dict[tuple[int, ...], int] = {}
    for g, f in states.items():
        need = R - g
        if need & outside:
            continue
        q = [(need >> sh) & FIELD for sh in shifts]
        Q = (sum(q),) if single else tuple([sum([q[h] for h in a]) for a in atoms])
        row = rows.get(Q)
        if row is None:
            w = w_of[Q] = ways(ns, Q)
            row = rows[Q] = [0] * m
        else:
            w = w_of[Q]
        if not w:
            continue
        p = 1
        for h in members:
            p *= fall[h][q[h]]
        b_tail[g] = base * w * p // D
        fp = f * p
        for h in members:
            if q[h]:
                row[h] += fp * q[h]
    total = [0] * m
    inner = [[0] * m for _ in ns]
    for Q, row in rows.items():
        w = w_of[Q]
        if not w:
            continue
        for h in members:
            if row[h]:
                total[h] += row[h] * w
        for i in range(len(ns)):
            ns_i = (*ns[:i], ns[i] - 1, *ns[i + 1 :])
            for a in closed.class_atoms[i]:
                if not Q[a]:
                    continue
                w_a = ways(ns_i, (*Q[:a], Q[a] - 1, *Q[a + 1 :]))
                if w_a:
                    vec = inner[i]
                    for h in atoms[a]:
                        if row[h]:
                            vec[h] += row[h] * w_a
    nums = [tuple(base * v // D for v in vec) for vec in inner]
    last = tuple(base * total[h] // D - sum(vec[h] for vec in nums) for h in range(m))
    return b_tail, [*nums, last]
@lru_cache(maxsize=512)
def solve_key(key: ClassKey) -> Solution:
    """The DP for a canonical key, with its tables (cached: positions repeat)."""
    classes, r = key
    m = len(r)
    order, tail = _order(classes, r)
    K = len(order)
    if sum(n for _, n in order) != sum(r) or min(r, default=0) < 0:
        return Solution(order, r, 0, tuple((0,) * m for _ in order), (), tail)
    if K == 0:
        return Solution(order, r, 1, (), ({0: 1},), tail)
    closed = Tail(order[K - tail :], m)
    guards = encode([GUARD] * m)
    R = encode(r)
    RG = R + guards
    E = K - tail  # classes enumerated split by split; the rest in closed form
    split_lists = [[(s, w) for s, w, _ in splits(mask, n, r)] for mask, n in order[:E]]
    # lows[k]: per holder, tiles that classes >= k can no longer supply must be given by now
    lows = [0] * (K + 1)
    supply = [0] * m
    for k in range(K - 1, -1, -1):
        mask, n = order[k]
        for h in range(m):
            if mask >> h & 1:
                supply[h] += n
        owed = 0
        for h in range(m):
            if r[h] > supply[h]:
                owed |= (r[h] - supply[h]) << (BITS * h)
        lows[k] = guards - owed

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

    b_tail, tail_nums = _tail(cur, closed, r)
    backward: list[dict[int, int]] = [b_tail]
    numerators: list[tuple[int, ...]] = []  # enumerated classes, last first like backward
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
    numerators.extend(tail_nums)
    total = backward[0].get(0, 0)
    return Solution(order, r, total, tuple(numerators), tuple(backward), tail, closed)


@lru_cache(maxsize=16384)
def count_key(key: ClassKey) -> Solution:
    """Count and numerators only (no tables): the big cache behind marginals."""
    solution = solve_key(key)
    return Solution(solution.order, solution.counts, solution.total, solution.numerators, (),
                    solution.tail)


def clear_caches() -> None:
    """Forget every count, split list, tail memo and fixed point: a benchmark's pass starts
    cold."""
    clear_propagation_cache()
    count_key.cache_clear()
    solve_key.cache_clear()
    _splits.cache_clear()
    _MEMOS.clear()


def solve(position: Position, tables: bool = False) -> Solution:
    """Exact count and numerators for a position (raises Infeasible if no deal fits).

    `tables=True` keeps the backward tables the sampler needs (a smaller cache).
    """
    key = position.key()
    solution = (solve_key if tables else count_key)(key) if key is not None else None
    if solution is None or solution.total == 0:
        raise Infeasible("no deal of the unseen tiles fits the constraints")
    return solution


def marginals(
    position: Position[Item], solution: Solution | None = None
) -> dict[str, dict[Item, float]]:
    """P(h holds t) for every holder and unseen item, exact up to the final float division."""
    solution = solution or solve(position)
    holders = position.holders
    out: dict[str, dict[Item, float]] = {h: {} for h in holders}
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


def tile_counts(position: Position[Item]) -> tuple[int, dict[Item, list[int]]]:
    """|Ω| and, for every unseen item, how many deals give it to each holder (exact ints).

    By symmetry inside a class, Σ_deals K[c][h] = n_c · (deals giving one tile of c to h).
    """
    solution = solve(position)
    total = solution.total
    m = len(position.holders)
    out: dict[Item, list[int]] = {}
    for mask, tiles in position.classes().items():
        if mask & (mask - 1) == 0:
            row = [total if mask >> h & 1 else 0 for h in range(m)]
        else:
            n = len(tiles)
            row = [num // n for num in solution.numerators[solution.class_index(mask)]]
        for t in tiles:
            out[t] = row
    return total, out


def exact_marginals(position: Position[Item]) -> dict[str, dict[Item, tuple[int, int]]]:
    """Marginals as exact (numerator, denominator) pairs, for tests."""
    solution = solve(position)
    out: dict[str, dict[Item, tuple[int, int]]] = {h: {} for h in position.holders}
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
    """Shannon entropy in bits of one item's holder distribution."""
    return -sum(p * math.log2(p) for p in probs if 0.0 < p < 1.0)
