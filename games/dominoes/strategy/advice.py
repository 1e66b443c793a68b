"""Dominoes' advisor behind games.advice: games.dominoes.strategy.advisor's ranked moves,
under the deal model asked for (`uniform` or `behaviour:greedy`), named in the payload with
its ESS. Its budgets are work (advisor.SAMPLES deals, advisor.NODES solver nodes), its deals
seeded from the position: the server's wall clock (`seconds`) only decides when the server
gives up with `busy`, and the server's per-request seed is not used, so the same position
gets the same advice at a table, in a replay and on any machine. Dominoes declares it
(`Capabilities.advisor`); it is `flat`: its ranked moves are the `advice` message's own
`moves`, the shape that message has had since it was dominoes' only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.advice import AdviceRefused
from games.dominoes.events import parse_event
from games.dominoes.rules import legal_moves
from games.dominoes.state import MatchState
from games.dominoes.strategy.advisor import MODELS, NODES, SAMPLES, UNIFORM, advise_with
from games.dominoes.tiles import as_seat
from games.interface import JSON


class DominoesAdvisor:
    """games.advice.Advisor for dominoes (plain object: pickles by class)."""

    seconds = 0.8
    """Only the base of the server's give-up bound (it answers `busy` past it and its
    margin): the answer's work is SAMPLES deals and NODES solver nodes, about 0.8 s of an idle
    core, and no figure depends on this."""
    models = MODELS
    """The deal models `advise` takes (games.advice.Advisor.models)."""
    flat = True
    """Its payload's moves fill the `advice` message's own fields (games.advice)."""

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
        """{kind: "moves", model, label, ess, pool, exact_pool, nodes, budget, moves}
        (games.dominoes.strategy.advisor). `seed` and `seconds` are not used: the deals are
        seeded from the position and the budgets are work (module docstring)."""
        parsed = [parse_event(e) for e in view]
        advised = advise_with(parsed, as_seat(seat), samples=SAMPLES, nodes=NODES, model=model)
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
