"""A perfect-information solver of the tricks left in a hand of 42 (double-dummy).

Every hand is known; the value of a position is the points North-South take from the rest of
the hand when both teams play perfectly (East-West minimise it; 42 points are shared, so that
is the same as each team maximising its own). Alpha-beta over single plays, with a
transposition table of bounds at trick boundaries (the position there is just the four
remaining hands and the leader). Pure: no I/O, no clock.

Tiles are indices 0..27 (`dominoes.INDEX`), hands 28-bit masks, seats 0..3 = S, W, N, E.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from games.texas42.dominoes import INDEX, SEATS, TILES, Tile, count_of
from games.texas42.suits import TRUMP_SUIT, follows, is_trump, led_suit, rank_in

TRUMP_INDEX = 7
"""The trump suit's index in the per-suit tables (numbers are 0..6)."""

Hands = tuple[int, int, int, int]
"""Each seat's tiles as a mask of tile indices (INDEX), in SEATS order."""


class OutOfNodes(Exception):
    """The solver's node budget ran out (the caller falls back to what it has)."""


@dataclass(frozen=True)
class Tables:
    """Everything about the 28 tiles that one trump fixes, as flat lists and masks."""

    trump: int
    lead_suit: tuple[int, ...]
    """Per tile: the suit index it calls when led (0..6, or TRUMP_INDEX)."""
    follow: tuple[int, ...]
    """Per suit index: the mask of tiles that follow it."""
    power: tuple[tuple[int, ...], ...]
    """power[suit][tile]: who wins a trick led in `suit` (higher wins; -1 never wins)."""
    points: tuple[int, ...]
    count_tiles: tuple[tuple[int, int], ...]
    """(tile index, points) of the five count dominoes."""
    order: tuple[tuple[int, ...], ...]
    """order[suit]: the 28 tiles strongest first when `suit` is led (the move order)."""
    lead_order: tuple[int, ...]
    """The tiles strongest first as leads."""
    trump_mask: int
    smear: tuple[tuple[int, ...], ...]
    """smear[suit]: richest count first, then weakest (when the partner has the trick)."""
    count_mask: int
    count_left: dict[int, int]
    """Points of the count dominoes in a mask (keyed by the mask's count bits)."""
    dump: tuple[tuple[int, ...], ...]
    """dump[suit]: no count first, then weakest (when nothing beats the trick)."""
    doubles: int
    """The mask of the seven doubles."""


@cache
def tables(trump: int) -> Tables:
    suits = [*range(7), TRUMP_SUIT]
    lead = tuple(TRUMP_INDEX if led_suit(t, trump) == TRUMP_SUIT else led_suit(t, trump)
                 for t in TILES)
    follow = tuple(sum(1 << i for i, t in enumerate(TILES) if follows(t, s, trump))
                   for s in suits)
    power = []
    for s in suits:
        row = []
        for t in TILES:
            if is_trump(t, trump):
                row.append(100 + rank_in(t, TRUMP_SUIT, trump))
            elif follows(t, s, trump):
                row.append(rank_in(t, s, trump))
            else:
                row.append(-1)
        power.append(tuple(row))
    points = tuple(count_of(t) for t in TILES)
    order = tuple(_ranked([(-row[i], points[i]) for i in range(28)]) for row in power)
    lead_order = tuple(sorted(range(28), key=lambda i: (-power[lead[i]][i], points[i])))
    trumps = sum(1 << i for i, t in enumerate(TILES) if is_trump(t, trump))
    counted = tuple((i, p) for i, p in enumerate(points) if p)
    count_mask = sum(1 << i for i, _ in counted)
    count_left = {}
    for subset in range(1 << len(counted)):
        mask = sum(1 << counted[k][0] for k in range(len(counted)) if subset >> k & 1)
        count_left[mask] = sum(counted[k][1] for k in range(len(counted)) if subset >> k & 1)
    smear = tuple(_ranked([(-points[i], row[i]) for i in range(28)]) for row in power)
    dump = tuple(_ranked([(points[i], row[i]) for i in range(28)]) for row in power)
    return Tables(trump, lead, follow, tuple(power), points, counted, order, lead_order,
                  trumps, smear, count_mask, count_left, dump,
                  sum(1 << i for i, t in enumerate(TILES) if t.low == t.high))


def _ranked(keys: list[tuple[int, int]]) -> tuple[int, ...]:
    """The tile indices sorted by their keys (ties in index order)."""
    return tuple(sorted(range(len(keys)), key=keys.__getitem__))


def mask_of(tiles: Iterable[Tile]) -> int:
    return sum(1 << INDEX[t] for t in tiles)


def four(masks: Sequence[int]) -> Hands:
    """Four seats' masks, in SEATS order, as the solver takes them (ValueError unless four)."""
    s, w, n, e = masks
    return (s, w, n, e)


def hands_of(hands: Sequence[Iterable[Tile]]) -> Hands:
    """Four seats' tiles, in SEATS order, as the solver's masks."""
    return four([mask_of(h) for h in hands])


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass
class Solver:
    """One trump's solver; its table of bounds is kept across calls (same hand, new roots)."""

    trump: int
    fixed: Callable[[int, int, tuple[tuple[int, int], ...]], int] | None = None
    """A fixed policy for one team (seat, its legal moves as a mask, the trick) -> tile; that
    team's seats play only its choice while the other team still plays perfectly."""
    fixed_team: int = 0
    """The seats (parity: 0 = S and N, 1 = W and E) that `fixed` plays for."""
    limit: int | None = None
    """Stop with OutOfNodes after this many plays searched (a bounded caller's budget)."""
    nodes: int = 0
    table: dict[tuple[int, int, int, int, int], tuple[int, int]] = field(default_factory=dict)
    best_lead: dict[tuple[int, int, int, int, int], int] = field(default_factory=dict)
    two: dict[tuple[int, int, int, int, int], int] = field(default_factory=dict)
    """Exact values of two-trick endings (`_two_tricks`)."""

    def __post_init__(self) -> None:
        self.t = tables(self.trump)

    # --- public ------------------------------------------------------------------------------
    def value(self, hands: Hands, leader: int,
              trick: tuple[tuple[int, int], ...] = ()) -> int:
        """NS points from the rest of the hand (the trick in progress included) under
        perfect play. `trick`: (seat, tile index) already played to the current trick."""
        return self._in_trick(hands, leader, trick, -1, 43)

    def mtdf(self, hands: Hands, leader: int, guess: int,
             low: int = 0, high: int = 42) -> int:
        """The exact value by null-window searches (MTD(f)) from a first `guess`, knowing
        low <= value <= high: each search asks "is it at least b?" and the table of bounds
        carries over, so a good guess costs little more than one narrow search."""
        guess = min(max(guess, low), high)
        while low < high:
            beta = max(guess, low + 1)
            value = self._in_trick(hands, leader, (), beta - 1, beta)
            if value < beta:
                high = value
            else:
                low = value
            guess = low if value >= beta else high
        return low

    def bounded(self, hands: Hands, leader: int,
                trick: tuple[tuple[int, int], ...], alpha: int, beta: int) -> int:
        """Alpha-beta within (alpha, beta): exact inside, a bound outside (a null window
        beside a known value answers "does this reach it?" cheaply)."""
        return self._in_trick(hands, leader, trick, alpha, beta)

    def move_values(self, hands: Hands, leader: int,
                    trick: tuple[tuple[int, int], ...] = ()) -> dict[int, int]:
        """The exact value (NS points from here) of each legal play of the seat to move."""
        seat = (leader + len(trick)) % 4
        out = {}
        for tile in bits(self.legal(hands[seat], trick)):
            after = _without(hands, seat, tile)
            out[tile] = self._in_trick(after, leader, (*trick, (seat, tile)), -1, 43)
        return out

    def legal(self, hand: int, trick: tuple[tuple[int, int], ...]) -> int:
        if not trick:
            return hand
        following = hand & self.t.follow[self.t.lead_suit[trick[0][1]]]
        return following or hand

    # --- search ------------------------------------------------------------------------------
    def _at_boundary(self, hands: Hands, leader: int, alpha: int,
                     beta: int) -> int:
        if not hands[leader]:
            return 0
        if self.fixed is None and hands[leader].bit_count() <= 2:
            if hands[leader] & (hands[leader] - 1) == 0:
                return self._last_trick(hands, leader)
            return self._two_tricks(hands, leader)
        left = hands[0] | hands[1] | hands[2] | hands[3]
        most = hands[leader].bit_count() + self.t.count_left[left & self.t.count_mask]
        if alpha >= most:  # even every point left cannot lift NS above the window
            return most
        key = (*hands, leader)
        known = self.table.get(key)
        if known is not None:
            low, high = known
        elif self.fixed is not None and leader % 2 == self.fixed_team:
            low, high = 0, most  # a fixed policy need not cash its sure tricks
        else:
            sure = self._sure(hands[leader], left)
            low, high = (sure, most) if leader % 2 == 0 else (0, most - sure)
        if low >= beta or low == high:  # an exact value is never searched again
            return low
        if high <= alpha:
            return high
        a, b = max(alpha, low), min(beta, high)
        value = self._lead(hands, leader, key, a, b)
        if value <= a:
            high = value
        elif value >= b:
            low = value
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def _in_trick(self, hands: Hands, leader: int,
                  trick: tuple[tuple[int, int], ...], alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise OutOfNodes(self.nodes)
        t = self.t
        if len(trick) == 4:
            power = t.power[t.lead_suit[trick[0][1]]]
            winner, best = trick[0][0], -2
            gained = 1
            for seat, tile in trick:
                gained += t.points[tile]
                if power[tile] > best:
                    winner, best = seat, power[tile]
            ns = gained if winner % 2 == 0 else 0
            return ns + self._at_boundary(hands, winner, alpha - ns, beta - ns)
        seat = (leader + len(trick)) % 4
        moves = self.legal(hands[seat], trick)
        if self.fixed is not None and seat % 2 == self.fixed_team:
            moves = 1 << self.fixed(seat, moves, trick)
        elif (moves & t.trump_mask).bit_count() > 1:
            moves = self._one_per_trump_run(moves, hands, trick)
        if len(trick) == 3:
            return self._fourth(hands, leader, trick, seat, moves, alpha, beta)
        if not trick:
            order = t.lead_order
        else:
            suit = t.lead_suit[trick[0][1]]
            order = self._follow_order(trick, seat, moves, suit)
        maximising = seat % 2 == 0
        best = -1 if maximising else 43
        for tile in order:
            if not moves >> tile & 1:
                continue
            moves ^= 1 << tile
            after = _without(hands, seat, tile)
            value = self._in_trick(after, leader, (*trick, (seat, tile)), alpha, beta)
            if maximising:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            else:
                if value < best:
                    best = value
                    if best < beta:
                        beta = best
            if alpha >= beta or not moves:
                break
        return best

    def _follow_order(self, trick: tuple[tuple[int, int], ...], seat: int, moves: int,
                      suit: int) -> tuple[int, ...]:
        """The order to try a follower's plays in: count first when the partner holds the
        trick; the weakest, count last, when nothing beats the trick; else strongest first
        (good moves first make alpha-beta cut sooner; the value is the same in any order)."""
        t = self.t
        power = t.power[suit]
        winner, top = trick[0][0], power[trick[0][1]]
        for s, tile in trick[1:]:
            if power[tile] > top:
                winner, top = s, power[tile]
        if winner % 2 == seat % 2:
            return t.smear[suit]
        for tile in t.order[suit]:
            if moves >> tile & 1:
                return t.order[suit] if power[tile] > top else t.dump[suit]
        return t.order[suit]

    def _fourth(self, hands: Hands, leader: int,
                trick: tuple[tuple[int, int], ...], seat: int, moves: int, alpha: int,
                beta: int) -> int:
        """The last play of a trick, inlined: the three plays before it are scored once."""
        t = self.t
        power = t.power[t.lead_suit[trick[0][1]]]
        points = t.points
        winner, top, gained = trick[0][0], -2, 1
        for s, tile in trick:
            gained += points[tile]
            if power[tile] > top:
                winner, top = s, power[tile]
        maximising = seat % 2 == 0
        best = -1 if maximising else 43
        bit_seat = seat
        suit = t.lead_suit[trick[0][1]]
        if winner % 2 == seat % 2:
            order = t.smear[suit]
        else:
            order = t.order[suit]
            for tile in order:
                if moves >> tile & 1:
                    if power[tile] <= top:
                        order = t.dump[suit]
                    break
        for tile in order:
            if not moves >> tile & 1:
                continue
            moves ^= 1 << tile
            self.nodes += 1
            who = bit_seat if power[tile] > top else winner
            won = gained + points[tile]
            ns = won if who % 2 == 0 else 0
            value = ns + self._at_boundary(_without(hands, seat, tile), who, alpha - ns,
                                           beta - ns)
            if maximising:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            else:
                if value < best:
                    best = value
                    if best < beta:
                        beta = best
            if alpha >= beta or not moves:
                break
        return best

    def _sure(self, hand: int, left: int) -> int:
        """Points the leader's team surely takes: the leader cashes its top trumps one after
        another (each is the highest trump left when led), or in follow-me its doubles (no
        trump can beat a led double); each such trick is worth at least its point and the
        leader's own count."""
        t = self.t
        points = 0
        if t.trump_mask:
            for tile in t.order[TRUMP_INDEX]:
                if not t.trump_mask >> tile & 1:
                    break
                if left >> tile & 1:
                    if not hand >> tile & 1:
                        break
                    points += 1 + t.points[tile]
        else:
            for tile in bits(hand & t.doubles):
                points += 1 + t.points[tile]
        return points

    def _lead(self, hands: Hands, leader: int,
              key: tuple[int, int, int, int, int], alpha: int, beta: int) -> int:
        """A trick's lead, the lead that did best here last time tried first."""
        moves = hands[leader]
        t = self.t
        if self.fixed is not None and leader % 2 == self.fixed_team:
            moves = 1 << self.fixed(leader, moves, ())
        elif (moves & t.trump_mask).bit_count() > 1:
            moves = self._one_per_trump_run(moves, hands, ())
        first = self.best_lead.get(key)
        order = t.lead_order if first is None else (first, *t.lead_order)
        maximising = leader % 2 == 0
        best, best_tile = (-1 if maximising else 43), None
        for tile in order:
            if not moves >> tile & 1:
                continue
            moves &= ~(1 << tile)
            value = self._in_trick(_without(hands, leader, tile), leader, ((leader, tile),),
                                   alpha, beta)
            if maximising:
                if value > best:
                    best, best_tile = value, tile
                    alpha = max(alpha, best)
            elif value < best:
                best, best_tile = value, tile
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best_tile is not None:
            self.best_lead[key] = best_tile
        return best

    def _two_tricks(self, hands: Hands, leader: int) -> int:
        """The last two tricks exactly, by plain minimax in one tight loop (at most 16 ways to
        play the first of them; the last is forced), kept by position: most of a whole
        hand's search is spent in its last two tricks, which windows would search again."""
        key = (*hands, leader)
        found = self.two.get(key)
        if found is not None:
            return found
        t = self.t
        points, follow, lead_suit = t.points, t.follow, t.lead_suit
        s1, s2, s3 = (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4
        h0, h1, h2, h3 = hands[leader], hands[s1], hands[s2], hands[s3]
        ns_leads = leader % 2 == 0
        best0 = -1 if ns_leads else 43
        for a in _bits(h0):
            suit = lead_suit[a]
            power = t.power[suit]
            f = follow[suit]
            m1, m2, m3 = h1 & f or h1, h2 & f or h2, h3 & f or h3
            r0 = h0 ^ (1 << a)
            best1 = 43 if ns_leads else -1
            for b in _bits(m1):
                r1 = h1 ^ (1 << b)
                best2 = -1 if ns_leads else 43
                for c in _bits(m2):
                    r2 = h2 ^ (1 << c)
                    best3 = 43 if ns_leads else -1
                    for d in _bits(m3):
                        r3 = h3 ^ (1 << d)
                        # the first trick
                        win, top, last = leader, power[a], r0
                        if power[b] > top:
                            win, top, last = s1, power[b], r1
                        if power[c] > top:
                            win, top, last = s2, power[c], r2
                        if power[d] > top:
                            win, last = s3, r3
                        value = (1 + points[a] + points[b] + points[c] + points[d]
                                 if win % 2 == 0 else 0)
                        # the last trick: one domino each, led by the first trick's winner
                        lp = t.power[lead_suit[last.bit_length() - 1]]
                        x, y, z, w = (r0.bit_length() - 1, r1.bit_length() - 1,
                                      r2.bit_length() - 1, r3.bit_length() - 1)
                        w2, top2 = leader, lp[x]
                        if lp[y] > top2:
                            w2, top2 = s1, lp[y]
                        if lp[z] > top2:
                            w2, top2 = s2, lp[z]
                        if lp[w] > top2:
                            w2 = s3
                        if w2 % 2 == 0:
                            value += 1 + points[x] + points[y] + points[z] + points[w]
                        # the fourth seat is on the other team from the leader
                        if ns_leads:
                            if value < best3:
                                best3 = value
                                if best3 <= best2:
                                    break
                        elif value > best3:
                            best3 = value
                            if best3 >= best2:
                                break
                    if ns_leads:
                        if best3 > best2:
                            best2 = best3
                            if best2 >= best1:
                                break
                    elif best3 < best2:
                        best2 = best3
                        if best2 <= best1:
                            break
                if ns_leads:
                    if best2 < best1:
                        best1 = best2
                        if best1 <= best0:
                            break
                elif best2 > best1:
                    best1 = best2
                    if best1 >= best0:
                        break
            best0 = max(best0, best1) if ns_leads else min(best0, best1)
        self.nodes += 1
        self.two[key] = best0
        return best0

    def _last_trick(self, hands: Hands, leader: int) -> int:
        """One domino each: nothing to choose, the trick is what it is."""
        self.nodes += 4
        t = self.t
        lead = hands[leader].bit_length() - 1
        power = t.power[t.lead_suit[lead]]
        winner, best, gained = leader, -2, 1
        for seat in range(4):
            tile = hands[seat].bit_length() - 1
            gained += t.points[tile]
            if power[tile] > best:
                winner, best = seat, power[tile]
        return gained if winner % 2 == 0 else 0

    def _one_per_trump_run(self, moves: int, hands: Hands,
                           trick: tuple[tuple[int, int], ...]) -> int:
        """Drop trumps equivalent to a stronger one kept: trumps belong to the trump suit
        only, so two of one hand with no trump still in play ranked between them and the same
        count win and lose exactly the same tricks (one is searched, the value is equal)."""
        t = self.t
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        for _, tile in trick:
            in_play |= 1 << tile
        kept_points = -1
        for tile in t.order[TRUMP_INDEX]:
            if not in_play >> tile & 1:
                continue
            if not t.trump_mask >> tile & 1:
                break
            if moves >> tile & 1:
                if kept_points == t.points[tile]:
                    moves &= ~(1 << tile)
                else:
                    kept_points = t.points[tile]
            else:
                kept_points = -1
        return moves


_BITS: dict[int, list[int]] = {}


def _bits(mask: int) -> list[int]:
    """bits(), kept per mask: the two-trick loop asks only for masks of one or two dominoes
    (at most 406 of them)."""
    found = _BITS.get(mask)
    if found is None:
        found = _BITS[mask] = bits(mask)
    return found


def _without(hands: Hands, seat: int, tile: int
             ) -> Hands:
    bit = 1 << tile
    if seat == 0:
        return (hands[0] ^ bit, hands[1], hands[2], hands[3])
    if seat == 1:
        return (hands[0], hands[1] ^ bit, hands[2], hands[3])
    if seat == 2:
        return (hands[0], hands[1], hands[2] ^ bit, hands[3])
    return (hands[0], hands[1], hands[2], hands[3] ^ bit)


def solve_deal(hands: dict[str, frozenset[Tile] | set[Tile] | tuple[Tile, ...]], trump: int,
               leader: str) -> int:
    """NS points of a whole deal (or its remaining tricks) under perfect play."""
    masks = hands_of([hands[s] for s in SEATS])
    return Solver(trump).value(masks, SEATS.index(leader))
