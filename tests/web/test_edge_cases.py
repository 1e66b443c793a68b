"""Edge cases of the browser client found in review, in real headless Chromium.

A full localStorage never costs a player their seat (the token has its own small key, every
write is guarded, old tables' logs are pruned); the lobby list, the replay picker, the live
table (double-six and double-nine, with advice), the spectator view and the replay viewer fit a
360 px screen (no sideways scrolling); a replay URL with a bad `step` still steps; a replay
from a seat's perspective never says "Your turn"; a match in play opened from a seat's
perspective falls back to the spectator one with the other perspectives disabled.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import WebServer
from tests.web.test_browser import (
    app,
    create_table_in_lobby,
    finished_match,
    stored_events,
    wait_for,
    watch_errors,
)

pytestmark = pytest.mark.browser

# Fill localStorage until not even one more character fits, big pieces first. With
# kind == "logs" the big pieces look like the seat logs earlier tables left behind.
FILL_STORAGE = """(kind) => {
  let size = 1 << 20, i = 0;
  while (size >= 1) {
    const log = kind === "logs" && size >= 4096;
    const key = log ? `domino-oracle:seat:old${i}:S` : `filler:${i}`;
    const value = log
      ? JSON.stringify({table_id: `old${i}`, seat: "S", token: "x", last_seq: 1,
                        events: [{seq: 1, type: "match_started", pad: "x".repeat(size)}]})
      : "x".repeat(size);
    try { localStorage.setItem(key, value); i += 1; } catch { size = Math.floor(size / 2); }
  }
  return i;
}"""


def _create(server: WebServer, bots: dict[str, str], target: int = 100) -> str:
    with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": target}))
        return str(json.loads(ws.recv(timeout=10))["table_id"])


def _storage_is_full(page: Any) -> bool:
    return bool(page.evaluate(
        "(() => { try { localStorage.setItem('probe', 'xxxxxxxxxxxxxxxx'); "
        "localStorage.removeItem('probe'); return false; } catch { return true; } })()"))


@pytest.mark.parametrize("kind", ["logs", "foreign"])
def test_a_full_local_storage_never_loses_the_seat(
    context: Any, web_server: WebServer, kind: str
) -> None:
    table_id = _create(web_server, {"W": "greedy", "N": "greedy", "E": "greedy"})
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create")
    assert page.evaluate(FILL_STORAGE, kind) > 0
    assert _storage_is_full(page)

    page.click(f"tr[data-table='{table_id}'] [data-join=S]")
    page.wait_for_function("window.__app && window.__app.token && window.__app.state.lastSeq > 0")
    token = app(page, "a.token")
    page.reload()
    page.wait_for_function("window.__app && window.__app.resumedAt !== undefined",
                           timeout=60_000)
    assert app(page, "a.seat") == "S" and app(page, "a.token") == token
    assert page.locator("#board .error").count() == 0  # no "seat S is taken"
    if kind == "logs":  # the old tables' logs made room for this one
        keys = page.evaluate("Object.keys(localStorage)")
        logs = [k for k in keys if k.startswith("domino-oracle:seat:")]
        assert len(logs) <= 3, logs
        assert f"domino-oracle:token:{table_id}:S" in keys
    # the overlay switch works even when its choice cannot be remembered
    page.keyboard.press("o")
    page.wait_for_selector(".table-view.no-overlay")
    page.click(".ov-toggle")
    page.wait_for_selector(".table-view:not(.no-overlay)")
    if kind == "foreign":  # and a new table can be created although the name is not kept
        assert _storage_is_full(page)
        create_table_in_lobby(page, web_server, "full")
    assert errors == []


def test_opening_a_table_prunes_old_logs_and_tokens(context: Any, web_server: WebServer) -> None:
    table_id = _create(web_server, {"W": "greedy", "N": "greedy", "E": "greedy"})
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create")
    page.evaluate("""() => {
      const log = (t, at, finished) => localStorage.setItem(`domino-oracle:seat:${t}:S`,
        JSON.stringify({table_id: t, seat: "S", token: "x", last_seq: 0, events: [],
                        saved_at: at, finished}));
      for (let i = 1; i <= 4; i++) log(`old${i}`, i, false);
      log("done", 99, true);
      localStorage.setItem("domino-oracle:seat:junk:S", "{not json");
      for (let i = 0; i < 60; i++) localStorage.setItem(`domino-oracle:token:t${i}:S`,
        JSON.stringify({table_id: `t${i}`, seat: "S", token: "x", saved_at: i}));
    }""")
    page.goto(f"{web_server.base}/#table={table_id}&seat=S")
    page.wait_for_function("window.__app && window.__app.token && window.__app.state.lastSeq > 0")
    page.wait_for_function(f"!!localStorage.getItem('domino-oracle:seat:{table_id}:S')")
    keys = page.evaluate("Object.keys(localStorage)")
    logs = sorted(k.split(":")[2] for k in keys if k.startswith("domino-oracle:seat:"))
    assert logs == sorted([table_id, "old3", "old4"])  # the newest, never a finished one
    tokens = [k for k in keys if k.startswith("domino-oracle:token:")]
    assert len(tokens) <= 50 and f"domino-oracle:token:{table_id}:S" in tokens
    assert "domino-oracle:token:t59:S" in tokens and "domino-oracle:token:t0:S" not in tokens
    assert errors == []


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        yield ctx
    finally:
        ctx.close()


def _fits(page: Any, width: int = 360) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide"
    rights = page.eval_on_selector_all(
        "table.tables .button", "els => els.map(e => e.getBoundingClientRect().right)")
    assert rights and max(rights) <= width, rights


def test_the_lobby_list_and_the_replay_picker_fit_360_px(
    phone: Any, web_server: WebServer
) -> None:
    finished_match(web_server)
    finished_match(web_server)  # the picker's two rows, whichever tests ran before
    _create(web_server, {})  # four open seats: four Join buttons
    _create(web_server, {"W": "greedy", "E": "greedy"})
    _create(web_server, {"W": "greedy", "N": "greedy", "E": "greedy"})
    page = phone.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_function("document.querySelectorAll('table.tables tr[data-table]').length >= 3")
    _fits(page)
    page.goto(web_server.base + "/#replay")
    page.wait_for_function(
        "document.querySelectorAll('#matches table.tables tbody tr').length >= 2")
    _fits(page)
    assert errors == []


def test_a_bad_step_in_the_replay_url_still_steps(context: Any, web_server: WebServer) -> None:
    match_id = finished_match(web_server)
    n = len(stored_events(web_server, match_id))
    for bad in ("abc", "1e999", "-7", str(n + 50), "2.5"):
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{web_server.base}/#replay={match_id}&perspective=S&step={bad}")
        page.wait_for_function(f"window.__app && window.__app.id === '{match_id}' "
                               "&& window.__app.data")
        step = app(page, "a.step")
        assert isinstance(step, int) and 0 <= step <= n, (bad, step)
        expected = {"-7": 0, str(n + 50): n, "2.5": 2}.get(bad)
        if expected is not None:
            assert step == expected, (bad, step)
        assert "NaN" not in page.evaluate("location.hash")
        page.click("[data-go=first]")
        page.wait_for_function("window.__app.step === 0")
        page.click("[data-go=next]")
        page.wait_for_function("window.__app.step === 1")
        assert page.text_content("#where").startswith(f"Step 1 of {n}")
        assert errors == []
        page.close()


def test_a_replay_from_a_seat_never_says_your_turn(context: Any, web_server: WebServer) -> None:
    match_id = finished_match(web_server)
    events = stored_events(web_server, match_id)
    steps = [i for i, e in enumerate(events)
             if e.type == "tile_played" and getattr(e, "seat", None) == "S"]
    assert steps
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=S&step={steps[0]}")
    page.wait_for_function(f"window.__app && window.__app.data && window.__app.step === {steps[0]}")
    assert app(page, "a.state.hand.turn") == "S"
    status = page.text_content(".status")
    assert "Your turn" not in status and "South" in status, status
    assert errors == []


@pytest.mark.parametrize("perspective", ["S", "all"])
def test_a_match_in_play_opened_for_a_seat_falls_back_to_the_spectator(
    context: Any, web_server: WebServer, perspective: str
) -> None:
    # four bots playing to 10000: still in play while the test looks
    table_id = _create(web_server, {s: "greedy" for s in ("S", "W", "N", "E")}, target=10000)
    wait_for(lambda: any(m["match_id"] == table_id and not m["finished"]
                         for m in web_server.get_json("/api/matches")["matches"]),
             what="the match to be stored")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#replay={table_id}&perspective={perspective}")
    page.wait_for_function("window.__app && window.__app.data")
    assert app(page, "a.data.perspective") == "spectator"
    assert app(page, "a.data.finished") is False
    assert page.eval_on_selector("#persp", "s => s.value") == "spectator"
    disabled = page.eval_on_selector_all(
        "#persp option", "os => Object.fromEntries(os.map(o => [o.value, o.disabled]))")
    assert disabled == {"S": True, "W": True, "N": True, "E": True,
                        "spectator": False, "all": True}
    assert "perspective=spectator" in page.evaluate("location.hash")
    assert "in play" in page.text_content(".replay")
    # the one refusal (403) the viewer asked for and fell back from is all the console has
    assert [e for e in errors if "status of 403" not in e] == []
    assert len(errors) == 1


OVERFLOW = """() => {
  const w = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > w + 0.5 && e.getClientRects().length)
    .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}` +
      ` right=${Math.round(e.getBoundingClientRect().right)}`);
  return {scroll: document.documentElement.scrollWidth, inner: w, wide};
}"""


def _no_horizontal_overflow(page: Any, what: str) -> None:
    """No sideways scrolling: the document is no wider than the 360 px viewport."""
    sizes = page.evaluate(OVERFLOW)
    assert sizes["inner"] == 360, sizes
    assert sizes["scroll"] <= sizes["inner"], f"{what}: {sizes}"
    assert sizes["wide"] == [], f"{what}: elements past the right edge: {sizes}"


def _my_turn(page: Any) -> bool:
    return bool(app(page, "a.state.phase === 'playing' && a.state.hand.turn === a.seat "
                          "&& !a.state.hand.ended && !!a.legal && a.legal.seq === a.state.lastSeq"))


@pytest.mark.parametrize("variant", ["partnership-6", "partnership-9"])
def test_the_live_table_has_no_horizontal_overflow_at_360_px(
    phone: Any, web_server: WebServer, variant: str
) -> None:
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        bots = {s: "greedy" for s in ("W", "N", "E")}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": 500,
                            "variant": variant, "advice": True}))
        table_id = str(json.loads(ws.recv(timeout=10))["table_id"])
    page = phone.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#table={table_id}&seat=S")
    wait = "window.__app.belief && window.__app.belief.seq === window.__app.state.lastSeq"
    for turn in range(4):  # the line grows; hints, the advice box, the chooser come and go
        wait_for(lambda: _my_turn(page), timeout=30, what="my turn")
        page.wait_for_function(wait, timeout=60_000)
        _no_horizontal_overflow(page, f"{variant} table, turn {turn}")
        if turn == 1 and page.locator(".tile-btn.legal").count():
            page.keyboard.press("a")
            page.wait_for_selector(".tile-btn.legal .hint", timeout=60_000)
            page.wait_for_selector(".advice-box .advice-list")
            _no_horizontal_overflow(page, f"{variant} table with advice")
        before = app(page, "a.state.lastSeq")
        if page.locator("button.pass.urgent").count():
            page.click("button.pass.urgent")
        else:
            page.locator(".tile-btn.legal").first.click()
            if page.locator(".chooser").count():
                _no_horizontal_overflow(page, f"{variant} table with the end chooser")
                page.click(".chooser [data-end=right]")
        page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    holders = page.eval_on_selector_all("#overlay .grid-card", "s => s.map(x => x.dataset.holder)")
    assert holders == (["W", "N", "E", "pool"] if variant == "partnership-9" else ["W", "N", "E"])
    assert errors == []


def test_the_spectator_and_the_replay_viewer_have_no_horizontal_overflow_at_360_px(
    phone: Any, web_server: WebServer
) -> None:
    live = _create(web_server, {s: "greedy" for s in ("S", "W", "N", "E")}, target=10000)
    page = phone.new_page()
    errors = watch_errors(page)
    page.goto(f"{web_server.base}/#watch={live}")
    page.wait_for_function("window.__app && window.__app.state.lastSeq > 8 && window.__app.belief")
    assert app(page, "a.view") == "spectator"
    _no_horizontal_overflow(page, "spectator")

    match_id = finished_match(web_server)
    events = stored_events(web_server, match_id)
    play = [e for e in events if e.type == "tile_played"][8]
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=N&step={play.seq}")
    page.wait_for_function(f"window.__app && window.__app.data && window.__app.step === {play.seq}")
    page.wait_for_selector("#advisor .advice-list li", timeout=15_000)
    _no_horizontal_overflow(page, "replay viewer with the advisor")
    page.select_option("#persp", "all")
    page.wait_for_function("window.__app.data.perspective === 'all'")
    _no_horizontal_overflow(page, "replay viewer, all hands open")
    page.keyboard.press("End")
    page.wait_for_function(f"window.__app.step === {len(events)}")
    _no_horizontal_overflow(page, "replay viewer at the end of the match")
    assert errors == []
