"""Issue 16: the overlay a person reads, in real headless Chromium.

Positions that are hard to reach by chance (both ends showing one number with a fitting
tile in hand, a hand's end, a seat down to its last tile, a double-nine hand) are fed to
the page through a scripted WebSocket (Playwright's `route_web_socket`), made by the real
rules (games.dominoes.selfplay), redacted by the real audience filter, with South's exact
belief; the tooltip's freshness is checked against the real server and a stored match.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from archive.jsonl import dump_lines
from games.dominoes.audience import view
from games.dominoes.events import Event, event_to_dict
from games.dominoes.game import DOMINOES
from games.dominoes.rules import evolve
from games.dominoes.selfplay import random_match_events
from games.dominoes.state import MatchState
from protocol.frames import belief_body
from tests.web.conftest import ROOT, WebServer, screenshot
from tests.web.js_numbers import js_round, js_to_fixed
from tests.web.test_browser import (
    TIP_AND_COLUMNS,
    contested_tile,
    create_table_in_lobby,
    move_and_wait,
    my_turn,
    settle,
    wait_for,
)
from tests.web.test_renderers import ScriptedServer, app, site, variants_reply, watch_errors

pytestmark = pytest.mark.browser
__all__ = ["site"]  # the fixture, imported for this module's tests

TABLE = "t16"


# -- a recorded match, served to the page as South ---------------------------------------------


def state_after(events: list[Event]) -> MatchState:
    state: MatchState | None = None
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def belief_message(events: list[Event], seq: int, variant: str, seat: str = "S") -> dict:
    belief = DOMINOES.belief(seat, variant)
    for event in events[:seq]:
        belief.apply(view(event, seat))
    return {"type": "belief", "table_id": TABLE, **belief_body(belief.snapshot_dict())}


def serve_prefix(page: Any, events: list[Event], k: int, variant: str,
                 tables: list[dict] | None = None, before: bool = False) -> ScriptedServer:
    """South joins a table whose log is events[:k] (as South sees it), with the belief at k
    (and, with `before`, the belief at k - 1 first, as a live table sends them)."""
    south = [event_to_dict(view(e, "S")) for e in events]
    state = state_after(events[:k])
    # the server's offer on the last event, when South is to act there
    moves = [DOMINOES.command_to_wire(c) for c in DOMINOES.legal_moves(state, "S")]
    offered = {"legal_moves": moves} if moves else {}

    def event_message(event: dict) -> dict:
        return {"type": "event", "table_id": TABLE, "seq": event["seq"], "event": event,
                **(offered if event["seq"] == k else {})}

    def reply(message: dict, send: Callable[[dict], None]) -> None:
        if message["type"] == "join":
            send({"type": "joined", "id": message["id"], "table_id": TABLE, "seat": "S",
                  "token": "secret", "last_seq": k, "advice": False})
            for event in south[:k]:
                send(event_message(event))
            if before:
                send(belief_message(events, k - 1, variant))
            send(belief_message(events, k, variant))
        elif message["type"] == "resume":  # this browser already holds the seat
            after = min(message["after_seq"], k)
            send({"type": "resumed", "id": message["id"], "table_id": TABLE, "seat": "S",
                  "after_seq": after, "last_seq": k, "advice": False, "finished": False})
            for event in south[after:k]:
                send(event_message(event))
            send(belief_message(events, k, variant))
        elif message["type"] == "list_tables":
            send({"type": "tables", "id": message["id"], "tables": tables or []})

    return ScriptedServer(page, reply)


def open_prefix(page: Any, site: str, events: list[Event], k: int, variant: str,
                tables: list[dict] | None = None, before: bool = False) -> ScriptedServer:
    server = serve_prefix(page, events, k, variant, tables, before)
    page.goto(f"{site}/#table={TABLE}&seat=S")
    page.wait_for_function(
        f"window.__app && window.__app.belief && window.__app.belief.seq === {k}"
        f" && window.__app.state.lastSeq === {k}")
    return server


def first(variant: str, wanted: Callable[[list[Event], int], bool]) -> tuple[list[Event], int]:
    """The first (seed, index) whose prefix events[:k] satisfies `wanted`."""
    for seed in range(400):
        events = random_match_events(random.Random(seed), variant, target=60)
        for k in range(1, len(events)):
            if wanted(events, k):
                return events, k
    raise AssertionError("no seed gives the position")


def both_ends_equal_with_a_fit(events: list[Event], k: int) -> bool:
    state = state_after(events[:k])
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.turn != "S" or not hand.line:
        return False
    left, right = hand.left, hand.right
    mine = hand.hands["S"] or frozenset()
    return left == right and any(left in (a, b) and a != b for a, b in mine)


def hand_just_ended(events: list[Event], k: int) -> bool:
    ended = events[k - 1]
    return ended.type == "hand_ended" and any(
        len(tiles) == 1 for seat, tiles in ended.remaining.items() if seat != "S")


def last_tile_left(events: list[Event], k: int) -> bool:
    state = state_after(events[:k])
    hand = state.hand
    return (state.phase == "playing" and hand is not None and events[k - 1].type == "tile_played"
            and any(hand.counts[s] == 1 for s in ("W", "N", "E")))


# -- tests ------------------------------------------------------------------------------------


def test_both_ends_showing_one_number_play_without_asking_which_end(
    context: Any, site: str
) -> None:
    """Defect 9: with both ends showing 6, "left shows 6 / right shows 6" is no choice."""
    events, k = first("partnership-6", both_ends_equal_with_a_fit)
    state = state_after(events[:k])
    number = state.hand.left
    tile = next(f"{a}-{b}" for a, b in sorted(state.hand.hands["S"]) if number in (a, b) and a != b)
    page = context.new_page()
    errors = watch_errors(page)
    server = open_prefix(page, site, events, k, "partnership-6")
    page.click(f".tile-btn[data-tile='{tile}']")
    wait_for(lambda: page.locator(".chooser").count()
             or any(m["type"] == "move" for m in server.received), timeout=5, what="a play")
    assert page.locator(".chooser").count() == 0
    plays = [m["move"] for m in server.received if m["type"] == "move"]
    assert [p["tile"] for p in plays] == [tile], server.received
    # sent as the server offered it (the offer names both ends: the page took the right one)
    offered = [DOMINOES.command_to_wire(c) for c in DOMINOES.legal_moves(state, "S")]
    assert plays[0] in offered and plays[0]["end"] == "right"
    assert errors == []


def test_a_hands_end_shows_the_revealed_tiles_and_plain_words(context: Any, site: str) -> None:
    """Defects 3 and 11: the tiles shown at a hand's end fill their holders' triangles; the
    head says the hand is over (not "1 consistent deals"); a last tile is "1 tile"."""
    events, k = first("partnership-6", hand_just_ended)
    ended = events[k - 1]
    page = context.new_page()
    errors = watch_errors(page)
    open_prefix(page, site, events, k, "partnership-6")
    head = page.text_content("#overlay .ov-head")
    assert "consistent deals" not in head and "hand is over" in head.lower(), head
    for seat in ("W", "N", "E"):
        shown = page.eval_on_selector_all(
            f"#overlay .grid-card[data-holder={seat}] .c.revealed",
            "cells => cells.map(c => c.dataset.tile)")
        expected = sorted(ended.remaining[seat])
        assert sorted(shown) == expected, (seat, shown, expected)
        heading = page.text_content(f"#overlay .grid-card[data-holder={seat}] h3")
        assert "1 tiles" not in heading, heading
    assert "1 tiles" not in page.text_content("#board")
    screenshot(page, "hand-end", full_page=True)
    assert errors == []


def test_one_tile_and_one_deal_are_singular(context: Any, site: str) -> None:
    """Defect 11: a holder down to one tile reads "1 tile" in the overlay and on the board."""
    events, k = first("partnership-6", last_tile_left)
    page = context.new_page()
    errors = watch_errors(page)
    open_prefix(page, site, events, k, "partnership-6")
    text = page.text_content("#overlay") + page.text_content("#board")
    assert "1 tile" in text and "1 tiles" not in text
    assert "1 consistent deals" not in text
    assert errors == []


def test_double_nine_cells_fit_their_text_and_toasts_leave_the_overlay_alone(
    context: Any, site: str
) -> None:
    """Defect 12: no cell's label runs into its neighbour ("21you21") at double-nine; a toast
    covers neither the overlay nor your hand."""
    events, k = first("partnership-9", lambda ev, i: ev[i - 1].type == "tile_played"
                      and ev[i - 1].seat == "E" and i > 12)
    page = context.new_page()
    errors = watch_errors(page)
    open_prefix(page, site, events, k, "partnership-9")
    overflowing = page.evaluate("""() => [...document.querySelectorAll('#overlay .c')]
        .filter(c => c.textContent && c.scrollWidth > c.clientWidth + 0.5)
        .map(c => `${c.dataset.holder}:${c.dataset.tile}:${c.textContent}`)""")
    assert overflowing == []
    hand = page.locator(".tile-btn").count()
    per_card = page.eval_on_selector_all(
        "#overlay .grid-card", "cards => cards.map(c => c.querySelectorAll('.c.mine').length)")
    assert per_card and set(per_card) == {hand}, (per_card, hand)
    # a tile that does not fit: a toast
    page.locator(".tile-btn:not(.legal)").first.click()
    page.wait_for_selector(".toast")
    boxes = page.evaluate("""() => {
        const r = (el) => { const b = el.getBoundingClientRect();
                            return [b.left, b.top, b.right, b.bottom]; };
        return {toast: r(document.querySelector('.toast')),
                overlay: r(document.getElementById('overlay')),
                hand: r(document.querySelector('.hand.mine'))};
    }""")

    def overlaps(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    assert not overlaps(boxes["toast"], boxes["overlay"]), boxes
    assert not overlaps(boxes["toast"], boxes["hand"]), boxes
    assert errors == []


def test_the_lobby_names_variants_as_the_form_does(context: Any, site: str) -> None:
    """Defect 12: the table list says "double-six", as the form does, not "partnership-6"."""
    listed = [{"table_id": "a1", "variant": "partnership-6", "target": 100, "status": "playing",
               "seats": {"S": "ann", "W": "bot:greedy", "N": None, "E": "bot:random"},
               "spectators": 0}]

    def reply(message: dict, send: Callable[[dict], None]) -> None:
        if message["type"] == "list_tables":
            send({"type": "tables", "id": message["id"], "tables": listed})
        elif message["type"] == "list_variants":
            send(variants_reply(message))

    page = context.new_page()
    errors = watch_errors(page)
    ScriptedServer(page, reply)
    page.goto(site + "/")
    page.wait_for_selector("tr[data-table=a1]")
    variant = page.text_content("tr[data-table=a1] td[data-label=Variant]")
    assert "double-six" in variant and "partnership-6" not in variant, variant
    assert errors == []


def test_the_tooltip_follows_the_numbers_and_goes_with_the_view(
    context: Any, web_server: WebServer, finished_match_id: str
) -> None:
    """Defects 1 and 2: a hovered cell's split is the one the grid shows after stepping a
    replay and after a new belief at a live table; leaving the view hides it."""
    match_id = finished_match_id
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=S&step=8")
    page.wait_for_function("window.__app && window.__app.step === 8 && "
                           "document.querySelectorAll('#overlay .c[data-p]').length > 0")
    tile = contested_tile(page)
    page.hover(f"#overlay .grid-card .c[data-tile='{tile}']")
    before = page.evaluate(TIP_AND_COLUMNS)
    assert before["visible"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("window.__app.step === 10")
    assert_tip_matches_grid(page, tile, shown_tip(page, tile))
    # the chart is clickable: its first point goes to that belief's step
    first_seq = int(page.get_attribute("#overlay .timeline-svg circle[data-seq]", "data-seq"))
    page.click("#overlay .timeline-svg circle[data-seq]")
    page.wait_for_function(f"window.__app.belief && window.__app.belief.seq === {first_seq}")
    # Back to the list: no tooltip left behind
    page.click("a[href='#replay']")
    page.wait_for_selector("#matches")
    assert page.evaluate("document.getElementById('tip').hidden")

    # a live table: a belief arrives while a cell is hovered
    create_table_in_lobby(page, web_server, name="hover")
    page.wait_for_function("window.__app.belief && Object.keys(window.__app.belief.marginals)"
                           ".length > 0", timeout=20_000)
    for _ in range(30):  # to a turn of ours with a tile to play (else we pass, and wait)
        wait_for(lambda: my_turn(page), timeout=60, what="our turn")
        settle(page)
        if page.locator(".tile-btn.legal").count():
            break
        move_and_wait(page)
    tile = contested_tile(page)
    page.hover(f"#overlay .grid-card .c[data-tile='{tile}']")
    seq = app(page, "a.belief.seq")
    assert my_turn(page)
    # play by keyboard: the mouse stays on the cell
    page.focus(".tile-btn.legal")
    page.keyboard.press("Enter")
    if page.locator(".chooser [data-end=right]").count():
        page.keyboard.press("r")
    page.wait_for_function(f"window.__app.belief.seq > {seq + 1}", timeout=10_000)
    # The bots play on, so beliefs keep arriving and the summary lines above the grid can grow
    # and move the cell from under the pointer (the tooltip then rightly hides).
    assert_tip_matches_grid(page, tile, shown_tip(page, tile))
    page.click("header.top a[href='#']")
    page.wait_for_selector("#create")
    assert page.evaluate("document.getElementById('tip').hidden")
    assert errors == []


def shown_tip(page: Any, tile: str) -> dict:
    """One instant's tooltip and grid (TIP_AND_COLUMNS) with the tooltip shown. A new layout
    replaces the hovered cell, and the browser tells the page what is under the pointer only
    at its next (synthetic) mouse move, so the tooltip may be hidden for a moment; a cell moved
    from under the pointer (a summary line above grew) hides it for good: point at it again."""
    for _ in range(10):
        try:
            page.wait_for_function("!document.getElementById('tip').hidden", timeout=2_000)
        except PlaywrightTimeout:
            page.hover(f"#overlay .grid-card .c[data-tile='{tile}']")
            continue
        seen = page.evaluate(TIP_AND_COLUMNS)
        if seen["visible"]:
            return seen
    raise AssertionError(f"the tooltip of {tile} never showed while pointed at")


def assert_tip_matches_grid(page: Any, tile: str, seen: dict | None = None) -> None:
    """The tooltip says what every triangle's cell of `tile` shows, at one moment (`seen`,
    one evaluation of TIP_AND_COLUMNS, or a new one)."""
    seen = seen if seen is not None else page.evaluate(TIP_AND_COLUMNS)
    assert seen["visible"], seen
    tip = seen["text"]
    assert tip.startswith(f"{tile}: "), tip
    shown = {name: column[tile] for name, column in seen["columns"] if tile in column}
    if not shown:
        assert "%" not in tip, tip  # played or yours: no split
        return
    for name, p in shown.items():
        assert f"{name} {js_to_fixed(100 * p, 1)}%" in tip, (tip, shown)


def expected_gist(name: str, column: dict[str, float], count: int | None, max_pip: int) -> dict:
    """What the one-line summary of a holder must say, from `infer --json`'s column."""
    voids = [v for v in range(max_pip + 1)
             if any(v in map(int, t.split("-")) for t in column)
             and all(p == 0 for t, p in column.items() if v in map(int, t.split("-")))]
    open_ = {t: p for t, p in column.items() if 0 < p < 1}
    return {"name": name, "count": count, "sure": sorted(t for t, p in column.items() if p == 1),
            "voids": voids, "best": max(open_.values()) if open_ else None, "open": open_}


def test_each_holders_line_says_what_infer_json_says(
    context: Any, site: str, tmp_path: Any
) -> None:
    """The overlay's line per holder ("West: 6 tiles, can't have 3s; most likely 5-6 (62%)")
    agrees with `domino-oracle infer --json` for the same position: the tile count, the tiles
    held for sure, the numbers the holder cannot have, and the likeliest tile's probability."""
    events, k = first("partnership-6", lambda ev, i: ev[i - 1].type == "passed" and i > 12
                      and state_after(ev[:i]).phase == "playing")
    page = context.new_page()
    errors = watch_errors(page)
    open_prefix(page, site, events, k, "partnership-6")
    log = tmp_path / "m.jsonl"
    log.write_text(dump_lines(DOMINOES, events))
    out = subprocess.run([sys.executable, "-m", "clients.cli", "infer", str(log), "--seat", "S",
                          "--at", str(k), "--json"], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=60)
    data = json.loads(out.stdout)
    names = {"W": "West", "N": "North", "E": "East"}
    lines = dict(page.eval_on_selector_all(
        "#overlay .gists li", "items => items.map(i => [i.dataset.holder, i.textContent])"))
    assert set(lines) == set(data["marginals"]) == set(names), (lines, data["marginals"].keys())
    some_void = False
    for holder, text in lines.items():
        want = expected_gist(names[holder], data["marginals"][holder],
                             data["remaining"].get(holder), 6)
        m = re.fullmatch(r"(\w+): (\d+) tiles?(?:, has ([\d\-, ]+) for sure)?"
                         r"(?:, can't have ([\ds, ]+))?(?:; most likely (\d-\d) \((\d+)%\)"
                         r"|; no tile likelier than (\d+)%)?", text)
        assert m, text
        assert m.group(1) == want["name"] and int(m.group(2)) == want["count"], (text, want)
        assert (m.group(3).split(", ") if m.group(3) else []) == want["sure"], (text, want)
        voids = [int(v.rstrip("s")) for v in m.group(4).split(", ")] if m.group(4) else []
        assert voids == want["voids"], (text, want)
        some_void = some_void or bool(voids)
        tops = sorted(want["open"].values(), reverse=True)
        if want["best"] is None:
            assert m.group(5) is None and m.group(7) is None, text
        elif len(tops) > 1 and tops[0] - tops[1] < 1e-9:  # tied: no single likeliest tile
            assert int(m.group(7)) == js_round(100 * want["best"]), (text, want)
        else:
            assert abs(want["open"][m.group(5)] - want["best"]) <= 1e-12, (text, want)
            assert int(m.group(6)) == js_round(100 * want["best"]), (text, want)
    assert some_void  # a pass was just seen: someone cannot have a number
    assert errors == []


def test_the_cells_a_move_changed_are_outlined_with_the_move_and_the_jargon_waits(
    context: Any, site: str
) -> None:
    """The cells whose probability moved with the last event are outlined, and the head
    names that event ("W passes (seq N)"); consistent deals, bits and seq sit behind
    "Details" with a line saying what they are; the chart is labelled in words; ? opens and
    closes "How to read this"."""
    events, k = first("partnership-6", lambda ev, i: ev[i - 1].type == "passed" and i > 12
                      and ev[i - 1].seat != "S" and state_after(ev[:i]).phase == "playing")
    page = context.new_page()
    errors = watch_errors(page)
    open_prefix(page, site, events, k, "partnership-6", before=True)
    old = belief_message(events, k - 1, "partnership-6")["marginals"]
    new = belief_message(events, k, "partnership-6")["marginals"]
    moved = {f"{h}|{t}" for h, column in new.items() for t, p in column.items()
             if t in old.get(h, {}) and abs(old[h][t] - p) >= 0.03}
    shown = set(page.eval_on_selector_all(
        "#overlay .c.changed", "cells => cells.map(c => `${c.dataset.holder}|${c.dataset.tile}`)"))
    assert moved and shown == moved, (shown ^ moved)
    passer = events[k - 1].seat
    hand = state_after(events[: k - 1]).hand
    words = f"{passer} passed on {hand.left}|{hand.right} (seq {k})"
    assert words in page.text_content("#overlay .changed-by")
    details = page.locator("#overlay details.ov-details")
    assert not details.evaluate("d => d.open")
    words = details.text_content()
    assert "consistent deal" in words and "equally likely" in words, words
    page.click("#overlay details.ov-details summary")
    assert details.evaluate("d => d.open")
    assert "possible deals (log scale)" in page.text_content("#overlay .timeline")
    assert page.locator(".ov-help-panel").count() == 0
    page.keyboard.press("?")
    page.wait_for_selector(".ov-help-panel")
    assert "How to read this" in page.text_content(".ov-help-panel")
    screenshot(page, "overlay-help", full_page=True)
    page.keyboard.press("?")
    assert page.locator(".ov-help-panel").count() == 0
    assert errors == []


SNAKE = """() => {
  const svg = document.querySelector('.line .snake-svg');
  const vb = svg.viewBox.baseVal;
  const tiles = [...svg.querySelectorAll(':scope > svg.domino')].map((t) => ({
    i: Number(t.dataset.i), x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')),
    w: Number(t.getAttribute('width')), label: t.getAttribute('aria-label')}));
  const box = svg.getBoundingClientRect();
  return {tiles, rows: Number(svg.parentElement.dataset.rows), width: vb.width, x0: vb.x,
          right: box.right, marks: [...svg.querySelectorAll('.snake-end')].map(m => m.textContent),
          ends: [...document.querySelectorAll('.line .end b')].map(b => b.textContent),
          innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("viewport", [(1280, 900), (360, 740)])
def test_the_line_of_play_is_a_snake_that_turns_at_the_edges(
    browser: Any, site: str, viewport: tuple[int, int]
) -> None:
    """A long line turns at the edge and comes back; every tile lies inside the snake's box;
    touching halves match along the whole snake (doubles across); both ends are labelled;
    at a phone's width nothing goes past the screen."""
    events, k = first("partnership-6", lambda ev, i: ev[i - 1].type == "tile_played"
                      and state_after(ev[:i]).phase == "playing"
                      and len(state_after(ev[:i]).hand.line) >= 14)
    line = state_after(events[:k]).hand.line
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        page = context.new_page()
        errors = watch_errors(page)
        open_prefix(page, site, events, k, "partnership-6")
        snake = page.evaluate(SNAKE)
        tiles = sorted(snake["tiles"], key=lambda t: t["i"])
        assert len(tiles) == len(line) and snake["rows"] >= 2
        assert len({t["y"] for t in tiles if t["w"] == 2}) >= 2  # more than one row
        for t in tiles:
            assert snake["x0"] <= t["x"] and t["x"] + t["w"] <= snake["x0"] + snake["width"]
        # drawn left to right, a tile shows "a-b"; along the chain the touching halves match
        for (a, b), t in zip(line, tiles, strict=True):
            shown = tuple(int(v) for v in t["label"].split("-"))
            assert shown in ((a, b), (b, a)), (shown, (a, b))
        for one, two in itertools.pairwise(tiles):  # neighbours in a row: touching halves match
            if int(one["y"] // 2.4) == int(two["y"] // 2.4):
                lo, hi = sorted((one, two), key=lambda t: t["x"])
                assert lo["label"].split("-")[1] == hi["label"].split("-")[0], (lo, hi)
                assert abs(lo["x"] + lo["w"] - hi["x"]) < 1e-9, (lo, hi)
        assert snake["ends"] == [str(line[0][0]), str(line[-1][1])]
        assert snake["marks"] == ["L", "R"]
        assert snake["scrollWidth"] <= snake["innerWidth"]
        assert snake["right"] <= snake["innerWidth"]
        screenshot(page, f"line-snake-{viewport[0]}", full_page=True, phone=False)
        if viewport[0] < 600:  # the overlay is a drawer, opened from above the table
            hidden = "getComputedStyle(document.getElementById('overlay')).visibility"
            assert page.evaluate(hidden) == "hidden"
            tab = page.locator(".drawer-tab")
            assert tab.bounding_box()["y"] < page.locator("#board").bounding_box()["y"]
            tab.click()
            page.wait_for_function(f"{hidden} === 'visible'")
            page.wait_for_function("document.getElementById('overlay')"
                                   ".getBoundingClientRect().bottom <= window.innerHeight + 1")
            box = page.locator("#overlay").bounding_box()
            assert box["y"] >= 0 and box["y"] < viewport[1]
            screenshot(page, "table-phone-drawer", phone=False)
            page.click(".drawer-tab")
            page.wait_for_function(f"{hidden} === 'hidden'")
        assert errors == []
    finally:
        context.close()


def test_the_turn_sound_plays_only_when_switched_on(context: Any, site: str) -> None:
    """The Sound switch (off by default, remembered): a tone when your turn comes."""
    events, k = first("partnership-6", lambda ev, i: ev[i - 1].type == "tile_played"
                      and ev[i - 1].seat == "E" and state_after(ev[:i]).phase == "playing"
                      and state_after(ev[:i]).hand.turn == "S")
    page = context.new_page()
    errors = watch_errors(page)
    open_prefix(page, site, events, k, "partnership-6")
    assert page.title().startswith("▶ Your turn")
    assert page.evaluate("window.__sounds || 0") == 0  # off by default
    assert page.get_attribute("button.sound-toggle", "aria-pressed") == "false"
    page.click("button.sound-toggle")
    assert page.get_attribute("button.sound-toggle", "aria-pressed") == "true"
    other = context.new_page()  # the switch is remembered: a new page beeps on its turn
    open_prefix(other, site, events, k, "partnership-6")
    assert other.evaluate("window.__sounds || 0") == 1
    assert errors == []
