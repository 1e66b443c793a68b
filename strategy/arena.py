"""Tournaments for any registered game: two of its bots over mirrored pairs of matches.

A game may declare a tournament of its own (`Capabilities.tournament`, e.g. one that knows
hands, points and budgets); this one needs only the game interface. Each pair plays the same
deals twice (the referee's random source is the pair's own, apart from the bots'), with bot A in
the even-indexed seats (S, N in partnership dominoes: a team) and then in the others, so the
deals' luck cancels within a pair. Pure: the random sources come from the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.interface import Bot, Game, table_seats
from games.intervals import wilson
from games.play import play_match


@dataclass(frozen=True)
class PairResult:
    """A's score in each match of a pair: 1 a win, 0.5 a draw, 0 a loss."""

    scores: tuple[float, float]
    logs: tuple[list[Any], list[Any]]


def _score(game: Game, events: list[Any], seats_a: tuple[str, ...]) -> float:
    state: Any = None
    for event in events:
        state = game.evolve(state, event)
    winners = set(game.winners(state))
    if not winners:
        return 0.5
    return 1.0 if winners <= set(seats_a) else 0.0


def play_pair(game: Game, variant: str, bot_a: Bot, bot_b: Bot, seed: int, pair: int,
              options: dict[str, Any] | None = None) -> PairResult:
    """One mirrored pair: the same deals, bot A in the even seats and then in the odd ones."""
    seats = table_seats(game, variant, options)  # an option may decide them (Clue's players)
    sides = (seats[0::2], seats[1::2])
    scores: list[float] = []
    logs: list[list[Any]] = []
    for half in (0, 1):
        seats_a = sides[half]
        bots = {s: bot_a if s in seats_a else bot_b for s in seats}
        events = play_match(game, variant, bots, random.Random(f"bots:{seed}:{pair}:{half}"),
                            options, match_id=f"arena-{seed}-{pair}-{half}",
                            referee_rng=random.Random(f"deals:{seed}:{pair}"))
        scores.append(_score(game, events, seats_a))
        logs.append(events)
    return PairResult((scores[0], scores[1]), (logs[0], logs[1]))


@dataclass(frozen=True)
class ArenaReport:
    game: str
    variant: str
    bot_a: str
    bot_b: str
    matches: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """A's share: wins plus half the draws, over the matches."""
        return (self.wins + self.draws / 2) / self.matches

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.matches)
        return {"game": self.game, "variant": self.variant, "a": self.bot_a, "b": self.bot_b,
                "matches": self.matches, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "score": round(self.score, 4),
                "win_rate": round(self.wins / self.matches, 4),
                "win_rate_ci95": [round(low, 4), round(high, 4)]}


def arena(game: Game, variant: str, a: str, b: str, pairs: int, seed: int,
          options: dict[str, Any] | None = None) -> ArenaReport:
    """`pairs` mirrored pairs between the game's bots `a` and `b` (names in `game.bots()`)."""
    bots = game.bots()
    results = [play_pair(game, variant, bots[a], bots[b], seed, pair, options)
               for pair in range(pairs)]
    scores = [s for r in results for s in r.scores]
    return ArenaReport(game.name, variant, a, b, len(scores),
                       wins=sum(s == 1.0 for s in scores), draws=sum(s == 0.5 for s in scores),
                       losses=sum(s == 0.0 for s in scores))


def pool_arena(reports: list[dict[str, Any]]) -> ArenaReport:
    """One report for the matches of several runs of the same match-up (different seeds):
    counts add up and the interval is recomputed from them (not averaged)."""
    if not reports:
        raise ValueError("nothing to pool")
    first = reports[0]
    keys = ("game", "variant", "a", "b", "options")  # options: e.g. Clue's players
    for other in reports[1:]:
        if any(other.get(k) != first.get(k) for k in keys):
            raise ValueError("these reports are not the same match-up: "
                             + ", ".join(f"{k} {first.get(k)!r} vs {other.get(k)!r}"
                                         for k in keys if other.get(k) != first.get(k)))
    try:
        return ArenaReport(first["game"], first["variant"], first["a"], first["b"],
                           *(sum(int(r[k]) for r in reports)
                             for k in ("matches", "wins", "draws", "losses")))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a tournament report of a game's own bots: {error!r}") from None
