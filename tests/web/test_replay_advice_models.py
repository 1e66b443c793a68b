"""The replay viewer's advisor under each model the game's advisor offers (issue 32).

The replay's head lists the advisor's models (`advice_models`); where there are several the
advisor panel draws a switch, asks `/api/matches/{id}/advice?seq=N&model=M`, shows the answer
labelled with its model as an assumption and its effective sample, and keeps the verdicts
beside the moves on the uniform model. Real server, real Chromium.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import app, finished_match, stored_events, watch_errors

pytestmark = pytest.mark.browser

BEHAVIOUR = "behaviour:greedy"

SWITCH_LAYOUT = """(() => {
  const panel = document.getElementById('advisor').getBoundingClientRect();
  const boxes = [...document.querySelectorAll('#advisor [data-replay-advice-model]')]
    .map((b) => b.getBoundingClientRect());
  const inside = boxes.every((r) => r.left >= panel.left - 1 && r.right <= panel.right + 1);
  const apart = boxes.every((a, i) => boxes.every((b, j) => j <= i ||
    Math.min(a.right, b.right) - Math.max(a.left, b.left) <= 1 ||
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) <= 1));
  return { n: boxes.length, inside, apart,
           scroll: document.documentElement.scrollWidth, inner: window.innerWidth };
})()"""


def _layout_ok(page: Any, what: str) -> None:
    laid = page.evaluate(SWITCH_LAYOUT)
    assert laid["n"] == 2 and laid["inside"] and laid["apart"], (what, laid)
    assert laid["scroll"] <= laid["inner"], (what, laid)


def test_the_replay_advisor_switches_to_the_behaviour_model_and_back(
    context: Any, web_server: WebServer
) -> None:
    match_id = finished_match(web_server)
    play = [e for e in stored_events(web_server, match_id) if e.type == "tile_played"][6]
    head = web_server.get_json(f"/api/matches/{match_id}/replay?perspective=N")
    assert head["advice_models"] == ["uniform", BEHAVIOUR]

    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=N&step={play.seq}")
    page.wait_for_selector("#advisor[data-model='uniform'] .advice-list li", timeout=60_000)
    uniform = app(page, "a.advice")
    assert uniform["seq"] == play.seq
    pressed = page.get_attribute("#advisor [data-replay-advice-model='uniform']", "aria-pressed")
    assert pressed == "true"
    assert page.locator("#advisor .advice-model-line").count() == 0  # uniform: no assumption

    page.click(f"#advisor [data-replay-advice-model='{BEHAVIOUR}']")
    # a give-up bound: the behaviour model weighs deals in the replay pool, slower when busy
    page.wait_for_selector(f"#advisor[data-model='{BEHAVIOUR}'] .advice-list li",
                           timeout=180_000)
    weighed = app(page, "a.advice")
    served = web_server.get_json(
        f"/api/matches/{match_id}/advice?seq={play.seq}&model={BEHAVIOUR}")
    assert weighed["model"] == BEHAVIOUR and weighed["seq"] == play.seq
    assert weighed["moves"] == served["moves"] and weighed["ess"] == served["ess"]
    line = page.text_content("#advisor .advice-model-line")
    assert "assumption" in line and f"{float(served['ess']):.1f}" in line, line
    shown = page.eval_on_selector_all("#advisor .advice-list li",
                                      "items => items.map(i => [i.dataset.tile, i.dataset.end])")
    assert shown == [[m["tile"], m["end"] or ""] for m in served["moves"]]
    _layout_ok(page, "1280 px")
    screenshot(page, "replay-advice-behaviour", phone=False, full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})
    _layout_ok(page, "360 px")
    page.locator("#advisor").scroll_into_view_if_needed()
    screenshot(page, "replay-advice-behaviour-phone")  # the viewport, the advisor in it
    page.set_viewport_size({"width": 1280, "height": 900})

    # the verdict beside the move stays the uniform advisor's; back to uniform from the cache
    page.click("#advisor [data-replay-advice-model='uniform']")
    page.wait_for_selector("#advisor[data-model='uniform'] .advice-list li")
    assert app(page, "a.advice") == uniform
    assert errors == []
