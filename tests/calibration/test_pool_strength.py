"""`calibrate --pool-strength`: how far each player's learnt fit leans on the pool, end to end
on a real SQLite file (clue-mini, whose shows are fitted per player and pooled)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients import pool_strengths as strengths
from clients.cli import main


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pool") / "clue.sqlite3"
    assert main(["selfplay", "--db", str(db), "--matches", "12", "--variant", "clue-mini",
                 "--policy", "random", "--seed", "3"]) == 0
    return db


def _report(store: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(["calibrate", "--db", str(store), "--variant", "clue-mini", "--samples", "16",
                 "--seed", "1", "--json", *extra]) == 0
    report: dict = json.loads(capsys.readouterr().out)  # type: ignore[type-arg]
    return report["models"]["behaviour:shows"]


def test_the_default_chooses_on_held_out_matches_and_says_why(
        store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = _report(store, capsys)
    two = _report(store, capsys)
    assert one["shrinkage"]["how"] == "held-out" and "why" in one["shrinkage"]
    assert one["shrinkage"] == two["shrinkage"]  # the same store, the same strength
    assert one["log_loss"] == two["log_loss"]


def test_infinity_gives_every_player_the_pools_weights_and_zero_its_own(
        store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pooled = _report(store, capsys, "--pool-strength", "inf")
    assert pooled["shrinkage"]["how"] == "given" and pooled["shrinkage"]["strength"] == "inf"
    pool, *players = pooled["fits"]
    assert players and all(f["weights"] == pool["weights"] for f in players)
    own = _report(store, capsys, "--pool-strength", "0")
    assert all(f["weights"] == f["own"] for f in own["fits"][1:])
    assert any(f["weights"] != pool["weights"] for f in own["fits"][1:])


@pytest.mark.parametrize("bad", ["-1", "many", "nan"])
def test_a_bad_strength_is_refused(store: Path, bad: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["calibrate", "--db", str(store), "--variant", "clue-mini",
                 "--pool-strength", bad])
    assert code != 0
    assert "--pool-strength" in capsys.readouterr().err


def test_two_strengths_are_paired_position_by_position(
        store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--db", str(store), "--variant", "clue-mini", "--samples", "16", "--seed", "1"]
    capsys.readouterr()
    assert strengths.main([*base, "--a", "0", "--b", "0"]) == 0
    same = json.loads(capsys.readouterr().out)
    assert same["b_minus_a"]["difference"] == 0 and same["b_minus_a"]["positions"] > 0
    assert strengths.main([*base, "--a", "0", "--b", "inf"]) == 0
    apart = json.loads(capsys.readouterr().out)
    assert apart["b"]["shrinkage"]["strength"] == "inf"
    pooled = _report(store, capsys, "--pool-strength", "inf", "--max-samples", "16")
    own = _report(store, capsys, "--pool-strength", "0", "--max-samples", "16")
    assert apart["a"]["log_loss"] == pytest.approx(own["log_loss"], abs=1e-6)
    assert apart["b"]["log_loss"] == pytest.approx(pooled["log_loss"], abs=1e-6)
