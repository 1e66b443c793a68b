"""Clue's and Uno's advice in real headless Chromium against the real server (issue 28 item
5): at a table created with advice on, the Advice button (or A) shows the advisor's answer in
plain words (Clue: the suggestions that tell most, in bits; Uno: each move's chance to win
with its interval), the technical labels one click away, nothing clipped at 1280 or 360 px;
a replay of a stored match shows the advisor's answer and verdict for the seat's moves."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from archive.matches import save_match
from games.clue.bots import InfoMaxBot
from games.clue.game import CLUE
from games.play import play_match
from games.uno.game import UNO
from storage import EventStore
from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import app, create_table_in_lobby, watch_errors

pytestmark = pytest.mark.browser

OFFERED = ("window.__app && window.__app.legal && window.__app.legal.moves.length && "
           "window.__app.legal.seq === window.__app.state.lastSeq")
SEAT_CODE = re.compile(r"\bP[1-6]\b")
INTERNAL = ("infomax", "pimc", "plug-in", "kind", "p_win", "bits=")


def _fits(page: Any, selector: str) -> dict[str, int]:
    """The box's widths: nothing cut at its right edge, nothing past the page's."""
    return page.eval_on_selector(selector, "e => ({scroll: e.scrollWidth, client: e.clientWidth, "
                                           "right: Math.round(e.getBoundingClientRect().right), "
                                           "page: document.documentElement.clientWidth})")


def _reads_well(page: Any, selector: str) -> str:
    text = page.inner_text(selector)
    assert not SEAT_CODE.search(text), text
    # the players' names as the board shows them ("infomax bot 4") are words, not labels
    names = page.eval_on_selector_all("#board .seat b", "bs => bs.map(b => b.textContent)")
    words = text
    for name in sorted(names, key=len, reverse=True):
        words = words.replace(name, "")
    assert not any(word in words for word in INTERNAL), text
    assert page.locator(f"{selector} details.technical").count() == 1
    assert not page.is_visible(f"{selector} details.technical ul")  # one click away
    page.click(f"{selector} details.technical summary")
    assert "uniform" in page.inner_text(f"{selector} details.technical ul")
    page.click(f"{selector} details.technical summary")
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        box = _fits(page, selector)
        print(f"{selector} at {width} px: {box}")
        assert box["scroll"] <= box["client"] + 1 and box["right"] <= box["page"] + 1, box
    page.set_viewport_size({"width": 1280, "height": 900})
    return text


def test_clue_advice_ranks_the_suggestions_in_words(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, "ann", advice=True, variant="clue")
    page.wait_for_function(OFFERED, timeout=60_000)
    page.keyboard.press("a")
    page.wait_for_selector("#board .clue-advice[data-kind=suggest]", timeout=120_000)
    text = _reads_well(page, "#board .clue-advice")
    print(text)
    assert "Which suggestion tells you most" in text and "bits" in text
    assert page.locator("#board .clue-advice ol.advice-list li").count() == 5
    _shot(page, "clue-advice")
    # the advised suggestion is made with the pickers
    best = app(page, "a.advice.advice.moves[0]")
    for kind in ("suspect", "weapon", "room"):
        page.select_option(f"#board select[name={kind}]", best[kind])
    before = app(page, "a.state.lastSeq")
    page.click("#board [data-act=suggest]")
    page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    assert app(page, "a.events.find(e => e.type === 'suggested').suspect") == best["suspect"]
    assert errors == [], errors


def _cheapest_clue_move(page: Any, moves: list[dict]) -> None:
    """Move on as a person in a hurry would: end the turn, else show the card (the only one),
    else make the suggestion the pickers hold; then wait for the move's event."""
    before = app(page, "a.state.lastSeq")
    kinds = {m["kind"] for m in moves}
    if "end_turn" in kinds:
        page.click("#board [data-act=end_turn]")
    elif "show" in kinds:
        page.locator("#board [data-show]").first.click()
    else:
        page.click("#board [data-act=suggest]")
    page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)


def test_clue_advice_ranks_the_cards_to_show(context: Any, web_server: WebServer) -> None:
    """Asked to refute with two cards or more, the advisor ranks exactly the cards offered
    (the one that tells the suggester least first) and the best one is shown with a click."""
    page = context.new_page()
    errors = watch_errors(page)
    shows: list[dict] = []
    # three players: six cards each, so a suggestion names two of ours more often than at
    # four (four matches of four players once went by without one); still a match may end
    # before a bot does
    for _ in range(8):
        create_table_in_lobby(page, web_server, "ann", advice=True, variant="clue",
                              prepare=lambda p: p.fill("#options input[name=opt-players]", "3"))
        for _ in range(150):
            page.wait_for_function(f"({OFFERED}) || window.__app.state.phase === 'finished'",
                                   timeout=60_000)
            if app(page, "a.state.phase === 'finished'"):
                break
            moves = app(page, "a.legal.moves")
            shows = [m for m in moves if m["kind"] == "show"]
            if len(shows) >= 2:
                break
            _cheapest_clue_move(page, moves)
        if len(shows) >= 2:
            break
    assert len(shows) >= 2, "no refutation with a choice of cards in eight matches"
    page.keyboard.press("a")
    page.wait_for_selector("#board .clue-advice[data-kind=show]", timeout=120_000)
    text = _reads_well(page, "#board .clue-advice")
    assert "Which card to show" in text, text
    ranked = app(page, "a.advice.advice.moves.map(m => m.card)")
    assert sorted(ranked) == sorted(m["card"] for m in shows)
    assert page.locator("#board .clue-advice ol.advice-list li").count() == len(shows)
    _shot(page, "clue-show-advice")
    before = app(page, "a.state.lastSeq")
    page.click(f"#board [data-show='{ranked[0]}']")
    page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    shown = app(page, f"a.events.filter(e => e.seq > {before})[0]")
    assert shown.get("card") == ranked[0], shown
    assert errors == [], errors


def test_uno_advice_gives_each_move_its_chance_to_win(context: Any,
                                                    web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    choice = False
    for _ in range(5):  # a short mini match may end before a turn with a choice: another
        create_table_in_lobby(page, web_server, "ann", advice=True, variant="uno-2-mini",
                              seats={"N": "bot:greedy"})
        for _ in range(40):  # to a turn with a choice (a lone move has nothing to weigh)
            page.wait_for_function(f"({OFFERED}) || window.__app.state.phase === 'finished'",
                                   timeout=60_000)
            if app(page, "a.state.phase === 'finished'"):
                break
            if app(page, "a.legal.moves.length") > 1:
                choice = True
                break
            before = app(page, "a.state.lastSeq")
            page.locator("#board [data-move]").first.click()
            page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
        if choice:
            break
    assert choice and app(page, "a.legal.moves.length") > 1
    page.keyboard.press("a")
    page.wait_for_selector("#board .uno-advice[data-kind=play]", timeout=120_000)
    text = _reads_well(page, "#board .uno-advice")
    print(text)
    assert "chance to win" in text and "%" in text
    legal = app(page, "a.legal.moves.length")
    assert page.locator("#board .uno-advice ol.advice-list li").count() == legal
    _shot(page, "uno-advice")
    assert errors == [], errors


def _shot(page: Any, name: str) -> None:
    """The screenshots with the odds panel shut (on a phone it is a drawer over the board)."""
    if page.locator(".table-view:not(.no-overlay)").count():
        page.keyboard.press("o")
        page.wait_for_timeout(300)
    screenshot(page, name, phone=False, full_page=True)
    page.set_viewport_size({"width": 360, "height": 800})
    page.wait_for_timeout(300)
    screenshot(page, f"{name}-phone", phone=False, full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def _stored(web_server: WebServer, events: list[Any]) -> str:
    with EventStore(web_server.db) as store:
        save_match(store, events)
    return str(events[0].match_id)


@pytest.mark.parametrize("game", ["clue", "uno"])
def test_a_replay_shows_the_advisor_on_the_seat_s_moves(context: Any, web_server: WebServer,
                                                        game: str) -> None:
    if game == "clue":
        seats = CLUE.seats("clue-mini", {})
        events = play_match(CLUE, "clue-mini", {s: InfoMaxBot() for s in seats},
                            random.Random(11), match_id="advised-clue-replay")
        seat, words = "P1", "Advisor"
    else:
        events = play_match(UNO, "uno-2-mini", {s: UNO.bots()["greedy"] for s in ("S", "N")},
                            random.Random(11), match_id="advised-uno-replay")
        seat, words = "S", "chance to win"
    match_id = _stored(web_server, events)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective={seat}")
    page.wait_for_selector("#moves .verdict", timeout=60_000)
    seq = int(page.eval_on_selector_all("#moves .verdict",
                                        "vs => vs.map(v => v.dataset.seq)")[0])
    page.locator(f"#moves .mv[data-seq='{seq}']").click()
    page.wait_for_function(f"window.__app.advice && window.__app.advice.seq === {seq}",
                           timeout=120_000)
    page.wait_for_selector("#advisor:not([hidden])")
    text = page.inner_text("#advisor")
    print(text)
    named = text.replace(f"bot-{seat}", "")  # the stored match's players are named bot-P1...
    assert words in text and not SEAT_CODE.search(named), text
    page.wait_for_function(
        f"(document.querySelector(\"#moves .verdict[data-seq='{seq}']\") || {{}}).textContent",
        timeout=120_000)
    assert page.text_content(f"#moves .verdict[data-seq='{seq}']")
    _shot(page, f"{game}-replay-advice")
    assert errors == [], errors
