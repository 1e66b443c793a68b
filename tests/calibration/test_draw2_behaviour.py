"""The behaviour model scored on draw-2 (the plays since each seat's latest draw weighed),
end to end through `domino-oracle calibrate` on a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main


def test_calibrate_scores_the_behaviour_model_on_draw2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d2.sqlite3"
    code = main(["calibrate", "--db", str(db), "--variant", "draw-2", "--play", "4",
                 "--bots", "greedy", "--target", "1", "--seed", "3", "--samples", "32",
                 "--ess-target", "10", "--max-samples", "96", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["variant"] == "draw-2" and report["positions"] > 20
    uniform, behaviour = report["models"]["uniform"], report["models"]["behaviour:greedy"]
    assert behaviour["items"] == uniform["items"] > 0  # paired on the same tiles
    assert behaviour["impossible"] == 0  # never 0 for what happened
    assert 0 < behaviour["log_loss"] < 2
    fits = {f["player"]: f for f in behaviour["fits"]}
    assert fits["greedy"]["beta"] > 1  # the greedy bot, far from random
    assert "log_loss_behaviour_minus_uniform" in report["comparison"]
