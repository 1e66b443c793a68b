"""Issue 16: playing with people, in real headless Chromium against the real server.

Two browsers play together through an invite link (a friend who opens the wrong seat's link
is offered the open one, and no table is drawn for a seat or table they cannot have); the
lobby offers Resume for your own table; a turn clock runs out on a connected person and a
stand-in plays, which everyone's move log says, and the person who comes back is told what
the stand-in played for them; the replay list shows a match in play's current score.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import ROOT, WebServer, free_port, screenshot
from tests.web.test_browser import (
    app,
    move_once,
    my_turn,
    stored_events,
    wait_for,
    watch_errors,
)

pytestmark = pytest.mark.browser


def table_info(server: WebServer, table_id: str) -> dict:
    """The table's `tables` entry, as the server lists it now."""
    with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        ws.send(json.dumps({"type": "list_tables", "id": 1}))
        reply = json.loads(ws.recv(timeout=10))
    return next(t for t in reply["tables"] if t["table_id"] == table_id)


def create_in_lobby(page: Any, server: WebServer, name: str, seats: dict[str, str],
                    clock: int | None = None, target: int | None = None) -> str:
    page.goto(server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.fill("#name", name)
    page.dispatch_event("#name", "change")
    for seat, choice in seats.items():
        page.select_option(f"select[name=seat-{seat}]", choice)
    if clock is not None:
        page.fill("#create input[name=clock]", str(clock))
    if target is not None:
        page.fill("#create input[name=opt-target]", str(target))
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#table=')")
    page.wait_for_function("window.__app && window.__app.token")
    return app(page, "a.tableId")


def test_two_friends_play_together_through_an_invite_link(
    browser: Any, web_server: WebServer
) -> None:
    """Defects 5 and 8: while waiting, every seat has its name (yours, the bots', "open
    seat"); each open seat has an invite link with a copy button; the friend who opens your
    own seat's link is offered the open seat, with no table drawn; a bad table link draws
    none either; the friend joins through the link and both play by clicking."""
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    host_ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    friend_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        host = host_ctx.new_page()
        host_errors = watch_errors(host)
        table_id = create_in_lobby(host, web_server, "alice",
                                   {"W": "open", "N": "bot:greedy", "E": "bot:greedy"})
        host.wait_for_selector("#invites .invite[data-seat=W]")
        names = {seat: host.text_content(f".seat[data-seat={seat}] header .muted")
                 for seat in "SWNE"}
        assert names["S"].startswith("alice") and names["W"].startswith("open seat"), names
        assert names["N"].startswith("bot:greedy") and names["E"].startswith("bot:greedy")
        link = host.input_value("#invites .invite[data-seat=W] input")
        assert link.endswith(f"#table={table_id}&seat=W"), link
        screenshot(host, "table-invite", full_page=True)
        host.click("#invites [data-copy=W]")
        copied = wait_for(lambda: host.evaluate("navigator.clipboard.readText()") or None,
                          what="the copied link")
        assert copied == link

        friend = friend_ctx.new_page()
        friend_errors = watch_errors(friend)
        friend.goto(web_server.base + "/")
        friend.fill("#name", "bob")
        friend.dispatch_event("#name", "change")
        # a link to a table that does not exist: a message, no table
        friend.goto(f"{web_server.base}/#table=nosuchtable&seat=S")
        friend.wait_for_selector("#board .error")
        assert friend.locator("button.pass").count() == 0
        assert friend.locator("#board .board").count() == 0
        # the host's own link (the address bar's): taken, with the open seat offered
        friend.goto(f"{web_server.base}/#table={table_id}&seat=S")
        friend.wait_for_selector("#board .error")
        assert "taken" in friend.text_content("#board .error")
        assert friend.locator("button.pass").count() == 0
        friend.wait_for_selector("#open-seats a")
        assert friend.get_attribute("#open-seats a", "href") == f"#table={table_id}&seat=W"
        screenshot(friend, "seat-taken")
        friend.goto(link)
        friend.wait_for_function("window.__app && window.__app.token && window.__app.seat === 'W'")

        host.wait_for_function("window.__app.state.players && window.__app.state.players.W",
                               timeout=20_000)
        assert app(host, "a.state.players.W") == "bob"
        assert host.locator("#invites .invite").count() == 0
        moved = {"S": 0, "W": 0}
        pages = {"S": host, "W": friend}

        def both_moved() -> bool:
            for seat, page in pages.items():
                can_move = page.locator(".tile-btn.legal, button.pass.urgent").count()
                if my_turn(page, seat) and can_move:
                    before = app(page, "a.state.lastSeq")
                    move_once(page)
                    page.wait_for_function(f"window.__app.state.lastSeq > {before}",
                                           timeout=60_000)
                    moved[seat] += 1
            return moved["S"] >= 1 and moved["W"] >= 1

        wait_for(both_moved, timeout=60, what="both friends to move")
        log = stored_events(web_server, table_id)
        assert {e.seat for e in log if e.type in ("tile_played", "passed")} >= {"S", "W"}
        assert host_errors == [] and friend_errors == []
    finally:
        host_ctx.close()
        friend_ctx.close()


def test_the_turn_clock_plays_for_you_and_you_are_told(
    context: Any, web_server: WebServer
) -> None:
    """Defects 7, 10 and 6: a table with a 2 s turn clock shows it; a connected person who
    does nothing gets a stand-in's move, said in everyone's move log and in a note to them;
    away from the table, the lobby offers Resume, and on return the note lists exactly the
    moves the stand-in made meanwhile; the tab title says "Your turn" on your turn."""
    page = context.new_page()
    errors = watch_errors(page)
    table_id = create_in_lobby(page, web_server, "idle",
                               {"W": "bot:greedy", "N": "bot:greedy", "E": "bot:greedy"},
                               clock=2)
    page.wait_for_function("window.__app.state.hand && window.__app.state.hand.turn === 'S'"
                           " && window.__app.state.phase === 'playing'", timeout=20_000)
    page.wait_for_selector("#clock .clock-seat.mine")
    assert "Your clock" in page.text_content("#clock")
    page.wait_for_selector(".seat[data-seat=S] header .seat-clock")  # on the seat, too
    assert page.text_content(".seat[data-seat=S] .seat-clock").endswith(" s")
    # the clock drawn as an SVG, not a glyph a font may lack (an empty box in headless chromium)
    assert page.locator(".seat[data-seat=S] .seat-clock svg.clock-icon").count() == 1
    assert "⏱" not in page.text_content(".seat[data-seat=S] .seat-clock")
    assert page.title().startswith("▶ Your turn")
    page.wait_for_selector("#stand-in-note li", timeout=15_000)
    info = table_info(web_server, table_id)
    assert info["turn_clock"] == 2
    mine = [m["seq"] for m in info["stand_ins"] if m["seat"] == "S"]
    noted = [int(s) for s in page.eval_on_selector_all(
        "#stand-in-note li", "items => items.map(i => i.dataset.seq)")]
    assert noted and set(noted) <= set(mine), (noted, mine)
    assert "clock ran out" in page.text_content("#stand-in-note")
    page.wait_for_selector(f"#log li[data-seq='{noted[0]}'][data-stand-in]")
    assert "a stand-in played for South" in page.text_content(f"#log li[data-seq='{noted[0]}']")
    screenshot(page, "table-stand-in", full_page=True)
    events = stored_events(web_server, table_id)
    assert events[noted[0] - 1].seat == "S"

    # away: the lobby offers this seat back
    left_at = app(page, "a.state.lastSeq")
    page.click(".table-head a[href='#']")
    page.wait_for_selector(f"tr[data-table={table_id}] [data-resume=S]")
    screenshot(page, "lobby-yours", full_page=True)
    wait_for(lambda: any(m["seat"] == "S" and m["seq"] > left_at + 1
                         for m in table_info(web_server, table_id)["stand_ins"]),
             timeout=30, what="a stand-in's move while away")
    away_moves = {m["seq"] for m in table_info(web_server, table_id)["stand_ins"]
                  if m["seat"] == "S" and m["seq"] > left_at}
    page.click(f"tr[data-table={table_id}] [data-resume=S]")
    page.wait_for_function("window.__app && window.__app.resumedAt !== undefined")
    assert app(page, "a.resumedAt") <= left_at + 1  # resumed from where this browser left
    page.wait_for_function(
        f"[{','.join(map(str, sorted(away_moves)))}].every(seq => "
        "document.querySelector(`#stand-in-note li[data-seq='${seq}']`))", timeout=60_000)
    assert "While you were away" in page.text_content("#stand-in-note")
    noted = {int(s) for s in page.eval_on_selector_all(
        "#stand-in-note li", "items => items.map(i => i.dataset.seq)")}
    assert min(noted) > left_at - 1, (noted, left_at)  # what was told before is not told again
    assert away_moves <= noted, (away_moves, noted)
    assert errors == []


def test_the_replay_list_shows_a_match_in_plays_score(
    context: Any, web_server: WebServer
) -> None:
    """Defect 4: a match in play lists the score of its latest hand, not 0-0, whatever its
    last event."""
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        bots = {seat: "greedy" for seat in "SWNE"}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": 150}))
        match_id = json.loads(ws.recv(timeout=10))["table_id"]
    page = context.new_page()
    errors = watch_errors(page)

    def listed_mid_hand() -> Any:
        row = next((m for m in web_server.get_json("/api/matches")["matches"]
                    if m["match_id"] == match_id), None)
        if row is None:
            return None
        events = stored_events(web_server, match_id, row["events"])
        ended = [e for e in events if e.type == "hand_ended"]
        if ended and events[-1].type != "hand_ended":
            return row, ended[-1]
        return None

    wait_for(listed_mid_hand, timeout=60, what="a hand to end and the next to start")
    page.goto(web_server.base + "/#replay")
    page.wait_for_selector("#matches table")
    text = page.text_content("#matches table")
    row = page.locator("#matches tr", has_text=match_id)
    shown, events_cell = row.evaluate(  # one read: the list re-draws as the match goes on
        "r => ['Scores', 'Events'].map(l => r.querySelector(`td[data-label=${l}]`).textContent)")
    shown_events = int(events_cell)
    events = stored_events(web_server, match_id, shown_events)
    scored = [e for e in events if e.type == "hand_ended"]
    assert scored, text
    want = " · ".join(f"{side} {n}" for side, n in scored[-1].scores.items())
    assert shown == want, (shown, want)
    assert errors == []


def test_a_rematch_keeps_the_seats(browser: Any, web_server: WebServer) -> None:
    """Two friends finish a one-hand match by clicking; one asks for a rematch and lands at
    a new table in the same seat; the other is offered their seat there; the bots stay."""
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    friend_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        host = host_ctx.new_page()
        errors = watch_errors(host)
        table_id = create_in_lobby(host, web_server, "ann",
                                   {"W": "open", "N": "bot:greedy", "E": "bot:random"}, target=1)
        link = host.input_value("#invites .invite[data-seat=W] input")
        friend = friend_ctx.new_page()
        errors += watch_errors(friend)
        friend.goto(web_server.base + "/")
        friend.fill("#name", "ben")
        friend.dispatch_event("#name", "change")
        friend.goto(link)
        pages = {"S": host, "W": friend}

        def finished() -> bool:
            for seat, page in pages.items():
                if my_turn(page, seat) and page.locator(
                        ".tile-btn.legal, button.pass.urgent").count():
                    before = app(page, "a.state.lastSeq")
                    move_once(page)
                    page.wait_for_function(f"window.__app.state.lastSeq > {before}",
                                           timeout=60_000)
            return all(app(p, "a.state.phase") == "finished" for p in pages.values())

        wait_for(finished, timeout=90, what="the one-hand match to finish")
        host.wait_for_selector("#rematch [data-rematch]")
        screenshot(host, "table-rematch", full_page=True)
        host.click("#rematch [data-rematch]")
        host.wait_for_function(f"window.__app && window.__app.tableId !== '{table_id}' "
                               "&& window.__app.token")
        new_id = app(host, "a.tableId")
        assert app(host, "a.seat") == "S"
        friend.wait_for_selector("#rematch [data-rematch-join]", timeout=60_000)
        friend.click("#rematch [data-rematch-join]")
        friend.wait_for_function(f"window.__app && window.__app.tableId === '{new_id}' "
                                 "&& window.__app.token && window.__app.seat === 'W'")
        host.wait_for_function("window.__app.state.players && window.__app.state.players.W",
                               timeout=20_000)
        players = app(host, "a.state.players")
        assert players == {"S": "ann", "W": "ben", "N": "bot:greedy", "E": "bot:random"}
        assert errors == []
    finally:
        host_ctx.close()
        friend_ctx.close()


def start_server(db: Any, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "serve", "--port", str(port), "--db", str(db),
         "--bot-delay", "0.02"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = WebServer(f"http://127.0.0.1:{port}", port, db, process)
    wait_for(lambda: _healthy(server) or process.poll() is not None, timeout=60,
             what="the server to start")
    assert process.poll() is None, "the server did not start"
    return process


def _healthy(server: WebServer) -> bool:
    try:
        server.get_json("/healthz")
        return True
    except OSError:
        return False


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_stand_in_moves_survive_a_restart(tmp_path: Any) -> None:
    """The stand-in's moves are kept in the table's seats stream: after a restart the table
    still lists them (and its clock), so a returning person is still told."""
    db, port = tmp_path / "clock.sqlite3", free_port()
    server = WebServer(f"http://127.0.0.1:{port}", port, db, None)  # type: ignore[arg-type]
    process = start_server(db, port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "create_table", "id": 1, "turn_clock": 1,
                                "bots": {s: "greedy" for s in "WNE"}, "target": 500}))
            table_id = json.loads(ws.recv(timeout=10))["table_id"]
            ws.send(json.dumps({"type": "join", "id": 2, "table_id": table_id, "seat": "S",
                                "name": "sleepy"}))
        before = wait_for(lambda: table_info(server, table_id)["stand_ins"] or None,
                          timeout=30, what="a stand-in's move")
    finally:
        stop(process)
    process = start_server(db, port)
    try:
        after = table_info(server, table_id)
        assert after["turn_clock"] == 1
        assert after["stand_ins"][: len(before)] == before
        assert all(m["seat"] == "S" and m["reason"] == "clock" for m in before)
        events = stored_events(server, table_id)
        assert all(events[m["seq"] - 1].seat == "S" for m in before)
    finally:
        stop(process)
