"""Every variant's belief, for every audience, against brute force: where the snapshot says
it is exact, every marginal equals the share of the consistent deals (tests/conformance/brute
counts them with no code of the belief's); a labelled estimate names its model and its error.
Every snapshot, exact or not, has the shape clients read.

The variants new tables may have, with their default options (an alias only names old logs:
its rules and views are checked in test_rules and test_views). A snapshot can cost seconds
(Uno's full deck, Clue's spectator), so each audience's is taken at a few positions."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest

from tests.conformance.audit import secrets_in
from tests.conformance.brute import Truth, counter_for, observed
from tests.conformance.cases import SEEDS, TABLE_CASES, Case, ids, match
from tests.games.toy.game import TOY, VARIANT, Played

TOLERANCE = 1e-12
"""An exact probability sent as a float: equal to the fraction up to float rounding."""


def is_estimate(snapshot: dict[str, Any]) -> bool:
    return snapshot.get("status") == "estimate" or "error_95" in snapshot


def check_shape(snapshot: dict[str, Any], audience: str, seq: int, label: str) -> None:
    """What every client reads of a belief, labelled as the game declares its exact belief,
    and the error bar of an estimate."""
    where = (audience, seq)
    json.dumps(snapshot, allow_nan=False)
    assert snapshot["seq"] == seq and snapshot["observer"] == audience, where
    assert snapshot["model"] == label, where
    for holder, row in snapshot["marginals"].items():
        assert isinstance(holder, str) and isinstance(row, dict), where
        for item, p in row.items():
            assert isinstance(item, str) and 0.0 <= p <= 1.0, (*where, holder, item, p)
    if is_estimate(snapshot):
        error = snapshot.get("error_95")
        assert isinstance(error, int | float) and math.isfinite(error) and error >= 0, where


def check_exact(snapshot: dict[str, Any], truth: Truth, where: tuple[Any, ...]) -> int:
    """Every probability the brute force gives equals the snapshot's, and the snapshot gives
    none the brute force does not (a missing entry is 0). Returns how many were compared."""
    compared = 0
    for name, table in truth.items():
        shown = snapshot.get(name) or {}
        for holder in set(table) | set(shown):
            mine, theirs = shown.get(holder, {}), table.get(holder, {})
            for item in set(mine) | set(theirs):
                p = theirs.get(item, Fraction(0))
                assert abs(mine.get(item, 0.0) - float(p)) <= TOLERANCE, \
                    (*where, name, holder, item, mine.get(item), p)
                compared += 1
    return compared


def _label(case: Case) -> str:
    """The label of the game's exact belief, as it declares it (the first of its models)."""
    beliefs = case.game.capabilities.beliefs
    assert beliefs and beliefs[0].exact, "a game declares its exact belief first"
    return beliefs[0].label


SHAPES = 2
"""Positions per audience whose snapshot's shape is checked: half-way, and the end."""


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
def test_every_snapshot_has_the_shape_clients_read(case: Case) -> None:
    played = match(case.variant, SEEDS[0])
    size = len(played.events)
    marks = {size * k // SHAPES for k in range(1, SHAPES + 1)}
    secrets = {s for e in played.events for s in secrets_in(case.game.event_to_dict(e))}
    assert secrets
    for audience in case.audiences:
        belief = case.game.belief(audience, case.variant)
        seen = ""
        for event in observed(played, audience):
            belief.apply(event)
            seen += json.dumps(case.game.event_to_dict(event))
            if event.seq in marks:
                snapshot = belief.snapshot_dict()
                check_shape(snapshot, audience, event.seq, _label(case))
                text = json.dumps(snapshot)  # no secret it was not shown
                assert not [s for s in secrets if s in text and s not in seen], audience


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
def test_the_belief_equals_brute_force_where_it_says_exact(case: Case) -> None:
    counter = counter_for(case.game.name)
    assert counter is not None, \
        f"no brute force for {case.game.name}: register one in tests/conformance/brute"
    played = match(case.variant, SEEDS[0])
    positions = estimates = 0
    compared: dict[str, int] = {}
    for audience in case.audiences:
        seen = observed(played, audience)
        belief = case.game.belief(audience, case.variant)
        folded = 0
        for cut, truth in counter.positions(played, audience):
            while folded < cut:
                belief.apply(seen[folded])
                folded += 1
            snapshot = belief.snapshot_dict()
            check_shape(snapshot, audience, cut, _label(case))
            positions += 1
            if is_estimate(snapshot):
                estimates += 1
                continue
            compared[audience] = compared.get(audience, 0) + \
                check_exact(snapshot, truth, (case.variant, audience, cut))
    if case.variant in counter.too_large:
        assert not positions, "a variant said too large to count was counted"
        return
    assert positions > estimates, f"nothing compared exactly: {positions} positions"
    assert sum(compared.values()) > 0 and any(a in compared for a in case.seats), compared


class _Forgetful:
    """The toy belief with a plausible bug: it never hears of the other seat's plays."""

    def __init__(self, observer: str) -> None:
        self.inner = TOY.belief(observer, VARIANT)
        self.observer = observer

    def apply(self, event: Any) -> None:
        if not (isinstance(event, Played) and event.seat != self.observer):
            self.inner.apply(event)
        self.inner.seq = event.seq

    def snapshot_dict(self) -> dict[str, Any]:
        return self.inner.snapshot_dict()


def test_the_check_finds_a_belief_that_forgets_what_was_played() -> None:
    played = match(VARIANT, SEEDS[0])
    counter = counter_for("toy")
    assert counter is not None
    seen = observed(played, "S")
    belief = _Forgetful("S")
    folded = 0
    with pytest.raises(AssertionError):
        for cut, truth in counter.positions(played, "S"):
            while folded < cut:
                belief.apply(seen[folded])
                folded += 1
            check_exact(belief.snapshot_dict(), truth, ("S", cut))
