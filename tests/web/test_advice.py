"""Move advice in real headless Chromium against the real server.

At a table with advice on, the Advice button (or A) puts a hint on every legal tile (expected
points and win chance, the best marked) under the "optimistic estimate (perfect-information)"
label; a table without advice shows no button; the replay viewer ranks the mover's legal
moves at a play of a finished match and marks the move actually played.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.sync.client import connect

from games.dominoes.rules import evolve, legal_moves
from games.dominoes.tiles import parse_tile
from tests.web.conftest import WebServer, screenshot
from tests.web.js_numbers import js_round
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


def _position_after(state: Any, tile: str, end: str | None) -> tuple[str, int, int]:
    """The tile played and the open ends (sorted) after playing it on `end`: the same tile
    reaching the same ends by either end is one move to the advisor (both ends showing one
    number); two tiles reaching the same ends are two (the hands left differ)."""
    t = parse_tile(tile)
    left, right = state.hand.left, state.hand.right
    if left is None:
        return (tile, t.low, t.high)
    if end == "left":
        left = t.other(left)
    else:
        right = t.other(right)
    return (tile, min(left, right), max(left, right))


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
    page.wait_for_selector(".tile-btn.legal .hint", timeout=60_000)
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
    assert f"{js_round(best['p_win_hand'] * 100)}%" in hint.text_content()
    box = page.text_content(".advice-box")
    assert LABEL in box and box.count("points") >= len(advice["moves"])
    print(f"advice shown {elapsed:.1f} s after A")  # a figure: wall time is not asserted
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
    positions = {_position_after(state, t, e) for t, e in legal}  # one row per position reached

    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=N&step={play.seq}")
    page.wait_for_selector("#advisor .advice-list li", timeout=15_000)
    advice = app(page, "a.advice")
    assert advice["seq"] == play.seq and advice["seat"] == play.seat
    rows = [(m["tile"], m["end"]) for m in advice["moves"]]
    assert set(rows) <= legal
    assert sorted(_position_after(state, t, e) for t, e in rows) == sorted(positions)
    assert page.locator("#advisor .advice-list li").count() == len(positions)
    played = page.locator("#advisor li.played")
    assert played.count() == 1 and played.get_attribute("data-tile") == str(play.tile)
    assert played.get_attribute("data-end") == (play.end or "")
    rank = advice["rank"]
    assert 1 <= rank <= len(positions)
    assert page.locator("#advisor .advice-list li").nth(rank - 1).get_attribute("class") \
        .endswith("played")
    text = page.text_content("#advisor")
    assert LABEL in text
    assert ("best move" in text) if rank == 1 else (f"{rank} of {len(positions)}" in text)
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


# A tile of the number both ends show (a lone double, say): on my turn at a table with advice
TWO_ENDS_ONE_NUMBER = """(() => {
  const a = window.__app, h = a.state.hand;
  if (a.state.phase !== 'playing' || !h || h.turn !== a.seat || !h.line.length) return null;
  const l = h.line[0][0], r = h.line[h.line.length - 1][1];
  if (l !== r) return null;
  const t = (h.hands[a.seat] || []).find((x) => x.split('-').map(Number).includes(l));
  return t || null;
})()"""


def test_a_tile_fitting_both_ends_of_one_number_has_one_hint_and_both_ends_figures(
    context: Any, web_server: WebServer
) -> None:
    """The advisor lists such a move once, the hand shows its hint, and a click plays it (no
    end chooser: both ends give the same position)."""
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        bots = {seat: "greedy" for seat in ("W", "N", "E")}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": 1000,
                            "advice": True}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#table={table_id}&seat=S")
    page.wait_for_function("window.__app && window.__app.token && window.__app.adviceOn")
    deadline = time.monotonic() + 150
    tile = None
    while tile is None:  # play on (the first legal tile) until such a turn comes
        assert time.monotonic() < deadline, "no turn with both ends showing one number"
        wait_for(lambda: my_turn(page), timeout=30, what="my turn")
        tile = page.evaluate(TWO_ENDS_ONE_NUMBER)
        if tile is None:
            move_and_wait(page)
    seq = app(page, "a.state.lastSeq")
    page.keyboard.press("a")
    page.wait_for_function(f"window.__app.advice && window.__app.advice.seq === {seq}",
                           timeout=60_000)
    moves = app(page, "a.advice.moves")
    rows = [m for m in moves if m["tile"] == tile]
    assert len(rows) == 1, moves  # not "on the left" and "on the right"
    assert len(moves) == len({m["tile"] for m in moves})
    hint = page.locator(f".tile-btn[data-tile='{tile}'] .hint")
    assert hint.count() == 1
    assert float(hint.get_attribute("data-ep")) == pytest.approx(rows[0]["expected_points"])
    assert page.locator(".advice-box .advice-list li").count() == len(moves)

    # one move, not a choice of ends (issue 16): the click plays it, no chooser
    page.click(f".tile-btn[data-tile='{tile}']")
    page.wait_for_function(f"window.__app.state.lastSeq > {seq}")
    assert page.locator(".chooser").count() == 0
    played = app(page, f"a.events.filter(e => e.seq > {seq})[0]")
    assert played["type"] == "tile_played" and played["tile"] == tile
    assert played["end"] == "right"
    assert errors == []
