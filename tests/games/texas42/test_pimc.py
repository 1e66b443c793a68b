"""The pimc bot: legal, bounded by its node budget, greedy when nothing fits the budget."""

from __future__ import annotations

import random

from games.texas42.bots import GreedyBot
from games.texas42.dominoes import TILES
from games.texas42.game import TEXAS42
from games.texas42.pimc import PimcBot
from games.texas42.rules import evolve, legal_commands
from tests.games.texas42.helpers import match


def test_with_no_budget_pimc_plays_the_greedy_policy() -> None:
    events = match(31, {"S": "greedy", "W": "greedy", "N": "greedy", "E": "greedy"},
                   target=1)
    state = None
    views: list = []
    checked = 0
    for event in events:
        if state is not None and TEXAS42.to_act(state) == ("S",) and state.phase == "playing":
            assert PimcBot(budget=0).choose(views, "S", random.Random(1)) == \
                GreedyBot().choose(views, "S", random.Random(1))
            checked += 1
        state = evolve(state, event)
        views.append(TEXAS42.view(event, "S"))
    assert checked >= 3


def test_pimc_plays_legal_moves_through_a_match() -> None:
    events = match(32, {"S": "pimc", "W": "greedy", "N": "pimc", "E": "greedy"}, target=1)
    TEXAS42.check_log(events)
    assert events[-1].type == "match_ended"


def test_pimc_late_in_a_hand_picks_a_legal_tile_by_solving_samples() -> None:
    events = match(33, {"S": "greedy", "W": "greedy", "N": "greedy", "E": "greedy"},
                   target=1)
    state = None
    views: list = []
    bot = PimcBot(samples=4)
    for event in events:
        if (state is not None and state.phase == "playing" and len(state.tricks) >= 4
                and TEXAS42.to_act(state) == ("S",)):
            totals = bot.totals(views, "S", random.Random(2))
            legal = {c.tile for c in legal_commands(state, "S")}
            assert totals and {TILES[i] for i in totals} <= legal
            command = bot.choose(views, "S", random.Random(2))
            assert command.tile in legal
            return
        state = evolve(state, event)
        views.append(TEXAS42.view(event, "S"))
    raise AssertionError("no late decision for S in this match")
