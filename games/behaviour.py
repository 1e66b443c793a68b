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

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from inference.weighted import Budget, Weighted

JSON = dict[str, Any]


class NotModelled(ValueError):
    """Nothing the model can estimate here (no hand in play): a `wrong_phase` refusal."""


@dataclass(frozen=True)
class Fitted:
    """A model's parameters fitted on stored matches (`BehaviourModel.fit`): `summaries` for
    the report (one JSON dict per fit, the pooled one first), `params` for `weigher`."""

    summaries: list[JSON] = field(default_factory=list)
    params: Any = None


class PlayerFit(Protocol):
    """What a game's fit of one player returns: its weights and its report line."""

    @property
    def weights(self) -> Any: ...

    def to_dict(self) -> dict[str, object]: ...


def fit_players(matches: Sequence[tuple[Sequence[Any], Mapping[str, str]]],
                rows_of: Callable[[Sequence[Any], Mapping[str, str]], Iterable[tuple[str, Any]]],
                fit: Callable[[str, list[Any], Any], PlayerFit], prior: Any) -> Fitted:
    """A model's weights per player name, and pooled over every player, from the choices
    `rows_of(events, players)` finds in each match (as (player, row)); a player's own fit
    starts from the pooled weights, the pooled one from `prior`. `params` is (per player,
    pooled), what the models' weighers take."""
    rows: dict[str, list[Any]] = {}
    for events, players in matches:
        for player, row in rows_of(events, players):
            rows.setdefault(player, []).append(row)
    pooled = fit("pooled", [r for part in rows.values() for r in part], prior)
    per = {name: fit(name, part, pooled.weights) for name, part in sorted(rows.items())}
    return Fitted([f.to_dict() for f in (pooled, *per.values())],
                  ({name: f.weights for name, f in per.items()}, pooled.weights))


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

    def fit(self, matches: Sequence[tuple[Sequence[Any], Mapping[str, str]]]) -> Fitted:
        """Its parameters from stored matches (each a referee log and its players by seat)."""

    def weigher(self, events: Sequence[Any], players: Mapping[str, str], fitted: Fitted,
                observer: str) -> Weigher:
        """A weigher for `observer` along the referee log `events`."""


def models_named(models: Mapping[str, BehaviourModel]) -> str:
    """The models' names for an error message ("none" when there are none)."""
    return ", ".join(models) or "none"
