"""A person plays draw-2 against a bot in real headless Chromium, against the real server.

Created from the lobby form (variant draw-2, North a greedy bot), South plays by clicking:
a legal tile (and an end when asked), Draw (D) when nothing fits and the boneyard has tiles,
Pass when it is empty. Until South has drawn at least once and a hand has ended, every
overlay the page shows must be the exact belief of South's own view recomputed from the
stored log (the game's belief, which `infer --json` prints) to 1e-9, naming North and the
boneyard; South's frames never carry North's tiles.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from archive.matches import load_match
from games.dominoes.game import DOMINOES
from storage import EventStore
from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import (
    TOL,
    app,
    create_table_in_lobby,
    move_once,
    overlay_cells,
    watch_errors,
)

pytestmark = pytest.mark.browser

VARIANT = "draw-2"


def stored(server: WebServer, match_id: str, upto: int | None = None) -> list[Any]:
    store = EventStore(server.db)
    try:
        return load_match(store, match_id, upto)
    finally:
        store.close()


def expected_cells(server: WebServer, match_id: str, seq: int) -> dict[tuple[str, str], float]:
    belief = DOMINOES.belief("S", VARIANT)
    for event in stored(server, match_id, seq):
        belief.apply(DOMINOES.view(event, "S"))
    marginals = belief.snapshot_dict()["marginals"]
    return {(h, t): p for h, column in marginals.items() for t, p in column.items()}


def create_draw_table(page: Any, server: WebServer) -> str:
    return create_table_in_lobby(page, server, "ann", variant=VARIANT,
                                 seats={"N": "bot:greedy"})


def south_to_move(page: Any) -> bool:
    """South is to move and the server's offer of its legal moves for this position is here."""
    return bool(app(page, "a.state.phase === 'playing' && a.state.hand.turn === 'S' "
                          "&& !a.state.hand.ended && !!a.legal && a.legal.seq === a.state.lastSeq"))


def settled(page: Any) -> bool:
    return bool(app(page, "a.belief && a.belief.seq === a.state.lastSeq"))


def test_a_person_plays_draw_2_against_a_bot_drawing_with_the_exact_overlay(
    context: Any, web_server: WebServer
) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    table_id = create_draw_table(page, web_server)
    moves: dict[str, int] = {"draw": 0, "pass": 0, "play": 0, "chose-end": 0}
    checked = 0
    hands_ended = 0
    for _ in range(400):
        page.wait_for_function(
            "window.__app.state.phase === 'finished' || (window.__app.belief && "
            "window.__app.belief.seq === window.__app.state.lastSeq && "
            "window.__app.state.hand && window.__app.state.hand.turn === 'S' && "
            "window.__app.legal && window.__app.legal.seq === window.__app.state.lastSeq && "
            "!window.__app.state.hand.ended) || window.__app.state.hand?.ended",
            timeout=20_000,
        )
        if app(page, "a.state.phase === 'finished'"):
            break
        if app(page, "!!(a.state.hand && a.state.hand.ended)"):
            hands_ended = max(hands_ended, int(app(page, "a.state.hand.number")))
            if moves["draw"] and hands_ended:
                break
            page.wait_for_function(
                f"window.__app.state.hand && window.__app.state.hand.number > {hands_ended}",
                timeout=20_000)
            continue
        if not (south_to_move(page) and settled(page)):
            continue
        seq, cells = overlay_cells(page)
        if seq == app(page, "a.state.lastSeq"):
            expected = expected_cells(web_server, table_id, seq)
            assert set(cells) == set(expected)
            assert max(abs(cells[k] - expected[k]) for k in expected) <= TOL
            assert {h for h, _ in cells} <= {"N", "pool"}
            checked += 1
        before = app(page, "a.state.lastSeq")
        moves[move_once(page)] += 1
        page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=10_000)
    screenshot(page, "draw-2-table")
    print(f"draw-2 by clicking: {moves}, {checked} overlays checked against the exact belief")
    assert moves["draw"] >= 1 and moves["play"] + moves["chose-end"] >= 1, moves
    assert checked >= 3, checked

    # South's own frames never held North's tiles (dealt or drawn)
    events = stored(web_server, table_id)
    south = [DOMINOES.event_to_dict(DOMINOES.view(e, "S")) for e in events]
    for event in south:
        if event["type"] in ("hand_dealt", "tiles_drawn") and event["seat"] == "N":
            assert event["tiles"] is None
    assert any(e["type"] == "tiles_drawn" and e["seat"] == "S" and e["tiles"] for e in south)
    assert errors == [], json.dumps(errors)
