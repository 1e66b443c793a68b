"""Every variant the server hosts, from the lobby's default form, in real headless Chromium
against the real server (real WebSockets, a real SQLite file) (issue 27).

For each variant `list_variants` lists: the lobby offers it (its game's title over it), the
advice switch shows exactly when the game has an advisor, and the form as it comes (only the
variant chosen) creates a table; the page then offers the server's legal moves and no other
(the renderer has no rules of its own), and one click (an end where the tile fits both)
sends one of them back exactly as the server offered it, which the server applies. No page
errors, and neither page scrolls sideways at 360 px. With DOMINO_SCREENSHOTS=1 the lobby and
one table per game are saved at 1280 and 360 px.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from games.registry import GAMES
from tests.web.conftest import SCREENSHOTS, WebServer
from tests.web.test_browser import app, watch_errors

pytestmark = pytest.mark.browser

VARIANTS = [(game.name, info.name) for game in GAMES.games()
            for info in game.variants().values() if info.alias_of is None]
"""What the server lists (aliases kept for old logs left out)."""
ADVISORS = {"dominoes", "texas42", "clue", "uno"}
"""The games with an advisor (every game now; a game without one offers no advice)."""

OFFERED = "window.__app && window.__app.legal && window.__app.legal.moves.length && " \
          "window.__app.legal.seq === window.__app.state.lastSeq"
# what a person clicks to make a move, in each game's board (the first that is there)
CLICKS = [".tile-btn.legal", "[data-move]", "[data-act=suggest]", "[data-show]",
          "[data-act=end_turn]", "button.pass:not([disabled])", "button.draw:not([disabled])"]


def save(page: Any, name: str) -> None:
    """docs/screenshots/NAME.png at 1280 px (the whole page) and NAME-phone.png at 360 x 780
    (when asked for)."""
    if not os.environ.get("DOMINO_SCREENSHOTS"):
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.mouse.move(0, 0)  # no tooltip from where the pointer last was
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})
    page.wait_for_timeout(400)  # the phone's drawer slides shut (a 0.2 s transition)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"))  # the screen, as one sees it
    page.set_viewport_size(size)


def fits_a_phone(page: Any, what: str) -> None:
    """At 360 px the page does not scroll sideways (then back to the desktop size)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 780})
    sizes = page.evaluate("({scroll: document.documentElement.scrollWidth, "
                          "inner: window.innerWidth})")
    page.set_viewport_size(size)
    assert sizes["scroll"] <= sizes["inner"] == 360, (what, sizes)


def sent_moves(page: Any) -> list[dict[str, Any]]:
    """Every `move` message the page sends, as sent (recorded from its WebSocket)."""
    moves: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "move":
                moves.append(message)

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return moves


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=[v for _, v in VARIANTS])
def test_a_table_of_every_variant_from_the_default_form(context: Any, web_server: WebServer,
                                                       game: str, variant: str) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    moves = sent_moves(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    listed = page.eval_on_selector_all("select[name=variant] option:not([disabled])",
                                       "os => os.map(o => o.value)")
    assert sorted(listed) == sorted(v for _, v in VARIANTS)
    page.select_option("select[name=variant]", variant)
    group = page.eval_on_selector("select[name=variant]",
                                  "s => s.selectedOptions[0].parentElement.label")
    assert group and group != variant
    assert page.is_visible("#advice-choice") == (game in ADVISORS)
    fits_a_phone(page, f"the lobby with {variant}")
    if variant == "partnership-6":
        save(page, "lobby-games")
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#table=')")
    page.wait_for_function("window.__app && window.__app.token")
    me = app(page, "a.seat")
    assert me and app(page, "a.game") == game

    page.wait_for_function(OFFERED, timeout=60_000)
    offered = app(page, "a.legal.moves")
    fits_a_phone(page, f"a {variant} table")
    before = app(page, "a.state.lastSeq")
    clicked = next((s for s in CLICKS if page.locator(f"#board {s}").count()), None)
    assert clicked is not None, page.inner_html("#board")
    if VARIANTS.index((game, variant)) == [g for g, _ in VARIANTS].index(game):
        save(page, f"table-{game}")  # the game's first variant, at its first offer
    page.locator(f"#board {clicked}").first.click()
    if page.locator("#board .chooser [data-end]").count():  # a tile that fits both ends
        page.locator("#board .chooser [data-end]").first.click()
    page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=30_000)
    assert len(moves) == 1, moves
    assert moves[0]["move"] in offered, (moves[0], offered)
    assert page.locator(".toast").count() == 0, page.text_content("#toasts")
    assert errors == [], errors
