"""A fixed, deterministic imperfect-information policy: the greedy bot and the oracle's lower
bracket (seed 003, Part V step 4). It looks only at its own hand and the public plays.

Bidding: a hand's strength is judged in its best trump. Trump: the one its strength is
highest in (trumps held, the top trump twice, the other doubles once; a tie goes to a number,
the higher; follow-me is never named). Leading: the highest trump, else the highest double,
else the highest domino. Following: when the partner is winning, the richest count domino that
follows; otherwise the cheapest domino that wins the trick now, else the cheapest domino.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.texas42.dominoes import Tile, count_of, partner_of
from games.texas42.scoring import BIDS, PASS
from games.texas42.suits import (
    DOUBLES,
    FOLLOW_ME,
    TRUMP_SUIT,
    follows,
    is_trump,
    led_suit,
    rank_in,
    trick_winner,
)


def trump_strength(hand: Iterable[Tile], trump: int) -> int:
    """Trumps held (the trump double counts twice) plus the other doubles (likely winners)."""
    tiles = list(hand)
    trumps = [t for t in tiles if is_trump(t, trump)]
    doubles = [t for t in tiles if t.is_double and not is_trump(t, trump)]
    top = 1 if trump != DOUBLES and any(t.is_double for t in trumps) else 0
    if trump == DOUBLES:
        top = 1 if any(t.high == 6 for t in trumps) else 0
    return len(trumps) + top + len(doubles)


def choose_trump(hand: Iterable[Tile]) -> int:
    """The trump this policy names: the strongest (ties: the higher number; doubles last)."""
    tiles = list(hand)
    return max((*range(7), DOUBLES), key=lambda t: (trump_strength(tiles, t), t != DOUBLES, t))


def choose_bid(hand: Iterable[Tile], high: int, forced: bool) -> int:
    """The lowest bid over `high` if the hand looks worth it (strength 6 ~ 30, +2 per point
    more), else pass (or the minimum when forced)."""
    tiles = list(hand)
    strength = trump_strength(tiles, choose_trump(tiles))
    worth = 30 + 2 * (strength - 6) if strength >= 6 else 0
    over = next((b for b in BIDS if b > high), None)
    if over is None:
        return PASS if not forced else BIDS[-1]
    if forced or (worth and over <= min(worth, 41)):
        return over
    return PASS


def _cheapness(tile: Tile, trump: int) -> tuple[int, int, int]:
    """Lower is cheaper to give away: no count, not a trump, low rank."""
    rank = rank_in(tile, TRUMP_SUIT, trump) if is_trump(tile, trump) else \
        rank_in(tile, led_suit(tile, trump), trump)
    return (count_of(tile), int(is_trump(tile, trump)), rank)


def choose_play(seat: str, legal: list[Tile], trick: tuple[tuple[str, Tile], ...],
                trump: int) -> Tile:
    """The greedy policy's domino among `legal` (deterministic)."""
    if not trick:
        trumps = [t for t in legal if is_trump(t, trump)]
        if trumps:
            return max(trumps, key=lambda t: rank_in(t, TRUMP_SUIT, trump))
        doubles = [t for t in legal if t.is_double]
        if doubles:
            return max(doubles)
        return max(legal, key=lambda t: (rank_in(t, led_suit(t, trump), trump), -count_of(t)))
    winner = trick_winner(trick, trump)
    if winner == partner_of(seat):
        suit = led_suit(trick[0][1], trump)
        return max(legal, key=lambda t: (count_of(t), follows(t, suit, trump),
                                         -_cheapness(t, trump)[2]))
    winning = [t for t in legal if trick_winner((*trick, (seat, t)), trump) == seat]
    if winning:
        return min(winning, key=lambda t: (_cheapness(t, trump)[1], _cheapness(t, trump)[2],
                                           -count_of(t)))
    return min(legal, key=lambda t: _cheapness(t, trump))


def choose_nello_play(seat: str, bidder: str, legal: list[Tile],
                      trick: tuple[tuple[str, Tile], ...]) -> Tile:
    """The greedy policy in a nello hand (no trump; the bidder wants to lose every trick, the
    defenders to make it take one). The bidder leads its weakest domino, follows with its
    strongest one that still loses, and when it cannot follow throws away its strongest;
    a defender plays its weakest, so that the bidder's domino may stay on top."""
    def strength(tile: Tile) -> tuple[int, int]:
        return rank_in(tile, led_suit(tile, FOLLOW_ME), FOLLOW_ME), tile.high

    if seat != bidder or not trick:
        return min(legal, key=lambda t: (strength(t), count_of(t)))
    losing = [t for t in legal if trick_winner((*trick, (seat, t)), FOLLOW_ME) != seat]
    if not losing:  # every domino wins: the cheapest way to be caught
        return min(legal, key=strength)
    suit = led_suit(trick[0][1], FOLLOW_ME)
    if all(not follows(t, suit, FOLLOW_ME) for t in legal):
        return max(legal, key=strength)  # a discard: shed the most dangerous domino
    return max(losing, key=lambda t: rank_in(t, suit, FOLLOW_ME))
