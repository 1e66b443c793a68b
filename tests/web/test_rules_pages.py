"""Each game has a short rules page (#rules=GAME), linked from the lobby for the chosen
variant's game and from every table; it fits a phone without sideways scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import watch_errors

GAMES = {"dominoes": "Dominoes", "texas42": "Texas 42", "clue": "Clue", "uno": "Uno for two"}


@pytest.mark.parametrize("width", [1280, 360])
def test_every_game_has_a_rules_page_that_fits(context: Any, web_server: WebServer,
                                               width: int) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    errors = watch_errors(page)
    for game, title in GAMES.items():
        page.goto(f"{web_server.base}/#rules={game}")
        page.wait_for_selector(f"#rules[data-game='{game}'] h1")
        assert page.text_content("#rules h1") == f"How to play {title}"
        assert len(page.text_content("#rules")) > 600  # a page of rules, not a stub
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.evaluate("""() => [...document.querySelectorAll('#rules *')].every(el =>
            el.scrollWidth <= el.clientWidth + 1 || getComputedStyle(el).display === 'inline')""")
        others = page.eval_on_selector_all("#rules a[href^='#rules=']",
                                           "as => as.map(a => a.getAttribute('href'))")
        assert sorted(others) == sorted(f"#rules={g}" for g in GAMES if g != game)
        if game == "texas42" and width == 1280:
            screenshot(page, "rules-texas42", full_page=True)
    page.goto(f"{web_server.base}/#rules=chess")
    page.wait_for_selector("#rules h1")
    assert "No rules page" in page.text_content("#rules h1")
    assert errors == []


def test_the_lobby_links_the_chosen_games_rules(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create select[name=variant]")
    variants = page.eval_on_selector_all("select[name=variant] option:not([disabled])",
                                         "os => os.map(o => o.value)")
    seen = set()
    for variant in variants:
        page.select_option("select[name=variant]", variant)
        href = page.get_attribute("#variant-rules a", "href")
        assert href and href.startswith("#rules="), variant
        seen.add(href.removeprefix("#rules="))
    assert seen == set(GAMES)
    page.select_option("select[name=variant]", "texas-42")
    page.click("#variant-rules a")
    page.wait_for_selector("#rules[data-game='texas42']")
    assert errors == []
