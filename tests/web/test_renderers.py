"""The browser client's game renderers, in real headless Chromium.

The registry (clients/web/js/games/index.js) loads the dominoes renderer by name and has none
for a game it does not know, and no renderer lists variants of its own; the lobby offers the
variants the server lists (the two-player ones with two seat rows) and sends what they say; a
two-player draw table (draw-2) renders from a recorded match: you and one opponent across, the
score per side, the boneyard, draws in the move log (with the tiles for the drawer only), the
overlay's holders those the belief names, and the Draw move the server offers, sent back as
offered; a two-player replay offers the two seats' perspectives.

The page talks to a scripted WebSocket (Playwright's `route_web_socket`) and to routed replay
requests, fed with events made by the real rules (games.dominoes.selfplay), redacted by the
real audience filter, and South's exact two-player belief: the renderer alone is under test
(tests/web/test_two_player.py plays draw-2 against the real server). The page's static files
come from clients/web/ as the server serves them.
"""

from __future__ import annotations

import functools
import json
import random
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from games.dominoes.audience import view
from games.dominoes.events import Event, event_to_dict
from games.dominoes.game import DOMINOES
from games.dominoes.rules import evolve
from games.dominoes.selfplay import random_match_events
from games.dominoes.state import MatchState
from games.registry import GAMES
from protocol.frames import belief_body
from server.tables.registry import _variant_listing
from tests.web.conftest import ROOT

pytestmark = pytest.mark.browser

TABLE = "t2p"


def watch_errors(page: Any) -> list[str]:
    """The page's uncaught errors and console errors, as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on("console", lambda m: errors.append(_console_line(m)) if m.type == "error" else None)
    return errors


def _console_line(message: Any) -> str:
    """A console error with where it came from: a failed request names only its status in
    its text, its URL in its location."""
    where = (message.location or {}).get("url") or ""
    return f"{message.text} ({where})" if where else message.text


def app(page: Any, expr: str) -> Any:
    """`expr` evaluated with `a` = the page's window.__app."""
    return page.evaluate(f"(() => {{ const a = window.__app; return {expr}; }})()")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """clients/web/ over HTTP on a free port (only the static files: no game server)."""
    handler = functools.partial(_Quiet, directory=str(ROOT / "clients" / "web"))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class ScriptedServer:
    """The /ws end of the page: answers each command with `reply(message, send)`, records them."""

    def __init__(self, page: Any, reply: Callable[[dict, Callable[[dict], None]], None]) -> None:
        self.received: list[dict] = []
        self.reply = reply
        page.route_web_socket("**/ws", self._connected)

    def _connected(self, ws: Any) -> None:
        def on_message(text: str | bytes) -> None:
            message = json.loads(text)
            self.received.append(message)
            self.reply(message, lambda out: ws.send(json.dumps(out)))

        ws.on_message(on_message)


def draw_match() -> tuple[list[Event], int]:
    """A draw-2 match whose first hand has North drawing, then South drawing and playing what
    it drew; and the index of that South draw."""
    for seed in range(500):
        events = random_match_events(random.Random(seed), "draw-2", target=30)
        north_drew = False
        for i, event in enumerate(events):
            if getattr(event, "hand", 1) != 1:
                break
            if event.type == "tiles_drawn" and event.seat == "N":
                north_drew = True
            if (
                event.type == "tiles_drawn"
                and event.seat == "S"
                and north_drew
                and event.count >= 2
                and events[i + 1].type == "tile_played"
            ):
                return events, i
    raise AssertionError("no seed in range gives a first hand with both draws")


def variants_reply(message: dict) -> dict:
    """The server's `variants` reply, as its registry builds it for every registered game."""
    listing = [_variant_listing(game, info).model_dump() for game in GAMES.games()
               for info in game.variants().values() if info.alias_of is None]
    return {"type": "variants", "id": message["id"], "variants": listing}


def offer(state: MatchState, seat: str) -> list[dict]:
    """The seat's legal moves as the server offers them (games' `command_to_wire`)."""
    return [DOMINOES.command_to_wire(c) for c in DOMINOES.legal_moves(state, seat)]


def state_after(events: list[Event]) -> MatchState:
    state: MatchState | None = None
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def south_belief(events: list[Event], seq: int) -> dict:
    """South's exact belief after `seq` (the two-player belief the live workers publish), as
    the server's `belief` message."""
    belief = DOMINOES.belief("S", "draw-2")
    for event in events[:seq]:
        belief.apply(view(event, "S"))
    return {"type": "belief", "table_id": TABLE, **belief_body(belief.snapshot_dict())}


def test_the_registry_has_dominoes_and_no_renderer_for_an_unknown_game(
    context: Any, site: str
) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    ScriptedServer(page, lambda message, send: None)
    page.goto(site + "/")
    page.wait_for_selector("#loading-games")  # no list_variants answer: no form, no variants
    found = page.evaluate("""async () => {
      const listed = await import('/js/games/index.js');
      const registry = await import('/js/games/registry.js');
      const dominoes = registry.rendererFor('dominoes');
      return {listed: Object.keys(listed), known: registry.knownGames(), game: dominoes.game,
              same: dominoes === listed.dominoes, none: registry.rendererFor('no-such-game'),
              inherited: registry.rendererFor('toString'),
              fallback: registry.gameOf({variant: 'partnership-6'}),
              own: registry.allRenderers().filter((r) => 'variants' in r).map((r) => r.game)};
    }""")
    assert sorted(found["listed"]) == sorted(found["known"]) and "dominoes" in found["known"]
    assert found["known"][0] == "dominoes"  # the default game leads the lobby's list
    assert found["game"] == "dominoes" and found["same"]
    assert found["none"] is None and found["inherited"] is None and found["fallback"] == "dominoes"
    assert found["own"] == []  # the lobby's variants are the server's (list_variants)
    assert page.locator("#create").count() == 0
    # a table of a game with no renderer says so instead of drawing dominoes
    page.goto(site + "/#watch=x&game=chess")
    page.wait_for_selector("#app .error")
    assert "cannot show the game chess" in page.text_content("#app .error")
    assert page.locator("#board").count() == 0
    assert errors == []


def test_the_lobby_creates_a_two_player_table_with_two_seat_rows(context: Any, site: str) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    listed = {
        "table_id": "open2",
        "variant": "draw-2",
        "target": 100,
        "status": "waiting",
        "seats": {"S": None, "N": "bot:greedy"},
        "spectators": 0,
    }

    def reply(message: dict, send: Callable[[dict], None]) -> None:
        if message["type"] == "list_tables":
            send({"type": "tables", "id": message["id"], "tables": [listed]})
        elif message["type"] == "list_variants":
            send(variants_reply(message))
        elif message["type"] == "create_table":
            send({"type": "table_created", "id": message["id"], "table_id": "new2"})

    server = ScriptedServer(page, reply)
    page.goto(site + "/")
    page.wait_for_selector("tr[data-table=open2]")
    row = page.locator("tr[data-table=open2] .seats")
    assert row.locator("[data-join]").evaluate_all("els => els.map(e => e.dataset.join)") == ["S"]
    assert row.locator(".seat-tag").all_text_contents() == ["N: bot:greedy"]

    options = page.eval_on_selector_all("select[name=variant] option", "os => os.map(o => o.value)")
    assert {"block-2", "draw-2", "partnership-6", "partnership-9"} <= set(options)
    seat_rows = "#create select[data-seat]"
    assert page.eval_on_selector_all(seat_rows, "s => s.map(x => x.dataset.seat)") == [
        "S",
        "W",
        "N",
        "E",
    ]
    page.select_option("select[name=variant]", "draw-2")
    assert page.eval_on_selector_all(seat_rows, "s => s.map(x => x.dataset.seat)") == ["S", "N"]
    assert "South against North" in page.text_content("#seats legend")
    page.select_option("select[name=seat-N]", "bot:pimc")
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#table=new2&seat=S')")
    created = next(m for m in server.received if m["type"] == "create_table")
    assert created["variant"] == "draw-2" and created["bots"] == {"N": "pimc"}
    page.goto(site + "/")
    page.wait_for_selector("#create select[data-seat]")
    page.select_option("select[name=variant]", "block-2")
    page.select_option("select[name=variant]", "partnership-9")
    assert page.eval_on_selector_all(seat_rows, "s => s.map(x => x.dataset.seat)") == [
        "S",
        "W",
        "N",
        "E",
    ]
    assert errors == []


def test_a_two_player_draw_table_shows_the_boneyard_the_draws_and_draws(
    context: Any, site: str
) -> None:
    events, k = draw_match()  # events[k]: South draws, then plays the tile that fitted
    south = [event_to_dict(view(e, "S")) for e in events]
    before = state_after(events[:k])
    after = state_after(events[: k + 1])
    drawn = south[k]["tiles"]
    north_draws = [e for e in south[:k] if e["type"] == "tiles_drawn" and e["seat"] == "N"]

    def reply(message: dict, send: Callable[[dict], None]) -> None:
        if message["type"] == "join":
            send(
                {
                    "type": "joined",
                    "id": message["id"],
                    "table_id": TABLE,
                    "seat": "S",
                    "token": "secret",
                    "last_seq": k,
                    "advice": False,
                }
            )
            for event in south[:k]:
                offered = {"legal_moves": offer(before, "S")} if event["seq"] == k else {}
                send({"type": "event", "table_id": TABLE, "seq": event["seq"], "event": event,
                      **offered})
            send(south_belief(events, k))
        elif message["type"] == "move":
            send({"type": "event", "table_id": TABLE, "seq": k + 1, "event": south[k],
                  "legal_moves": offer(after, "S")})
            send({"type": "ack", "id": message["id"], "seq": k + 1})

    page = context.new_page()
    errors = watch_errors(page)
    server = ScriptedServer(page, reply)
    page.goto(f"{site}/#table={TABLE}&seat=S")
    page.wait_for_function(
        f"window.__app && window.__app.belief && window.__app.state.lastSeq === {k}"
    )

    # you at the bottom, the one opponent across, nobody at the sides, no teams
    positions = (
        "s => s.map(x => [x.dataset.seat, [...x.classList].find(c => c.startsWith('pos-'))])"
    )
    assert page.eval_on_selector_all(".board .seat", positions) == [
        ["N", "pos-top"],
        ["S", "pos-bottom"],
    ]
    assert page.locator(".seat.turn").get_attribute("data-seat") == "S"
    assert "NS" not in page.text_content(".board .seat[data-seat=S] header")
    assert page.eval_on_selector_all("[data-score]", "s => s.map(x => x.dataset.score)") == [
        "S",
        "N",
    ]
    boneyard = page.locator("[data-boneyard]")
    assert int(boneyard.get_attribute("data-boneyard")) == before.hand.boneyard
    assert f"{before.hand.boneyard} tiles left" in boneyard.text_content()
    hand = before.hand.hands["S"]
    assert sorted(
        page.eval_on_selector_all(".pos-bottom .tile-btn", "bs => bs.map(b => b.dataset.tile)")
    ) == sorted(str(t) for t in hand)
    assert (
        int(page.get_attribute(".seat[data-seat=N] .count", "data-count"))
        == before.hand.counts["N"]
    )

    # North's draws: a count for everyone, no tiles for South
    log = page.eval_on_selector_all(
        "#log li[data-type=tiles_drawn]", "ls => ls.map(l => l.textContent)"
    )
    latest = north_draws[-1]
    assert f"N drew {latest['count']}" in log and latest["tiles"] is None
    assert page.locator(f".seat[data-seat=N] .drew[data-count='{latest['count']}']").count() >= 1

    # the overlay: the holders the belief names, with its numbers and counts
    belief = south_belief(events, k)
    cards = page.eval_on_selector_all(
        "#overlay .grid-card",
        """cs => cs.map(c => [c.dataset.holder,
        c.querySelector('h3').firstChild.textContent.trim(),
        c.querySelector('h3 .count').textContent,
        Object.fromEntries([...c.querySelectorAll('.c[data-p]')]
          .map(x => [x.dataset.tile, Number(x.dataset.p)]))])""",
    )
    assert [c[0] for c in cards] == list(belief["marginals"]) == ["N", "pool"]
    assert [c[1] for c in cards] == ["North", "Boneyard"]
    for holder, _, count, cells in cards:
        assert count == f"{belief['remaining'][holder]} tiles"
        assert cells == belief["marginals"][holder]

    # nothing fits and the boneyard has tiles: the server offers the draw alone
    assert offer(before, "S") == [{"kind": "draw"}]
    assert page.locator(".tile-btn.legal").count() == 0
    assert page.locator("button.draw.urgent").is_enabled()
    assert page.locator("button.pass").is_disabled()
    page.keyboard.press("d")
    page.wait_for_function(f"window.__app.state.lastSeq === {k + 1}")
    # the last move sent (a list_tables the page polls with may have come after it)
    moves = [m for m in server.received if m["type"] == "move"]
    assert {key: v for key, v in moves[-1].items() if key != "id"} == {
        "type": "move",
        "table_id": TABLE,
        "move": {"kind": "draw"},
    }
    shown = page.eval_on_selector_all(".pos-bottom .tile-btn", "bs => bs.map(b => b.dataset.tile)")
    assert sorted(shown) == sorted(str(t) for t in after.hand.hands["S"]) and set(drawn) <= set(
        shown
    )
    legal = page.eval_on_selector_all(".tile-btn.legal", "bs => bs.map(b => b.dataset.tile)")
    assert legal == [drawn[-1]]  # the last tile drawn is the one that fits
    assert page.text_content("#log li:first-child") == f"S drew {len(drawn)}: {' '.join(drawn)}"
    south_draws = [e for e in south[: k + 1] if e["type"] == "tiles_drawn" and e["seat"] == "S"]
    assert page.eval_on_selector_all(
        ".seat[data-seat=S] .drew", "ds => ds.map(d => Number(d.dataset.count))"
    ) == [e["count"] for e in south_draws]
    assert int(page.get_attribute("[data-boneyard]", "data-boneyard")) == after.hand.boneyard
    assert page.locator("button.draw").is_disabled()
    assert app(page, "a.state.hand.counts.S") == after.hand.counts["S"]
    assert errors == []


def test_a_two_player_replay_offers_both_seats_and_names_the_draws(context: Any, site: str) -> None:
    events, k = draw_match()
    north = [event_to_dict(view(e, "N")) for e in events]
    beliefs = [
        {
            "seq": e["seq"],
            "observer": "N",
            "hand": e.get("hand"),
            "status": None,
            "consistent_deals": None,
            "entropy_bits": None,
            "marginals": {},
            "facts": [],
            "remaining": {},
            "tile_entropy_bits": {},
        }
        for e in north
    ]
    replay = {
        "match_id": "m2p",
        "perspective": "N",
        "finished": True,
        "events": north,
        "beliefs": beliefs,
    }
    page = context.new_page()
    errors = watch_errors(page)
    page.route("**/api/matches/m2p/replay?perspective=N", lambda route: route.fulfill(json=replay))

    def advice_body(seq: int) -> dict[str, Any]:
        """The advisor on one of North's plays: the move played, ranked first, in the
        server's reply shape."""
        play = north[seq - 1]
        return {
            "match_id": "m2p", "seq": seq, "hand": play["hand"], "seat": play["seat"],
            "played": {"tile": play["tile"], "end": play.get("end")}, "rank": 1,
            "moves": [{"tile": play["tile"], "end": play.get("end"), "expected_points": 0.0,
                       "p_win_hand": 0.5, "samples": 1, "ci": [None, None],
                       "exact_share": 1.0}],
            "label": "optimistic estimate (perfect-information)", "elapsed_ms": 1.0}

    def advice(route: Any) -> None:
        route.fulfill(json=advice_body(int(route.request.url.rsplit("seq=", 1)[1])))

    def verdicts(route: Any) -> None:
        """The move list's verdicts: every play of North's, as the match's job answers."""
        plays = [e["seq"] for e in north if e["type"] == "tile_played" and e["seat"] == "N"]
        route.fulfill(json={"match_id": "m2p", "seat": "N", "model": "uniform",
                            "complete": True, "total": len(plays), "done": len(plays),
                            "verdicts": {str(q): advice_body(q) for q in plays}})

    page.route("**/api/matches/m2p/verdicts?seat=N", verdicts)
    page.route("**/api/matches/m2p/advice?seq=*", advice)
    page.route("**/api/matches/m2p/chat",  # the table's chat, as the server answers it
               lambda route: route.fulfill(json={"match_id": "m2p", "lines": []}))
    page.goto(f"{site}/#replay=m2p&perspective=N&step={k + 1}")
    page.wait_for_function(f"window.__app && window.__app.data && window.__app.step === {k + 1}")
    assert page.eval_on_selector_all("#persp option", "os => os.map(o => o.value)") == [
        "S",
        "N",
        "spectator",
        "all",
    ]
    assert page.eval_on_selector("#persp", "s => s.value") == "N"
    # North's view of South's draw: how many, not which
    assert page.text_content("#where").endswith(f"S drew {events[k].count}")
    assert page.eval_on_selector_all(".board .seat", "s => s.map(x => x.dataset.seat)") == [
        "S",
        "N",
    ]
    assert page.get_attribute(".seat.pos-bottom", "data-seat") == "N"
    assert page.text_content(".status") == "South's turn."
    assert errors == []
