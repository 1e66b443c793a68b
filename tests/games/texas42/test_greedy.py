"""The greedy policy's stated rules, one by one (it is the greedy bot and the oracle's lower
bracket, so what it does must be what docs/games/texas42.md says)."""

from __future__ import annotations

from games.texas42.greedy import choose_bid, choose_play, choose_trump
from games.texas42.suits import DOUBLES
from tests.games.texas42.helpers import t


def tiles(text: str) -> list:
    return [t(x) for x in text.split()]


def test_it_names_the_trump_it_is_strongest_in_and_bids_only_with_strength() -> None:
    strong = tiles("6-6 5-6 4-6 3-6 1-1 5-5 0-5")
    assert choose_trump(strong) == 6
    assert choose_bid(strong, 0, forced=False) == 30
    assert choose_bid(strong, 31, forced=False) == 32  # strength 7: worth up to 32
    assert choose_bid(strong, 32, forced=False) == 0
    weak = tiles("0-1 0-2 1-3 2-4 3-5 0-4 1-5")
    assert choose_bid(weak, 0, forced=False) == 0
    assert choose_bid(weak, 0, forced=True) == 30
    # five doubles: twos (2-2, 2-6 and four other doubles as winners) beat doubles as trump
    assert choose_trump(tiles("0-0 1-1 2-2 3-3 4-4 1-5 2-6")) == 2
    assert choose_trump(tiles("0-0 1-1 2-2 3-3 4-4 5-5 6-6")) != DOUBLES


def test_it_leads_its_highest_trump_then_its_highest_double() -> None:
    hand = tiles("2-5 5-5 1-1 3-4")
    assert choose_play("S", hand, (), 5) == t("5-5")
    assert choose_play("S", tiles("1-1 3-3 2-4"), (), 5) == t("3-3")


def test_following_it_smears_count_to_a_winning_partner_else_wins_cheaply() -> None:
    # N (S's partner) led the 6-6 and holds the trick: S gives the richest six it has
    assert choose_play("S", tiles("4-6 1-6"), (("N", t("6-6")), ("E", t("2-6"))), 3) == t("4-6")
    # E led the 3-5 (fives): S wins with the cheapest five that beats it, not the 5-5
    assert choose_play("S", tiles("5-5 4-5"), (("E", t("3-5")),), 2) == t("4-5")
    # E led the 5-5, nothing of S's wins: S keeps its count and plays the cheapest
    assert choose_play("S", tiles("0-5 3-5"), (("E", t("5-5")),), 2) == t("3-5")
