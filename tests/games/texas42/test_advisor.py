"""Texas 42's advisor (games.advice): the bidding oracle while bidding and naming trump, PIMC
plays while playing; a pure function of the asking seat's own view (the leak tests: referee
logs that differ only in what the seat cannot see give the same advice), every number
labelled with its model and evaluator, budgets in work: no seed or clock from the caller
changes a figure."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.advice import AdviceRefused, advisor_of
from games.texas42 import advisor as module
from games.texas42.advisor import ADVISOR, BID_LABEL, PLAY_LABEL
from games.texas42.dominoes import SEATS, TILES
from games.texas42.events import Dealt, HandStarted
from games.texas42.game import TEXAS42
from games.texas42.oracle import COMPLETION_MODEL, DD, GREEDY, LEVELS
from games.texas42.rules import evolve, legal_tiles
from games.texas42.suits import TRUMPS, trump_name
from tests.games.texas42.helpers import match

SMALL = {"oracle_n": 4, "play_n": 6}
"""Tests that need not the full N ask the module's advise with a smaller one."""


@pytest.fixture(scope="module")
def events() -> list[Any]:
    return match(3, dict.fromkeys(SEATS, "greedy"))


def seen(events: list[Any], upto: int, seat: str) -> list[dict[str, Any]]:
    return [TEXAS42.event_to_dict(TEXAS42.view(e, seat)) for e in events[:upto]]


def first(events: list[Any], kind: str, after: int = 0) -> int:
    return next(i for i, e in enumerate(events) if e.type == kind and i >= after)


def state_at(events: list[Any], upto: int) -> Any:
    state = None
    for e in events[:upto]:
        state = evolve(state, e)
    return state


def hidden_swapped(events: list[Any], upto: int, seat: str) -> list[Any]:
    """The same log with one unplayed domino of two other seats exchanged (their dealt
    hands and the seed differ; `seat`'s view up to `upto` is the same)."""
    state = state_at(events, upto)
    a, b = [s for s in SEATS if s != seat][:2]
    x = sorted(state.hands[a])[0]
    y = sorted(state.hands[b])[0]
    out = []
    for e in events[:upto]:
        if isinstance(e, Dealt) and e.hand == state.hand and e.seat in (a, b):
            tiles = [str(y) if t == str(x) else str(x) if t == str(y) else t for t in e.tiles]
            e = e.model_copy(update={"tiles": sorted(tiles)})
        if isinstance(e, HandStarted) and e.hand == state.hand:
            e = e.model_copy(update={"seed": "ab" * 32})
        out.append(e)
    return out


def test_texas42_offers_an_advisor_through_the_game_interface() -> None:
    assert advisor_of(TEXAS42) is ADVISOR


def test_bidding_advice_is_the_oracle_table_labelled_for_the_seat_to_bid(events) -> None:
    k = first(events, "bid")
    seat = events[k].seat
    # the advisor the server calls: N = 150 even with no time left (the figures do not
    # depend on the server's seed or clock: tests/games/texas42/test_oracle.py)
    advice = ADVISOR.advise(seen(events, k, seat), seat, 1, 0.0)
    assert advice["kind"] == "bid" and advice["label"] == BID_LABEL and advice["seat"] == seat
    oracle = advice["oracle"]
    hand = sorted(str(t) for t in state_at(events, k).hands[seat])
    assert sorted(oracle["hand"]) == hand
    assert oracle["completion_model"] == COMPLETION_MODEL and oracle["evaluator"] == DD
    assert oracle["N"] == 150 and oracle["stopped"].startswith("N reached")
    assert set(oracle["cells"]) == {trump_name(t) for t in TRUMPS}
    assert oracle["max_trump_E_score"] <= oracle["E_max_trump_score"] + 1e-9
    for row in oracle["cells"].values():
        assert set(row) == {str(level) for level in LEVELS}
        for cell in row.values():
            assert cell["completion_model"] == COMPLETION_MODEL
            assert cell["evaluator"] == DD and cell["lower_evaluator"] == GREEDY
            assert cell["P_dd"] >= cell["P_greedy"]
            low, high = cell["P_dd_CI"]
            assert 0 <= low <= cell["P_dd"] <= high <= 1
            assert cell["score_q5"] <= cell["score_q50"] <= cell["score_q95"]
    assert advice["legal_bids"][0] == 0 and 30 in advice["legal_bids"]
    json.dumps(advice)  # JSON-ready


def test_naming_trump_is_advised_by_the_oracle_too(events) -> None:
    k = first(events, "trump_named")
    seat = events[k].seat
    advice = module.advise(seen(events, k, seat), seat, **SMALL)
    assert advice["kind"] == "trump" and "legal_bids" not in advice
    verdict = ADVISOR.verdict(advice, events[k])
    assert verdict["played"] == {"kind": "trump", "trump": events[k].trump}
    assert 1 <= verdict["rank"] <= len(TRUMPS)


def test_play_advice_ranks_every_legal_domino_with_labelled_figures(events) -> None:
    k = first(events, "played")
    k = first(events, "played", k + 9)  # a few tricks in: deals solve quickly
    seat = events[k].seat
    state = state_at(events, k)
    advice = module.advise(seen(events, k, seat), seat, **SMALL)
    assert advice["kind"] == "play" and advice["label"] == PLAY_LABEL
    assert advice["deals"] == SMALL["play_n"] or len(legal_tiles(state, seat)) == 1
    assert {m["tile"] for m in advice["moves"]} == {str(t) for t in legal_tiles(state, seat)}
    points = [m["team_points"] for m in advice["moves"]]
    assert points == sorted(points, reverse=True)
    for m in advice["moves"]:
        assert 0 <= m["team_points"] <= 42 and 0 <= m["p_bid_made"] <= 1
        assert m["samples"] == advice["deals"]
    verdict = ADVISOR.verdict(advice, events[k])
    assert verdict["played"] == {"kind": "play", "tile": events[k].tile}
    assert 1 <= verdict["rank"] <= len(advice["moves"])


@pytest.mark.parametrize("kind", ["bid", "played"])
def test_advice_depends_only_on_the_seat_s_own_view(events, kind: str) -> None:
    k = first(events, kind, first(events, "played") + 5 if kind == "played" else 0)
    seat = events[k].seat
    other = hidden_swapped(events, k, seat)
    assert [TEXAS42.event_to_dict(e) for e in other] != [TEXAS42.event_to_dict(e)
                                                           for e in events[:k]]
    assert seen(other, k, seat) == seen(events, k, seat)
    # a budget in deals, seeded from the position: the same answer from either log
    def run(log: list[Any]) -> dict[str, Any]:
        return module.advise(seen(log, k, seat), seat, **SMALL)

    assert run(other) == run(events)


def test_the_advice_never_names_a_domino_the_seat_cannot_see(events) -> None:
    for kind in ("bid", "played"):
        k = first(events, kind, first(events, "played") + 5 if kind == "played" else 0)
        seat = events[k].seat
        state = state_at(events, k)
        hidden = {str(t) for s in SEATS if s != seat for t in state.hands[s]}
        text = json.dumps(module.advise(seen(events, k, seat), seat, **SMALL))
        named = {str(t) for t in TILES if f'"{t}"' in text}
        assert not named & hidden


def test_advice_is_refused_with_a_typed_reason(events) -> None:
    k = first(events, "bid")
    state = state_at(events, k)
    seat = events[k].seat
    other = next(s for s in SEATS if s != seat)
    with pytest.raises(AdviceRefused) as caught:
        ADVISOR.check(state, other)
    assert caught.value.code == "not_your_turn"
    ADVISOR.check(state, seat)  # the seat to bid may ask
    with pytest.raises(AdviceRefused) as caught:
        ADVISOR.check(state_at(events, 1), seat)
    assert caught.value.code == "wrong_phase"


def test_a_bid_s_verdict_is_the_oracle_cell_of_the_bid_made(events) -> None:
    k = next(i for i, e in enumerate(events) if e.type == "bid" and e.bid > 0)
    seat = events[k].seat
    advice = module.advise(seen(events, k, seat), seat, **SMALL)
    verdict = ADVISOR.verdict(advice, events[k])
    assert verdict["played"] == {"kind": "bid", "bid": events[k].bid}
    assert verdict["trump"] == advice["oracle"]["trump"]
    assert verdict["cell"] == advice["oracle"]["cells"][verdict["trump"]][str(events[k].bid)]


def test_play_advice_is_the_same_whatever_the_server_s_seed_and_clock(events) -> None:
    """Work budgets: the hand's first play (the costliest search) is advised over the same
    N deals whether the server allows no time or plenty, with any seed; before, a spent
    wall-clock budget cut the deals to one."""
    k = first(events, "played")
    seat = events[k].seat
    state = state_at(events, k)
    view = seen(events, k, seat)
    fast = ADVISOR.advise(view, seat, 6, 0.0)
    assert fast["deals"] == module.PLAY_N
    assert {m["tile"] for m in fast["moves"]} == {str(t) for t in legal_tiles(state, seat)}
    assert ADVISOR.advise(view, seat, 7, 1000.0) == fast
