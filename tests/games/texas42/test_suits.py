"""Suit membership, following and trick winners under each kind of trump."""

from __future__ import annotations

from games.texas42.suits import (
    DOUBLES,
    FOLLOW_ME,
    TRUMP_SUIT,
    follows,
    is_trump,
    led_suit,
    trick_winner,
)
from tests.games.texas42.helpers import t


def test_a_domino_is_trump_if_either_end_is_trump_and_then_only_trump() -> None:
    assert is_trump(t("2-5"), 5) and is_trump(t("5-5"), 5) and not is_trump(t("2-4"), 5)
    assert led_suit(t("2-5"), 5) == TRUMP_SUIT
    # 5-2 is a trump when fives are trump, so it does not follow a led two
    assert not follows(t("2-5"), 2, 5)
    assert follows(t("2-5"), TRUMP_SUIT, 5)


def test_a_non_trump_led_calls_its_higher_end_and_either_end_follows() -> None:
    assert led_suit(t("3-6"), 1) == 6
    assert follows(t("0-6"), 6, 1) and follows(t("6-6"), 6, 1)
    assert not follows(t("3-5"), 6, 1)
    assert led_suit(t("4-4"), 1) == 4  # a double calls its own number


def test_doubles_as_trump_are_their_own_suit() -> None:
    assert is_trump(t("3-3"), DOUBLES) and not is_trump(t("3-6"), DOUBLES)
    assert led_suit(t("3-3"), DOUBLES) == TRUMP_SUIT
    assert not follows(t("6-6"), 6, DOUBLES)
    assert follows(t("1-1"), TRUMP_SUIT, DOUBLES) and not follows(t("1-6"), TRUMP_SUIT, DOUBLES)
    # doubles rank by number: 6-6 beats 5-5
    assert trick_winner([("S", t("5-5")), ("W", t("6-6")), ("N", t("0-0")),
                         ("E", t("5-6"))], DOUBLES) == "W"


def test_follow_me_has_no_trump_and_doubles_are_highest_in_their_suit() -> None:
    assert not any(is_trump(x, FOLLOW_ME) for x in (t("6-6"), t("0-1")))
    assert led_suit(t("2-6"), FOLLOW_ME) == 6
    plays = [("S", t("2-6")), ("W", t("5-6")), ("N", t("6-6")), ("E", t("5-5"))]
    assert trick_winner(plays, FOLLOW_ME) == "N"


def test_the_double_is_highest_in_its_suit_then_the_other_end() -> None:
    plays = [("S", t("4-5")), ("W", t("5-6")), ("N", t("5-5")), ("E", t("0-5"))]
    assert trick_winner(plays, 1) == "N"
    plays = [("S", t("4-5")), ("W", t("5-6")), ("N", t("0-5")), ("E", t("3-5"))]
    assert trick_winner(plays, 1) == "W"


def test_the_highest_trump_wins_whatever_was_led() -> None:
    plays = [("S", t("6-6")), ("W", t("0-1")), ("N", t("1-1")), ("E", t("1-6"))]
    # ones are trump: 1-1 is the highest trump, 0-1 the lowest; 1-6 is a trump, not a six
    assert trick_winner(plays, 1) == "N"
    assert trick_winner([("S", t("6-6")), ("W", t("0-1"))], 1) == "W"
    # an off-suit non-trump never wins, however high: 3-2 led, 6-6 and 3-0 do not beat it
    assert trick_winner([("S", t("2-3")), ("W", t("6-6")), ("N", t("0-3"))], 1) == "S"
