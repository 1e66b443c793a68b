"""Hidden hands of any game as draw batches: a history folded into one exact `Position`.

A seat's holdings are batches: its opening hand is batch 0, and the items it drew at one
moment form a batch, a holder whose size is public. The source (deck, boneyard) is a holder
that shrinks as batches leave it; items set aside (a sleeping pool, Clue's envelope) form
ordinary holders. Every item of the game is one counted item for good: an item a seat
plays stays in its batch (batch sizes are the full drawn sizes), so the counting needs no
guess of where it came from.

Where an item sits fixes its whole story: in batch b it was in the source until b was
drawn, then with b's seat until played. So each event is a test on that story, and an
item's allowed holders are those whose story passes every test:

* `exclude(seat, p)` at t — "had nothing matching p" (it passed, or it drew because nothing
  fitted): an item matching p is not with the seat at t, so not in a batch drawn before t
  unless played before t. Later batches are untouched.
* `play(seat, x)` at t — x is in a batch of that seat drawn before t, and it left at t.
* `reveal(place, x)` at t — x was at `place` (a seat or a holder) at t.

A shuffled source makes every assignment of items to holders (with the public sizes)
equally likely; each event keeps or drops an assignment by its own test, independent of the
others; so the posterior is uniform over the assignments whose items all sit in allowed
holders: exactly the counting problem of `inference.counting`. Plays are taken as
uninformative beyond "the seat held it" (the same assumption as the dominoes belief), and a
play names the item exactly: see docs/inference.md for copies played anonymously.

Batches of one seat that every free item either may or may not enter alike are merged into
one holder (their sizes added): with identical columns each assignment to the merged holder
splits into C(a + b, a) assignments to the two (a, b: room left beside the items that can
only be there), all allowed, so counts gain that factor and every seat-level probability
and sample is unchanged. A batch already filled by items that can only be there is first
closed to every other item, which makes more batches alike.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from inference.classes import Item, Position
from inference.counting import solve, tile_counts
from inference.items import KindLaw, kind_laws
from inference.sampler import sample_deal

Kind = TypeVar("Kind", bound=Hashable)
Predicate = Callable[[Item], bool]


class HistoryError(ValueError):
    """An event that cannot follow the ones before it (a mistake in the caller's log)."""


@dataclass(frozen=True)
class Batch:
    """Items one seat drew at one moment (index 0: the opening hand)."""

    seat: str
    index: int
    time: int
    size: int
    known: bool = False
    """The observer saw what was drawn (its own draw): only those items may be here."""

    @property
    def name(self) -> str:
        return f"{self.seat}#{self.index}"


@dataclass(frozen=True)
class Aside:
    """Items set aside from the source at one moment into a holder nobody draws from."""

    name: str
    time: int
    size: int
    admits: frozenset | None = None
    """The items it may hold (Clue's suspect envelope takes suspects only); None: any."""


@dataclass(frozen=True)
class Layout(Generic[Item]):
    """A history as a counting problem: the merged position and how to read it back."""

    position: Position[Item]
    groups: dict[str, tuple[str, ...]]
    """Seat or holder -> its holders in `position` (a seat's merged batches)."""
    played: frozenset
    """Items played: counted in their batches, held by nobody now."""
    factor: int
    """Assignments of the unmerged batches per assignment of the merged holders."""


class Holdings(Generic[Item]):
    """Who may hold which item, event by event, for one observer of any game.

    Drive it in the order things happen; every call is one moment of the game's clock:

        h = Holdings(deck, seats=("W", "N", "E"), source="deck")
        h.deal("W", 7, mine)          # the observer's own hand: known
        h.deal("N", 7); h.deal("E", 7)
        h.exclude("N", lambda c: c.colour == "red")   # N drew: nothing red
        h.draw("N", 1)
        h.play("N", red_7_copy_0)     # from batch 0 or 1? not batch 0: it was excluded
        h.marginals()["N"][card]      # P(N holds card now)
    """

    def __init__(self, items: Iterable[Item], seats: Sequence[str], source: str = "deck"
                 ) -> None:
        self.items: tuple[Item, ...] = tuple(dict.fromkeys(items))
        self._all = frozenset(self.items)
        self.seats = tuple(seats)
        self.source = source
        if source in self.seats or len(set(self.seats)) != len(self.seats):
            raise HistoryError("seat and source names must be distinct")
        self.clock = 0
        self.left = len(self.items)
        self.batches: list[Batch] = []
        self.asides: list[Aside] = []
        self.excluded: list[tuple[str, int, frozenset]] = []
        self.plays: dict[Item, tuple[str, int]] = {}
        self.known: dict[Item, Batch] = {}
        self.pins: dict[Item, list[tuple[str, int]]] = {}

    # -- events --------------------------------------------------------------------------

    def _tick(self) -> int:
        self.clock += 1
        return self.clock

    def _item(self, item: Item) -> Item:
        if item not in self._all:
            raise HistoryError(f"{item!r} is not one of the game's items")
        return item

    def deal(self, seat: str, n: int, items: Iterable[Item] | None = None) -> Batch:
        """The seat's opening hand: batch 0 (`items` when the observer sees it)."""
        if any(b.seat == seat for b in self.batches):
            raise HistoryError(f"{seat} was already dealt a hand")
        return self.draw(seat, n, items)

    def draw(self, seat: str, n: int, items: Iterable[Item] | None = None) -> Batch:
        """The seat takes n items from the source at once: one batch."""
        if seat not in self.seats:
            raise HistoryError(f"unknown seat {seat!r}")
        if not 0 <= n <= self.left:
            raise HistoryError(f"cannot draw {n} of {self.left} items")
        seen = None if items is None else [self._item(t) for t in items]
        if seen is not None and (len(set(seen)) != n or any(t in self.known for t in seen)):
            raise HistoryError("a known draw names n items not known before")
        index = sum(b.seat == seat for b in self.batches)
        batch = Batch(seat, index, self._tick(), n, known=seen is not None)
        self.batches.append(batch)
        self.left -= n
        for t in seen or ():
            self.known[t] = batch
        return batch

    def set_aside(self, holder: str, n: int, admits: Predicate | None = None) -> Aside:
        """n items leave the source face down into `holder` (optionally: only items p admits)."""
        if holder in self.seats or holder == self.source or any(a.name == holder
                                                                for a in self.asides):
            raise HistoryError(f"holder name {holder!r} is taken")
        if not 0 <= n <= self.left:
            raise HistoryError(f"cannot set aside {n} of {self.left} items")
        ok = None if admits is None else frozenset(t for t in self.items if admits(t))
        aside = Aside(holder, self._tick(), n, ok)
        self.asides.append(aside)
        self.left -= n
        return aside

    def exclude(self, seat: str, predicate: Predicate) -> None:
        """The seat holds nothing matching `predicate` now (a pass; a draw for want of a fit)."""
        if seat not in self.seats:
            raise HistoryError(f"unknown seat {seat!r}")
        matching = frozenset(t for t in self.items if predicate(t))
        self.excluded.append((seat, self._tick(), matching))

    def play(self, seat: str, item: Item) -> None:
        """The seat puts `item` face up: it held it until now, in one of its batches."""
        if self._item(item) in self.plays:
            raise HistoryError(f"{item!r} was already played")
        if seat not in self.seats:
            raise HistoryError(f"unknown seat {seat!r}")
        self.plays[item] = (seat, self._tick())

    def reveal(self, place: str, item: Item) -> None:
        """The observer learns `item` is at `place` (a seat, the source, a holder) now."""
        self.pins.setdefault(self._item(item), []).append((place, self._tick()))

    # -- the counting problem --------------------------------------------------------------

    def _story(self, holder: Batch | Aside | None) -> Callable[[Item, int], str]:
        """Where an item ending in `holder` (None: the source) was at time t."""
        if holder is None:
            return lambda item, t: self.source
        if isinstance(holder, Aside):
            return lambda item, t: self.source if t < holder.time else holder.name

        def where(item: Item, t: int) -> str:
            if t < holder.time:
                return self.source
            play = self.plays.get(item)
            return holder.seat if play is None or t < play[1] else ""

        return where

    def _allows(self, holder: Batch | Aside | None, item: Item) -> bool:
        play = self.plays.get(item)
        known = self.known.get(item)
        if isinstance(holder, Batch):
            if (known is not None or holder.known) and known != holder:
                return False
            if play is not None and (play[0] != holder.seat or play[1] < holder.time):
                return False
        else:
            if play is not None or known is not None:
                return False
            if isinstance(holder, Aside) and holder.admits is not None \
                    and item not in holder.admits:
                return False
        where = self._story(holder)
        if any(item in matching and where(item, t) == seat
               for seat, t, matching in self.excluded):
            return False
        return all(where(item, t) == place for place, t in self.pins.get(item, ()))

    def layout(self) -> Layout[Item]:
        """The merged position of this history.

        Two exact reductions keep the holders few. A holder already filled by the items that
        can only be there takes no other item (its bit leaves every other mask, which may
        force more items: repeated until nothing changes). Then batches of one seat that
        every still-free item may or may not enter alike are one holder: any assignment to
        it splits over them in C(a + b, a) ways (a, b: their room left for free items).
        """
        raw: list[Batch | Aside | None] = [None, *self.asides,
                                           *(b for b in self.batches if b.size)]
        masks = {t: sum(1 << j for j, h in enumerate(raw) if self._allows(h, t))
                 for t in self.items}
        room = [self._size(h) for h in raw]
        forced = [0] * len(raw)
        full = 0
        while True:
            forced = [0] * len(raw)
            for mask in masks.values():
                if mask and mask & (mask - 1) == 0:
                    forced[mask.bit_length() - 1] += 1
            now = sum(1 << j for j in range(len(raw)) if forced[j] >= room[j])
            if now == full:
                break
            full = now
            for t, mask in masks.items():
                if mask & (mask - 1):
                    masks[t] = mask & ~full or mask  # an emptied mask: infeasible, kept
        free = [0] * len(raw)
        for i, t in enumerate(self.items):
            mask = masks[t]
            if mask & (mask - 1):
                for j in range(len(raw)):
                    if mask >> j & 1:
                        free[j] |= 1 << i
        merged: dict[tuple[str, int], list[int]] = {}
        for j, h in enumerate(raw):
            key = (h.seat, free[j]) if isinstance(h, Batch) else (self._name(h), -j - 1)
            merged.setdefault(key, []).append(j)
        names: list[str] = []
        counts: list[int] = []
        where = [0] * len(raw)
        groups: dict[str, list[str]] = {self.source: [], **{a.name: [] for a in self.asides},
                                        **{s: [] for s in self.seats}}
        factor = 1
        for (owner, _), members in merged.items():
            spare = [max(0, room[j] - forced[j]) for j in members]
            factor *= math.factorial(sum(spare))
            for size in spare:
                factor //= math.factorial(size)
            for j in members:
                where[j] = len(names)
            groups[owner].append("+".join(self._name(raw[j]) for j in members))
            names.append(groups[owner][-1])
            counts.append(sum(room[j] for j in members))
        allowed = {}
        for t, mask in masks.items():
            bits = 0
            for j in range(len(raw)):
                if mask >> j & 1:
                    bits |= 1 << where[j]  # merged batches share one bit
            allowed[t] = bits
        position = Position(tuple(names), allowed, tuple(counts))
        return Layout(position, {g: tuple(hs) for g, hs in groups.items()},
                      frozenset(self.plays), factor)

    def _name(self, holder: Batch | Aside | None) -> str:
        return self.source if holder is None else holder.name

    def _size(self, holder: Batch | Aside | None) -> int:
        return self.left if holder is None else holder.size

    # -- answers, folded back to seats -----------------------------------------------------

    def count(self) -> int:
        """Assignments of every item to the unmerged holders that fit the history (exact)."""
        layout = self.layout()
        return solve(layout.position).total * layout.factor

    def exact(self) -> dict[str, dict[Item, Fraction]]:
        """P(place holds item now) as fractions, for every seat, the source and each aside.

        Played items are held by nobody; a seat's share is the sum over its batches.
        """
        layout = self.layout()
        total, rows = tile_counts(layout.position)
        index = {h: i for i, h in enumerate(layout.position.holders)}
        out: dict[str, dict[Item, Fraction]] = {}
        for place, hs in layout.groups.items():
            column = out[place] = {}
            for t, row in rows.items():
                column[t] = (Fraction(0) if t in layout.played
                             else Fraction(sum(row[index[h]] for h in hs), total))
        return out

    def marginals(self) -> dict[str, dict[Item, float]]:
        """`exact` as floats."""
        return {p: {t: float(v) for t, v in col.items()} for p, col in self.exact().items()}

    def sample(self, rng: random.Random) -> dict[str, list[Item]]:
        """What every place holds now, in one history drawn uniformly among those that fit."""
        layout = self.layout()
        deal = sample_deal(layout.position, rng)
        return {place: sorted(t for h in hs for t in deal[h] if t not in layout.played)
                for place, hs in layout.groups.items()}

    def kind_laws(self, kind_of: Callable[[Item], Kind]) -> dict[Kind, KindLaw[Kind]]:
        """Per kind and place: deals in which the place holds exactly k copies now (exact).

        Played copies are left out (they are held by nobody); `laws` sum to the count of
        the merged position (`total`), so probabilities are law / total.
        """
        layout = self.layout()
        return kind_laws(layout.position, kind_of, layout.groups,
                         [t for t in self.items if t not in layout.played])
