"""The exact belief of one observer of a two-player game (block-2, draw-2), event by event.

The hidden tiles sit in *draw batches* (inference.batches has the model and its proof): each
hidden seat's opening hand is its batch 0; a draw of k tiles whose last one fits (and is
played at once) is a batch of k - 1 tiles that did not fit the ends then, plus a batch of one
fitting tile; a draw that empties the boneyard is k - 1 tiles that did not fit plus a last
one that fits or not, as the next event tells. The boneyard (draw-2) or the sleeping tiles
(block-2) are the holder "pool". A pass or a draw strikes the seat's batches held at that
moment from every unseen tile of the ends (not later batches); a tile the seat plays came
from one of its batches held then, whichever its story allows. The posterior is uniform
over the assignments of the hidden tiles to batches and pool that pass every test, so it is
one `Position` over the batches, counted by the same DP as the partnership belief. This
module keeps the allowed batches of every hidden tile incrementally (the same tests as
`Holdings`, applied as events come, without replaying the history at every update).

What the rules add beyond per-tile tests (each checked against the rules deal by deal in
tests/games/dominoes/test_belief_two.py):

* **The first lead.** Hand 1 is led by the holder of the first dealt tile in *lead order*
  (doubles high to low, then the heaviest tile): "of those tiles, the first not in the pool
  is the leader's" — a disjunction counted by parts (inference.parts) until the first tile,
  which then pins every tile before it to the pool as dealt (in draw-2 it may be drawn later).
* **Someone can follow.** A pass shows the hand went on after the last play (or after the
  passer's own draw that emptied the boneyard), so the other seat can follow. In block-2 the
  sleeping pool can hide every tile of the ends: a `CanFollow` disjunction until that seat
  plays. In draw-2 a pass comes only once the boneyard is empty: every unseen tile is in a
  hand, so it is only the check that one tile of the ends is unseen.
* **Blocked.** A hand that ends blocked shows that neither seat could play.

`consistent_deals` counts these assignments: the hidden opening hands, each hidden draw's
tiles (its last tile told apart) and the pool, as sets. Every such assignment stands for the
same number of shuffles (the orders inside each batch, the boneyard's undrawn order), so
marginals are those of the deals. Marginals are per *current* holder: the hidden seats and
the pool. `condition` and `position()` are what `inference.sampler.DealSampler.of` reads:
its parts list the current hands under seat names (played tiles apart, in "played").
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.dominoes.belief_fold import HandFold, ObserverError
from games.dominoes.conditions import CanFollow, WordedCondition
from games.dominoes.events import (
    Event,
    HandDealt,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    TilePlayed,
    TilesDrawn,
    parse_event,
)
from games.dominoes.facts import Fact, facts, join
from games.dominoes.rules import lead_rank
from games.dominoes.snapshot import BeliefSnapshot, tile_name
from games.dominoes.tiles import Tile, parse_tile
from games.dominoes.variants import Variant, get_variant
from inference.classes import POOL, Position
from inference.counting import entropy, solve
from inference.errors import InconsistentLog, Infeasible
from inference.parts import Count
from inference.propagation import propagate
from inference.sampler import DealSampler

PLAYED = "played"
"""The holder name, in the sampler's parts, of the tiles already played (not in any hand)."""
SOURCE = 1
"""The pool's (boneyard's) bit among the raw holders: always index 0."""


def lead_order(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in the order that decides hand 1's leader (games.dominoes.rules.lead_rank,
    highest first): the first of them dealt leads."""
    return sorted(tiles, key=lead_rank, reverse=True)


class LeadsFirst(WordedCondition):
    """Hand 1, before its first tile: the leader holds the first dealt tile in lead order."""

    kind = "leads_first"

    def fact(self, position: Position) -> Fact:
        tiles, who = self.listed(position)
        pool_bit = 1 << position.holders.index(POOL)
        can = [t for t in tiles if position.allowed[t] & ~pool_bit]
        text = (f"{join(who, 'or')} holds the highest tile dealt in lead order (doubles "
                f"first, then the heaviest), one of {join([str(t) for t in can], 'or')}; "
                "every tile above it is in the pool")
        return Fact("either", tuple(who), tuple(tiles), (), text)


@dataclass(frozen=True)
class _Solved:
    """The hand's counting problem after the last event: batches merged and propagated."""

    position: Position
    owners: tuple[str, ...]
    """Per holder of `position`: the seat whose batches it merges, or POOL."""
    factor: int
    """Assignments to the unmerged batches per assignment to the merged holders."""
    condition: WordedCondition | None
    count: Count | None
    fixed: dict[Tile, str]
    """Tiles of holders left out of `position` because only they can fill them -> owner."""


@dataclass(frozen=True)
class _Tables:
    """An update's answers per unseen tile, over the current holders (hidden seats, pool)."""

    total: int
    probs: dict[Tile, tuple[float, ...]]
    support: dict[Tile, int]


class _Parts:
    """What DealSampler.of splits on: the played tiles' origins, then a pending disjunction.

    A played tile is counted in the batch it came from, which may be unknown; the parts fix
    how many played tiles each holder gave (a twin holder named PLAYED takes them), so a
    part's deal lists each seat's current tiles under the seat's name.
    """

    def __init__(self, solved: _Solved, played: frozenset[Tile], names: tuple[str, ...]
                 ) -> None:
        self.solved = solved
        self.played = played
        self.names = names
        """Every current holder (hidden seats, pool): each is named in every part."""

    def parts(self, position: Position) -> list[Position]:
        owners = self.solved.owners
        counts = list(position.counts)
        allowed = dict(position.allowed)
        ambiguous: dict[int, list[Tile]] = {}
        for t in self.played:
            mask = allowed.pop(t, None)
            if mask is None:
                continue
            if mask & (mask - 1) == 0:
                counts[mask.bit_length() - 1] -= 1
            else:
                ambiguous.setdefault(mask, []).append(t)
        if not ambiguous:
            out = [Position(owners, allowed, tuple(counts))]
        else:
            out = self._origins(owners, allowed, counts, ambiguous)
        condition = self.solved.condition  # pending only while every played tile is placed
        if condition is not None:
            out = [q for p in out for q in condition.parts(p)]
        return [self._with_fixed(p) for p in out]

    @staticmethod
    def _origins(owners: tuple[str, ...], allowed: dict[Tile, int], counts: list[int],
                 ambiguous: dict[int, list[Tile]]) -> list[Position]:
        """One part per way of spreading the played tiles over the holders they may have
        left: each holder's share goes to a twin holder named PLAYED."""
        union = 0
        for mask in ambiguous:
            union |= mask
        spots = [h for h in range(len(owners)) if union >> h & 1]
        n = sum(len(ts) for ts in ambiguous.values())
        out = []
        for split in _compositions(n, [counts[h] for h in spots]):
            holders = list(owners)
            twin: dict[int, int] = {}
            left = list(counts)
            twin_counts: list[int] = []
            for h, k in zip(spots, split, strict=True):
                if k:
                    twin[h] = len(holders)
                    holders.append(PLAYED)
                    twin_counts.append(k)
                    left[h] -= k
            part = dict(allowed)
            for mask, ts in ambiguous.items():
                bits = sum(1 << twin[h] for h in spots if mask >> h & 1 and h in twin)
                for t in ts:
                    part[t] = bits
            if all(part[t] for ts in ambiguous.values() for t in ts):
                out.append(Position(tuple(holders), part, (*left, *twin_counts)))
        return out

    def _with_fixed(self, part: Position) -> Position:
        """The part with the tiles left out of the position (each forced to its owner)."""
        extra: dict[str, list[Tile]] = {}
        for t, who in self.solved.fixed.items():
            if t not in self.played:
                extra.setdefault(who, []).append(t)
        missing = [h for h in self.names if h not in part.holders and h not in extra]
        if not extra and not missing:
            return part
        holders = list(part.holders)
        allowed = dict(part.allowed)
        counts = list(part.counts)
        for who, tiles in extra.items():
            for t in tiles:
                allowed[t] = 1 << len(holders)
            holders.append(who)
            counts.append(len(tiles))
        holders += missing
        counts += [0] * len(missing)
        return Position(tuple(holders), allowed, tuple(counts))


def _compositions(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    if not caps:
        if n == 0:
            yield ()
        return
    for k in range(min(n, caps[0]) + 1):
        for rest in _compositions(n - k, caps[1:]):
            yield (k, *rest)


class TwoPlayerBelief(HandFold):
    """Fold of one observer's view (S, N or "spectator") of a block-2 or draw-2 match."""

    def __init__(self, observer: str, variant: str | Variant = "draw-2") -> None:
        chosen = get_variant(variant) if isinstance(variant, str) else variant
        self._check_variant(chosen)
        if observer not in (*chosen.seats, "spectator"):
            raise ObserverError(f"unknown observer {observer!r} (one of "
                                f"{', '.join(chosen.seats)}, spectator)")
        self.observer = observer
        self._use(chosen)
        self.seq = 0
        self.hand: int | None = None
        self.status = "idle"
        self.leader: str | None = None
        self.first_hand = False
        self._reset_hand(None)

    @staticmethod
    def _check_variant(variant: Variant) -> None:
        if len(variant.seats) != 2:
            raise ObserverError(f"{variant.name} is not a two-player variant")

    def _use(self, variant: Variant) -> None:
        """Play `variant` from now on (and name its holders once: every update reads them)."""
        self.variant = variant
        self.hidden: tuple[str, ...] = tuple(s for s in variant.seats if s != self.observer)
        """The seats whose tiles this observer does not see."""
        self.holders: tuple[str, ...] = (*self.hidden, POOL)
        """The current holders of unseen tiles, as the snapshot names them."""

    def _reset_hand(self, hand: int | None) -> None:
        self.hand = hand
        self.own: set[Tile] = set()
        self.ends: tuple[int, int] | None = None
        self.played: dict[Tile, str] = {}
        self.held: dict[str, int] = dict.fromkeys(self.variant.seats, self.variant.hand_size)
        self.left = self.variant.pool_size
        self.owner: list[str] = [POOL]
        self.size: list[int] = [self.left]
        self.masks: dict[Tile, int] = {}
        self.seat_bits: dict[str, int] = dict.fromkeys(self.variant.seats, 0)
        self.revealed: dict[str, list[Tile]] = {}
        self._solved: _Solved | None = None
        self._tabled: tuple[_Solved, _Tables] | None = None
        self._last: tuple = ()
        self._notes: dict[str, tuple[int, bool | None, tuple[int, int]]] = {}

    # ------------------------------------------------------------------------- the fold
    def apply(self, event: Event | dict) -> None:
        """Fold one event in; on InconsistentLog the belief is left as it was."""
        if isinstance(event, dict):
            event = parse_event(event)
        saved = self._save()
        try:
            self._handle(event)
        except InconsistentLog:
            self._restore(saved)
            raise
        self.seq = event.seq

    def _save(self) -> tuple:
        return (set(self.own), self.ends, dict(self.played), dict(self.held), self.left,
                list(self.owner), list(self.size), dict(self.masks), dict(self.seat_bits),
                self._solved, self._last, dict(self._notes), self.status)

    def _restore(self, saved: tuple) -> None:
        (self.own, self.ends, self.played, self.held, self.left, self.owner, self.size,
         self.masks, self.seat_bits, self._solved, self._last, self._notes,
         self.status) = saved

    def _on_match_started(self, event: MatchStarted) -> None:
        variant = get_variant(event.variant)
        self._check_variant(variant)
        if self.observer not in (*variant.seats, "spectator"):
            raise ObserverError(f"{self.observer} has no seat in {variant.name}")
        self._use(variant)
        self.status = "idle"
        self._reset_hand(None)

    def _on_hand_dealt(self, event: HandDealt) -> None:
        tiles = self._dealt_to_us(event)
        if tiles is None:
            return
        self.own = set(tiles)
        self._begin(event)

    def _begin(self, event: HandStarted | HandDealt) -> None:
        bits = SOURCE
        for seat in self.hidden:
            bit = 1 << len(self.owner)
            self.owner.append(seat)
            self.size.append(self.variant.hand_size)
            self.seat_bits[seat] = bit
            bits |= bit
        masks = {t: bits for t in self.variant.tiles if t not in self.own}
        condition = self._lead_rule(event, masks) if self.first_hand else None
        self.status = "live"
        self._commit(masks, event, condition)

    def _lead_rule(self, event: HandStarted | HandDealt, masks: dict[Tile, int]
                   ) -> WordedCondition | None:
        """Hand 1: the leader holds the first dealt tile in lead order (module docstring)."""
        leader = self.leader
        assert leader is not None  # hand_started named it before any tile was dealt
        order = lead_order(self.variant.tiles)
        if self.observer == "spectator":
            return LeadsFirst(tuple(order), (leader,))
        best = order.index(lead_order(self.own)[0])
        if self.observer == leader:
            for t in order[:best]:
                masks[t] = SOURCE  # nothing above our best was dealt
            return None
        above = tuple(order[:best])
        if not above:
            raise self._fail(event, f"{leader} leads hand 1 but {self.observer} holds "
                             f"{order[best]}, the highest tile in lead order")
        return LeadsFirst(above, (leader,))

    def _fits(self) -> tuple[int, int]:
        if self.ends is None:
            raise AssertionError("no ends before the first tile")
        return self.ends

    def _exclude(self, masks: dict[Tile, int], seat: str, a: int, b: int) -> None:
        """`seat` holds nothing showing a or b now: strike its batches held now."""
        keep = ~self.seat_bits[seat]
        for t, mask in masks.items():
            if (t.has(a) or t.has(b)) and t not in self.played:
                masks[t] = mask & keep

    def _new_batch(self, masks: dict[Tile, int], seat: str, n: int) -> int:
        """`seat` draws n tiles from the pool: a batch any tile still in the pool may be in."""
        bit = 1 << len(self.owner)
        self.owner.append(seat)
        self.size.append(n)
        self.seat_bits[seat] |= bit
        for t, mask in masks.items():
            if mask & SOURCE:
                masks[t] = mask | bit
        return bit

    def _on_tile_played(self, event: TilePlayed) -> None:
        self._live(event)
        seat, t = event.seat, parse_tile(event.tile)
        if t not in self.variant.tiles or t in self.played:
            raise self._fail(event, f"{t} cannot be played now (played before, or not in "
                             f"{self.variant.name})")
        if self.held[seat] <= 0:
            raise self._fail(event, f"{seat} has no tiles left to play")
        masks = dict(self.masks)
        if seat == self.observer:
            if t not in self.own:
                raise self._fail(event, f"{seat} played {t}, which is not in its hand")
            self.own.discard(t)
        else:
            if t in self.own:
                raise self._fail(event, f"{seat} played {t}, which {self.observer} holds")
            mask = masks.get(t, 0) & self.seat_bits[seat]
            if not mask:
                raise self._fail(event, f"{seat} played {t}, which it cannot hold")
            masks[t] = mask
        ends = self._extend(event, t)
        if self.ends is None and self.first_hand:
            self._first_tile_rule(event, t, masks)
        self.ends = ends
        self.played[t] = seat
        self.held[seat] -= 1
        note = self._notes.get(seat)
        if note is not None and self._last[:2] == ("draw", seat):
            self._notes[seat] = (note[0], True, note[2])
        else:
            self._notes.pop(seat, None)
        self._commit(masks, event, None)  # a play resolves any pending disjunction
        self._last = ("play", seat)

    def _first_tile_rule(self, event: TilePlayed, t: Tile, masks: dict[Tile, int]) -> None:
        """Hand 1 opens with the first dealt tile in lead order: every tile above it was in
        the pool at the deal (and in draw-2 may be drawn later)."""
        if event.seat != self.leader:
            raise self._fail(event, f"{event.seat} opens hand 1 but {self.leader} leads it")
        order = lead_order(self.variant.tiles)
        for above in order[: order.index(t)]:
            if above in self.own:
                raise self._fail(event, f"hand 1 opens with {t} but {self.observer} holds "
                                 f"{above}, which leads before it")
            masks[above] = masks[above] & SOURCE
            if not masks[above]:
                raise self._fail(event, f"hand 1 opens with {t}, so {above} was not dealt, "
                                 "but it cannot be in the pool")

    def _on_tiles_drawn(self, event: TilesDrawn) -> None:
        self._live(event)
        seat, k = event.seat, event.count
        if not self.variant.draws:
            raise self._fail(event, f"{self.variant.name} has no boneyard to draw from")
        if self.ends is None:
            raise self._fail(event, f"{seat} drew before the first tile")
        if k > self.left:
            raise self._fail(event, f"{seat} drew {k} of {self.left} tiles")
        a, b = self.ends
        masks = dict(self.masks)
        emptied = k == self.left
        fit: bool | None
        if seat == self.observer:
            if event.tiles is None:
                raise ObserverError(f"event {event.seq}: {seat}'s draw is redacted in this "
                                    f"log, so it is not {seat}'s view")
            tiles = [parse_tile(x) for x in event.tiles]
            if any(t.has(a) or t.has(b) for t in self.own):
                raise self._fail(event, f"{seat} drew while holding a tile for {a}|{b}")
            for i, t in enumerate(tiles):
                if not masks.get(t, 0) & SOURCE or t in self.played:
                    raise self._fail(event, f"{seat} drew {t}, which is not in the boneyard")
                if i < k - 1 and (t.has(a) or t.has(b)):
                    raise self._fail(event, f"{seat} drew on past {t}, which fits {a}|{b}")
                del masks[t]
            fit = tiles[-1].has(a) or tiles[-1].has(b)
            if not fit and not emptied:
                raise self._fail(event, f"{seat} stopped drawing before a tile fitted")
            self.own.update(tiles)
        else:
            self._exclude(masks, seat, a, b)  # it drew: nothing of its hand fitted
            if k > 1:
                self._new_batch(masks, seat, k - 1)
                self._exclude(masks, seat, a, b)  # ... nor did the first k - 1 drawn
            bit = self._new_batch(masks, seat, 1)
            fit = None if emptied else True
            if fit:  # drawing stopped at a tile that fits
                for t, mask in masks.items():
                    if not (t.has(a) or t.has(b)):
                        masks[t] = mask & ~bit
            self._notes[seat] = (k, fit, (a, b))
        self.left -= k
        self.size[0] = self.left
        self.held[seat] += k
        self._commit(masks, event, None)
        self._last = ("draw", seat, k, fit)

    def _on_passed(self, event: Passed) -> None:
        self._live(event)
        seat = event.seat
        if self.ends is None:
            raise self._fail(event, f"{seat} passed before the first tile")
        if self.variant.draws and self.left:
            raise self._fail(event, f"{seat} passed with {self.left} tiles left to draw")
        a, b = self.ends
        masks = dict(self.masks)
        if seat == self.observer:
            if any(t.has(a) or t.has(b) for t in self.own):
                raise self._fail(event, f"{seat} passed holding a tile for {a}|{b}")
        else:
            if self.held[seat] <= 0:
                raise self._fail(event, f"{seat} passed with no tiles left")
            self._exclude(masks, seat, a, b)
            note = self._notes.get(seat)
            if note is not None and self._last[:2] == ("draw", seat):
                self._notes[seat] = (note[0], False, note[2])
            else:
                self._notes.pop(seat, None)
        condition = self._can_follow(event, seat, masks, a, b)
        self._commit(masks, event, condition)
        self._last = ("pass", seat)

    def _can_follow(self, event: Passed, passer: str, masks: dict[Tile, int], a: int, b: int
                    ) -> WordedCondition | None:
        """A pass shows the hand went on after the last move, so the other seat can follow."""
        follower = next(s for s in self.variant.seats if s != passer)
        if follower == self.observer:
            if not any(t.has(a) or t.has(b) for t in self.own):
                raise self._fail(event, f"the hand went on although neither seat could "
                                 f"follow {a}|{b}: it was blocked")
            return None
        tiles = tuple(sorted(t for t in masks if (t.has(a) or t.has(b))
                             and t not in self.played))
        if not tiles:
            raise self._fail(event, f"the hand went on although no unseen tile fits {a}|{b}")
        # draw-2 passes only with the boneyard empty: every unseen tile is in a hand
        return None if self.variant.draws else CanFollow(tiles, (follower,))

    def _on_hand_ended(self, event: HandEnded) -> None:
        self._live(event)
        masks = dict(self.masks)
        if event.reason == "blocked":
            if self.ends is None or (self.variant.draws and self.left):
                raise self._fail(event, "blocked with tiles left to draw or no line")
            a, b = self.ends
            if any(t.has(a) or t.has(b) for t in self.own):
                raise self._fail(event, f"blocked, but {self.observer} could follow {a}|{b}")
            for seat in self.hidden:
                self._exclude(masks, seat, a, b)
        shown: dict[str, list[Tile]] = {s: [parse_tile(x) for x in event.remaining.get(s, [])]
                 for s in self.variant.seats}
        pool = [parse_tile(x) for x in event.pool]
        if self.observer in shown and sorted(shown[self.observer]) != sorted(self.own):
            raise self._fail(event, f"{self.observer}'s revealed hand is not what it kept")
        places = [(s, shown[s], self.seat_bits[s], self.held[s]) for s in self.hidden]
        places.append((POOL, pool, SOURCE, self.left))
        for place, tiles, bits, n in places:
            if len(tiles) != n:
                raise self._fail(event, f"{place} shows {len(tiles)} tiles, not {n}")
            for t in tiles:
                mask = masks.get(t, 0) & bits if t not in self.played else 0
                if not mask:
                    raise self._fail(event, f"{place} shows {t}, which it could not hold")
                masks[t] = mask
        pending = self._solved.condition if self._solved else None
        self._commit(masks, event, pending)
        self.revealed = {**shown, POOL: pool}
        self.status = "ended"

    def _on_match_ended(self, event: MatchEnded) -> None:
        if self.status == "live":
            raise self._fail(event, "the match ended in the middle of a hand")
        self.status = "ended" if self.hand is not None else "idle"

    # ------------------------------------------------------------------------- solving
    def _commit(self, masks: dict[Tile, int], event: Event, condition: WordedCondition | None
                ) -> None:
        """Merge, propagate, count the pending disjunction; keep it all or fail at `event`."""
        try:
            solved, raw = _solve(masks, self.owner, self.size, condition)
        except Infeasible as error:
            raise InconsistentLog(event.seq, f"no deal fits: {error}") from None
        self.masks = raw
        self._solved = solved

    # ------------------------------------------------------------------------- queries
    @property
    def pending(self) -> WordedCondition | None:
        """The disjunction the allowed sets cannot hold (first lead, can follow), if any."""
        return self._solved.condition if self.status == "live" and self._solved else None

    @property
    def condition(self) -> _Parts | None:
        """For DealSampler.of: the parts its draws are split into (class docstring)."""
        if self.status != "live" or self._solved is None:
            return None
        return _Parts(self._solved, frozenset(t for t, s in self.played.items()
                                              if s != self.observer), self.holders)

    def position(self) -> Position:
        """The merged, propagated counting problem over the batches (played tiles included:
        each is counted in the batch it came from)."""
        if self.status != "live" or self._solved is None:
            return Position(self.holders, {}, (0,) * len(self.holders))
        return self._solved.position

    def remaining_counts(self) -> dict[str, int]:
        return {**self.held, POOL: self.left}

    def count(self) -> int:
        """Assignments of the hidden tiles to the hidden batches and the pool (exact)."""
        return self._tables().total * self._solved.factor if self._solved else 0

    def _tables(self) -> _Tables:
        """Per unseen tile: its current holders' probabilities and support (cached per
        update; computed per class of interchangeable tiles, one solve)."""
        solved = self._solved
        assert solved is not None
        if self._tabled is not None and self._tabled[0] is solved:
            return self._tabled[1]
        holders = self.holders
        out_bit = [1 << holders.index(o) for o in solved.owners]
        where = [holders.index(o) for o in solved.owners]
        m = len(holders)
        position = solved.position
        rows: dict[int, tuple[list[int], int]] = {}  # merged mask -> per-tile counts
        if solved.count is not None:
            total = solved.count.total
            per_tile = solved.count.counts
        else:
            solution = solve(position)
            total = solution.total
            per_tile = None
            for mask, tiles in position.classes().items():
                if mask & (mask - 1) == 0:
                    rows[mask] = ([total if mask >> k & 1 else 0 for k in range(len(where))],
                                  mask)
                else:
                    n = len(tiles)
                    nums = solution.numerators[solution.class_index(mask)]
                    rows[mask] = ([v // n for v in nums], mask)
        probs: dict[Tile, tuple[float, ...]] = {}
        support: dict[Tile, int] = {}
        seen: dict[tuple, tuple[tuple[float, ...], int]] = {}
        for t, mask in position.allowed.items():
            if t in self.played:
                continue
            row = per_tile[t] if per_tile is not None else rows[mask][0]
            key = (mask, tuple(row)) if per_tile is not None else (mask,)
            done = seen.get(key)
            if done is None:
                acc = [0] * m
                bits = 0
                for k, c in enumerate(row):
                    if c:
                        acc[where[k]] += c
                        bits |= out_bit[k]
                done = seen[key] = (tuple(c / total for c in acc), bits)
            probs[t], support[t] = done
        for t, who in solved.fixed.items():
            if t not in self.played:
                i = holders.index(who)
                probs[t] = tuple(float(k == i) for k in range(m))
                support[t] = 1 << i
        tables = _Tables(total, probs, support)
        self._tabled = (solved, tables)
        return tables

    def marginals(self) -> dict[str, dict[Tile, float]]:
        """P(current holder holds t) for every unseen tile: hidden seats and the pool."""
        if self.status != "live" or self._solved is None:
            return {}
        probs = self._tables().probs
        out: dict[str, dict[Tile, float]] = {}
        for i, h in enumerate(self.holders):
            out[h] = {t: probs[t][i] for t in sorted(probs)}
        return out

    def sample(self, rng: random.Random) -> dict[str, list[Tile]]:
        """One draw of the unseen tiles (hidden seat or pool -> its tiles now), exactly
        uniform over the consistent assignments."""
        deal = DealSampler.of(self)(rng)
        return {h: sorted(deal.get(h, [])) for h in self.holders}

    def seat_position(self) -> Position:
        """The unseen tiles with the current holders that may have them (exactly the
        holders some consistent deal gives them to) and each holder's count."""
        holders = self.holders
        if self.status != "live" or self._solved is None:
            return Position(holders, {}, (0,) * len(holders))
        counts = tuple(self.left if h == POOL else self.held[h] for h in holders)
        return Position(holders, self._tables().support, counts)

    def facts(self) -> list[Fact]:
        """Facts in words, read off the exact supports; a seat's voids say which draw
        showed them while that draw is its latest move."""
        if self.status != "live" or self._solved is None:
            return []
        out = []
        for fact in facts(self.seat_position()):
            note = self._notes.get(fact.holders[0]) if fact.kind == "void" else None
            if note is not None and set(note[2]) <= set(fact.values):
                k, fit, _ = note
                values = join([f"{v}s" for v in fact.values], "and no")
                how = {True: f"drew {k} before a tile fitted",
                       False: f"drew {k} and still could not play",
                       None: f"drew the last {k}"}[fit]
                fact = Fact(fact.kind, fact.holders, fact.tiles, fact.values,
                            f"{fact.holders[0]} {how}: has no {values}")
            out.append(fact)
        condition = self._solved.condition
        if condition is not None:
            out.append(condition.fact(self._solved.position))
        return out

    def snapshot(self, method: str = "exact") -> BeliefSnapshot:
        """The JSON-able result (games.dominoes.snapshot's shape), by the exact count only."""
        if method != "exact":
            raise ValueError(f"the two-player belief is exact only, not {method!r}")
        remaining = self.remaining_counts()
        if self.status != "live":
            deals = 1 if self.status == "ended" else None
            return BeliefSnapshot(self.seq, self.observer, self.hand, self.status, method,
                                  deals, 0.0 if deals else None, {}, {}, [], remaining)
        probs = self._tables().probs
        tiles = sorted(probs)
        names = [tile_name(t) for t in tiles]
        named = {h: {n: probs[t][i] for n, t in zip(names, tiles, strict=True)}
                 for i, h in enumerate(self.holders)}
        by_row: dict[tuple[float, ...], float] = {}  # tiles of one class share their row
        ent = {}
        for n, t in zip(names, tiles, strict=True):
            row = probs[t]
            bits = by_row.get(row)
            if bits is None:
                bits = by_row[row] = entropy(list(row))
            ent[n] = bits
        items = self.facts()
        deals = self.count()
        return BeliefSnapshot(self.seq, self.observer, self.hand, self.status, method, deals,
                              math.log2(deals), named, ent, [f.text for f in items],
                              remaining, None, items)


def _solve(masks: dict[Tile, int], owner: list[str], size: list[int],
           condition: WordedCondition | None) -> tuple[_Solved, dict[Tile, int]]:
    """The raw batches' masks -> merged, propagated position (and masks written back).

    Raises Infeasible when no assignment fits. Like Holdings.layout: a batch filled by tiles
    that can only be there is closed to the rest; then a seat's batches that every free tile
    may or may not enter alike are one holder (the count gains C(a + b, a)). Tiles with the
    same mask go through every step together, so the work is per class, not per tile.
    """
    n_raw = len(owner)
    classes = Counter(masks.values())
    if 0 in classes:
        raise Infeasible("a tile no holder can have")
    closed = {mask: mask for mask in classes}  # raw mask -> after closing full batches
    full = 0
    while True:
        forced = [0] * n_raw
        for mask, n in classes.items():
            now_mask = closed[mask]
            if now_mask & (now_mask - 1) == 0:
                forced[now_mask.bit_length() - 1] += n
        now = 0
        for j in range(n_raw):
            if forced[j] > size[j]:
                raise Infeasible(f"{forced[j]} tiles must be in a holder of {size[j]}")
            if forced[j] == size[j]:
                now |= 1 << j
        if now == full:
            break
        full = now
        for mask, now_mask in closed.items():
            if now_mask & (now_mask - 1) and now_mask & full:
                closed[mask] = now_mask & ~full
    entered = [0] * n_raw  # per raw holder: which free masks (by index) may enter it
    for index, free in enumerate({m for m in closed.values() if m & (m - 1)}):
        while free:
            low = free & -free
            entered[low.bit_length() - 1] |= 1 << index
            free ^= low
    groups: dict[tuple, list[int]] = {(POOL,): [0]}
    for j in range(1, n_raw):
        groups.setdefault((owner[j], entered[j]), []).append(j)
    dropped = 0  # raw holders filled by the tiles only they can take: out of the position
    if condition is None:
        for members in groups.values():
            if all(forced[j] == size[j] for j in members):
                for j in members:
                    dropped |= 1 << j
    per_owner: dict[str, int] = {}
    for key, members in groups.items():
        if not dropped >> members[0] & 1:
            per_owner[key[0]] = per_owner.get(key[0], 0) + 1
    names: list[str] = []
    owners: list[str] = []
    counts: list[int] = []
    to_merged = [0] * n_raw
    to_raw: list[int] = []
    factor = 1
    seen: dict[str, int] = {}
    for key, members in groups.items():
        if dropped >> members[0] & 1:
            continue
        who = key[0]
        spare = [max(0, size[j] - forced[j]) for j in members]
        factor *= math.factorial(sum(spare))
        for n in spare:
            factor //= math.factorial(n)
        raw_bits = 0
        for j in members:
            to_merged[j] = len(names)
            raw_bits |= 1 << j
        seen[who] = seen.get(who, 0) + 1
        names.append(who if per_owner[who] == 1 else f"{who}#{seen[who]}")
        owners.append(who)
        counts.append(sum(size[j] for j in members))
        to_raw.append(raw_bits)
    merged: dict[int, int] = {}
    for mask, now_mask in closed.items():
        if now_mask & dropped:
            continue
        bits = 0
        while now_mask:
            low = now_mask & -now_mask
            bits |= 1 << to_merged[low.bit_length() - 1]
            now_mask ^= low
        merged[mask] = bits
    allowed = {t: merged[mask] for t, mask in masks.items() if mask in merged}
    fixed = ({t: owner[closed[mask].bit_length() - 1] for t, mask in masks.items()
              if mask not in merged} if len(allowed) < len(masks) else {})
    result = propagate(Position(tuple(names), allowed, tuple(counts)))
    position = result.position
    count = None
    if condition is not None:
        count = condition.count(position)
        if not count.total:
            raise Infeasible(f"none where {condition.fact(position).text}")
        support = count.support(position)
        if count.whole:
            condition, count = None, None
        elif support != position.allowed:
            position = propagate(Position(position.holders, support, position.counts)).position
            if condition.holds_everywhere(position):
                condition, count = None, None
    if position.allowed is allowed and all(closed[m] == m for m in closed):
        return _Solved(position, tuple(owners), factor, condition, count, fixed), masks
    expand: dict[int, int] = {}
    raw = {}
    for t, mask in masks.items():
        if t in fixed:
            raw[t] = closed[mask]
            continue
        bits = position.allowed[t]
        keep = expand.get(bits)
        if keep is None:
            keep = 0
            k = 0
            b = bits
            while b:
                if b & 1:
                    keep |= to_raw[k]
                b >>= 1
                k += 1
            expand[bits] = keep
        raw[t] = closed[mask] & keep
    return _Solved(position, tuple(owners), factor, condition, count, fixed), raw


def two_player(variant: str | Variant) -> bool:
    """Whether `variant` is one this belief models (two seats)."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    return len(v.seats) == 2


__all__ = ["PLAYED", "LeadsFirst", "TwoPlayerBelief", "lead_order", "two_player"]
