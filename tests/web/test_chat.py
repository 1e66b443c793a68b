"""Issue 28, item 7: table chat in real headless Chromium against the real server.

A seat (one browser context) and a spectator (another) talk at one table; a `<script>` line
shows as its letters and runs nothing; the seat mutes the spectator, whose lines then stay
hidden on the seat's page (after a reload too) and come back when unmuted; the chat box
fits at 1280 px and at a 360 px phone, overlapping nothing; the match's replay lists the
lines, as text.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer, screenshot
from tests.web.test_browser import app, create_table_in_lobby, wait_for, watch_errors

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.__pwned = 1</script><b>bold?</b> & <img src=x onerror=window.__pwned=2>"


def chat_texts(page: Any) -> list[str]:
    """The lines shown in the chat box, as "name: text" (mute buttons left out)."""
    return page.evaluate("""[...document.querySelectorAll('#chat .chat-lines li')].map((li) =>
        li.querySelector('.chat-name').textContent + ': ' +
        li.querySelector('.chat-text').textContent)""")


def say(page: Any, text: str) -> None:
    page.fill("#chat input[name=chat]", text)
    page.click("#chat button[type=submit]")


def shows(page: Any, line: str) -> None:
    wait_for(lambda: line in chat_texts(page), what=f"the line {line!r}")


def boxes_apart(page: Any, a: str, b: str) -> bool:
    """The bounding boxes of the elements `a` and `b` do not intersect."""
    return bool(page.evaluate("""([a, b]) => {
        const r = document.querySelector(a).getBoundingClientRect();
        const s = document.querySelector(b).getBoundingClientRect();
        return r.right <= s.left || s.right <= r.left || r.bottom <= s.top || s.bottom <= r.top;
    }""", [a, b]))


def uncovered(page: Any, selector: str) -> bool:
    """The element is what the page shows at its centre (nothing fixed lies over it)."""
    return bool(page.evaluate("""(sel) => {
        const el = document.querySelector(sel), r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top === el || el.contains(top);
    }""", selector))


def fits(page: Any, width: int) -> None:
    """Nothing wider than the page; the chat box inside it and clear of the board and the
    move log."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.evaluate("""(() => { const r = document.querySelector('#chat')
        .getBoundingClientRect(); return [r.left, r.right, r.width]; })()""")
    assert box[0] >= 0 and box[1] <= width and box[2] > 200, box
    for other in ("#board", ".move-log"):
        assert boxes_apart(page, "#chat", other), other
    form = page.evaluate("""(() => { const f = document.querySelector('#chat .chat-form')
        .getBoundingClientRect(); return [f.left, f.right]; })()""")
    assert form[0] >= 0 and form[1] <= width, form


def test_a_seat_and_a_spectator_chat_escaped_and_muted(browser: Any,
                                                        web_server: WebServer) -> None:
    seat_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    fan_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        seat = seat_ctx.new_page()
        seat_errors = watch_errors(seat)
        table_id = create_in_lobby(seat, web_server)
        seat.wait_for_selector("#chat .chat-empty:not([hidden])")
        fan = fan_ctx.new_page()
        fan_errors = watch_errors(fan)
        fan.goto(f"{web_server.base}/#watch={table_id}")
        fan.wait_for_selector("#chat input[name=chat]")
        wait_for(lambda: app(fan, "a.state.lastSeq") > 0, what="the spectator's feed")

        say(seat, "hello from the South seat")
        shows(fan, "alice: hello from the South seat")
        shows(seat, "alice: hello from the South seat")
        say(fan, "good luck")
        shows(seat, "Spectator 1: good luck")

        # plain text: the markup reads as its letters, and nothing of it runs
        say(fan, SCRIPT)
        shows(seat, f"Spectator 1: {SCRIPT}")
        for page in (seat, fan):
            assert page.locator("#chat script, #chat b, #chat img").count() == 0
            assert page.evaluate("window.__pwned") is None
        # a line past the limit cannot be typed (the input stops at 280)
        fan.fill("#chat input[name=chat]", "z" * 300)
        assert len(fan.input_value("#chat input[name=chat]")) == 280
        fan.fill("#chat input[name=chat]", "")
        screenshot(seat, "table-chat", phone=False, full_page=True)
        fits(seat, 1280)

        # the seat mutes the spectator: their lines go, new ones never show, own lines stay
        seat.click("#chat li[data-speaker='name:Spectator 1'] [data-mute]")
        wait_for(lambda: not any(t.startswith("Spectator 1") for t in chat_texts(seat)),
                 what="the muted lines hidden")
        say(fan, "you cannot hear me")
        shows(fan, "Spectator 1: you cannot hear me")
        say(seat, "quiet now")  # its reply comes after the muted line reached this page
        shows(seat, "alice: quiet now")
        assert not any(t.startswith("Spectator 1") for t in chat_texts(seat)), chat_texts(seat)
        shows(fan, "alice: quiet now")  # muting is the viewer's own: the spectator hears
        seat.reload()
        shows(seat, "alice: quiet now")  # the history again, the mute kept
        assert not any(t.startswith("Spectator 1") for t in chat_texts(seat)), chat_texts(seat)
        seat.click("#chat [data-unmute='name:Spectator 1']")
        shows(seat, "Spectator 1: you cannot hear me")

        seat.set_viewport_size({"width": 360, "height": 780})
        # the odds become a closed drawer (a short slide), the reload's toast goes
        wait_for(lambda: seat.evaluate("getComputedStyle(document.querySelector('#overlay'))"
                                       ".visibility === 'hidden' && !document.querySelector("
                                       "'#toasts').children.length"), what="a settled page")
        fits(seat, 360)
        seat.locator("#chat").scroll_into_view_if_needed()
        assert uncovered(seat, "#chat input[name=chat]") and uncovered(seat, "#chat .chat-name")
        screenshot(seat, "table-chat-phone", phone=False)
        # the replay (spectator perspective: the match is in play) has the chat, as text
        fan.goto(f"{web_server.base}/#replay={table_id}")
        fan.wait_for_selector("#chat-log summary")
        assert fan.text_content("#chat-log summary") == "Table chat: 5 lines"
        fan.click("#chat-log summary")
        logged = fan.evaluate("""[...document.querySelectorAll('#chat-log li')].map((li) =>
            li.querySelector('.chat-name').textContent + ': ' +
            li.querySelector('.chat-text').textContent)""")
        assert logged[2] == f"Spectator 1: {SCRIPT}" and logged[-1] == "alice: quiet now"
        assert fan.locator("#chat-log script, #chat-log b, #chat-log img").count() == 0
        assert fan.evaluate("window.__pwned") is None
        assert seat_errors == [] and fan_errors == [], (seat_errors, fan_errors)
    finally:
        seat_ctx.close()
        fan_ctx.close()


def create_in_lobby(page: Any, server: WebServer) -> str:
    """A dominoes table with three bots, seated as "alice" at South."""
    table_id = create_table_in_lobby(page, server, name="alice", advice=False)
    page.wait_for_selector("#chat input[name=chat]")
    return table_id
