"""A person plays Uno against the greedy bot in real headless Chromium, against the real
server (real WebSockets, a real SQLite file), with the hidden-cards overlay.

Created from the lobby form (variant uno-2-mini, North the greedy bot), South plays by
clicking its legal cards (a wild names a colour by its button) or Draw when it has nothing
to play or owes a penalty. At each of South's moves the overlay on the page — North's hand
and the deck as card kinds with expected copies and P(at least one) — is the exact belief
of South's own view recomputed from the stored log, to 1e-9; no page errors.
"""

from __future__ import annotations

from typing import Any

import pytest

from archive.matches import load_match
from games.uno.game import UNO
from storage import EventStore
from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import TOL, app, create_table_in_lobby, overlay_cells, watch_errors

pytestmark = pytest.mark.browser
VARIANT = "uno-2-mini"


def stored(server: WebServer, match_id: str, upto: int | None = None) -> list[Any]:
    store = EventStore(server.db)
    try:
        return load_match(store, match_id, upto)
    finally:
        store.close()


def expected_snapshot(server: WebServer, match_id: str, seq: int) -> dict[str, Any]:
    belief = UNO.belief("S", VARIANT)
    for event in stored(server, match_id, seq):
        belief.apply(UNO.view(event, "S"))
    return belief.snapshot_dict()


def expected_cells(page: Any) -> dict[tuple[str, str], float]:
    data = page.evaluate("""[...document.querySelectorAll('#overlay .e[data-e]')].map(
        c => [c.dataset.holder, c.dataset.kind, c.dataset.e])""")
    return {(h, k): float(e) for h, k, e in data}


def test_a_person_plays_uno_with_the_hidden_cards_overlay(context: Any,
                                                         web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    # advice off: this test reads the odds (tests/web/test_clue_uno_advice.py the advice)
    table_id = create_table_in_lobby(page, web_server, "ann", advice=False, variant=VARIANT,
                                     seats={"N": "bot:greedy"})
    if page.get_attribute("#overlay", "hidden") is not None or \
            not page.locator("#overlay .uno-ov").count():
        page.keyboard.press("o")

    clicks = {"play": 0, "draw": 0}
    checked = 0
    for _ in range(80):
        page.wait_for_function(
            "window.__app.state.phase === 'finished' || (window.__app.belief && "
            "window.__app.belief.seq === window.__app.state.lastSeq && "
            "document.querySelector('#board [data-card], #board [data-act=draw]') && "
            "document.querySelector('#overlay .uno-ov .uno-chip'))", timeout=30_000)
        if app(page, "a.state.phase === 'finished'"):
            break
        seq, cells = overlay_cells(page)
        assert seq == app(page, "a.state.lastSeq")
        expected = expected_snapshot(web_server, table_id, seq)
        assert expected["status"] == "exact"
        want = {(h, k): p for h, row in expected["marginals"].items()
                for k, p in row.items() if ">=" not in k}
        assert set(cells) == set(want)
        assert max(abs(cells[k] - want[k]) for k in want) <= TOL
        shown = expected_cells(page)
        means = {(h, k): e for h, row in expected["expected"].items() for k, e in row.items()}
        assert set(shown) == set(means)
        assert max(abs(shown[k] - means[k]) for k in means) <= TOL
        assert {h for h, _ in cells} == {"N", "deck"}
        checked += 1
        before = app(page, "a.state.lastSeq")
        if page.locator("#board [data-card]").count():
            page.click("#board [data-card] >> nth=0")
            clicks["play"] += 1
        else:
            page.click("#board [data-act=draw]")
            clicks["draw"] += 1
        page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=10_000)
    page.wait_for_function("window.__app.state.phase === 'finished'", timeout=30_000)
    screenshot(page, "uno-table")
    print(f"uno by clicking: {clicks}, {checked} overlays checked against the exact belief")
    assert clicks["play"] >= 1 and checked >= 2
    assert "wins" in page.text_content("#board") or "Nobody" in page.text_content("#board")
    events = stored(web_server, table_id)
    UNO.check_log(events)
    assert not errors, errors
