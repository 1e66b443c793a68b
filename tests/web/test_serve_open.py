"""`domino-oracle serve --open` for real: the command, the URL it hands the browser, the page.

The command runs as a subprocess with BROWSER (honoured by Python's webbrowser) set to a small
script that records the URL instead of opening a window. The table behind that URL must have
bots in the other three seats and advice on, and the very same URL, loaded in chromium, must
seat the player and show their hand.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import ROOT, free_port
from tests.web.test_browser import app, watch_errors

pytestmark = pytest.mark.browser

URL = re.compile(r"^http://127\.0\.0\.1:(\d+)/#table=([A-Za-z0-9_-]+)&seat=([SWNE])$")


def _command() -> list[str]:
    """The installed `domino-oracle` script of this environment (what a user runs)."""
    script = Path(sys.executable).with_name("domino-oracle")
    if not script.exists():
        pytest.fail(f"{script} is missing: pip install -e . (the console script)", pytrace=False)
    return [str(script)]


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Run `serve --open --seat W`; yields the URL given to the browser and the server log."""
    record = tmp_path / "urls.txt"
    fake_browser = tmp_path / "record-url"
    fake_browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{record}"\n')
    fake_browser.chmod(fake_browser.stat().st_mode | stat.S_IXUSR)
    port = free_port()
    log_path = tmp_path / "serve.log"
    env = {**os.environ, "BROWSER": str(fake_browser)}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*_command(), "serve", "--open", "--seat", "W", "--port", str(port),
             "--db", str(tmp_path / "open.sqlite3"), "--bot-delay", "0.05"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while not (record.exists() and record.read_text().strip()):
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"no URL reached BROWSER; the server said:\n"
                                f"{log_path.read_text()}", pytrace=False)
                time.sleep(0.1)
            urls = record.read_text().split()
            assert len(urls) == 1, urls  # one browser opened, once
            m = URL.match(urls[0])
            assert m, urls[0]
            assert int(m.group(1)) == port
            yield urls[0], log_path.read_text()
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _table(port: int, table_id: str) -> dict[str, Any]:
    with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        ws.send(json.dumps({"type": "list_tables", "id": 1}))
        while True:
            reply = json.loads(ws.recv(timeout=10))
            if reply.get("type") == "tables":
                break
    return next(t for t in reply["tables"] if t["table_id"] == table_id)


def test_serve_open_hands_the_browser_a_seat_at_a_table_of_bots_with_advice(
    opened: tuple[str, str], context: Any
) -> None:
    url, log = opened
    m = URL.match(url)
    assert m
    port, table_id, seat = int(m.group(1)), m.group(2), m.group(3)
    assert seat == "W"  # --seat W
    assert f"opening {url}" in log

    table = _table(port, table_id)
    others = {s: name for s, name in table["seats"].items() if s != seat}
    assert sorted(others) == ["E", "N", "S"]
    assert all(name and name.startswith("bot:") for name in others.values()), table["seats"]
    assert table["seats"][seat] is None  # kept for the person the browser was opened for

    page = context.new_page()
    errors = watch_errors(page)
    page.goto(url)
    page.wait_for_function("window.__app && window.__app.token && window.__app.state.hand "
                           "&& window.__app.state.hand.hands.W")
    assert app(page, "a.seat") == "W" and app(page, "a.tableId") == table_id
    assert app(page, "a.adviceOn") is True  # serve --open: "move advice on"
    assert page.get_attribute(".seat.pos-bottom", "data-seat") == "W"
    hand = app(page, "a.state.hand.hands.W")
    assert len(hand) == 7 and all(re.fullmatch(r"[0-6]-[0-6]", t) for t in hand)
    shown = page.eval_on_selector_all(".pos-bottom .tile-btn", "bs => bs.map(b => b.dataset.tile)")
    assert shown == hand
    assert page.locator("button.advise").count() == 1
    assert _table(port, table_id)["seats"][seat] is not None  # the page took the seat
    assert errors == []
