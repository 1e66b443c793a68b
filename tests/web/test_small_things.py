"""The small things a player notices (issue 28), in the page's own modules and at a real
table: plurals ("1 domino", "1 point", "1 card"), the match's end with the winner's score
first, the first lead refused in the rule's words, the skip link to the hand, a toast going with
its page, a bad replay id without controls, and the boneyard's tiles shown at a hand's end.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import WebServer
from tests.web.test_browser import create_table_in_lobby, wait_for, watch_errors

pytestmark = pytest.mark.browser

WORDS = """async () => {
  const board = await import('/js/games/dominoes/board.js');
  const live = await import('/js/games/dominoes/live.js');
  const t42 = await import('/js/games/texas42/describe.js');
  const words = await import('/js/games/texas42/words.js');
  const uno = await import('/js/games/uno/panel.js');
  const state = { phase: 'finished', winner: 'N', sides: ['S', 'N'], scores: { S: 0, N: 122 } };
  const offer = live.offerOf([{ kind: 'play', tile: '6-6', end: null }]);
  return {
    over: board.statusText(state, 'S'),
    lead: live.refusalWords('0-2', offer, { line: [], number: 1 }),
    later: live.refusalWords('0-2', offer, { line: [[6, 6]], number: 2 }),
    nobody: live.refusalWords('0-2', live.offerOf([]), { line: [], number: 1 }),
    trick: t42.describe({ type: 'trick_won', seat: 'W', trick: 3, points: 1 }),
    t42over: t42.describe({ type: 'match_ended', winner: 'EW', totals: { NS: 2, EW: 7 } }),
    one: [words.dominoesWord(1), words.dominoesWord(2), uno.cardsWord(1), uno.cardsWord(3),
          t42.pointsWord(1)],
  };
}"""


def test_the_words_a_player_reads(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    got = page.evaluate(WORDS)
    assert got["over"] == "Match over: North won 122–0 (N–S)."
    assert got["lead"].startswith("The first hand opens with the highest double")
    assert got["lead"].endswith("play 6-6.") and "fit" not in got["lead"]
    assert got["later"] == "0-2 is not one of your legal moves now."
    assert got["nobody"] == "Not your turn."
    assert got["trick"] == "W takes trick 3 (1 point)"
    assert got["t42over"] == "match over: EW wins 7–2"
    assert got["one"] == ["1 domino", "2 dominoes", "1 card", "3 cards", "1 point"]
    assert errors == [], errors


def test_the_skip_link_takes_you_to_your_hand(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    create_table_in_lobby(page, web_server, "ann", advice=False, variant="partnership-6")
    page.wait_for_selector("#board .hand.mine .tile-btn")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    tabs = 0
    while tabs < 8 and not page.evaluate("document.activeElement.matches('[data-skip-hand]')"):
        page.keyboard.press("Tab")  # the header's links, then the skip link
        tabs += 1
    assert page.evaluate("document.activeElement.matches('[data-skip-hand]')"), tabs
    box = page.locator("[data-skip-hand]").bounding_box()
    assert box and box["x"] >= 0 and box["width"] > 20  # in sight once it has the focus
    page.keyboard.press("Enter")
    assert page.evaluate("!!document.activeElement.closest('#board .hand.mine')")
    print(f"the hand is {tabs} Tabs and an Enter away")
    assert errors == [], errors


def test_a_toast_goes_with_its_page(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create button[type=submit]")
    page.evaluate("import('/js/ui.js').then((ui) => ui.toast('about the lobby'))")
    page.wait_for_selector("#toasts .toast")
    page.evaluate("location.hash = '#replay'")
    page.wait_for_function("location.hash === '#replay'")
    page.wait_for_selector("#app h1")
    assert page.locator("#toasts .toast").count() == 0
    assert errors == [], errors


def test_a_bad_replay_id_shows_no_replay_controls(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    page.goto(web_server.base + "/#replay=no-such-match&perspective=spectator")
    page.wait_for_selector("#where .error")
    assert page.locator(".replay-controls").is_hidden()
    assert page.locator("#board").is_hidden()
    assert page.locator("#where a[href='#replay']").is_visible()


MATCHES_FOR_A_POOL = 6


def test_a_draw_game_hand_shows_the_tiles_left_in_the_boneyard(context: Any,
                                                               web_server: WebServer) -> None:
    """Two bots play a draw-2 match through the server; the replay at each hand's end shows
    the tiles left in the boneyard (the event's `pool`), face up."""
    url = f"ws://127.0.0.1:{web_server.port}/ws"
    # the deals are the server's own (random): a match whose every hand emptied the boneyard
    # shows nothing, so matches are played until one hand ends with tiles left (a run met a
    # match without one: 33 of 200 greedy matches to 30 have none, so six in a row happen
    # about once in fifty thousand runs)
    for _ in range(MATCHES_FOR_A_POOL):
        with connect(url) as ws:
            ws.send(json.dumps({"type": "create_table", "id": 1, "variant": "draw-2",
                                "bots": {"S": "greedy", "N": "greedy"}, "target": 30}))
            table_id = json.loads(ws.recv(timeout=10))["table_id"]
        wait_for(lambda table_id=table_id: any(
            m["match_id"] == table_id and m["finished"]
            for m in web_server.get_json("/api/matches")["matches"]),
            timeout=60, what="the bots' match to finish")
        path = f"/api/matches/{table_id}/replay?perspective=all"
        events = web_server.get_json(path)["events"]
        ends = [(i + 1, e["pool"]) for i, e in enumerate(events)
                if e["type"] == "hand_ended" and e.get("pool")]
        if ends:
            break
    assert ends, "no hand ended with tiles in the boneyard"
    step, pool = ends[0]
    page = context.new_page()
    page.goto(f"{web_server.base}/#replay={table_id}&perspective=all&step={step}")
    page.wait_for_selector("#board .pool-left")
    shown = page.eval_on_selector_all("#board .pool-left [data-tile]",
                                      "ts => ts.map(t => t.dataset.tile)")
    assert sorted(shown) == sorted(pool)
    assert "Boneyard" in page.text_content("#board .pool-left")
