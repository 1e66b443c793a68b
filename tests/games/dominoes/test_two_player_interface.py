"""Two-player dominoes behind the game interface, by example (every variant's play, checks and
round-trips are in tests/conformance/): a seat that must draw is offered the draw alone, and
it travels over the wire."""

from __future__ import annotations

import random

from games.dominoes.commands import DrawTiles
from games.dominoes.events import TilesDrawn
from games.dominoes.game import DOMINOES
from games.play import play_match


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
