"""The behaviour layer in real headless Chromium against the real server: the model switch
adds the `behaviour:greedy` estimate under the exact odds (labelled, never replacing them),
follows the table (or the replay's step), and goes away again with "Uniform"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import (
    app,
    create_table_in_lobby,
    finished_match,
    move_and_wait,
    my_turn,
    settle,
    stored_events,
    wait_for,
    watch_errors,
)

pytestmark = pytest.mark.browser

LAYER_CELLS = """(() => {
  const out = {};
  for (const card of document.querySelectorAll('#overlay .behaviour-layer .layer-card')) {
    for (const c of card.querySelectorAll('.c[data-btile]')) {
      (out[c.dataset.btile] = out[c.dataset.btile] || []).push(Number(c.dataset.p));
    }
  }
  return out;
})()"""


def _exact_cells(page: Any) -> int:
    return page.locator("#overlay .grids .grid-card .c[data-tile][data-p]").count()


def _my_turn_settled(page: Any) -> None:
    wait_for(lambda: my_turn(page), timeout=60, what="South's turn")
    settle(page)


def test_the_model_switch_shows_the_behaviour_layer_beside_the_exact_one(
    context: Any, web_server: WebServer
) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, advice=False,
                          seats={"W": "bot:greedy", "N": "bot:greedy", "E": "bot:greedy"})
    _my_turn_settled(page)
    page.wait_for_selector("#overlay .ov-model [data-model='uniform'][aria-pressed='true']")
    assert page.locator("#overlay .behaviour-layer").count() == 0
    exact_before = _exact_cells(page)
    assert exact_before > 0

    page.click("#overlay .ov-model [data-model='behaviour:greedy']")
    seq = app(page, "a.belief.seq")
    page.wait_for_selector(f"#overlay .behaviour-layer .layer-status[data-seq='{seq}']",
                           timeout=60_000)
    layer = page.locator("#overlay .behaviour-layer")
    text = layer.inner_text()
    assert "model: behaviour:greedy" in text and "estimate" in text.lower()
    assert "exact under the model" in text or "95%" in text  # its error, always said
    # the exact layer is still there, whole, and the behaviour one is a second layer
    assert _exact_cells(page) == exact_before
    assert page.locator("#overlay .behaviour-layer .layer-card").count() == 3
    cells = page.evaluate(LAYER_CELLS)
    exact_tiles = set(page.evaluate(
        "[...new Set([...document.querySelectorAll('#overlay .grids .c[data-tile][data-p]')]"
        ".map((c) => c.dataset.tile))]"))
    assert set(cells) == exact_tiles
    for tile, ps in cells.items():
        assert abs(sum(ps) - 1) < 1e-3, (tile, ps)
    layer.scroll_into_view_if_needed()
    screenshot(page, "behaviour-layer")

    # it follows the table: after South's move, the layer is of the new position
    move_and_wait(page)
    _my_turn_settled(page)
    seq = app(page, "a.belief.seq")
    if app(page, "a.belief.status") == "live":
        page.wait_for_selector(f"#overlay .behaviour-layer .layer-status[data-seq='{seq}']",
                               timeout=60_000)

    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay .behaviour-layer", state="detached")
    assert _exact_cells(page) > 0
    assert page.locator("#overlay .ov-model [data-model='uniform'][aria-pressed='true']").count()
    assert not errors, errors


def test_the_replay_viewer_shows_the_behaviour_layer_at_a_step(
    context: Any, web_server: WebServer
) -> None:
    match_id = finished_match(web_server)
    events = stored_events(web_server, match_id)
    plays = [e.seq for e in events if e.type == "tile_played"]
    step = plays[6]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=W&step={step}")
    page.wait_for_function(f"window.__app && window.__app.data && window.__app.step === {step}")
    page.wait_for_selector("#overlay .ov-model [data-model='behaviour:greedy']")
    exact_before = _exact_cells(page)
    page.click("#overlay .ov-model [data-model='behaviour:greedy']")
    page.wait_for_selector(f"#overlay .behaviour-layer .layer-status[data-seq='{step}']",
                           timeout=60_000)
    assert "model: behaviour:greedy" in page.locator("#overlay .behaviour-layer").inner_text()
    assert _exact_cells(page) == exact_before  # the exact grids stay
    cells = page.evaluate(LAYER_CELLS)
    assert cells and all(abs(sum(ps) - 1) < 1e-3 for ps in cells.values())
    # the next step gets its own layer
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.__app.step === {step + 1}")
    page.wait_for_selector(f"#overlay .behaviour-layer .layer-status[data-seq='{step + 1}']",
                           timeout=60_000)
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay .behaviour-layer", state="detached")
    assert not errors, errors
