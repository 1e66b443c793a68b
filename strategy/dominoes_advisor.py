"""Dominoes' advisor behind games.advice: strategy.advisor's ranked moves, under the deal
model asked for (`uniform` or `behaviour:greedy`), named in the payload with its ESS.

It lives in strategy/ because the games layer may not import the strategy (dominoes' solver
and samplers are here); server.strategy_processes.advisor_for hands it out for dominoes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.advice import AdviceRefused
from games.dominoes.events import parse_event
from games.dominoes.rules import legal_moves
from games.dominoes.state import MatchState
from games.interface import JSON
from strategy.advisor import MODELS, UNIFORM, advise_with

SAMPLES = 32
"""Deals drawn per answer (fewer if the budget ends first)."""


class DominoesAdvisor:
    """games.advice.Advisor for dominoes (plain object: pickles by class)."""

    seconds = 0.8
    """A person asked: the answer comes in about a second."""
    models = MODELS
    """The deal models `advise` takes (games.advice.Advisor.models)."""

    def check(self, state: MatchState | None, seat: str) -> None:
        if state is None or state.phase != "playing" or state.hand is None:
            raise AdviceRefused("wrong_phase", "no hand is in play")
        turn = state.hand.turn
        if turn != seat:
            raise AdviceRefused("not_your_turn", f"advice is for the seat to play ({turn})")
        if not legal_moves(state, turn):
            raise AdviceRefused("no_choice", "you have no tile that fits: pass")

    def advise(self, view: Sequence[JSON], seat: str, seed: int, seconds: float,
               model: str = UNIFORM) -> JSON:
        """{kind: "moves", model, label, ess, pool, exact_pool, moves} (strategy.advisor)."""
        parsed = [parse_event(e) for e in view]
        advised = advise_with(parsed, seat, samples=SAMPLES,  # type: ignore[arg-type]
                              rng=random.Random(seed), time_budget=seconds, model=model)
        return {"kind": "moves", **advised.to_dict()}

    def decision(self, event: Any) -> str | None:
        return event.seat if event.type == "tile_played" else None

    def verdict(self, advice: JSON, event: Any) -> JSON:
        """The move played and its rank (1 = best); if both ends showed one number the
        advisor lists that move once: its row then names the end actually played."""
        rows = advice["moves"]
        played = {"tile": str(event.tile), "end": event.end}
        rank = next((i + 1 for i, r in enumerate(rows)
                     if r["tile"] == played["tile"] and r["end"] == played["end"]), None)
        if rank is None:
            rank = next((i + 1 for i, r in enumerate(rows) if r["tile"] == played["tile"]),
                        None)
            if rank is not None:
                rows[rank - 1] = {**rows[rank - 1], "end": played["end"]}
        return {"played": played, "rank": rank}
