"""Advice through the game interface: the advisor a game declares.

A game that offers advice declares an advisor, a small picklable object with pure methods: the
server checks a request with `check` (on the referee's state, in its own process), then runs
`advise` in a strategy worker process on the asking seat's own view of the events (already
redacted for that seat, as JSON-ready dicts) under a wall-clock budget, and sends the
JSON-ready payload it returns. The payload carries its `label`: what model the numbers
assume and which evaluator produced them (never an unlabelled probability). An advisor may
offer more than one model of the hidden hands (`models`, e.g. dominoes' `uniform` and
`behaviour:greedy`): it is then asked `advise(..., model=M)` for any other than `uniform`,
and its payload names the `model` it used. A replay asks
`decision` which events were a seat's choice, and `verdict` where the choice actually made
stands in the advice.

A game declares its advisor in its capabilities (`Capabilities.advisor`; None: it offers no
advice, a typed refusal where a table asks for it).

`flat` (optional, False when absent) says how the `advice` message carries the payload: True
puts its ranked `moves` and deal-model fields (`model`, `ess`, `pool`, `exact_pool`) in the
message's own fields, the shape the first advisor (dominoes') has always had; otherwise the
payload travels whole in `advice`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal, Protocol

JSON = dict[str, Any]
Seat = str
"""As games.interface names them (this module is imported by it, so it cannot import it)."""


RefusalCode = Literal["wrong_phase", "not_your_turn", "no_choice"]


class AdviceRefused(Exception):
    """A request advice cannot answer now. `code` is a protocol error code: `wrong_phase`,
    `not_your_turn` or `no_choice`."""

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(message)
        self.code: RefusalCode = code
        self.message = message


class Advisor(Protocol):
    """One game's advisor. Must pickle (it is sent to a worker process with the job)."""

    seconds: float
    """Its wall-clock budget at a live table (the server answers `busy` past a timeout); an
    optional `replay_seconds` is its budget for a replay's answers. An optional `models`
    (tuple of names, `uniform` first) lists the models its `advise` takes as `model=`; an
    advisor without it offers `uniform` only (models_of)."""

    def check(self, state: Any, seat: Seat) -> None:
        """Raise AdviceRefused unless `seat` has a choice to be advised on in `state` (the
        referee's state: the check reads only whose turn it is and the phase)."""

    def advise(self, view: Sequence[JSON], seat: Seat, seed: int, seconds: float) -> JSON:
        """The advice for `seat` from its own view (event dicts as that seat saw them),
        with `seed` for its sampling and at most about `seconds` of wall time. JSON-ready,
        with at least `kind` and `label`."""

    def decision(self, event: Any) -> Seat | None:
        """The seat whose choice `event` records (a bid, a play, ...); None if it is none."""

    def verdict(self, advice: JSON, event: Any) -> JSON:
        """Where the choice `event` made stands in `advice`: at least `played` (the move in
        the game's wire form) and `rank` (1 = the advisor's best; None if it does not rank)."""


UNIFORM = "uniform"
"""The model every advisor offers: every hidden deal consistent with the view alike."""


def models_of(advisor: object) -> tuple[str, ...]:
    """The models `advisor` offers (its `models`, else only `uniform`)."""
    return tuple(getattr(advisor, "models", None) or (UNIFORM,))


def advise_under(advisor: Advisor, view: Sequence[JSON], seat: Seat, seed: int,
                 seconds: float, model: str = UNIFORM) -> JSON:
    """`advisor.advise` under `model`: passed on only when not `uniform`, so an advisor that
    offers one model keeps its four-argument `advise`. ValueError for a model not offered."""
    if model not in models_of(advisor):
        raise ValueError(f"model {model!r} is not offered (offered: "
                         f"{', '.join(models_of(advisor))})")
    if model == UNIFORM:
        return advisor.advise(view, seat, seed, seconds)
    # an advisor that lists `models` takes `model=` (Advisor's four-argument advise is the
    # protocol every advisor meets; models_of checked this one offers the model)
    return advisor.advise(view, seat, seed, seconds, model=model)  # type: ignore[call-arg]


def advise_steps(advisor: Advisor, view: Sequence[JSON], seat: Seat, seed: int,
                 seconds: float, model: str = UNIFORM) -> Iterator[JSON]:
    """The advice as it grows: partial payloads (e.g. a bidding oracle's table after 25,
    50, ... completions), the last one exactly `advise_under`'s answer. An advisor that offers
    an `advise_steps` method (same arguments as `advise`) streams; another yields its one
    answer."""
    method = getattr(advisor, "advise_steps", None)
    if method is None:
        yield advise_under(advisor, view, seat, seed, seconds, model)
        return
    if model not in models_of(advisor):
        raise ValueError(f"model {model!r} is not offered (offered: "
                         f"{', '.join(models_of(advisor))})")
    yield from method(view, seat, seed, seconds, model=model)


def position_key(advisor: object, view: Sequence[JSON], seat: Seat,
                 model: str = UNIFORM) -> str | None:
    """A name for the advice `advisor` would give `seat` from `view` under `model` that is the
    same exactly when the answer is: offered (an optional `position_key` method) only by an
    advisor whose answer is a function of the position alone (its samplers seeded from the
    position, never from the request's seed or the clock), so the server may keep the answer
    under it for good and serve it to any table or replay that reaches the same position.
    None: not offered, or no such advice now (the advisor would refuse)."""
    method = getattr(advisor, "position_key", None)
    if method is None:
        return None
    found: str | None = method(view, seat, model)
    return found


def advisor_of(game: Any) -> Advisor | None:
    """The advisor `game` declares (`game.capabilities.advisor`), or None when it offers none."""
    advisor: Advisor | None = game.capabilities.advisor
    return advisor


def flat(advisor: object) -> bool:
    """Whether the advisor's payload fills the `advice` message's own fields (see above)."""
    return bool(getattr(advisor, "flat", False))
