"""A person plays Clue against two bots in real headless Chromium, against the real
server (real WebSockets, a real SQLite file), with the detective notebook as the overlay.

Created from the lobby form (variant clue-mini, P2 the default bot, Clue's
infomax, P3 a random bot), P1 suggests with the
three pickers and Suggest, shows a card with the show buttons when asked, ends its turn, and
accuses (pickers and Accuse) once the notebook puts probability 1 on one card of each type.
At each of P1's moves the notebook on the page is the exact belief of P1's own view,
recomputed from the stored log, to 1e-9, with the envelope odds and the facts listed; P1's
frames never carry a card shown between the bots; the replay viewer then shows the match with
the notebook; no page errors.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from archive.matches import load_match
from games.clue.game import CLUE
from storage import EventStore
from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import TOL, app, create_table_in_lobby, overlay_cells, watch_errors

pytestmark = pytest.mark.browser


def stored(server: WebServer, match_id: str, upto: int | None = None) -> list[Any]:
    store = EventStore(server.db)
    try:
        return load_match(store, match_id, upto)
    finally:
        store.close()


def expected_snapshot(server: WebServer, match_id: str, seq: int) -> dict[str, Any]:
    belief = CLUE.belief("P1", "clue-mini")
    for event in stored(server, match_id, seq):
        belief.apply(CLUE.view(event, "P1"))
    return belief.snapshot_dict()


def test_a_person_plays_clue_with_the_detective_notebook(context: Any,
                                                         web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)

    def keeps_the_default_bot(form_page: Any) -> None:
        # P2 keeps the lobby's default bot for Clue, infomax (the renderer names its bots)
        assert form_page.input_value("select[name=seat-P2]") == "bot:infomax"

    # move advice is dominoes' only
    table_id = create_table_in_lobby(page, web_server, "ann", advice=False,
                                     variant="clue-mini", seats={"P3": "bot:random"},
                                     prepare=keeps_the_default_bot)
    if page.get_attribute("#overlay", "hidden") is not None or \
            not page.locator("#overlay .clue-ov").count():
        page.keyboard.press("o")

    clicks = {"suggest": 0, "show": 0, "end_turn": 0, "accuse": 0}
    checked = 0
    saw_facts = False
    for _ in range(80):
        page.wait_for_function(
            "window.__app.state.phase === 'finished' || (window.__app.belief && "
            "window.__app.belief.seq === window.__app.state.lastSeq && "
            "document.querySelector('#board [data-show], #board [data-act]') && "
            "document.querySelector('#overlay .clue-ov table'))", timeout=30_000)
        if app(page, "a.state.phase === 'finished'"):
            break
        seq, cells = overlay_cells(page)
        assert seq == app(page, "a.state.lastSeq")
        expected = expected_snapshot(web_server, table_id, seq)
        want = {(h, c): p for h, row in expected["marginals"].items() for c, p in row.items()}
        assert set(cells) == set(want)
        assert max(abs(cells[k] - want[k]) for k in want) <= TOL
        odds = page.locator("#overlay .envelope-odds [data-odds]").count()
        assert odds == 10  # 3 suspects, 3 weapons, 4 rooms
        facts = page.locator("#overlay ul.facts li").count()
        assert facts == len(expected["facts"])
        saw_facts = saw_facts or facts > 0
        checked += 1
        before = app(page, "a.state.lastSeq")
        envelope = expected["envelope"]
        certain = {kind: [c for c, p in row.items() if p == 1.0] for kind, row in envelope.items()}
        if page.locator("#board [data-show]").count():
            page.click("#board [data-show] >> nth=0")
            clicks["show"] += 1
        elif all(len(v) == 1 for v in certain.values()):
            for kind in ("suspect", "weapon", "room"):
                page.select_option(f"#board select[name={kind}]", certain[kind][0])
            page.click("#board [data-act=accuse]")
            clicks["accuse"] += 1
        elif page.locator("#board [data-act=end_turn]").count():
            page.click("#board [data-act=end_turn]")
            clicks["end_turn"] += 1
        else:  # suggest the likeliest envelope card of each type (ties: the first listed)
            for kind in ("suspect", "weapon", "room"):
                best = max(envelope[kind].items(), key=lambda kv: kv[1])[0]
                page.select_option(f"#board select[name={kind}]", best)
            page.click("#board [data-act=suggest]")
            clicks["suggest"] += 1
        page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    page.wait_for_function("window.__app.state.phase === 'finished'", timeout=30_000)
    screenshot(page, "clue-table")
    print(f"clue by clicking: {clicks}, {checked} notebooks checked against the exact belief")
    # P1 moves first: its suggestion, then its own notebook after the answer (facts by then:
    # a card shown to it clears other hands, a suggestion nobody refutes clears every hand)
    assert clicks["suggest"] >= 1 and checked >= 2 and saw_facts and clicks["accuse"] <= 1
    assert "wins" in page.text_content("#board")

    events = stored(web_server, table_id)
    CLUE.check_log(events)
    frames = app(page, "a.events")
    assert frames == [CLUE.event_to_dict(CLUE.view(e, "P1")) for e in events]
    for frame in frames:
        if frame["type"] == "card_shown" and "P1" not in (frame["seat"], frame["to"]):
            assert frame["card"] is None

    # the replay viewer shows the match from P1's seat with the notebook at each step
    page.click("#board a.button")  # "Replay this match"
    page.wait_for_selector("#board .clue-seats", timeout=30_000)
    page.wait_for_selector("#overlay .clue-ov", timeout=30_000)
    # the replay may draw the notebook twice (its step, then its belief): wait for the words
    page.wait_for_function(
        "(document.querySelector('#overlay').textContent || '').includes('Detective notebook')",
        timeout=30_000)
    screenshot(page, "clue-replay")
    assert errors == [], json.dumps(errors)
