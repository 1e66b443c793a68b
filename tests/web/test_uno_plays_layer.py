"""Uno's play-aware layer (`behaviour:plays`) in a real browser against the real server: at a
live uno-2-mini table against a greedy bot, once North has played, the player switches the
odds from "every deal alike" to "weighed by the plays"; while the server's answer is on its
way the exact figures are dimmed and said to be the exact ones; then every figure is the
server's `odds` answer for that seq (the frame it sent, and the model computed here from the
same view), labelled with what it assumes; switching back shows the exact belief again. The
panel reads well (nothing overlapping, covered or cut) at 1280 and 360 px both ways. In the
replay of the finished match, a step's layer is the replay odds route's answer.
Screenshots (DOMINO_SCREENSHOTS=1): uno-plays-layer.png, uno-plays-layer-phone.png."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from websockets.sync.client import connect

from games.uno.behaviour import behaviour_odds
from games.uno.events import parse_event
from tests.web.conftest import WebServer
from tests.web.odds_frames import Frames, js_round
from tests.web.panel_reading import assert_reads_well, panel_at
from tests.web.test_browser import app, watch_errors

pytestmark = pytest.mark.browser

MODEL = "behaviour:plays"
READY = ("window.__app && window.__app.belief && "
         "window.__app.belief.seq === window.__app.state.lastSeq && "
         "window.__app.legal && window.__app.legal.moves.length && "
         "window.__app.legal.seq === window.__app.state.lastSeq && "
         "document.querySelector('#overlay .gists li')")
OVER = "window.__app && window.__app.state.phase === 'finished'"
TABLES = 8
"""Tables tried for a position where North has played and South is to move (a bound)."""


def _new_table(web_server: WebServer, variant: str) -> str:
    with connect(f"ws://127.0.0.1:{web_server.port}/ws") as ws:
        ws.send(json.dumps({"type": "create_table", "id": 1, "variant": variant,
                            "bots": {"N": "greedy"}}))
        return str(json.loads(ws.recv(timeout=10))["table_id"])


def _north_played(page: Any) -> bool:
    return bool(app(page, "a.events.some(e => e.type === 'card_played' && e.seat === 'N')"))


def _to_a_weighed_position(page: Any, web_server: WebServer, variant: str = "uno-2-mini") -> str:
    """A table where North has played a card and South is to move, its belief drawn and
    exact (the layer weighs the exact belief's deals)."""
    for _ in range(TABLES):
        table_id = _new_table(web_server, variant)
        page.goto(f"{web_server.base}/#table={table_id}&seat=S&game=uno")
        while True:
            page.wait_for_function(f"({READY}) || ({OVER})", timeout=60_000)
            if app(page, "a.state.phase") == "finished":
                break
            if _north_played(page) and app(page, "a.belief.status") == "exact":
                return table_id
            before = app(page, "a.state.lastSeq")
            page.locator("#board [data-move]").first.click()
            page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    raise AssertionError(f"North never played before the end in {TABLES} tables")


def _figures(page: Any) -> dict[tuple[str, str], float]:
    found = page.eval_on_selector_all(
        "#overlay .c[data-p]", "cs => cs.map(c => [c.dataset.holder, c.dataset.tile, c.dataset.p])")
    return {(h, k): float(p) for h, k, p in found}


def _at_least_one(marginals: dict[str, dict[str, float]]) -> dict[tuple[str, str], float]:
    """The panel's figure per card kind: P(holds >= 1), the items without '>='."""
    return {(h, k): p for h, row in marginals.items() for k, p in row.items() if ">=" not in k}


def _open_details(page: Any) -> None:
    page.evaluate("document.querySelectorAll('#overlay details').forEach(d => { d.open = true; })")


def test_the_play_aware_layer_is_shown_beside_the_exact_one(context: Any,
                                                            web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    frames = Frames(page)
    table_id = _to_a_weighed_position(page, web_server)
    if not page.locator("#overlay .uno-ov").count():
        page.click("button.ov-toggle")
    seq = app(page, "a.belief.seq")
    exact = _at_least_one(app(page, "a.belief.marginals"))
    assert _figures(page) == pytest.approx(exact, abs=1e-9)
    assert page.get_attribute("#overlay", "data-shown") == "exact"

    # the layer asked for: the exact figures dimmed and said to be the exact ones, meanwhile
    frames.hold = True
    page.click(f"#overlay .ov-model [data-model='{MODEL}']")
    page.wait_for_selector("#overlay[data-shown='waiting'] .uno-holders.pending")
    waiting = page.inner_text("#overlay .accuracy")
    assert "Weighing" in waiting and "exact ones" in waiting, waiting
    pressed = page.get_attribute(f"#overlay .ov-model [data-model='{MODEL}']", "aria-pressed")
    assert pressed == "true"
    for _ in range(600):  # the answer reaches the test, not yet the page (a bound on a hang)
        if frames.held:
            break
        page.wait_for_timeout(100)
    assert frames.held, "no odds answer came"
    assert page.get_attribute("#overlay", "data-shown") == "waiting"
    frames.release()
    page.wait_for_selector("#overlay[data-shown='plays']", timeout=30_000)

    # every figure is the server's answer for this seq
    answer = frames.answers[-1]
    assert answer["model"] == MODEL and answer["observer"] == "S" and answer["seq"] == seq
    assert app(page, "a.belief.seq") == seq
    assert page.get_attribute("#overlay", "data-seq") == str(seq)
    assert answer["weighed"] >= 1 and set(answer["marginals"]) <= {"N", "deck"}
    shown = _figures(page)
    assert shown == pytest.approx(_at_least_one(answer["marginals"]), abs=1e-9)
    assert page.locator("#overlay .uno-holders.pending").count() == 0
    # and it is what the model gives for what South saw (uno-2-mini: every arrangement listed)
    seen = [parse_event(e) for e in app(page, "a.events")][:seq]
    mine = behaviour_odds(seen, "S", random.Random(0))
    assert mine["exact"] == answer["exact"]
    if answer["exact"]:  # every arrangement listed (at most the layer's exact budget)
        assert shown == pytest.approx(_at_least_one(mine["marginals"]), abs=1e-6)
    else:  # more arrangements than that after long draws: two seeded samples agree
        bar = 2 * (answer["error_95"] + mine["error_95"])  # the widest, twice: ~5 sigma
        assert shown == pytest.approx(_at_least_one(mine["marginals"]), abs=bar)
    moved = max(abs(shown.get(key, 0.0) - p) for key, p in exact.items())
    words = page.inner_text("#overlay .accuracy")
    assert "not a fact" in words and "North's" in words and "play" in words, words
    assert "equally likely ways" in words or "independent ones" in words, words  # the ESS, in words
    print(f"seq {seq}: {answer['weighed']} plays weighed, ESS {answer['ess']}, "
          f"{answer['samples']} arrangements; largest move from the exact figures {moved:.3f}")
    print(f"words: {words}")
    for width in (1280, 360):  # as it first shows, then with every fold open
        shot = f"uno-plays-layer{'-phone' if width < 600 else ''}"
        assert_reads_well(panel_at(page, width, shot=shot), {"N"}, f"the layer at {width} px")
    _open_details(page)
    for width in (1280, 360):
        assert_reads_well(panel_at(page, width), {"N"}, f"the layer, opened, at {width} px")

    # back to the exact layer: the belief's own figures, the exact words
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay[data-shown='exact']")
    assert _figures(page) == pytest.approx(_at_least_one(app(page, "a.belief.marginals")), abs=1e-9)
    assert "counts as equally likely" in page.inner_text("#overlay .accuracy")
    _open_details(page)
    for width in (1280, 360):
        assert_reads_well(panel_at(page, width), {"N"}, f"the exact odds at {width} px")

    # the replay of the finished match: a step's layer is the replay route's answer
    page.click(f"#overlay .ov-model [data-model='{MODEL}']")
    while app(page, "a.state.phase") != "finished":
        page.wait_for_function(f"({READY}) || ({OVER})", timeout=60_000)
        if app(page, "a.state.phase") == "finished":
            break
        before = app(page, "a.state.lastSeq")
        page.locator("#board [data-move]").first.click()
        page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)
    page.goto("about:blank")
    page.goto(f"{web_server.base}/#replay={table_id}&perspective=S&step={seq}")
    page.wait_for_selector(f"#overlay[data-shown='plays'][data-seq='{seq}']", timeout=60_000)
    route = web_server.get_json(f"/api/matches/{table_id}/odds?seq={seq}&observer=S&model={MODEL}")
    assert route["seq"] == seq and route["model"] == MODEL
    assert _figures(page) == pytest.approx(_at_least_one(route["marginals"]), abs=1e-9)
    assert _figures(page) == pytest.approx(shown, abs=1e-6)  # the same view, the same layer
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay[data-shown='exact']")
    assert errors == [], errors


def test_a_sampled_layer_shows_the_answer_with_its_errors(context: Any,
                                                          web_server: WebServer) -> None:
    """On the full deck (uno-2) the layer is sampled: the figures are the answer's, the words
    say its widest error and effective sample, each figure's name carries its own error."""
    page = context.new_page()
    errors = watch_errors(page)
    frames = Frames(page)
    _to_a_weighed_position(page, web_server, "uno-2")
    if not page.locator("#overlay .uno-ov").count():
        page.click("button.ov-toggle")
    seq = app(page, "a.belief.seq")
    page.click(f"#overlay .ov-model [data-model='{MODEL}']")
    page.wait_for_selector(f"#overlay[data-shown='plays'][data-seq='{seq}']", timeout=60_000)
    answer = next(a for a in reversed(frames.answers) if a["seq"] == seq)
    assert not answer["exact"] and answer["error_95"] is not None and answer["weighed"] >= 1
    assert _figures(page) == pytest.approx(_at_least_one(answer["marginals"]), abs=1e-9)
    words = page.inner_text("#overlay .accuracy")
    # the widest error to one decimal (JS rounds a tie such as 5.25 up, Python to even)
    said = re.search(r"±(\d+\.\d) points", words)
    assert words.startswith("Estimate, not exact") and said, words
    assert abs(float(said.group(1)) - answer["error_95"] * 100) <= 0.05 + 1e-9, words
    assert f"about {js_round(answer['ess'])} independent ones" in words, words
    label = page.get_attribute("#overlay .uno-holder[data-holder='N'] .c[data-p]", "aria-label")
    assert label and " ±" in label, label
    print(f"uno-2 seq {seq}: ESS {answer['ess']}, {answer['samples']} drawn, widest ±"
          f"{answer['error_95']:.3f}; words: {words}")
    for width in (1280, 360):
        shot = f"uno-plays-layer-sampled{'-phone' if width < 600 else ''}"
        assert_reads_well(panel_at(page, width, shot=shot), {"N"}, f"sampled, at {width} px")
    assert errors == [], errors


def test_an_estimated_layer_says_its_error_and_its_effective_sample(context: Any,
                                                                    web_server: WebServer) -> None:
    """Where the layer is sampled (the full deck), its words carry the widest 95% error and the
    effective sample, and say when that is few; the chips carry each figure's own error."""
    page = context.new_page()
    page.goto(web_server.base)
    said = page.evaluate("""async () => {
        const m = await import('/js/games/uno/layer.js');
        const odds = (ess) => ({ observer: 'S', weighed: 4, exact: false, ess, samples: 1024,
            error_95: 0.083, stderr: { N: { r7: 0.02, 'r7>=2': 0.01 } } });
        return [m.layerWords(odds(62.4)), m.layerWords(odds(3.2)), m.layerErrors(odds(62.4))];
    }""")
    many, few, errors = said
    assert "±8.3 points" in many and "1,024 sampled" in many, many
    assert "about 62 independent" in many, many
    assert "North's 4 plays were" in many and "not a fact" in many and "rough" not in many, many
    assert "about 3 independent ones: few, so read the figures as rough" in few, few
    assert errors == {"N": {"r7": pytest.approx(1.959963984540054 * 0.02)}}
