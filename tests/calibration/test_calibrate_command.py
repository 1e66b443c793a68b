"""`domino-oracle calibrate` end to end on a real SQLite file of stored matches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from clients.cli import main
from games.dominoes.game import DOMINOES
from games.play import play_match
from games.registry import Registry
from storage.store import EventStore
from tests.games.toy.game import TOY, VARIANT


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("calibrate") / "matches.sqlite3"
    assert main(["selfplay", "--db", str(db), "--matches", "3", "--variant", "block-2",
                 "--target", "15", "--seed", "4"]) == 0
    assert main(["selfplay", "--db", str(db), "--matches", "2", "--variant", "partnership-6",
                 "--target", "1", "--seed", "5"]) == 0
    return db


def test_json_report_scores_every_model(store: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "report.png"
    code, out, err = _run(capsys, "calibrate", "--db", str(store), "--variant", "block-2",
                          "--play", "3", "--bots", "greedy", "--target", "30", "--seed", "9",
                          "--samples", "24", "--ess-target", "10", "--max-samples", "48",
                          "--json", "--picture", str(picture))
    assert code == 0, err
    report = json.loads(out)
    assert report["matches"] == 6 and report["positions"] > 50
    assert set(report["models"]) == {"uniform", "behaviour:greedy"}
    for model in report["models"].values():
        assert 0 < model["log_loss"] < 2 and 0 < model["brier"] < 1
        assert model["impossible"] == 0
        assert sum(row["items"] for row in model["by_move"]) == model["items"]
        bins = model["reliability"]
        assert len(bins) == 10 and sum(b["count"] for b in bins) > model["items"]
        for b in bins:
            if b["count"]:
                low, high = b["wilson95"]
                assert b["bin"][0] <= b["mean_predicted"] <= b["bin"][1]
                assert low <= b["observed"] <= high
    # both models are scored on the same positions and items (paired)
    uniform, behaviour = report["models"]["uniform"], report["models"]["behaviour:greedy"]
    assert uniform["items"] == behaviour["items"]
    fits = {f["player"]: f for f in behaviour["fits"]}
    assert fits["greedy"]["at_bound"]  # the greedy bot takes its top-scored move
    assert fits["bot-S"]["beta"] < 1  # selfplay's random policy: near-uniform choices
    importance = behaviour["importance"]
    assert 0 < importance["exact_positions"] < importance["positions"]
    assert 24 <= importance["draws_mean"] <= 48  # more draws where the ESS fell short
    split = importance["by_method"]
    assert split["listed"]["uniform"]["positions"] == importance["exact_positions"]
    assert split["sampled"]["behaviour:greedy"]["positions"] == \
        importance["positions"] - importance["exact_positions"]
    comparison = report["comparison"]["log_loss_behaviour_minus_uniform"]
    assert comparison["positions"] == report["positions"]
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_uniform_is_calibrated_on_random_players(store: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Random players, the uniform belief: every well-filled bin's mean prediction lies in
    its observed frequency's Wilson interval."""
    code, out, err = _run(capsys, "calibrate", "--db", str(store), "--variant",
                          "partnership-6", "--uniform-only", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert list(report["models"]) == ["uniform"]
    bins = [b for b in report["models"]["uniform"]["reliability"] if b["count"] >= 100]
    assert len(bins) >= 4
    assert all(b["consistent"] for b in bins), bins


def test_text_report_and_errors(store: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "calibrate", "--db", str(store), "--variant", "partnership-6",
                        "--uniform-only")
    assert code == 0 and "uniform" in out and "log loss" in out
    code, _, err = _run(capsys, "calibrate", "--db", str(store), "--variant", "draw-2")
    assert code == 2 and "no stored matches of draw-2" in err
    code, _, err = _run(capsys, "calibrate", "--db", str(tmp_path / "none.sqlite3"))
    assert code == 2 and "no store" in err
    code, _, err = _run(capsys, "calibrate", "--db", str(store), "--variant", "nope")
    assert code == 2 and "unknown variant" in err


def test_a_game_without_a_truth_adapter_is_a_clear_error(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """The toy game of the tests: the report cannot tell who held what, and says so."""
    bot = TOY.bots()["random"]
    events = play_match(TOY, VARIANT, {"S": bot, "N": bot}, random.Random(3), match_id="toy-3")
    db = tmp_path / "toy.sqlite3"
    store = EventStore(db)
    try:
        store.append(events[0].match_id, 0, [TOY.event_to_dict(e) for e in events])
    finally:
        store.close()
    code = main(["calibrate", "--db", str(db)], games=Registry([DOMINOES, TOY]))
    _, err = capsys.readouterr()
    assert code == 2 and "no adapter telling who held what in toy" in err
