"""A seat's (or a spectator's) belief about the unseen tiles, as a fold over its events.

The belief is per hand: hand_started resets it. It tracks the line's open ends (to read
passes), the tiles played, each seat's remaining count r(h), and for every unseen tile the
bitmask of holders that may have it; after every event it propagates to the fixed point
(inference.propagation), so an impossible log fails at the event that made it impossible.
Other seats' hand_dealt tiles are ignored even when present: the belief is what this
observer may know, whatever log it is fed.
"""

from __future__ import annotations

import random
from typing import Literal

from games.dominoes.belief_fold import HandFold, ObserverError
from games.dominoes.conditions import CanFollow, LeadsHighest, WordedCondition
from games.dominoes.events import (
    Event,
    HandDealt,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    TilePlayed,
)
from games.dominoes.rules import lead_rank
from games.dominoes.snapshot import BeliefSnapshot, Observation, build_snapshot
from games.dominoes.tiles import SEATS, Tile, parse_tile
from games.dominoes.variants import DEFAULT_VARIANT, Variant, get_variant
from inference.classes import POOL, Position
from inference.errors import InconsistentLog, Infeasible
from inference.parts import Count
from inference.propagation import propagate
from inference.sampler import DealSampler

Observer = Literal["S", "W", "N", "E", "spectator"]
Status = Literal["idle", "waiting", "live", "ended"]
"""idle: no hand yet; waiting: hand started, own tiles not yet dealt; live; ended."""

OBSERVERS: tuple[str, ...] = (*SEATS, "spectator")


class Belief(HandFold):
    """Fold of one observer's view of a match's events into the current hand's position."""

    def __init__(self, observer: str, variant: str | Variant = DEFAULT_VARIANT) -> None:
        if observer not in OBSERVERS:
            raise ObserverError(f"unknown observer {observer!r} (one of {', '.join(OBSERVERS)})")
        self.observer = observer
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self._holders: tuple[Variant | None, tuple[str, ...]] = (None, ())
        self.seq = 0
        self.hand: int | None = None
        self.status: Status = "idle"
        self.first_hand = False
        self.leader: str | None = None
        self._reset_hand(None)

    @property
    def holders(self) -> tuple[str, ...]:
        """The unknown holders: the other seats (and the pool). Read several times per
        event, so kept per variant."""
        variant, holders = self._holders
        if variant is not self.variant:
            seats = tuple(s for s in SEATS if s != self.observer)
            holders = (*seats, POOL) if self.variant.has_pool else seats
            self._holders = (self.variant, holders)
        return holders

    def _reset_hand(self, hand: int | None) -> None:
        self.hand = hand
        self.own: frozenset[Tile] = frozenset()
        self.ends: tuple[int, int] | None = None
        self.played: dict[Tile, str] = {}
        self.played_count: dict[str, int] = dict.fromkeys(SEATS, 0)
        self.allowed: dict[Tile, int] = {}
        self.revealed: dict[str, list[Tile]] = {}
        self._position: Position | None = None
        self._tight: tuple[int, ...] = ()
        self._condition: WordedCondition | None = None
        self._count: Count | None = None
        self._last_move: str | None = None
        """The hand's last play or pass, as its event type (None before the first tile)."""

    # ----------------------------------------------------------------- the fold
    def _on_match_started(self, event: MatchStarted) -> None:
        self.variant = get_variant(event.variant)
        self.status = "idle"
        self._reset_hand(None)

    def _on_hand_dealt(self, event: HandDealt) -> None:
        tiles = self._dealt_to_us(event)
        if tiles is None:
            return
        self.own = frozenset(tiles)
        self._begin(event)

    def _begin(self, event: HandStarted | HandDealt) -> None:
        full = (1 << len(self.holders)) - 1
        allowed = {t: full for t in self.variant.tiles if t not in self.own}
        condition = self._leader_rule(event, allowed) if self.first_hand else None
        self.status = "live"
        self._position = None
        self._commit(allowed, event, condition)

    def _leader_rule(self, event: HandStarted | HandDealt, allowed: dict[Tile, int]
                     ) -> WordedCondition | None:
        """In a match's first hand the leader holds the lead tile of the deal: the highest
        double dealt, or with no double dealt the heaviest tile (lead_rank).

        Allowed sets hold it when the leader's tile is determined: double-six (6-6 is always
        dealt), or the observer leads (every tile that would outrank its own lead tile
        sleeps in the pool). Otherwise (double-nine, someone else leads) it is a disjunction,
        kept as a Condition (inference.parts) until the first tile resolves it: of the tiles
        that outrank all of the observer's, the first not in the pool is the leader's.
        """
        leader = self.leader
        assert leader is not None  # hand_started named it before any tile was dealt
        ranked = sorted(self.variant.tiles, key=lead_rank, reverse=True)
        if not self.variant.has_pool:
            top = ranked[0]
            if leader == self.observer and top not in self.own:
                raise self._fail(event, f"{self.observer} leads hand 1 without {top}")
            if leader != self.observer:
                if top in self.own:
                    raise self._fail(event, f"{leader} leads hand 1 but "
                                     f"{self.observer} holds {top}")
                allowed[top] = 1 << self.holders.index(leader)
            return None
        mine = max(self.own, key=lead_rank, default=None)  # None: a spectator
        above = [t for t in ranked if mine is None or lead_rank(t) > lead_rank(mine)]
        if leader == self.observer:
            pool_bit = 1 << self.holders.index(POOL)
            for t in above:
                allowed[t] = pool_bit
            return None
        return LeadsHighest(tuple(above), (leader,))

    def _remaining(self, seat: str) -> int:
        return self.variant.hand_size - self.played_count[seat]

    def _on_tile_played(self, event: TilePlayed) -> None:
        self._live(event)
        seat, t = event.seat, parse_tile(event.tile)
        if t not in self.variant.tiles:
            raise self._fail(event, f"{t} is not in {self.variant.name}")
        if t in self.played:
            raise self._fail(event, f"{t} was already played by {self.played[t]}")
        if self._remaining(seat) <= 0:
            raise self._fail(event, f"{seat} has no tiles left to play")
        allowed = dict(self.allowed)
        if seat == self.observer:
            if t not in self.own:
                raise self._fail(event, f"{seat} played {t}, which is not in its hand")
        elif t in self.own:
            raise self._fail(event, f"{seat} played {t}, which is in {self.observer}'s hand")
        else:
            bit = 1 << self.holders.index(seat)
            if not allowed[t] & bit:
                raise self._fail(event, f"{seat} played {t}, which it cannot hold "
                                 "(it passed on that number, or the count rules it out)")
            del allowed[t]
        ends = self._extend(event, t)
        if self.ends is None and self.first_hand:
            self._first_tile_rule(event, t, allowed)
        self.ends = ends
        self.played[t] = seat
        self.played_count[seat] += 1
        self._commit(allowed, event, None)  # a play resolves any pending disjunction
        self._last_move = "tile_played"

    def _first_tile_rule(self, event: TilePlayed, t: Tile, allowed: dict[Tile, int]) -> None:
        """A match's first hand opens with the deal's lead tile: every tile that outranks
        it (lead_rank) was not dealt, so it sleeps in the pool."""
        higher = sorted((d for d in self.variant.tiles if lead_rank(d) > lead_rank(t)),
                        key=lead_rank)
        if not self.variant.has_pool:
            if higher:
                raise self._fail(event, f"the match opens with {t} but {higher[-1]} was dealt")
            return
        pool_bit = 1 << self.holders.index(POOL)
        for d in higher:
            if d in self.own:
                raise self._fail(event, f"the match opens with {t} but {d} was dealt to "
                                 f"{self.observer}")
            allowed[d] = allowed[d] & pool_bit
            if not allowed[d]:
                raise self._fail(event, f"{d} must be in the pool but cannot be")

    def _on_passed(self, event: Passed) -> None:
        self._live(event)
        seat = event.seat
        if self.ends is None:
            raise self._fail(event, f"{seat} passed before the first tile")
        a, b = self.ends
        after_play = self._last_move == "tile_played"
        if seat == self.observer:
            held = self.own - set(self.played)
            playable = sorted(t for t in held if t.has(a) or t.has(b))
            if playable:
                raise self._fail(event, f"{seat} passed holding {playable[0]}")
            if not after_play:
                self._last_move = "passed"
                return  # a pass after a pass: the same position, the same pending condition
            allowed = dict(self.allowed)  # our own pass strikes nothing we did not know
        else:
            if self._remaining(seat) <= 0:
                raise self._fail(event, f"{seat} passed with no tiles left")
            keep = ~(1 << self.holders.index(seat))
            allowed = {t: (mask & keep if t.has(a) or t.has(b) else mask)
                       for t, mask in self.allowed.items()}
        # Any pass shows that the last play did not block the hand. Another seat's pass
        # re-commits the allowed sets, so it restates the condition even after a pass (else
        # the commit would drop it); our own pass changes nothing after a pass.
        self._commit(allowed, event, self._can_follow(event, a, b))
        self._last_move = "passed"

    def _can_follow(self, event: Passed, a: int, b: int) -> WordedCondition | None:
        """The hand goes on after the last play, so it was not blocked: some seat can follow.

        An observer holding a tile of the ends knows it already. Otherwise some unseen tile
        must show a or b (or the log is impossible); without a pool every unseen tile is in
        a hand, so that is all, and only a pool can hide every one of them.
        """
        if any(t.has(a) or t.has(b) for t in self.own - set(self.played)):
            return None
        tiles = tuple(t for t in sorted(self.allowed) if t.has(a) or t.has(b))
        if not tiles:
            raise self._fail(event, f"the hand went on although no seat could follow "
                             f"{a}|{b}: it was blocked")
        if not self.variant.has_pool:
            return None
        seats = tuple(h for h in self.holders if h != POOL)
        return CanFollow(tiles, seats)

    def _on_hand_ended(self, event: HandEnded) -> None:
        self._live(event)
        position = self.position()
        for holder, names in [*event.remaining.items(), (POOL, event.pool)]:
            tiles = [parse_tile(n) for n in names]
            if holder == self.observer:
                left = sorted(self.own - set(self.played))
                if sorted(tiles) != left:
                    raise self._fail(event, f"{holder}'s revealed hand is not what it kept")
                continue
            if holder not in position.holders:
                continue
            h = position.holder_index(holder)
            if len(tiles) != position.counts[h]:
                raise self._fail(event, f"{holder} shows {len(tiles)} tiles, "
                                 f"not {position.counts[h]}")
            for t in tiles:
                if not position.allowed.get(t, 0) >> h & 1:
                    raise self._fail(event, f"{holder} shows {t}, which it could not hold")
        self.revealed = {h: [parse_tile(n) for n in ns] for h, ns in event.remaining.items()}
        self.revealed[POOL] = [parse_tile(n) for n in event.pool]
        self.status = "ended"

    def _on_match_ended(self, event: MatchEnded) -> None:
        if self.status == "live":
            raise self._fail(event, "the match ended in the middle of a hand")
        self.status = "ended" if self.hand is not None else "idle"

    def _commit(
        self, allowed: dict[Tile, int], event: Event, condition: WordedCondition | None
    ) -> None:
        """Propagate the new constraints and keep them, or fail naming the event.

        `condition` is the disjunction pending after this event, if any. With one, the
        allowed sets are cut to the support of the deals that satisfy it, and it is dropped
        once every deal of the cut position satisfies it.
        """
        counts = tuple(
            self.variant.pool_size if h == POOL else self._remaining(h) for h in self.holders
        )
        try:
            result = propagate(Position(self.holders, allowed, counts))
            count = None
            if condition is not None:
                count = condition.count(result.position)
                if not count.total:
                    raise Infeasible(f"none where {condition.fact(result.position).text}")
                support = count.support(result.position)
                if count.whole:
                    condition, count = None, None  # it says nothing more
                elif support != result.position.allowed:
                    # the same satisfying deals, so `count` stands for the cut position
                    result = propagate(Position(self.holders, support, counts))
                    if condition.holds_everywhere(result.position):
                        condition, count = None, None
        except Infeasible as error:
            raise InconsistentLog(event.seq, f"no deal fits: {error}") from None
        self._position = result.position
        self._tight = result.tight
        self.allowed = dict(result.position.allowed)
        self._condition = condition
        self._count = count

    # ----------------------------------------------------------------- queries
    def position(self) -> Position:
        """The propagated counting problem of the hand in play (empty outside one)."""
        if self.status != "live" or self._position is None:
            return Position(self.holders, {}, (0,) * len(self.holders))
        return self._position

    @property
    def tight_sets(self) -> tuple[int, ...]:
        return self._tight if self.status == "live" else ()

    @property
    def condition(self) -> WordedCondition | None:
        """A pending disjunction the allowed sets cannot hold (inference.parts), if any."""
        return self._condition if self.status == "live" else None

    def condition_count(self) -> Count | None:
        """The exact counts under the pending condition, if any (else: count position())."""
        return self._count if self.status == "live" else None

    def remaining_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {s: self._remaining(s) for s in SEATS}
        if self.variant.has_pool:
            counts[POOL] = self.variant.pool_size
        return counts

    def sample(self, rng: random.Random) -> dict[str, list[Tile]]:
        """An exact uniform draw of the unseen tiles: unknown holder -> tiles."""
        return DealSampler.over(self.position(), self.condition)(rng)

    def observation(self) -> Observation:
        """What this belief knows now, as the plain data games.dominoes.snapshot computes from."""
        return Observation(
            self.seq, self.observer, self.hand, self.status, self.position(),
            self.remaining_counts(), self.tight_sets, self.condition, self.condition_count(),
        )

    def snapshot(self, method: str = "exact", *, samples: int = 10_000,
                 rng: random.Random | None = None, budget: int = 2_000_000) -> BeliefSnapshot:
        """The JSON-able result of this position by `method` (see games.dominoes.snapshot)."""
        return build_snapshot(self.observation(), method, samples=samples, rng=rng,
                              budget=budget)
