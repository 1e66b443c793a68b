"""Move advice in real headless Chromium against the real server.

At a table with advice on, the Advice button (or A) puts a hint on every legal tile (expected
points and win chance, the best marked) under the "optimistic estimate (perfect-information)"
label; a table without advice shows no button; the replay viewer ranks the mover's legal
moves at a play of a finished match and marks the move actually played.
"""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from domino.rules import evolve, legal_moves
from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import (
    app,
    create_table_in_lobby,
    finished_match,
    move_and_wait,
    my_turn,
    stored_events,
    wait_for,
    watch_errors,
)

pytestmark = pytest.mark.browser

LABEL = "optimistic estimate (perfect-information)"


def _tiles(page: Any, selector: str) -> list[str]:
    return sorted(page.eval_on_selector_all(
        selector, "els => els.map(e => e.closest('.tile-btn').dataset.tile)"))


def test_the_advice_button_hints_every_legal_tile(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, "advised")
    page.wait_for_selector("button.advise")
    for _ in range(40):  # to a turn with a tile to play (passing when forced)
        wait_for(lambda: my_turn(page), timeout=30, what="my turn")
        if page.locator(".tile-btn.legal").count():
            break
        move_and_wait(page)
    legal = _tiles(page, ".tile-btn.legal")
    assert page.locator(".tile-btn .hint").count() == 0

    started = time.monotonic()
    page.keyboard.press("a")
    page.wait_for_selector(".tile-btn.legal .hint", timeout=10_000)
    elapsed = time.monotonic() - started
    assert _tiles(page, ".tile-btn .hint") == legal
    assert page.locator(".hint.best").count() == 1
    advice = app(page, "a.advice")
    assert advice["seq"] == app(page, "a.state.lastSeq")
    assert _tiles(page, ".hint.best") == [advice["moves"][0]["tile"]]
    assert {m["tile"] for m in advice["moves"]} == set(legal)
    best = advice["moves"][0]
    hint = page.locator(".hint.best")
    assert float(hint.get_attribute("data-ep")) == pytest.approx(best["expected_points"])
    assert f"{math.floor(best['p_win_hand'] * 100 + 0.5)}%" in hint.text_content()  # JS rounding
    box = page.text_content(".advice-box")
    assert LABEL in box and box.count("points") >= len(advice["moves"])
    assert elapsed < 5, elapsed
    screenshot(page, "advice", full_page=True)

    move_and_wait(page)  # once the table moves on, the hints go (they were for that seq)
    assert page.locator(".tile-btn .hint").count() == 0
    assert errors == []


def test_a_table_without_advice_offers_no_button(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, "unadvised", advice=False)
    page.wait_for_selector(".controls button.pass")
    assert app(page, "a.adviceOn") is False
    assert page.locator("button.advise").count() == 0
    assert errors == []


def test_the_replay_viewer_ranks_the_movers_choices(context: Any, web_server: WebServer) -> None:
    match_id = finished_match(web_server)
    events = stored_events(web_server, match_id)
    play = [e for e in events if e.type == "tile_played"][6]
    state = None
    for event in events[: play.seq - 1]:
        state = evolve(state, event)
    legal = {(str(m.tile), m.end) for m in legal_moves(state, play.seat)}

    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=N&step={play.seq}")
    page.wait_for_selector("#advisor .advice-list li", timeout=15_000)
    advice = app(page, "a.advice")
    assert advice["seq"] == play.seq and advice["seat"] == play.seat
    assert {(m["tile"], m["end"]) for m in advice["moves"]} == legal
    assert page.locator("#advisor .advice-list li").count() == len(legal)
    played = page.locator("#advisor li.played")
    assert played.count() == 1 and played.get_attribute("data-tile") == str(play.tile)
    rank = advice["rank"]
    assert 1 <= rank <= len(legal)
    assert page.locator("#advisor .advice-list li").nth(rank - 1).get_attribute("class") \
        .endswith("played")
    text = page.text_content("#advisor")
    assert LABEL in text
    assert ("best move" in text) if rank == 1 else (f"{rank} of {len(legal)}" in text)
    screenshot(page, "replay-advice", full_page=True)

    after = events[play.seq]  # the next event: advice only at plays
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.__app.step === {play.seq + 1}")
    if after.type != "tile_played":
        assert page.locator("#advisor").is_hidden()
    page.keyboard.press("ArrowLeft")  # back: answered from the page's cache
    page.wait_for_function(f"window.__app.advice && window.__app.advice.seq === {play.seq}")
    page.keyboard.press("a")  # the advisor can be switched off
    assert page.locator("#advisor").is_hidden()
    page.keyboard.press("a")
    assert errors == []
