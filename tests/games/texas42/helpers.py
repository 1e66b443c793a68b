"""Small builders for Texas 42 tests: a match started, a hand in a chosen position."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.play import play_match
from games.texas42.commands import StartMatch
from games.texas42.dominoes import SEATS, Tile, parse_tile
from games.texas42.game import TEXAS42, VARIANT
from games.texas42.rules import decide, evolve
from games.texas42.state import State

PLAYERS = {s: f"p{s}" for s in SEATS}


def t(text: str) -> Tile:
    return parse_tile(text)


def fold(events: list[Any], state: State | None = None) -> State:
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def started(**options: Any) -> State:
    return fold(decide(None, StartMatch("m", VARIANT, PLAYERS, **options)))


def playing(hands: dict[str, str], trump: int, leader: str = "S", bid: int = 30,
            bidder: str | None = None, points: dict[str, int] | None = None,
            tricks_done: int = 0, **options: Any) -> State:
    """A hand in play with the given hands (space-separated tiles), trump and leader."""
    base = started(**options)
    bidder = bidder or leader
    bids = tuple((s, bid if s == bidder else 0) for s in SEATS)
    parsed = {s: frozenset(t(x) for x in text.split()) for s, text in hands.items()}
    fake_trick = tuple((s, t("0-0")) for s in SEATS)
    return replace(base, phase="playing", hand=1, dealer="E", seed="00" * 32, hands=parsed,
                   counts={s: len(parsed[s]) for s in SEATS}, bids=bids, trump=trump,
                   leader=leader, tricks=(fake_trick,) * tricks_done,
                   points=points or {"NS": 0, "EW": 0})


def match(seed: int, bots: dict[str, str] | None = None, **options: Any) -> list[Any]:
    made = TEXAS42.bots()
    names = bots or dict.fromkeys(SEATS, "random")
    return play_match(TEXAS42, VARIANT, {s: made[names[s]] for s in SEATS},
                      random.Random(seed), options=options, match_id=f"t42-{seed}")
