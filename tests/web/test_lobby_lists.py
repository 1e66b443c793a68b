"""Finished and abandoned tables leave the lobby's open tables and are offered as replays
instead."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import WebServer, serve_web
from tests.web.test_browser import wait_for, watch_errors


def test_a_finished_table_leaves_the_open_tables(context: Any, web_server: WebServer) -> None:
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        bots = dict.fromkeys("SWNE", "greedy")
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": 1}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]

    def finished() -> bool:
        rows = web_server.get_json("/api/matches")["matches"]
        return any(m["match_id"] == table_id and m["finished"] for m in rows)

    wait_for(finished, timeout=60, what="the bots' one-hand match to end")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector(f".finished-tables li[data-table='{table_id}']")
    assert page.locator(f"table.tables tr[data-table='{table_id}']").count() == 0
    link = page.get_attribute(f".finished-tables li[data-table='{table_id}'] a", "href")
    assert link == f"#replay={table_id}"
    assert errors == []


@pytest.fixture(scope="module")
def quick_abandon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server of its own whose tables are abandoned 0.3 s after their people all left (the
    shared one keeps the default: other tests' pages come and go)."""
    with serve_web(tmp_path_factory.mktemp("abandon"), "--abandon-after", "0.3",
                   "--grace", "0.1") as server:
        yield server


def test_an_abandoned_table_is_listed_as_just_finished(context: Any,
                                                       quick_abandon: WebServer) -> None:
    with connect(f"ws://127.0.0.1:{quick_abandon.port}/ws") as ws:
        bots = {"W": "greedy", "N": "greedy", "E": "greedy"}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": 500}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]
        ws.send(json.dumps({"type": "join", "id": 2, "table_id": table_id, "seat": "S"}))
        while json.loads(ws.recv(timeout=10)).get("type") != "joined":
            pass
    # the only person left: after the period the table stops

    def abandoned() -> bool:
        return bool(quick_abandon.get_json("/healthz")["tables_abandoned"])

    wait_for(abandoned, timeout=60, what="the table to be abandoned")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(quick_abandon.base + "/")
    item = f".finished-tables li[data-table='{table_id}']"
    page.wait_for_selector(item)
    assert "abandoned" in page.inner_text(item)
    assert page.locator(f"table.tables tr[data-table='{table_id}']").count() == 0
    assert page.get_attribute(f"{item} a", "href") == f"#replay={table_id}"
    assert errors == []


def test_coming_back_to_an_abandoned_table_says_so_and_offers_its_replay(
        context: Any, quick_abandon: WebServer) -> None:
    """The person who left comes back to the table's page after everyone was gone too long:
    the page says the table was abandoned and links its replay, and draws no table."""
    with connect(f"ws://127.0.0.1:{quick_abandon.port}/ws") as ws:
        bots = {"W": "greedy", "N": "greedy", "E": "greedy"}
        ws.send(json.dumps({"type": "create_table", "id": 1, "bots": bots, "target": 500}))
        table_id = json.loads(ws.recv(timeout=10))["table_id"]
    before = quick_abandon.get_json("/healthz")["tables_abandoned"]
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{quick_abandon.base}/#table={table_id}&seat=S")
    page.wait_for_function("window.__app && window.__app.token")
    page.goto("about:blank")  # the only person leaves

    def abandoned() -> bool:
        return bool(quick_abandon.get_json("/healthz")["tables_abandoned"] > before)

    wait_for(abandoned, timeout=60, what="the table to be abandoned")
    page.goto(f"{quick_abandon.base}/#table={table_id}&seat=S")  # resumes with its token
    alert = page.wait_for_selector("[role=alert]")
    assert "abandoned" in alert.inner_text()
    assert page.get_attribute("[role=alert] a[href^='#replay=']", "href") == f"#replay={table_id}"
    assert page.locator(".hand.mine").count() == 0
    assert all("table_abandoned" not in e for e in errors), errors
