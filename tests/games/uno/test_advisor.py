"""Uno's advisor: PIMC over the seat's belief. The same view gives the same advice; every legal
move is ranked with its win share inside its interval; the label says where the worlds came
from (exact draws, or the weighted estimate with its effective sample size); the verdicts
rank the move made."""

from __future__ import annotations

import json
import random
from typing import Any

from games.play import play_match
from games.uno.advisor import ADVISOR, advise
from games.uno.events import CardPlayed
from games.uno.game import UNO
from games.uno.rules import legal_moves
from games.uno.wire import command_to_wire

DEALS = 16
"""Few worlds: the tests check the shape and the determinism, not the figures' precision."""


def greedy_match(variant: str, seed: int) -> list[Any]:
    return play_match(UNO, variant, {s: UNO.bots()["greedy"] for s in ("S", "N")},
                      random.Random(seed))


def choices(events: list[Any]) -> list[tuple[int, str, Any]]:
    """(index, seat, state) before every move with more than one legal choice."""
    out, state = [], None
    for i, event in enumerate(events):
        state = UNO.evolve(state, event)
        for seat in UNO.to_act(state):
            if len(legal_moves(state, seat)) > 1:
                out.append((i, seat, state))
    return out


def view_of(events: list[Any], seat: str) -> list[dict[str, Any]]:
    return [UNO.event_to_dict(UNO.view(e, seat)) for e in events]


def test_the_same_view_gives_the_same_ranked_moves_with_their_intervals() -> None:
    events = greedy_match("uno-2-mini", 5)
    i, seat, state = choices(events)[0]
    view = view_of(events[: i + 1], seat)
    advice = advise(view, seat, DEALS)
    assert advice == advise(json.loads(json.dumps(view)), seat, DEALS)
    legal = sorted(json.dumps(command_to_wire(m), sort_keys=True)
                   for m in legal_moves(state, seat))
    ranked = advice["moves"]
    assert sorted(json.dumps({k: m[k] for k in m if k in ("kind", "card", "colour")},
                             sort_keys=True) for m in ranked) == legal
    assert [m["p_win"] for m in ranked] == sorted((m["p_win"] for m in ranked), reverse=True)
    for m in ranked:
        assert m["ci"][0] <= m["p_win"] <= m["ci"][1] and m["deals"] == DEALS
    assert advice["exact"] is True and advice["sampler"] == ["exact"]
    assert "exact draws" in advice["label"] and "Wilson" in advice["label"]
    # the verdict of the move actually made
    made = next(e for e in events[i + 1:] if isinstance(e, CardPlayed))
    assert ADVISOR.decision(made) == seat
    verdict = ADVISOR.verdict(advice, made)
    assert verdict["played"]["card"] == made.card and 1 <= verdict["rank"] <= len(ranked)
    top = ranked[0]
    best = CardPlayed(seat=seat, card=top["card"], colour=top.get("colour"))
    assert ADVISOR.verdict(advice, best)["rank"] == 1


def test_the_weighted_estimate_is_labelled_with_its_effective_sample_size() -> None:
    """Past the exact count's budget (seq 61 of this full-deck match), the worlds come from
    the belief's importance-weighted walks, and the intervals rest on their ESS."""
    events = greedy_match("uno-2", 3)
    view = view_of(events[:61], "N")
    advice = advise(view, "N", DEALS)
    assert advice["sampler"] == ["weighted"] and advice["exact"] is False
    assert advice["ess"] is not None and advice["ess"] > 0
    assert "effective sample size" in advice["label"] and "estimate" in advice["label"]
    worth = min(DEALS, advice["ess"])
    for m in advice["moves"]:  # wider than over DEALS alone when the ESS is smaller
        assert m["ci"][0] <= m["p_win"] <= m["ci"][1]
    assert worth <= DEALS
