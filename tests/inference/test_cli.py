"""The `infer` command: human and JSON output, --at, methods, and clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from clients.cli import main
from domino.audience import view
from domino.jsonl import dump_lines
from domino.selfplay import random_match_events


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("logs")
    events = random_match_events(random.Random(8), "partnership-6", target=30)
    full = root / "full.jsonl"
    full.write_text(dump_lines(events))
    west = root / "west.jsonl"
    west.write_text(dump_lines([view(e, "W") for e in events]))
    return {"full": full, "west": west, "n": len(events)}


def test_json_output(logs, capsys) -> None:
    assert main(["infer", str(logs["full"]), "--seat", "S", "--at", "12", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seq"] == 12 and data["observer"] == "S"
    assert set(data["marginals"]) == {"W", "N", "E"}
    assert isinstance(data["consistent_deals"], int)
    for tile in data["marginals"]["W"]:
        assert abs(sum(data["marginals"][h][tile] for h in "WNE") - 1) < 1e-9


def test_human_output_has_triangles_and_facts(logs, capsys) -> None:
    assert main(["infer", str(logs["west"]), "--seat", "W", "--at", "14"]) == 0
    out = capsys.readouterr().out
    assert "W's view after event 14" in out
    assert "consistent deals:" in out
    assert "  — " in out and "%" in out


def test_spectator_and_sampler_methods(logs, capsys) -> None:
    for method in ("rejection", "rejection-seed", "constrained", "mcmc"):
        code = main(["infer", str(logs["full"]), "--seat", "spectator", "--at", "20",
                     "--method", method, "--samples", "500", "--json"])
        assert code == 0
        data = json.loads(capsys.readouterr().out)
        assert data["method"] == method and data["samples"] == 500
        assert set(data["marginals"]) == {"S", "W", "N", "E"}


def test_whole_log_ends_with_the_last_hand_revealed(logs, capsys) -> None:
    assert main(["infer", str(logs["full"]), "--seat", "N", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seq"] == logs["n"] and data["status"] == "ended"


def test_log_without_the_seats_hand_is_an_error(logs, capsys) -> None:
    assert main(["infer", str(logs["west"]), "--seat", "S"]) == 2
    assert "redacted" in capsys.readouterr().err


def test_unknown_seq_and_missing_file_are_errors(logs, capsys, tmp_path) -> None:
    assert main(["infer", str(logs["full"]), "--seat", "S", "--at", "99999"]) == 2
    assert main(["infer", str(tmp_path / "nope.jsonl"), "--seat", "S"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n')
    assert main(["infer", str(bad), "--seat", "S"]) == 2
    assert "error" not in capsys.readouterr().out
