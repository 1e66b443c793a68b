"""Texas 42's bid-aware layer in a real browser: the player switches the odds from "every deal
alike" to "weighed by the bids", and the grid shows the server's estimate with its error and
what it assumes, in words; switching back shows the exact belief again. The replay viewer
offers the same switch, its figures the replay odds route's answer for the step."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import watch_errors

pytestmark = pytest.mark.browser

LIVE = ("window.__app && window.__app.belief && window.__app.belief.marginals && "
        "Object.keys(window.__app.belief.marginals).length > 0")


def _cells(page: Any) -> dict[tuple[str, str], float]:
    found = page.eval_on_selector_all(
        "#overlay td.c[data-p]",
        "cs => cs.map(c => [c.dataset.holder, c.dataset.tile, c.dataset.p])")
    return {(h, t): float(p) for h, t, p in found}


def test_the_bid_aware_layer_is_shown_beside_the_exact_one(context: Any,
                                                            web_server: WebServer) -> None:
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        bots = {"W": "greedy", "N": "greedy", "E": "greedy"}
        ws.send(json.dumps({"type": "create_table", "id": 1, "variant": "texas-42", "bots": bots}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#table={table_id}&seat=S&game=texas42")
    page.wait_for_function(LIVE, timeout=30_000)
    if not page.locator("#overlay .t42-ov").count():
        page.click("button.ov-toggle")
    page.click("#overlay .ov-model [data-model='behaviour:bids']")
    page.wait_for_function("document.querySelector('#overlay .accuracy') && "
                           "document.querySelector('#overlay .accuracy').textContent"
                           ".includes('weighed by how likely')", timeout=60_000)
    words = page.inner_text("#overlay .accuracy")
    assert "not a fact" in words and ("Estimate" in words or "Exact" in words), words
    cells = _cells(page)
    assert cells and {h for h, _ in cells} == {"W", "N", "E"}
    for tile in {t for _, t in cells}:  # each domino is somewhere
        assert abs(sum(p for (_, t), p in cells.items() if t == tile) - 1) < 1e-3, tile
    screenshot(page, "t42-bids-layer", full_page=True)
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_function("document.querySelector('#overlay .accuracy').textContent"
                           ".includes('the bids are not used')")
    exact = page.evaluate("window.__app.belief.marginals")
    cells = _cells(page)
    assert all(abs(cells[(h, t)] - p) < 1e-9 for h, row in exact.items() for t, p in row.items())

    # the replay viewer offers the layer too (a spectator's view: served while the match is in
    # play), its figures the replay odds route's answer for that step
    seq = int(page.evaluate("window.__app.belief.seq"))
    page.goto("about:blank")
    page.goto(f"{web_server.base}/#replay={table_id}&perspective=spectator&step={seq}"
              "&game=texas42")
    page.wait_for_selector(f"#overlay[data-seq='{seq}'] .c[data-p]", timeout=30_000)
    page.click("#overlay .ov-model [data-model='behaviour:bids']")
    page.wait_for_function("document.querySelector(\"#overlay[data-model='behaviour:bids'] "
                           ".accuracy\") && document.querySelector('#overlay .accuracy')"
                           ".textContent.includes('weighed by how likely')", timeout=60_000)
    route = web_server.get_json(f"/api/matches/{table_id}/odds?seq={seq}&observer=spectator"
                                "&model=behaviour:bids")
    shown = _cells(page)
    expected = {(h, t): p for h, row in route["marginals"].items() for t, p in row.items()}
    assert shown.keys() == expected.keys() and {h for h, _ in shown} == {"S", "W", "N", "E"}
    assert all(abs(shown[k] - expected[k]) < 1e-9 for k in expected)
    screenshot(page, "t42-bids-layer-replay", full_page=True)
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay[data-model='uniform']")
    assert errors == []
