"""Issue 30, item 6: a tile, a card, a trump is written one way only, in ASCII.

Before, a tile's digits were checked with `str.isdigit`, so Texas 42 and dominoes took
`06-06`, `٦-٦` (Arabic-Indic), `６-６` (fullwidth) as the double six, and the protocol's
`play` short form let them through (`\\d` matches any Unicode digit). Two spellings of one
move are two command ids' worth of confusion in a log and a filter bypass; now each game's
command parser refuses them with a typed error, and the protocol refuses them before any
game sees them.
"""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from games.dominoes.tiles import TileError, parse_tile
from games.interface import RuleViolation
from games.registry import GAMES
from protocol import parse_client

BAD_TILES = ["06-06", "6-06", "00-1", "٦-٦", "6-٦", "６-６", "۶-۶", "+6-6", " 6-6", "6-6 ",
             "6 -6", "6--6", "6-6-6", "-6", "", "6", "6-", "007-1", "6\n-6"]
GOOD_TILES = {"6-6": (6, 6), "0-0": (0, 0), "3-5": (3, 5), "5-3": (3, 5), "12-0": (0, 12)}


@pytest.mark.parametrize("text", BAD_TILES)
def test_a_tile_is_written_in_ascii_digits_without_leading_zeros(text: str) -> None:
    with pytest.raises(TileError):
        parse_tile(text)


def test_well_written_tiles_still_parse() -> None:
    for text, (low, high) in GOOD_TILES.items():
        assert (parse_tile(text).low, parse_tile(text).high) == (low, high)


@pytest.mark.parametrize("game_name", ["dominoes", "texas42"])
@pytest.mark.parametrize("text", ["06-06", "٦-٦", "６-６", "6-٦"])
def test_each_tile_game_refuses_a_badly_written_tile_typed(game_name: str, text: str) -> None:
    game = GAMES.game(game_name)
    with pytest.raises(RuleViolation) as refused:
        game.command_from_wire("S", {"kind": "play", "tile": text})
    assert refused.value.code == "illegal_move"
    assert game.command_from_wire("S", {"kind": "play", "tile": "6-6"}) is not None


@pytest.mark.parametrize("card", ["r٧", "r07", "ｒ7", "W+٤", " r7", "r7 "])
def test_uno_refuses_a_badly_written_card_typed(card: str) -> None:
    game = GAMES.game("uno")
    with pytest.raises(RuleViolation) as refused:
        game.command_from_wire("S", {"kind": "play", "card": card})
    assert refused.value.code == "illegal_move"


@pytest.mark.parametrize("card", ["Miss Scarlet\u200b", "Ｒｏｐｅ", "x" * 200, "Rope\n"])
def test_clue_refuses_a_card_name_that_is_not_plain_ascii_typed(card: str) -> None:
    game = GAMES.game("clue")
    with pytest.raises(RuleViolation) as refused:
        game.command_from_wire("P1", {"kind": "show", "card": card})
    assert refused.value.code == "illegal_move"


@pytest.mark.parametrize("text", ["06-06", "٦-٦", "６-６"])
def test_the_play_short_form_refuses_them_before_any_game(text: str) -> None:
    def frame(tile: str) -> str:
        return json.dumps({"type": "play", "id": 1, "table_id": "t0123456789ab",
                           "tile": tile, "end": "left"}, ensure_ascii=False)

    with pytest.raises(ValidationError):
        parse_client(frame(text))
    parse_client(frame("6-6"))
