"""Clue's show-aware layer (`behaviour:shows`) in a real browser against the real server: ann
plays clue-mini against two bots; once a bot has shown her a card, and the cards shown to her
move the odds, she switches the notebook from "every deal alike" to "weighed by the cards
shown". While the server's answer is on its way the exact figures stay, dimmed, and say so;
then every figure (the grid, the envelope's odds) is the server's `odds` answer for that seq,
what games.clue.behaviour gives for her view here, and what a plain enumeration of every
deal fitting her view gives (written here from the rules, weighing each by how likely the
cards shown to her were); the words name the model, its effective sample and "an assumption
about the players, not a fact"; the exact belief is untouched by the switch and comes back
with the other button. The panel reads well (nothing overlapping, covered or cut) at 1280 and
360 px. In the replay of the finished match, the step's layer is the replay odds route's.
On the full deck the layer is sampled: its words carry its widest error and effective sample.
The table's heading names ann as the board does, once the match names its players.
Screenshots (DOMINO_SCREENSHOTS=1): clue-shows-layer.png, clue-shows-layer-phone.png."""

from __future__ import annotations

import itertools
import math
import random
import re
from typing import Any

import pytest

from games.clue.behaviour import PRIOR, behaviour_odds
from games.clue.events import parse_event
from games.clue.show_model import Show
from games.clue.variants import VARIANTS
from tests.web.conftest import WebServer
from tests.web.odds_frames import Frames, js_round
from tests.web.panel_reading import assert_reads_well, panel_at
from tests.web.test_browser import app, create_table_in_lobby, watch_errors

pytestmark = pytest.mark.browser

MODEL = "behaviour:shows"
ME = "P1"
OFFERED = ("window.__app && window.__app.belief && "
           "window.__app.belief.seq === window.__app.state.lastSeq && "
           "window.__app.legal && window.__app.legal.moves.length && "
           "window.__app.legal.seq === window.__app.state.lastSeq && "
           "document.querySelector('#overlay .clue-ov table')")
OVER = "window.__app && window.__app.state.phase === 'finished'"
TABLES = 6
"""Tables tried for a position where the cards shown to ann move the odds (a bound)."""
MOVED = 0.01
"""The layer differs from the exact figures by at least this much somewhere."""


def _cells(page: Any) -> dict[tuple[str, str], float]:
    found = page.eval_on_selector_all(
        "#overlay td.c[data-p]",
        "cs => cs.map(c => [c.dataset.holder, c.dataset.tile, c.dataset.p])")
    return {(h, c): float(p) for h, c, p in found}


def _envelope_odds(page: Any) -> dict[str, float]:
    found = page.eval_on_selector_all(
        "#overlay .envelope-odds [data-odds]",
        "ss => ss.map(s => [s.dataset.card, s.dataset.odds])")
    return {c: float(p) for c, p in found}


def _flat(marginals: dict[str, dict[str, float]]) -> dict[tuple[str, str], float]:
    return {(h, c): float(p) for h, row in marginals.items() for c, p in row.items()}


def enumerate_layer(events: list[dict[str, Any]], me: str) -> dict[tuple[str, str], float]:
    """The layer by enumeration, from the rules: every placement of the cards `me` does not
    hold (one suspect, weapon and room in the envelope, the rest in the other hands at their
    public sizes) that fits what `me` saw (who could not refute holds none of the three, who
    refuted holds one, a card shown to `me` is its refuter's, a wrong accusation is not the
    envelope), weighed by the product over the cards shown to `me` of how likely that card
    was with the three cards the placement gives the refuter (show_model's likelihood at the
    live layer's weights). Returns (holder, card) -> weighted probability."""
    started = next(e for e in events if e["type"] == "match_started")
    dealt = next(e for e in events if e["type"] == "dealt")
    deck = VARIANTS[started["variant"]].deck
    mine = set(dealt["hands"][me])
    seats = sorted(started["players"], key=lambda s: int(s[1:]))
    others = [s for s in seats if s != me]
    sizes = [int(dealt["hand_sizes"][s]) for s in others]
    # the cards shown to `me`, each with the three asked and what that refuter showed before
    shows: list[Show] = []
    asked: tuple[str, str, str] | None = None
    before: dict[str, set[str]] = {}
    for e in events:
        if e["type"] == "suggested":
            asked = (e["suspect"], e["weapon"], e["room"])
        elif e["type"] == "card_shown" and e["to"] == me and e["card"] and e["seat"] != me:
            assert asked is not None
            shows.append(Show(e["seat"], me, e["seq"], asked, e["card"],
                              frozenset(before.get(e["seat"], set()))))
            before.setdefault(e["seat"], set()).add(e["card"])

    def breaks(e: dict[str, Any], held: dict[str, set[str]], envelope: set[str]) -> bool:
        three = {e.get("suspect"), e.get("weapon"), e.get("room")}
        if e["type"] == "suggested":
            return any(held[s] & three for s in e["passed"]) or \
                bool(e["refuter"] and not held[e["refuter"]] & three)
        if e["type"] == "card_shown":
            return bool(e["card"]) and e["card"] not in held[e["seat"]]
        return e["type"] == "accused" and not e["correct"] and three == envelope

    def fits(where: dict[str, str], envelope: set[str]) -> bool:
        held = {s: {c for c, h in where.items() if h == s} | (mine if s == me else set())
                for s in seats}
        return not any(breaks(e, held, envelope) for e in events)

    totals: dict[tuple[str, str], float] = {}
    weight_sum = 0.0
    for triple in itertools.product(deck.suspects, deck.weapons, deck.rooms):
        envelope = set(triple)
        if envelope & mine:
            continue
        rest = [c for c in (*deck.suspects, *deck.weapons, *deck.rooms)
                if c not in mine and c not in envelope]
        for order in _splits(rest, sizes):
            where = {c: others[i] for i, part in enumerate(order) for c in part}
            if not fits(where, envelope):
                continue
            w = math.exp(sum(PRIOR.log_p(frozenset(c for c in show.triple
                                                   if where.get(c) == show.refuter), show)
                             for show in shows))
            weight_sum += w
            for c, h in where.items():
                totals[(h, c)] = totals.get((h, c), 0.0) + w
            for c in envelope:
                totals[("envelope", c)] = totals.get(("envelope", c), 0.0) + w
    assert weight_sum > 0
    out = {key: w / weight_sum for key, w in totals.items()}
    out.update({(me, c): 1.0 for c in mine})  # the reader's own column, where it is drawn
    return out


def _splits(cards: list[str], sizes: list[int]) -> Any:
    """Every way of dealing `cards` into hands of these sizes, in order."""
    if not sizes:
        yield ()
        return
    for part in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in part]
        for tail in _splits(rest, sizes[1:]):
            yield (part, *tail)


def _same(shown: dict[tuple[str, str], float], want: dict[tuple[str, str], float],
          tol: float) -> None:
    """Every figure on the page equals `want`'s (a card a holder cannot hold: 0)."""
    assert shown, "no figure on the page"
    worst = max(abs(p - want.get(key, 0.0)) for key, p in shown.items())
    assert worst <= tol, (worst, [(k, p, want.get(k, 0.0)) for k, p in shown.items()
                                  if abs(p - want.get(k, 0.0)) > tol][:5])


def _p1_move(page: Any, rng: random.Random, accuse: bool = True) -> None:
    """One move of ann's, as a person makes it: show the first card she may show; accuse once
    the envelope is certain (if `accuse`); end her turn after suggesting; else suggest three
    cards she does not hold, drawn at random."""
    before = app(page, "a.state.lastSeq")
    envelope = app(page, "a.belief.marginals.envelope") or {}
    mine = set(app(page, f"a.state.hands['{ME}'] || []"))
    if page.locator("#board [data-show]").count():
        page.click("#board [data-show] >> nth=0")
    else:
        certain = [c for c, p in envelope.items() if p >= 1.0]
        if accuse and len(certain) == 3 and page.locator("#board [data-act=accuse]").count():
            for card in certain:
                kind = _kind_of(page, card)
                page.select_option(f"#board select[name={kind}]", card)
            page.click("#board [data-act=accuse]")
        elif page.locator("#board [data-act=suggest]").count():
            for kind in ("suspect", "weapon", "room"):
                offered = page.eval_on_selector_all(f"#board select[name={kind}] option",
                                                    "os => os.map(o => o.value)")
                fresh = [c for c in offered if c not in mine] or offered
                page.select_option(f"#board select[name={kind}]", rng.choice(sorted(fresh)))
            page.click("#board [data-act=suggest]")
        else:
            page.click("#board [data-act=end_turn]")
    page.wait_for_function(f"window.__app.state.lastSeq > {before}", timeout=60_000)


def _kind_of(page: Any, card: str) -> str:
    for kind in ("suspect", "weapon", "room"):
        if card in page.eval_on_selector_all(f"#board select[name={kind}] option",
                                            "os => os.map(o => o.value)"):
            return kind
    raise AssertionError(f"{card} is in no picker")


def _open_table(page: Any, web_server: WebServer, variant: str) -> str:
    """A table from the lobby form (ann at P1, bots in the other seats), the notebook open,
    the heading naming ann as the board does once the match names its players."""
    table_id = create_table_in_lobby(page, web_server, "ann", advice=False, variant=variant)
    page.wait_for_selector("#board .clue-seats .seat")
    if page.get_attribute("button.ov-toggle", "aria-pressed") != "true":
        page.click("button.ov-toggle")
    page.wait_for_function("document.querySelector('.table-head h1').textContent"
                           ".endsWith('you are ann')", timeout=30_000)
    assert "ann (you)" in page.inner_text(f"#board .seat[data-seat='{ME}']")
    assert "Player 1" not in page.inner_text(".table-head h1")
    return table_id


def _shown_to_me(page: Any) -> bool:
    return bool(app(page, f"a.events.some(e => e.type === 'card_shown' && e.to === '{ME}' "
                          f"&& e.seat !== '{ME}' && e.card)"))


def _to_a_weighed_position(page: Any, web_server: WebServer, rng: random.Random
                           ) -> tuple[str, dict[tuple[str, str], float]]:
    """A clue-mini table where ann is to move, her belief exact, and the cards shown to her
    move some figure by MOVED or more (by the enumeration); the enumerated layer."""
    for _ in range(TABLES):
        table_id = _open_table(page, web_server, "clue-mini")
        while True:
            page.wait_for_function(f"({OFFERED}) || ({OVER})", timeout=60_000)
            if app(page, "a.state.phase") == "finished":
                break
            if app(page, "a.belief.status") == "exact" and _shown_to_me(page):
                want = enumerate_layer(app(page, "a.events"), ME)
                exact = _flat(app(page, "a.belief.marginals"))
                if max(abs(want.get(k, 0.0) - p) for k, p in exact.items()) >= MOVED:
                    return table_id, want
            _p1_move(page, rng)
    raise AssertionError(f"no card shown to ann moved the odds in {TABLES} tables")


def _to_a_card_shown(page: Any, web_server: WebServer, rng: random.Random) -> None:
    """A full-deck table where a card has been shown to ann and she is to move, the layer
    switched on. Ann never accuses (that would end the match), but when her three suggested
    cards are all in the envelope nobody shows one, and a bot may win first: then another
    table, up to TABLES."""
    for _ in range(TABLES):
        _open_table(page, web_server, "clue")
        page.click(f"#overlay .ov-model [data-model='{MODEL}']")
        while True:
            page.wait_for_function(f"({OFFERED}) || ({OVER})", timeout=60_000)
            if app(page, "a.state.phase") == "finished":
                break
            if _shown_to_me(page):
                return
            _p1_move(page, rng, accuse=False)
    raise AssertionError(f"no card was shown to ann in {TABLES} tables")


def _open_details(page: Any) -> None:
    page.evaluate("document.querySelectorAll('#overlay details').forEach(d => { d.open = true; })")


def test_the_show_aware_layer_is_shown_beside_the_exact_one(context: Any,
                                                            web_server: WebServer) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    frames = Frames(page)
    rng = random.Random(32)
    table_id, want = _to_a_weighed_position(page, web_server, rng)
    seq = app(page, "a.belief.seq")
    belief = app(page, "a.belief.marginals")
    exact = _cells(page)
    _same(exact, _flat(belief), 1e-12)
    assert page.get_attribute("#overlay", "data-shown") == "exact"
    assert "counts as equally likely" in page.inner_text("#overlay .accuracy")

    # the layer asked for: the exact figures dimmed and said to be the exact ones, meanwhile
    frames.hold = True
    page.click(f"#overlay .ov-model [data-model='{MODEL}']")
    page.wait_for_selector("#overlay[data-shown='waiting'] .clue-figures.pending")
    waiting = page.inner_text("#overlay .accuracy")
    assert "Weighing" in waiting and "exact ones" in waiting, waiting
    assert _cells(page) == exact
    pressed = page.get_attribute(f"#overlay .ov-model [data-model='{MODEL}']", "aria-pressed")
    assert pressed == "true"
    for _ in range(600):  # the answer reaches the test, not yet the page (a bound on a hang)
        if frames.held:
            break
        page.wait_for_timeout(100)
    assert frames.held, ("no odds answer came", page.inner_text("#overlay .accuracy"))
    assert page.get_attribute("#overlay", "data-shown") == "waiting"
    frames.release()
    page.wait_for_selector("#overlay[data-shown='shows']", timeout=30_000)

    # every figure is the server's answer for this seq, the model's for ann's view, and the
    # enumeration's
    answer = frames.answers[-1]
    assert answer["model"] == MODEL and answer["observer"] == ME and answer["seq"] == seq
    assert app(page, "a.belief.seq") == seq
    assert page.get_attribute("#overlay", "data-seq") == str(seq)
    assert answer["exact"] and answer["weighed"] >= 1
    shown = _cells(page)
    assert set(shown) == set(_flat(answer["marginals"]))
    _same(shown, _flat(answer["marginals"]), 1e-12)
    seen = [parse_event(e) for e in app(page, "a.events")][:seq]
    mine = behaviour_odds(seen, ME, random.Random(0))
    assert mine["exact"]
    _same(shown, _flat(mine["marginals"]), 1e-9)
    _same(shown, want, 1e-6)  # the answer is rounded to 6 places
    envelope = _envelope_odds(page)
    assert envelope == pytest.approx(answer["marginals"]["envelope"], abs=1e-12)
    moved = max(abs(shown[k] - p) for k, p in exact.items())
    assert moved >= MOVED, moved
    # the exact belief is untouched by the switch
    assert app(page, "a.belief.marginals") == belief
    words = page.inner_text("#overlay .accuracy")
    assert "not a fact" in words and MODEL in words and "you were shown" in words, words
    assert "exact under the model" in words, words
    assert f"about {js_round(answer['ess'])} equally likely deals" in words, words
    assert not re.search(r"\bP[1-6]\b", words), words
    print(f"seq {seq}: {answer['weighed']} cards shown weighed, ESS {answer['ess']}, "
          f"{answer['samples']} deals listed; largest move from the exact figures {moved:.3f}")
    print(f"words: {words}")
    for width in (1280, 360):  # as it first shows, then with every fold open
        shot = f"clue-shows-layer{'-phone' if width < 600 else ''}"
        assert_reads_well(panel_at(page, width, shot=shot), {"P2", "P3"},
                          f"the layer at {width} px")
    _open_details(page)
    assert answer["label"] in page.inner_text("#overlay details.clue-model")
    for width in (1280, 360):
        assert_reads_well(panel_at(page, width), {"P2", "P3"}, f"the layer, opened, at {width} px")

    # back to the exact layer: the belief's own figures, the same as before, the exact words
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay[data-shown='exact']")
    assert _cells(page) == exact
    assert "counts as equally likely" in page.inner_text("#overlay .accuracy")
    for width in (1280, 360):
        assert_reads_well(panel_at(page, width), {"P2", "P3"}, f"the exact odds at {width} px")

    # the replay of the finished match: the step's layer is the replay route's answer
    page.click(f"#overlay .ov-model [data-model='{MODEL}']")
    while True:
        page.wait_for_function(f"({OFFERED}) || ({OVER})", timeout=60_000)
        if app(page, "a.state.phase") == "finished":
            break
        _p1_move(page, rng)
    page.goto("about:blank")
    page.goto(f"{web_server.base}/#replay={table_id}&perspective={ME}&step={seq}")
    page.wait_for_selector(f"#overlay[data-shown='shows'][data-seq='{seq}']", timeout=60_000)
    route = web_server.get_json(
        f"/api/matches/{table_id}/odds?seq={seq}&observer={ME}&model={MODEL}")
    assert route["seq"] == seq and route["model"] == MODEL
    _same(_cells(page), _flat(route["marginals"]), 1e-12)
    _same(_cells(page), shown, 1e-9)  # the same view, the same layer
    page.click("#overlay .ov-model [data-model='uniform']")
    page.wait_for_selector("#overlay[data-shown='exact']")
    assert errors == [], errors


def test_on_the_full_deck_the_layer_says_its_error_and_effective_sample(
        context: Any, web_server: WebServer) -> None:
    """Clue's full deck (four seats): the layer is sampled; the figures are the answer's, the
    words carry its widest error and effective sample, each figure's name its own error."""
    page = context.new_page()
    errors = watch_errors(page)
    frames = Frames(page)
    rng = random.Random(42)
    _to_a_card_shown(page, web_server, rng)
    seq = app(page, "a.belief.seq")
    page.wait_for_selector(f"#overlay[data-shown='shows'][data-seq='{seq}']", timeout=60_000)
    answer = next(a for a in reversed(frames.answers) if a["seq"] == seq)
    assert not answer["exact"] and answer["error_95"] is not None and answer["weighed"] >= 1
    _same(_cells(page), _flat(answer["marginals"]), 1e-12)
    words = page.inner_text("#overlay .accuracy")
    said = re.search(r"±(\d+\.\d) points", words)
    assert words.startswith("Estimate, not exact") and said, words
    assert abs(float(said.group(1)) - answer["error_95"] * 100) <= 0.05 + 1e-9, words
    assert f"about {js_round(answer['ess'])} independent ones" in words, words
    assert "not a fact" in words and MODEL in words, words
    labels = page.eval_on_selector_all("#overlay td.c[data-err]",
                                       "cs => cs.map(c => c.getAttribute('aria-label'))")
    assert labels and all(" ±" in label for label in labels), labels[:3]
    print(f"clue seq {seq}: ESS {answer['ess']}, {answer['samples']} drawn, widest ±"
          f"{answer['error_95']:.3f}; words: {words}")
    for width in (1280, 360):
        assert_reads_well(panel_at(page, width), {"P2", "P3", "P4"}, f"sampled, at {width} px")
    assert errors == [], errors


def test_the_layer_says_when_there_is_nothing_to_weigh_and_when_it_is_rough(
        context: Any, web_server: WebServer) -> None:
    """The words for each case, from the module the page draws with: a seat shown no card yet
    and a spectator (who never sees the card) weigh nothing and say so; an estimate with few
    effective samples says to read it as rough; each sampled figure's error is its 95% one."""
    page = context.new_page()
    page.goto(web_server.base)
    said = page.evaluate("""async () => {
        const m = await import('/js/games/clue/layer.js');
        const odds = (o) => ({ observer: 'P1', weighed: 2, exact: false, ess: 62.4, samples: 1024,
            error_95: 0.083, stderr: { P2: { Rope: 0.02 } }, ...o });
        return [m.layerWords(odds({ weighed: 0, exact: true }), 'P1'),
                m.layerWords(odds({ observer: 'spectator', weighed: 0, exact: true }), null),
                m.layerWords(odds({}), 'P1'), m.layerWords(odds({ ess: 3.2 }), 'P1'),
                m.layerErrors(odds({})), m.layerErrors(odds({ exact: true }))];
    }""")
    seat, spectator, many, few, errors, none = said
    assert seat.startswith("No card has been shown to you yet, so there is nothing to weigh"), seat
    assert "Once a card is shown to you" in seat and "not a fact" in seat, seat
    assert spectator.startswith("A spectator never sees which card is shown"), spectator
    assert "Once" not in spectator and "not a fact" in spectator, spectator
    assert "±8.3 points" in many and "1,024 sampled deals" in many, many
    assert "the 2 cards you were shown were" in many and "about 62 independent ones." in many, many
    assert "rough" not in many and MODEL in many, many
    assert "about 3 independent ones: few, so read the figures as rough" in few, few
    assert errors == {"P2": {"Rope": pytest.approx(1.959963984540054 * 0.02)}}
    assert none is None
