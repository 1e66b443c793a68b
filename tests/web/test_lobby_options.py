"""The lobby renders a variant's table options from the server's declaration, in real headless
Chromium against the real server (real WebSockets, a real SQLite file).

Clue's `players` (3-6, default 4) is a number input with the declared bounds; changing it
redraws the seat rows (a choice made in a row that stays is kept); the table is created with
that many seats (the page watching shows them), the stored config and match_started have
them, the replay says the option, and the lobby lists a table with its option.
"""

from __future__ import annotations

from typing import Any

import pytest

from archive.matches import load_match
from archive.tables import read_table
from storage import EventStore
from tests.web.conftest import WebServer
from tests.web.test_browser import app, watch_errors

pytestmark = pytest.mark.browser


def _seat_rows(page: Any) -> list[str]:
    return page.eval_on_selector_all("#seats select[data-seat]",
                                     "els => els.map(e => e.dataset.seat)")


def test_the_lobby_picks_clues_player_count(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.select_option("select[name=variant]", "clue")
    players = page.wait_for_selector("#options input[name=opt-players]", timeout=60_000)
    assert (players.get_attribute("min"), players.get_attribute("max"),
            players.input_value()) == ("3", "6", "4")
    assert "Players" in page.text_content("#options")
    assert _seat_rows(page) == ["P1", "P2", "P3", "P4"]
    # the old fixed-size names are not offered any more
    offered = page.eval_on_selector_all("select[name=variant] option",
                                        "els => els.map(e => e.value)")
    assert "clue" in offered and not {"clue-3", "clue-5", "clue-6"} & set(offered)

    page.select_option("select[name=seat-P2]", "bot:random")
    page.fill("#options input[name=opt-players]", "6")
    page.wait_for_function("document.querySelectorAll('#seats select[data-seat]').length === 6")
    assert _seat_rows(page) == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert page.input_value("select[name=seat-P2]") == "bot:random"  # kept
    page.fill("#options input[name=opt-players]", "5")
    page.wait_for_function("document.querySelectorAll('#seats select[data-seat]').length === 5")
    page.select_option("select[name=seat-P1]", "bot:infomax")  # bots only: the page watches
    assert not page.is_hidden("#advice-choice")  # Clue has its advisor: the advice switch
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#watch=')", timeout=60_000)
    table_id = page.evaluate("location.hash").split("=", 1)[1].split("&", 1)[0]

    # the match starts with five seats (the server tests play such tables to the end; here
    # the page only has to show what the lobby asked for)
    page.wait_for_function("window.__app && window.__app.state && "
                           "window.__app.state.seats.length === 5", timeout=60_000)
    assert app(page, "a.state.seats") == ["P1", "P2", "P3", "P4", "P5"]
    page.wait_for_function("document.querySelectorAll('#board .clue-seats .seat').length === 5",
                           timeout=60_000)

    store = EventStore(web_server.db)
    try:
        events = load_match(store, table_id)
        config = read_table(store, table_id, config_only=True)
    finally:
        store.close()
    assert list(events[0].players) == ["P1", "P2", "P3", "P4", "P5"]
    assert events[0].variant == "clue" and config is not None
    assert config.config.options == {"players": 5}
    assert config.config.bots == {"P1": "infomax", "P2": "random", "P3": "infomax",
                                  "P4": "infomax", "P5": "infomax"}

    # its replay (the public one while it is in play) says the table's options
    page.goto(f"{web_server.base}/#replay={table_id}&perspective=spectator")
    page.wait_for_selector("#table-options:not([hidden])", timeout=60_000)
    assert page.text_content("#table-options") == "Table options: players 5"

    # the lobby lists it (while it is retained) with its option by the declared label; a new
    # table of the same size shows it at once
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.select_option("select[name=variant]", "clue")
    page.wait_for_selector("#options input[name=opt-players]", timeout=60_000)
    page.fill("#options input[name=opt-players]", "3")
    page.wait_for_function("document.querySelectorAll('#seats select[data-seat]').length === 3")
    page.select_option("select[name=seat-P1]", "open")
    assert not page.is_hidden("#advice-choice")  # Clue has its advisor: the advice switch
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#watch=')", timeout=60_000)
    second = page.evaluate("location.hash").split("=", 1)[1].split("&", 1)[0]
    page.goto(web_server.base + "/")
    row = page.wait_for_selector(f"#tables tr[data-table={second}]", timeout=60_000)
    page.wait_for_function(
        f"(document.querySelector('#tables tr[data-table={second}]').textContent || '')"
        ".includes('Players 3')", timeout=60_000)
    assert row.query_selector("[data-join=P1]") is not None
    # (the replay viewer's advisor asks for advice of moves the advisor does not rank: a 422
    # it shows as "no advice"; any other error is the page's)
    assert [e for e in errors if "status of 422" not in e] == []
