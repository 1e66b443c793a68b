"""Exact counts under "not all of these" constraints in one programme over items.

Inclusion–exclusion and disjoint parts (`inference.inclusion_exclusion`) pay one whole DP
solve per term or part, 2^k of them for k open disjunctions at worst. This programme pays
for the disjunctions inside one pass instead: items are handed out one at a time, and the
state is the vector of items each holder has received plus one bit per *open* disjunction
(some of its items handed out, none outside its mask yet, some still to come). An item
outside its constraint's mask clears the bit; a disjunction whose last item is handed out
with its bit still set kills the state. So a disjunction costs state only while it is open,
and the item order is chosen to close disjunctions soon after opening them.

Exact marginals come from a backward sweep over the forward layers: with F_i(s) the ways
the first i items reach state s and B_{i+1}(s') the ways the rest complete s', item i at
holder h is in Σ_s F_i(s)·B_{i+1}(s + h) deals. Arithmetic is on Python ints (exact at any
size). The work (state × holder transitions, forward and backward) is counted, and the
count stops with `TooManyTerms` as soon as it passes `budget`: the same position spends the
same work, and gets the same answer, on any machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from inference.classes import Item, Position
from inference.errors import Infeasible
from inference.inclusion_exclusion import Counted, NotAll, TooManyTerms, simplify

Move = tuple[int, int, int, int, int, int, int]
"""(holder, shift, cap, increment, keep mask, set bits, check bits) for one item at a holder."""


def order_items(free: Sequence[Item], constraints: Sequence[NotAll[Item]]) -> list[Item]:
    """Items of the disjunctions first, greedily: next the item that closes the most
    disjunctions and opens the fewest; the items no disjunction names after them (they
    only add count vectors, so they come when no bit is open)."""
    uses: dict[Item, list[int]] = {}
    for i, c in enumerate(constraints):
        for t, _ in c.within:
            uses.setdefault(t, []).append(i)
    left = {i: {t for t, _ in c.within} for i, c in enumerate(constraints)}
    opened: set[int] = set()
    pending = sorted(uses)
    order: list[Item] = []
    while pending:
        def cost(t: Item) -> tuple[int, int]:
            closes = sum(1 for i in uses[t] if left[i] == {t})
            opens = sum(1 for i in uses[t] if i not in opened)
            return opens - closes, -closes

        best = min(pending, key=cost)  # min keeps the first of equals: a stable order
        pending.remove(best)
        order.append(best)
        for i in uses[best]:
            opened.add(i)
            left[i].discard(best)
    return order + sorted(t for t in free if t not in uses)


def count_frontier(position: Position[Item], constraints: Sequence[NotAll[Item]],
                   budget: int) -> Counted[Item]:
    """Exact counts and per-item rows (as `inclusion_exclusion.count`); `terms` is the work
    spent. Infeasible when no deal fits; TooManyTerms past `budget` transitions."""
    simple = simplify(position, constraints)
    pos, cons = simple.position, simple.constraints
    m = len(pos.holders)
    caps = list(pos.counts)
    fixed: dict[Item, int] = {}
    free: list[Item] = []
    for t, mask in pos.allowed.items():
        if mask == 0:
            raise Infeasible(f"{t!r} has no holder")
        if mask & (mask - 1) == 0:
            h = mask.bit_length() - 1
            fixed[t] = h
            caps[h] -= 1
        else:
            free.append(t)
    if min(caps, default=0) < 0 or sum(caps) != len(free):
        raise Infeasible("the hand sizes do not fit the items")
    order = order_items(free, cons)
    bits = max(1, max(caps, default=0).bit_length())
    field_mask = (1 << bits) - 1
    shift = bits * m  # the open disjunctions' bits sit above the count vector
    first: dict[int, Item] = {}
    last: dict[int, Item] = {}
    inside: list[dict[Item, int]] = [dict(c.within) for c in cons]
    position_in = {t: k for k, t in enumerate(order)}
    for i, c in enumerate(cons):
        ranked = sorted((t for t, _ in c.within), key=position_in.__getitem__)
        first[i], last[i] = ranked[0], ranked[-1]
    everything = (1 << (shift + len(cons))) - 1
    moves: list[list[Move]] = []
    for t in order:
        row: list[Move] = []
        for h in range(m):
            if not pos.allowed[t] >> h & 1 or caps[h] == 0:
                continue
            clear = set_ = check = 0
            for i, within in enumerate(inside):
                if t not in within:
                    continue
                bit = 1 << (shift + i)
                if not within[t] >> h & 1:
                    clear |= bit  # outside the mask: the disjunction holds
                elif first[i] == t:
                    set_ |= bit
                if last[i] == t:
                    check |= bit
            row.append((h, bits * h, caps[h], 1 << (bits * h), everything ^ clear, set_, check))
        moves.append(row)
    work = 0
    layers: list[dict[int, int]] = [{0: 1}]
    for row in moves:
        current = layers[-1]
        work += len(current) * len(row)
        if work > budget:
            raise TooManyTerms(f"over {budget} transitions")
        nxt: dict[int, int] = {}
        get = nxt.get
        for key, w in current.items():
            for _, sh, cap, inc, keep, set_, check in row:
                if (key >> sh) & field_mask >= cap:
                    continue
                new = ((key & keep) | set_) + inc
                if new & check:
                    continue
                nxt[new] = get(new, 0) + w
        if not nxt:
            raise Infeasible("no deal satisfies every disjunction")
        layers.append(nxt)
    full = sum(c << (bits * h) for h, c in enumerate(caps))
    total = layers[-1].get(full, 0)
    if total == 0:
        raise Infeasible("no deal satisfies every disjunction")
    rows: dict[Item, list[int]] = {t: [0] * m for t in pos.allowed}
    for t, h in fixed.items():
        rows[t][h] = total
    after: dict[int, int] = {full: 1}
    for k in range(len(order) - 1, -1, -1):
        row = moves[k]
        work += len(layers[k]) * len(row)
        if work > budget:
            raise TooManyTerms(f"over {budget} transitions")
        acc = rows[order[k]]
        before: dict[int, int] = {}
        get = after.get
        for key, w in layers[k].items():
            b = 0
            for h, sh, cap, inc, keep, set_, _check in row:
                if (key >> sh) & field_mask >= cap:
                    continue
                new = ((key & keep) | set_) + inc
                v = get(new)
                if v:
                    b += v
                    acc[h] += w * v
            if b:
                before[key] = b
        after = before
    return Counted(total, rows, work, len(cons))
