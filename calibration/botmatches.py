"""Stored matches between strategy's dominoes bots (random, greedy, pimc; mixed tables), so
the report has greedy and pimc players to be scored on.

`selfplay` stores the rules' own simple policies (random, heaviest); strategy's bots play
through the generic match loop here, each seat's bot named in `match_started.players` (the
behaviour model fits one β per player name).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from games.dominoes.game import DOMINOES
from games.interface import Seat
from games.play import play_match
from strategy.bots import Bot, make_bot
from strategy.view import SeatView


class SeatBot:
    """A strategy bot behind the game interface's Bot: it decides from its seat's view."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose(self, view: Sequence[Any], seat: Seat, rng: random.Random) -> Any:
        command = self.bot.act(SeatView.from_events(view, seat))
        if command is None:
            raise ValueError(f"{self.bot.name} at {seat} was asked to move out of turn")
        return command


def bot_matches(variant: str, bots: Sequence[str], count: int, seed: int, target: int = 1,
                options: dict[str, dict[str, Any]] | None = None) -> Iterator[list[Any]]:
    """`count` complete matches, bot names given per seat in turn order (one name: every
    seat); match ids `cal-<seed>-<k>`."""
    seats = DOMINOES.variants()[variant].seats
    names = list(bots) * len(seats) if len(bots) == 1 else list(bots)
    if len(names) != len(seats):
        raise ValueError(f"{variant} has {len(seats)} seats: name one bot, or one per seat")
    for k in range(count):
        players = {
            s: SeatBot(make_bot(n, seed=f"{seed}:{k}:{s}", **(options or {}).get(n, {})))
            for s, n in zip(seats, names, strict=True)
        }
        rng = random.Random(f"cal:{seed}:{k}")
        events = play_match(DOMINOES, variant, players, rng, {"target": target},
                            match_id=f"cal-{seed}-{k}")
        named = dict(zip(seats, names, strict=True))
        events[0] = events[0].model_copy(update={"players": named})
        yield events
