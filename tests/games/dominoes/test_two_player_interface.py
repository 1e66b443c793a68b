"""The two-player games behind the game interface: the generic loop plays them to the end
(drawing in draw-2), the checker accepts them, and a draw travels over the wire."""

from __future__ import annotations

import random

import pytest

from games.dominoes.commands import DrawTiles
from games.dominoes.events import TilesDrawn
from games.dominoes.game import DOMINOES
from games.play import play_match


@pytest.mark.parametrize("variant", ["block-2", "draw-2"])
def test_the_generic_loop_plays_a_two_player_match_the_checker_accepts(variant) -> None:
    bot = DOMINOES.bots()["random"]
    events = play_match(DOMINOES, variant, dict.fromkeys("SN", bot), random.Random(5))
    DOMINOES.check_log(events)
    assert events[-1].type == "match_ended"
    assert set(events[0].players) == {"S", "N"} == set(DOMINOES.variants()[variant].seats)
    draws = [e for e in events if isinstance(e, TilesDrawn)]
    assert bool(draws) == (variant == "draw-2")


def test_a_seat_that_must_draw_is_offered_the_draw_and_it_crosses_the_wire() -> None:
    bot = DOMINOES.bots()["random"]
    events = play_match(DOMINOES, "draw-2", dict.fromkeys("SN", bot), random.Random(5))
    drawn = next(e for e in events if isinstance(e, TilesDrawn))
    state = None
    for event in events[: drawn.seq - 1]:
        state = DOMINOES.evolve(state, event)
    assert DOMINOES.legal_moves(state, drawn.seat) == [DrawTiles(drawn.seat)]
    wire = DOMINOES.command_to_wire(DrawTiles(drawn.seat))
    assert wire == {"kind": "draw"}
    assert DOMINOES.command_from_wire(drawn.seat, wire) == DrawTiles(drawn.seat)
