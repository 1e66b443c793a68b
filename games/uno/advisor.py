"""Uno's advisor (games.advice): each legal move's share of won playouts (PIMC) over deals
drawn from the seat's belief.

Pure functions of the asking seat's own view. Budgets are work, never time: `DEALS` worlds
(the opponent's hand and the deck's order) drawn by the PIMC bot's sampler (games.uno.pimc:
exact draws while the count fits its budget, else the belief's importance-weighted walks
with their effective sample size, else rejection, else a relaxed count, and the label says
which), every legal move played out on the same worlds with greedy play for both seats; the
sampler is seeded from the position (a hash of the seat's view), so the same position gives
the same advice at a table, in a replay and on any machine. The server's wall clock only
decides when it gives up with `busy`.

Each move's win share carries a Wilson 95% interval over the deals, or over the walks'
effective sample size when the deals came from the weighted estimate (resampled by weight,
they are worth no more than that).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from typing import Any

from games.advice import AdviceRefused
from games.interface import JSON
from games.uno.belief import MODEL, UnoBelief
from games.uno.bots import fold, greedy_score
from games.uno.commands import Command, PlayCard
from games.uno.events import CardPlayed, parse_event
from games.uno.pimc import SOURCES, Sampler, move_values
from games.uno.rules import legal_moves
from games.uno.state import UnoState
from games.uno.wire import command_to_wire

DEALS = 48
"""Worlds per advice (the pimc bot uses 32 per move)."""
Z95 = 1.959963984540054
EVALUATOR = ("each legal move played out to the end on every drawn world with greedy play for "
             "both seats (the same worlds and playout seeds for every move); win share: the "
             "playouts won (one cut at 200 moves counts as a win for the smaller hand), with "
             "a Wilson 95% interval")


class UnoAdvisor:
    """games.advice.Advisor for Uno (plain object: pickles by class)."""

    seconds = 90.0
    """Only the server's give-up bound: the figures never depend on it."""
    replay_seconds = 90.0

    def check(self, state: UnoState | None, seat: str) -> None:
        if state is None or state.over or not state.dealt:
            raise AdviceRefused("wrong_phase", "no match in play")
        if state.turn != seat or not legal_moves(state, seat):
            raise AdviceRefused("not_your_turn", f"advice is for the seat to move "
                                                 f"({state.turn})")

    def advise(self, view: Sequence[JSON], seat: str, seed: int, seconds: float) -> JSON:
        return advise(view, seat)

    def decision(self, event: Any) -> str | None:
        return str(event.seat) if isinstance(event, CardPlayed) else None

    def verdict(self, advice: JSON, event: Any) -> JSON:
        return verdict(advice, event)


ADVISOR = UnoAdvisor()


def position_seed(view: Sequence[JSON], seat: str, deals: int) -> int:
    """The sampler's seed: the seat's view itself, never the clock or the request."""
    text = json.dumps([seat, deals, list(view)], sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def wilson(wins: float, n: float) -> tuple[float, float]:
    """Wilson's 95% interval for a share `wins / n` (n may be an effective size)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def advise(view: Sequence[JSON], seat: str, deals: int = DEALS) -> JSON:
    """The advice for `seat` now (see the module docstring)."""
    events = [parse_event(data) for data in view]
    if not events:
        raise AdviceRefused("wrong_phase", "no match in play")
    state = fold(events)
    if state.over or not state.dealt:
        raise AdviceRefused("wrong_phase", "no match in play")
    moves: list[Command] = list(legal_moves(state, seat))
    if not moves:
        raise AdviceRefused("not_your_turn", "advice is for the seat to move")
    belief = UnoBelief(seat, state.variant.name)
    for event in events:
        belief.apply(event)
    if len(moves) == 1:  # nothing to weigh: no playouts
        return {"kind": "play", "seat": seat, "only": True, "deals": 0, "exact": True,
                "moves": [{**command_to_wire(moves[0]), "p_win": None, "ci": None}],
                "label": "your only legal move: nothing to weigh", "model": MODEL}
    sampler = Sampler(belief, state)
    rng = random.Random(position_seed(view, seat, deals))
    n = deals
    values = move_values(sampler, seat, moves, n, rng)
    weighted = sampler.sources.get("weighted", 0) > 0
    ess = sampler.weighted.ess() if weighted and sampler.weighted is not None else None
    worth = min(float(n), ess) if ess is not None else float(n)
    rows: list[JSON] = []
    for move, row in zip(moves, values, strict=True):
        wins = sum(1 for v in row if v == 1.0)
        share = sum(row) / len(row)
        low, high = wilson(share * worth, worth)
        rows.append({**command_to_wire(move), "p_win": round(share, 4),
                     "ci": [round(low, 4), round(high, 4)], "wins": wins, "deals": len(row)})
    rows.sort(key=lambda r: -r["p_win"])
    sources = sorted(sampler.sources.items(), key=lambda kv: -kv[1])
    drawn = "; ".join(f"{count} {SOURCES[name]}" for name, count in sources)
    exact = all(name in ("exact", "blocks", "rejection") for name, _ in sources)
    hand = state.hands.get(seat) or ()
    plays = [m for m in moves if isinstance(m, PlayCard)]
    greedy = max(plays, key=lambda m: greedy_score(m, hand)) if plays else moves[0]
    worth_words = (f"; the intervals use the walks' effective sample size {worth:.1f}"
                   if ess is not None else "")
    return {"kind": "play", "seat": seat, "moves": rows, "deals": n, "exact": exact,
            "ess": round(ess, 1) if ess is not None else None,
            "sampler": [name for name, _ in sources], "greedy": command_to_wire(greedy),
            "evaluator": EVALUATOR, "model": MODEL,
            "label": f"{EVALUATOR}; worlds: {drawn}{worth_words}; model: {MODEL}"}


def verdict(advice: JSON, event: Any) -> JSON:
    """Where the move `event` made stands in `advice` (games.advice.Advisor.verdict)."""
    if not isinstance(event, CardPlayed):
        return {"played": None, "rank": None}
    played: JSON = {"kind": "play", "card": event.card}
    if event.colour is not None:
        played["colour"] = event.colour
    moves = advice.get("moves") or []
    index = next((i for i, m in enumerate(moves)
                  if m.get("card") == event.card and m.get("colour") == event.colour), None)
    if index is None:
        return {"played": played, "rank": None}
    p = moves[index]["p_win"]
    if p is None:  # the only legal move
        return {"played": played, "rank": 1, "p_win": None, "best": moves[0]}
    rank = 1 + sum(1 for m in moves if m["p_win"] > p + 1e-9)
    return {"played": played, "rank": rank, "p_win": p, "best": moves[0]}
