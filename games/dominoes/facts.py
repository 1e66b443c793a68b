"""Facts in words a player understands, read off the propagated allowed sets.

Each fact is a structured claim (so tests can check it against the marginals: every
"has no", "cannot hold" and "must hold" is a marginal of exactly 0 or 1) with its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.dominoes.tiles import Tile
from inference.classes import POOL, Position, holders_in

Kind = Literal["void", "holds", "cannot", "suit", "exact", "either"]

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(frozen=True)
class Fact:
    """kind: void (holders have no `values`), holds (holders[0] has all `tiles`), cannot
    (holders[0] has none of `tiles`), suit (only `holders` have the `tiles` showing
    values[0]), exact (`holders` together hold exactly `tiles`), either (a disjunction the
    allowed sets cannot hold: inference.parts)."""

    kind: Kind
    holders: tuple[str, ...]
    tiles: tuple[Tile, ...]
    values: tuple[int, ...]
    text: str


def name(holder: str, start: bool = True) -> str:
    if holder == POOL:
        return "The pool" if start else "the pool"
    return holder


def join(words: list[str], last: str = "and") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _count(n: int) -> str:
    return NUMBERS[n] if n < len(NUMBERS) else str(n)


def facts(position: Position, tight: tuple[int, ...] = ()) -> list[Fact]:
    """Facts about a propagated position, holder by holder, then suits, then tight sets.

    Read once per belief pushed, so it works per class of tiles where it can (issue 31:
    it was a fifth of a belief's cost): a holder's "must hold" tiles are the class of its
    own bit, and only tiles with two or more holders can be "cannot hold".
    """
    holders = position.holders
    m = len(holders)
    allowed = position.allowed
    classes = position.classes()  # mask -> its tiles, sorted (cached on the position)
    tiles = sorted(allowed)
    by_value: dict[int, list[Tile]] = {}
    union_of: dict[int, int] = {}  # value -> the holders some unseen tile showing it may be in
    shared: list[tuple[Tile, int]] = []  # tiles more than one holder may have, with masks
    for t in tiles:
        mask = allowed[t]
        for value in (t.low,) if t.low == t.high else t:
            if value in by_value:
                by_value[value].append(t)
                union_of[value] |= mask
            else:
                by_value[value] = [t]
                union_of[value] = mask
        if mask & (mask - 1):
            shared.append((t, mask))
    values = sorted(by_value)
    out: list[Fact] = []
    for h, holder in enumerate(holders):
        bit = 1 << h
        void = tuple(v for v in values if not union_of[v] & bit)
        if void:
            words = join([f"{v}s" for v in void], "or")
            out.append(Fact("void", (holder,), (), void, f"{name(holder)} has no {words}"))
        held = classes.get(bit)
        if held:
            words = join([str(t) for t in held])
            out.append(Fact("holds", (holder,), tuple(held), (),
                            f"{name(holder)} must hold {words}"))
        if void:
            cannot = tuple(t for t, mask in shared if not mask & bit
                           and t.low not in void and t.high not in void)
        else:
            cannot = tuple(t for t, mask in shared if not mask & bit)
        if cannot:
            words = join([str(t) for t in cannot], "or")
            out.append(Fact("cannot", (holder,), cannot, (), f"{name(holder)} cannot hold {words}"))
    for v in values:
        ts = by_value[v]
        union = union_of[v]
        k = union.bit_count()
        if len(ts) >= 2 and k <= 2 and k < m:
            who = holders_in(union, holders)
            subject = join([name(who[0])] + [name(x, start=False) for x in who[1:]])
            verb = "holds" if k == 1 else "hold"
            many = "both" if len(ts) == 2 else f"all {_count(len(ts))}"
            text = f"{subject} {verb} {many} remaining {v}s"
            out.append(Fact("suit", tuple(who), tuple(ts), (v,), text))
    for s in tight:
        k = s.bit_count()
        if not 2 <= k <= m - 2:
            continue
        inside = tuple(t for t in tiles if allowed[t] & ~s == 0)
        if all(allowed[t].bit_count() == 1 for t in inside):
            continue
        rest = [t for t in tiles if allowed[t] & s == 0]
        if rest and all(allowed[t].bit_count() == 1 for t in rest):
            continue
        who = holders_in(s, holders)
        subject = join([name(who[0])] + [name(x, start=False) for x in who[1:]])
        text = f"{subject} hold exactly {join([str(t) for t in inside])} between them"
        out.append(Fact("exact", tuple(who), inside, (), text))
    return out
