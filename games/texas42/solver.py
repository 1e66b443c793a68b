"""A perfect-information solver of the tricks left in a hand of 42 (double-dummy).

Every hand is known; the value of a position is the points North-South take from the rest of
the hand when both teams play perfectly (East-West minimise it; 42 points are shared, so that
is the same as each team maximising its own). Alpha-beta over single plays, with a
transposition table of bounds at trick boundaries (the position there is just the four
remaining hands and the leader). Pure: no I/O, no clock.

Tiles are indices 0..27 (`dominoes.INDEX`), hands 28-bit masks, seats 0..3 = S, W, N, E.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from games.texas42.dominoes import INDEX, SEATS, TILES, Tile, count_of
from games.texas42.suits import TRUMP_SUIT, follows, is_trump, led_suit, rank_in

TRUMP_INDEX = 7
"""The trump suit's index in the per-suit tables (numbers are 0..6)."""


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
    return Tables(trump, lead, follow, tuple(power), tuple(count_of(t) for t in TILES))


def mask_of(tiles: object) -> int:
    return sum(1 << INDEX[t] for t in tiles)  # type: ignore[attr-defined]


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
    nodes: int = 0
    table: dict[tuple[int, int, int, int, int], tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.t = tables(self.trump)

    # --- public ------------------------------------------------------------------------------
    def value(self, hands: tuple[int, int, int, int], leader: int,
              trick: tuple[tuple[int, int], ...] = ()) -> int:
        """NS points from the rest of the hand (the trick in progress included) under
        perfect play. `trick`: (seat, tile index) already played to the current trick."""
        return self._in_trick(hands, leader, trick, -1, 43)

    def move_values(self, hands: tuple[int, int, int, int], leader: int,
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
    def _at_boundary(self, hands: tuple[int, int, int, int], leader: int, alpha: int,
                     beta: int) -> int:
        if not hands[leader]:
            return 0
        key = (*hands, leader)
        low, high = self.table.get(key, (0, 43))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        a, b = max(alpha, low), min(beta, high)
        value = self._in_trick(hands, leader, (), a, b)
        if value <= a:
            high = value
        elif value >= b:
            low = value
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def _in_trick(self, hands: tuple[int, int, int, int], leader: int,
                  trick: tuple[tuple[int, int], ...], alpha: int, beta: int) -> int:
        self.nodes += 1
        if len(trick) == 4:
            t = self.t
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
        maximising = seat % 2 == 0
        best = -1 if maximising else 43
        for tile in self._ordered(moves, trick):
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
            if alpha >= beta:
                break
        return best

    def _ordered(self, moves: int, trick: tuple[tuple[int, int], ...]) -> list[int]:
        """Strong plays first (high power in the led suit, else high count): more cut-offs."""
        tiles = bits(moves)
        if len(tiles) < 3:
            return tiles
        t = self.t
        if trick:
            power = t.power[t.lead_suit[trick[0][1]]]
            return sorted(tiles, key=lambda x: -power[x])
        return sorted(tiles, key=lambda x: -t.power[t.lead_suit[x]][x])


def _without(hands: tuple[int, int, int, int], seat: int, tile: int
             ) -> tuple[int, int, int, int]:
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
    masks = tuple(mask_of(hands[s]) for s in SEATS)
    return Solver(trump).value(masks, SEATS.index(leader))  # type: ignore[arg-type]
