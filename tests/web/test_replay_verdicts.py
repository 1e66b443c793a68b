"""The replay viewer asks for the verdicts of the seat it shows, and only while it shows it.

The verdicts beside a seat's moves come from `GET /api/matches/{id}/verdicts?seat=S`, asked
again every 2 s until the server's job is complete. A CI run caught the page asking with the
perspective it had moved on to (`seat=spectator`, a 400) and never asking for the new seat's.
The page's clock is Playwright's fake one, so the poll fires only when the test says: the
order of events is fixed, not left to the machine's speed. Real server, real Chromium.

And a step's own advice, asked while the one replay worker is busy (503, often with those
verdicts), is asked again until it comes: a CI run saw the page give up after 5 tries.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web.conftest import WebServer
from tests.web.test_browser import app, finished_match, stored_events, watch_errors

pytestmark = pytest.mark.browser

START = datetime(2027, 1, 1, tzinfo=UTC)
"""The page's fake clock starts here."""

RECORD_FETCHES = """(() => {
  window.__asked = [];
  const fetch = window.fetch;
  window.fetch = (url, init) => { window.__asked.push(String(url)); return fetch(url, init); };
})()"""


def verdict_seats(page: Any) -> list[str]:
    """The seat of every verdicts request the page has made, in order."""
    urls = page.evaluate("window.__asked")
    return [parse_qs(urlsplit(u).query)["seat"][0] for u in urls if "/verdicts?" in u]


def ask_and_run(page: Any, seat: str, act: Callable[[], None]) -> None:
    """Do `act`, then run the page's timers half a second at a time until it has asked for
    `seat`'s verdicts and has its answer (the page waits at most 10 s of its own time for the
    advice on the move on screen first)."""
    with page.expect_response(lambda r: "/verdicts?" in r.url and f"seat={seat}" in r.url,
                              timeout=60_000) as reply:
        act()
        for _ in range(40):
            if seat in verdict_seats(page):
                break
            page.clock.run_for(500)
        assert seat in verdict_seats(page), verdict_seats(page)
    assert reply.value.ok, reply.value.status


def show(page: Any, perspective: str) -> None:
    page.select_option("#persp", perspective)
    shown = f"window.__app.data && window.__app.data.perspective === '{perspective}'"
    page.wait_for_function(shown, polling=100)


def test_the_verdicts_follow_the_perspective(context: Any, web_server: WebServer) -> None:
    match_id = finished_match(web_server)  # its own match: no verdicts computed yet
    west = next(e for e in stored_events(web_server, match_id)
                if e.type == "tile_played" and e.seat == "W")
    page = context.new_page()
    errors = watch_errors(page)
    page.add_init_script(RECORD_FETCHES)
    page.clock.install(time=START)
    page.clock.pause_at(START + timedelta(seconds=1))  # time moves only when the test runs it

    def open_west() -> None:
        page.goto(f"{web_server.base}/#replay={match_id}&perspective=W&step={west.seq}")
        page.wait_for_function("window.__app && window.__app.data", polling=100)

    ask_and_run(page, "W", open_west)  # the job has just started: the answer is not complete
    assert verdict_seats(page) == ["W"]

    show(page, "spectator")
    page.clock.run_for(10_000)  # West's next ask was due after 2 s: it is not made
    assert verdict_seats(page) == ["W"]

    ask_and_run(page, "N", lambda: show(page, "N"))  # the seat now shown is asked for
    assert verdict_seats(page) == ["W", "N"]
    assert errors == []


BUSY = {"error": "the replay workers are busy: retry in a moment", "code": "busy", "status": 503}
REFUSALS = 7
"""503s before the real answer: more than the 5 tries after which the page used to give up."""


def test_a_busy_replay_worker_is_asked_again_until_the_step_s_advice_comes(
        context: Any, web_server: WebServer) -> None:
    """The replay worker may be busy for a while (one worker, this match's verdicts ahead of
    the step): the step on screen keeps asking, 1 s apart on the page's clock, and shows the
    advice once it comes. The first REFUSALS answers are 503s; the rest are the server's."""
    match_id = finished_match(web_server)
    south = next(e for e in stored_events(web_server, match_id)
                 if e.type == "tile_played" and e.seat == "S")
    page = context.new_page()
    errors = watch_errors(page)
    refused: list[str] = []

    def busy_at_first(route: Any) -> None:
        if len(refused) < REFUSALS:
            refused.append(route.request.url)
            route.fulfill(status=503, content_type="application/json", body=json.dumps(BUSY))
        else:
            route.continue_()

    page.route(lambda url: "/advice?" in url, busy_at_first)
    page.clock.install(time=START)
    page.clock.pause_at(START + timedelta(seconds=1))
    page.goto(f"{web_server.base}/#replay={match_id}&perspective=S&step={south.seq}")
    page.wait_for_function("window.__app && window.__app.data", polling=100)
    for _ in range(120):  # 60 s of the page's time at most
        if page.locator("#advisor .advice-list li").count():
            break
        page.clock.run_for(500)
        page.wait_for_timeout(50)  # the real answers arrive in real time
    assert len(refused) == REFUSALS
    assert page.locator("#advisor .advice-list li").count() >= 1
    assert app(page, "a.advice")["seq"] == south.seq
    assert [e for e in errors if "status of 503" not in e] == [], errors
