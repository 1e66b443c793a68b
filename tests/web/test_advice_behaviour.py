"""The advice panel's model switch in real headless Chromium against the real server:
"Advice deals: Uniform | Behaviour (greedy)" beside the Advice button; the advice then asks
with that model, and the panel names the model and its effective sample (never an
unlabelled figure). A pimc-behaviour seat is offered in the lobby."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer
from tests.web.test_browser import (
    app,
    create_table_in_lobby,
    move_and_wait,
    my_turn,
    wait_for,
    watch_errors,
)

pytestmark = pytest.mark.browser


def _to_a_choice(page: Any) -> None:
    for _ in range(40):  # to a turn with a tile to play (passing when forced)
        wait_for(lambda: my_turn(page), timeout=60, what="my turn")
        if page.locator(".tile-btn.legal").count():
            return
        move_and_wait(page)
    raise AssertionError("no choice in 40 turns")


def test_the_advice_panel_switches_its_model(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, "advised-behaviour",
                          seats={"W": "bot:greedy", "N": "bot:pimc-behaviour",
                                 "E": "bot:greedy"})
    page.wait_for_selector("button.advise")
    page.wait_for_selector(".advice-model [data-advice-model='uniform'][aria-pressed='true']")
    _to_a_choice(page)

    page.keyboard.press("a")  # uniform first
    page.wait_for_selector(".advice-box .advice-model-line[data-model='uniform']",
                           timeout=60_000)
    assert "model: uniform" in page.locator(".advice-box").inner_text()
    assert app(page, "a.advice.model") == "uniform"

    page.click(".advice-model [data-advice-model='behaviour:greedy']")
    page.wait_for_selector(
        ".advice-model [data-advice-model='behaviour:greedy'][aria-pressed='true']")
    # the uniform answer is another model's: its hints and list go
    assert page.locator(".tile-btn .hint").count() == 0
    page.keyboard.press("a")
    page.wait_for_selector(".advice-box .advice-model-line[data-model='behaviour:greedy']",
                           timeout=60_000)
    advice = app(page, "a.advice")
    assert advice["model"] == "behaviour:greedy" and advice["ess"] >= 1
    assert "behaviour:greedy" in advice["label"]
    text = page.locator(".advice-box").inner_text()
    assert "model: behaviour:greedy" in text and "effective sample" in text
    assert f"{advice['ess']:.1f}" in text
    assert page.locator(".tile-btn.legal .hint").count() >= 1
    # remembered: a reload keeps the choice
    page.reload()
    page.wait_for_selector(
        ".advice-model [data-advice-model='behaviour:greedy'][aria-pressed='true']",
        timeout=60_000)
    assert not errors, errors
