"""Issue 16: the replay viewer as an analysis board, in real headless Chromium.

A stored match played by bots through the real server: the move list groups the events by
hand with the deals folded away, a click on a move goes there, a hand can be jumped to, the
advisor's verdict stands beside each play of the chosen seat (checked against the advisor's
own answer at that move), and a link to the position opens that position.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import app, watch_errors

pytestmark = pytest.mark.browser


def test_the_move_list_goes_to_a_move_whose_verdict_it_shows(
    browser: Any, web_server: WebServer, finished_match_id: str
) -> None:
    match_id = finished_match_id
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{web_server.base}/#replay={match_id}&perspective=S")
        page.wait_for_selector("#moves .hand-moves .mv")
        texts = page.eval_on_selector_all("#moves .mv", "bs => bs.map(b => b.textContent)")
        assert texts and not any("is dealt" in t for t in texts), texts[:5]
        hands = page.eval_on_selector_all("#moves .hand-moves", "s => s.map(x => x.dataset.hand)")
        assert hands[0] == "1"
        # South's second play of hand 1, by the list
        seq = int(page.eval_on_selector_all(
            "#moves .hand-moves[data-hand='1'] .verdict", "vs => vs.map(v => v.dataset.seq)")[1])
        button = page.locator(f"#moves .mv[data-seq='{seq}']")
        step = int(button.get_attribute("data-step"))
        button.click()
        page.wait_for_function(f"window.__app.step === {step}")
        assert page.locator(f"#moves .mv.current[data-seq='{seq}']").count() == 1
        page.wait_for_function(f"window.__app.advice && window.__app.advice.seq === {seq}",
                               timeout=30_000)
        advice = app(page, "a.advice")
        page.wait_for_function(
            f"document.querySelector(\"#moves .verdict[data-seq='{seq}']\").textContent",
            timeout=30_000)
        verdict = page.text_content(f"#moves .verdict[data-seq='{seq}']")
        if advice["rank"] == 1:
            assert verdict == "✓ the advisor's best move", verdict
        else:
            best, played = advice["moves"][0], advice["moves"][advice["rank"] - 1]
            diff = f"{played['expected_points'] - best['expected_points']:.1f}".replace("-", "−")
            assert verdict.startswith(f"played {played['tile']}") and \
                f"{diff} points against the best, {best['tile']}" in verdict, verdict
        screenshot(page, "replay-moves", full_page=True)
        # a hand by the jump menu, when there are several (the match's own section, its start
        # and end, has no hand: a match won in one hand has one hand and that section)
        if len([hand for hand in hands if hand]) > 1:
            page.select_option("#jump-hand", label="2")
            page.wait_for_function("window.__app.state.hand && "
                                   "window.__app.state.hand.number === 2")
        # a link to this position opens it
        page.click("button.share")
        link = page.evaluate("navigator.clipboard.readText()")
        assert link == page.url and f"step={app(page, 'a.step')}" in link
        other = context.new_page()
        other.goto(link)
        other.wait_for_function("window.__app && window.__app.data")
        assert app(other, "a.step") == app(page, "a.step")
        assert app(other, "a.perspective") == "S"
        assert errors == []
    finally:
        context.close()
