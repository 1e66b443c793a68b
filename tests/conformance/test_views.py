"""The audit of `view` for every audience of every variant finds nothing hidden
(tests/conformance/audit.py says what each audience may see), and the audit itself catches
the leaks it is meant to catch."""

from __future__ import annotations

from typing import Any

import pytest

from games.interface import REFEREE
from tests.conformance.audit import audit
from tests.conformance.cases import CASES, SEEDS, Case, ids, match
from tests.games.toy.game import TOY, VARIANT, Dealt


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_no_audience_receives_what_it_may_not_see(case: Case) -> None:
    for seed in SEEDS:
        events = list(match(case.variant, seed).events)
        found = audit(case.game, events, case.seats)
        assert not found.problems, "\n".join(found.problems)
        assert found.private_items and found.secrets, "nothing hidden to audit"


class _Leaky:
    """The toy with one redaction mistake: `leak(event, audience, seen)` edits the view."""

    def __init__(self, leak: Any) -> None:
        self.leak = leak

    def __getattr__(self, name: str) -> Any:
        return getattr(TOY, name)

    def view(self, event: Any, audience: str) -> Any:
        seen = TOY.view(event, audience)
        return seen if audience == REFEREE else self.leak(event, audience, seen)


def _north_hand_to_south(event: Any, audience: str, seen: Any) -> Any:
    if isinstance(event, Dealt) and event.seat == "N" and audience == "S":
        return event.model_copy(update={"secret": None})
    return seen


def _secret_to_its_seat(event: Any, audience: str, seen: Any) -> Any:
    return event if isinstance(event, Dealt) and event.seat == audience else seen


def _hand_to_the_spectator(event: Any, audience: str, seen: Any) -> Any:
    return event.model_copy(update={"secret": None}) if isinstance(event, Dealt) else seen


def _secret_in_another_field(event: Any, audience: str, seen: Any) -> Any:
    if event.type == "played" and event.seq == 5:
        return seen.model_copy(update={"seat": event.seat + " " + _SECRET[0]})
    return seen


_SECRET: list[str] = []


def _norths_hand_to_all(event: Any, audience: str, seen: Any) -> Any:
    if isinstance(event, Dealt) and event.seat == "N":
        return event.model_copy(update={"secret": None})
    return seen


@pytest.mark.parametrize("leak", [_north_hand_to_south, _secret_to_its_seat,
                                  _hand_to_the_spectator, _norths_hand_to_all])
def test_the_audit_finds_a_leaked_hand_or_secret(leak: Any) -> None:
    events = list(match(VARIANT, SEEDS[0]).events)
    found = audit(_Leaky(leak), events, ("S", "N"))  # type: ignore[arg-type]
    assert found.problems


def test_the_audit_finds_a_secret_carried_in_another_field() -> None:
    events = list(match(VARIANT, SEEDS[0]).events)
    _SECRET[:] = [next(e.secret for e in events if getattr(e, "secret", None))]
    found = audit(_Leaky(_secret_in_another_field), events, ("S", "N"))  # type: ignore[arg-type]
    assert any("secret" in p for p in found.problems), found.problems
