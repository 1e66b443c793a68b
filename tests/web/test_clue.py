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
import re
from typing import Any

import pytest

from archive.matches import load_match
from games.clue.game import CLUE
from storage import EventStore
from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import TOL, app, create_table_in_lobby, overlay_cells, watch_errors
from tests.web.test_panels import READY, check_panel, play

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

    # advice off: this test reads the notebook (tests/web/test_clue_uno_advice.py the advice)
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
    board = page.text_content("#board") or ""
    assert "You win" in board or "wins" in board, board

    events = stored(web_server, table_id)
    CLUE.check_log(events)
    frames = app(page, "a.events")
    assert frames == [CLUE.event_to_dict(CLUE.view(e, "P1")) for e in events]
    for frame in frames:
        if frame["type"] == "card_shown" and "P1" not in (frame["seat"], frame["to"]):
            assert frame["card"] is None

    # the replay viewer shows the match from P1's seat with the notebook at each step
    asked: list[str] = []  # the advisor's verdicts on P1's moves: this match's only
    page.on("request", lambda r: asked.append(r.url) if "/advice" in r.url else None)
    page.click("#board a.button")  # "Replay this match"
    page.wait_for_selector("#board .clue-seats", timeout=30_000)
    page.wait_for_selector("#overlay .clue-ov", timeout=30_000)
    # the replay may draw the notebook twice (its step, then its belief): wait for the words
    page.wait_for_function(
        "(document.querySelector('#overlay').textContent || '').includes('Detective notebook')",
        timeout=30_000)
    screenshot(page, "clue-replay")
    for _ in range(3):  # step through a few moves, past the advisor's 200 ms wait each time
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)
    assert all(f"/api/matches/{table_id}/" in url for url in asked), asked
    assert page.locator(".advisor-toggle").is_visible()
    assert errors == [], json.dumps(errors)


SEAT_CODE = re.compile(r"\bP[1-6]\b")


def test_a_person_reads_the_clue_table_and_suggests_from_the_sheet(
        context: Any, web_server: WebServer) -> None:
    """Four players (three infomax bots): the seats are named (no bare "P2" anywhere a person
    reads), P1's first suggestion is made by clicking three card names on the sheet and its
    Suggest button, the facts say each card once and each deduction once, and the panel reads
    well (nothing overlapped or cut) at 1280 and 360 px, short enough with its lists folded."""
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, "ann", advice=False, variant="clue")
    page.wait_for_function(READY, timeout=60_000)
    if not page.locator("#overlay .sheet-suggest").count():
        page.keyboard.press("o")
    page.wait_for_selector("#overlay .sheet-suggest [data-act=suggest]")

    # the suggestion from the sheet: the last card of each picker, clicked by its name
    want = {kind: page.eval_on_selector(f"#board select[name={kind}]",
                                        "s => s.options[s.options.length - 1].value")
            for kind in ("suspect", "weapon", "room")}
    for kind, card in want.items():
        page.click(f"#overlay [data-pick='{card}']")
        assert page.text_content(f"#overlay .sheet-suggest [data-picked={kind}]") == card
        assert page.get_attribute(f"#overlay [data-pick='{card}']", "aria-pressed") == "true"
    page.click("#overlay .sheet-suggest [data-act=suggest]")
    page.wait_for_function("window.__app.events.some(e => e.type === 'suggested')",
                           timeout=30_000)
    made = app(page, "a.events.find(e => e.type === 'suggested')")
    assert made["seat"] == "P1"
    assert {k: made[k] for k in want} == want, (made, want)
    page.wait_for_selector(f"#log li[data-seq='{made['seq']}']")
    line = page.text_content(f"#log li[data-seq='{made['seq']}']") or ""
    assert line.startswith(f"You suggest {made['suspect']}"), line  # your move, first person

    play(page, 2)  # the answer seen, the turn ended, the bots' suggestions: facts gather
    seats = sorted(set(app(page, "a.state.seats")) - {"P1"})
    check_panel(page, "clue-sheet", set(seats))

    # seats named: the board's seat chips carry the players' names, and no seat code shows
    for seat in seats:
        label = page.text_content(f"#board .seat[data-seat={seat}] b") or ""
        assert label and not SEAT_CODE.search(label) and "bot" in label, label
    for where in ("#board", "#overlay", ".table-head"):
        shown = page.inner_text(where)
        assert not SEAT_CODE.search(shown), (where, SEAT_CODE.findall(shown), shown[:300])

    # the facts: a line per card, each card in at most one of them, each rule line once
    by_card = page.eval_on_selector_all("#overlay ul.by-card li",
                                        "ls => ls.map(l => [l.dataset.card, l.textContent])")
    rules = page.eval_on_selector_all("#overlay ul.by-rule li", "ls => ls.map(l => l.textContent)")
    print(f"clue facts: {len(by_card)} card lines, {len(rules)} rule lines")
    for line in [text for _, text in by_card] + rules:
        print("  ", line)
    assert by_card and rules
    cards = [card for card, _ in by_card]
    assert len(cards) == len(set(cards)), cards
    for card in cards:
        assert sum(card in text for _, text in by_card) == 1, (card, by_card)
    assert len(rules) == len(set(rules)), rules
    words = (page.text_content("#overlay") or "").lower()
    assert "disjoint" not in words and "suggestion-card" not in words

    # the page's height at 1280 px with the lists folded: printed, and bounded
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("document.querySelectorAll('#overlay details').forEach(d => d.open = false)")
    heights = page.evaluate("({overlay: document.getElementById('overlay').scrollHeight, "
                            "page: document.documentElement.scrollHeight})")
    print(f"clue at 1280 px, lists folded: overlay {heights['overlay']} px, "
          f"page {heights['page']} px")
    assert heights["overlay"] < 2000, heights
    page.evaluate("document.querySelectorAll('#overlay details').forEach(d => d.open = true)")
    screenshot(page, "table-clue-sheet", phone=False, full_page=True)
    page.set_viewport_size({"width": 360, "height": 800})  # the drawer shut: the board
    page.wait_for_timeout(500)  # the panel slides into its drawer (0.2 s)
    screenshot(page, "table-clue-sheet-phone", phone=False)
    assert errors == [], errors
