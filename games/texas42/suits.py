"""Trumps and suits: which suit a led domino calls, who may follow it, who wins a trick.

The trump in force is an int: 0..6 (a number), DOUBLES (the seven doubles are the trump
suit) or FOLLOW_ME (no trump). A domino is a trump if either end is the trump number (or it
is a double, doubles being trump); a trump belongs to the trump suit only. A domino that is
not a trump, when led, calls the suit of its higher end (a double calls its own number).
Inside a suit the double is highest, then the other end from 6 down; doubles as trump rank
by their number (6-6 highest).
"""

from __future__ import annotations

from games.texas42.dominoes import Tile

DOUBLES = 7
FOLLOW_ME = 8
TRUMP_SUIT = 9
"""The led suit when a trump is led (whatever the trump is)."""
TRUMPS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, DOUBLES, FOLLOW_ME)
NELLO = 10
"""Not a trump but the nello contract, named in its place (a table option): the hand is
played as follow-me (no trump), the bidder's partner sitting out (games.texas42.rules)."""
TRUMP_NAMES: dict[int, str] = {**{n: str(n) for n in range(7)}, DOUBLES: "doubles",
                               FOLLOW_ME: "follow-me", NELLO: "nello"}
SUIT_WORDS = ("blanks", "1s", "2s", "3s", "4s", "5s", "6s")


def trump_name(trump: int) -> str:
    return TRUMP_NAMES[trump]


def parse_trump(text: object) -> int:
    """'0'..'6', 'doubles', 'follow-me' or 'nello' (ints 0..6 accepted too); ValueError
    otherwise."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 6:
        return text
    for value, name in TRUMP_NAMES.items():
        if text == name:
            return value
    raise ValueError(f"not a trump: {text!r} (0..6, 'doubles', 'follow-me' or 'nello')")


def is_trump(tile: Tile, trump: int) -> bool:
    if trump == DOUBLES:
        return tile.is_double
    if trump == FOLLOW_ME:
        return False
    return tile.has(trump)


def led_suit(tile: Tile, trump: int) -> int:
    """The suit a domino calls when led: TRUMP_SUIT for a trump, else its higher end."""
    return TRUMP_SUIT if is_trump(tile, trump) else tile.high


def follows(tile: Tile, suit: int, trump: int) -> bool:
    """Whether `tile` belongs to the led `suit` under `trump` (and so must be played if held)."""
    if suit == TRUMP_SUIT:
        return is_trump(tile, trump)
    return tile.has(suit) and not is_trump(tile, trump)


def rank_in(tile: Tile, suit: int, trump: int) -> int:
    """Higher wins; only compared between tiles of the same suit."""
    if suit == TRUMP_SUIT and trump == DOUBLES:
        return tile.high
    number = trump if suit == TRUMP_SUIT else suit
    if tile.is_double:
        return 7
    return tile.other(number)


def trick_winner(plays: list[tuple[str, Tile]] | tuple[tuple[str, Tile], ...],
                 trump: int) -> str:
    """The seat whose domino takes the trick: the highest trump, else the highest of the led
    suit."""
    suit = led_suit(plays[0][1], trump)
    best_seat, best_key = plays[0][0], (-1, -1)
    for seat, tile in plays:
        if is_trump(tile, trump):
            key = (1, rank_in(tile, TRUMP_SUIT, trump))
        elif follows(tile, suit, trump):
            key = (0, rank_in(tile, suit, trump))
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def suit_members(suit: int, trump: int, tiles: tuple[Tile, ...]) -> list[Tile]:
    return [t for t in tiles if follows(t, suit, trump)]


def suit_words(suit: int) -> str:
    """A led suit in words: 'trumps', 'blanks', '1s' ... '6s'."""
    if suit == TRUMP_SUIT:
        return "trumps"
    return SUIT_WORDS[suit]
