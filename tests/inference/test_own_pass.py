"""Regression cases: a seat's belief right after its own pass that directly follows a play.

That pass shows the hand went on, so the play did not block it: some seat could follow. In
double-nine the tiles of the open ends may all sleep in the pool, so this is knowledge the
pass adds, exactly as another seat's pass does (inference.parts.CanFollow). The two logs are
the issue's; the counts are exact (every consistent deal, the ones blocked at the last play
removed).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archive.jsonl import parse_log_lines
from clients.cli import main
from games.dominoes.belief_partnership import Belief

CASES = Path(__file__).parent / "cases"
OPENING = CASES / "double-nine-own-pass.jsonl"
"""Hand 1: W opens 9-9, N (no 9s) passes."""
LATE = CASES / "double-nine-own-pass-late.jsonl"
"""N plays 0-0 (ends 5|0), E passes; E, S and W have all passed on 5|0 before."""

OPENING_DEALS = 425_409_879_471_231_661_886_880
LATE_DEALS = 1_361_360


def _events(path: Path) -> list:
    return parse_log_lines(path.read_text().splitlines()).events


def test_own_pass_after_the_opening_double() -> None:
    belief = Belief.from_events(_events(OPENING), "N")
    snap = belief.snapshot()
    assert snap.seq == 8 and snap.status == "live"
    assert snap.consistent_deals == OPENING_DEALS
    # the opening alone would be 425,412,882,856,548,939,031,680: the difference is the deals
    # in which every unseen 9 sleeps in the pool, so the hand was blocked at 9-9
    assert belief.condition is not None and belief.condition.kind == "can_follow"
    assert any("can follow" in f for f in snap.facts)


def test_own_pass_late_pins_the_last_tile() -> None:
    belief = Belief.from_events(_events(LATE), "E")
    snap = belief.snapshot()
    assert snap.seq == 44 and snap.consistent_deals == LATE_DEALS
    # N's last tile must fit 5|0 (E, S and W passed on both): 0-3 or 0-6, one each way
    assert snap.marginals["N"]["0-3"] == 0.5
    assert sum(p for name, p in snap.marginals["N"].items()
               if 0 in map(int, name.split("-")) or 5 in map(int, name.split("-"))) == 1.0


def test_own_pass_after_a_pass_changes_nothing() -> None:
    """S passes after E's pass (seq 33): the same position as after E's pass."""
    events = _events(LATE)
    for observer in ("S", "spectator"):
        at_e = Belief.from_events(events[:32], observer).snapshot().to_json_dict()
        at_s = Belief.from_events(events[:33], observer).snapshot().to_json_dict()
        for key in ("consistent_deals", "marginals", "facts"):
            assert at_s[key] == at_e[key], (observer, key)


@pytest.mark.parametrize(("path", "seat", "deals"), [(OPENING, "N", OPENING_DEALS),
                                                      (LATE, "E", LATE_DEALS)])
def test_infer_json_gives_the_exact_count(path: Path, seat: str, deals: int, capsys) -> None:
    assert main(["infer", str(path), "--seat", seat, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "live" and data["consistent_deals"] == deals
    if path == LATE:
        assert data["marginals"]["N"]["0-3"] == 0.5
