"""The behaviour layer in real headless Chromium against the real server: the model switch
adds the `behaviour:greedy` estimate under the exact odds (labelled, never replacing them),
follows the table, and goes away again with "Uniform"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import (
    app,
    create_table_in_lobby,
    move_and_wait,
    my_turn,
    settle,
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
    screenshot(page, "behaviour-layer", phone=False)

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
