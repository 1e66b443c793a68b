"""Uno through the command-line tools (every command on every variant is in
tests/conformance/test_cli.py): infer --json on uno-2 is Uno's belief of that view, whose
expected copies per hidden hand add up to the hand's size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from games.interface import SPECTATOR
from games.uno.game import UNO


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str, list]:
    db = tmp_path / "uno.sqlite3"
    code, out, err = run(capsys, "selfplay", "--variant", "uno-2", "--matches", "2", "--seed",
                         "3", "--policy", "greedy", "--db", str(db))
    assert code == 0 and "stored 2 uno-2 matches" in out, err
    code, listed, _ = run(capsys, "matches", "--db", str(db))
    lines = listed.splitlines()
    assert len(lines) == 2 and all("  uno-2  finished, " in line for line in lines)
    match_id = lines[0].split()[0]
    code, exported, _ = run(capsys, "export", match_id, "--db", str(db))
    events = [UNO.parse_event(line) for line in exported.splitlines()]
    return db, match_id, events


def test_infer_json_is_the_uno_belief_of_that_view(stored, tmp_path, capsys) -> None:
    _db, _match_id, events = stored
    log = tmp_path / "m.jsonl"
    log.write_text("".join(json.dumps(UNO.event_to_dict(e)) + "\n" for e in events))
    for seat in ("S", "N", SPECTATOR):
        for at in (4, 9):
            code, out, err = run(capsys, "infer", str(log), "--seat", seat, "--at", str(at),
                                 "--json")
            assert code == 0, err
            belief = UNO.belief(seat, "uno-2")
            for event in events[:at]:
                belief.apply(UNO.view(event, seat))
            expected = belief.snapshot_dict()
            assert json.loads(out) == json.loads(json.dumps(expected))
            assert expected["status"] == "exact"
            unknown = ["S", "N"] if seat == SPECTATOR else ["N" if seat == "S" else "S"]
            for holder in unknown:
                assert sum(expected["expected"][holder].values()) == \
                    pytest.approx(expected["hand_counts"][holder])
    code, out, _ = run(capsys, "infer", str(log), "--seat", "S", "--at", "9")
    assert code == 0 and out.startswith("S's view after event 9 (uno)")
