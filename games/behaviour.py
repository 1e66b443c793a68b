"""Behaviour models: how a game's players choose, declared by the game for two uses.

The exact `belief` a game gives assumes every deal consistent with an observer's view is
equally likely (`uniform`). A behaviour model (dominoes' `behaviour:greedy`) weighs those
deals by how likely the plays seen were under a model of the players; its figures are a
labelled estimate beside the exact belief, never instead of it. A game declares its models in
`Capabilities.behaviour` (name -> model); the generic layers use them

- live and in replays, for the `odds` request (`check` on the referee's state, then `odds` in a
  strategy worker process on the asker's own view, as JSON-ready event dicts);
- in `calibrate`, which scores them against the revealed hands (`covers`, `fit`, `weigher`).

A model must pickle (it is sent to a worker process with the job). This module imports no
game and nothing of the interface (games.interface imports it).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from inference import shrinkage
from inference.choice_logit import LogitFit, Row, fit_choices
from inference.shrinkage import shrunk_fit
from inference.weighted import Budget, Weighted

JSON = dict[str, Any]


class NotModelled(ValueError):
    """Nothing the model can estimate here (no hand in play): a `wrong_phase` refusal."""


@dataclass(frozen=True)
class Fitted:
    """A model's parameters fitted on stored matches (`BehaviourModel.fit`): `summaries` for
    the report (one JSON dict per fit, the pooled one first), `params` for `weigher`, and
    `shrinkage`: how far each player's fit was pulled toward the pool, and why."""

    summaries: list[JSON] = field(default_factory=list)
    params: Any = None
    shrinkage: JSON | None = None


class PlayerFit(Protocol):
    """What a game's fit of one player returns: its weights and its report line."""

    @property
    def weights(self) -> Any: ...

    def to_dict(self) -> dict[str, object]: ...


Matches = Sequence[tuple[Sequence[Any], Mapping[str, str]]]


def fit_players(matches: Matches,
                rows_of: Callable[[Sequence[Any], Mapping[str, str]], Iterable[tuple[str, Row]]],
                features: int, make: Callable[[str, Sequence[Row], LogitFit | None], PlayerFit],
                strength: float | None = None) -> Fitted:
    """A conditional-logit model's weights pooled over every player and per player name, from
    the choices `rows_of(events, players)` finds in each match (as (player, row)). Each
    player's fit is pulled toward the pooled one by `strength` (inference.shrinkage: the pool
    counts as that many of the player's own choices; None: chosen on held-out matches).
    `make(player, rows, fit)` is the game's report of a fit (fit None: no choices). `params`
    is (per player, pooled), what the models' weighers take."""
    rows: dict[str, list[tuple[int, Row]]] = {}
    for index, (events, players) in enumerate(matches):
        for player, row in rows_of(events, players):
            rows.setdefault(player, []).append((index, row))
    every = [r for part in rows.values() for _, r in part]
    found = fit_choices(every, features) if every else None
    pooled = make("pooled", every, found)
    choice = (shrinkage.choose(rows, features) if strength is None
              else shrinkage.Choice(strength, "given", choices=len(every)))
    per: dict[str, PlayerFit] = {}
    lines: list[JSON] = []
    for name, part in sorted(rows.items()):
        own_rows = [r for _, r in part]
        assert found is not None  # a player with rows makes the pool non-empty
        own = make(name, own_rows, fit_choices(own_rows, features))
        per[name] = make(name, own_rows, shrunk_fit(own_rows, features, found, len(every),
                                                   choice.strength))
        line = dict(per[name].to_dict())
        line["own"] = own.to_dict().get("weights")
        lines.append(line)
    return Fitted([pooled.to_dict(), *lines],
                  ({name: f.weights for name, f in per.items()}, pooled.weights),
                  choice.to_dict())


class Weigher(Protocol):
    """One observer's behaviour belief along one referee log, in step with its exact one."""

    def apply(self, event: Any) -> None:
        """Fold the observer's view of the next event (as the exact belief is fed)."""

    def weigh(self, index: int, snapshot: JSON, budget: Budget,
              rng: random.Random) -> Weighted:
        """The model's marginals right after `events[index]`, given the exact belief's
        `snapshot_dict()` there."""


class BehaviourModel(Protocol):
    """One behaviour model of a game's players."""

    name: str
    """How it is asked for and labelled (`behaviour:greedy`)."""
    label: str
    """What it assumes, in words (every figure it gives carries it)."""

    def check(self, state: Any) -> None:
        """Raise NotModelled unless the referee's `state` has a position it can estimate."""

    def odds(self, view: Sequence[JSON], observer: str, seed: int) -> JSON:
        """Its belief of `observer` after `view` (the observer's own events as dicts): a
        belief-shaped dict with `stderr`, `error_95`, `ess`, `samples`, `exact`; or
        {"error": reason} when there is nothing to estimate."""

    def covers(self, variant: str) -> bool:
        """Whether calibrate scores it on matches of `variant`."""

    def fit(self, matches: Matches, strength: float | None = None) -> Fitted:
        """Its parameters from stored matches (each a referee log and its players by seat);
        `strength`: how much each player's fit leans on the pool (fit_players; None: chosen
        on held-out matches; a model with no per-player pull ignores it)."""

    def weigher(self, events: Sequence[Any], players: Mapping[str, str], fitted: Fitted,
                observer: str) -> Weigher:
        """A weigher for `observer` along the referee log `events`."""


def odds_seed(match_id: str, seq: int, observer: str) -> int:
    """The seed of a behaviour layer's draws at a position: the match, the seq it reflects
    and the observer, so the live table's `odds` and the replay's route give the same sampled
    figures for the same position, on any machine and however often asked."""
    digest = hashlib.sha256(f"odds:{match_id}:{seq}:{observer}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def models_named(models: Mapping[str, BehaviourModel]) -> str:
    """The models' names for an error message ("none" when there are none)."""
    return ", ".join(models) or "none"
