"""Tournament schedule, report shape and the CLI's JSON (tiny matches)."""

from __future__ import annotations

import json

import pytest

from clients.cli import main
from strategy.tournament import report, run, specs, wilson


def test_schedule_is_mirrored_pairs() -> None:
    schedule = specs("greedy", "random", 6, seed=3, target=20)
    assert len(schedule) == 6
    for first, second in zip(schedule[::2], schedule[1::2], strict=True):
        assert first.pair == second.pair and not first.swapped and second.swapped
        assert [first.bot_at(s) for s in "SWNE"] == ["greedy", "random", "greedy", "random"]
        assert [second.bot_at(s) for s in "SWNE"] == ["random", "greedy", "random", "greedy"]
    with pytest.raises(ValueError):
        specs("greedy", "random", 3, seed=1)


def test_mirrored_matches_share_their_deals_and_report_adds_up() -> None:
    outcomes = run(specs("greedy", "random", 4, seed=9, target=15), workers=1)
    assert [(o.pair, o.swapped) for o in outcomes] == [(0, False), (0, True), (1, False), (1, True)]
    for first, second in zip(outcomes[::2], outcomes[1::2], strict=True):
        common = min(first.hands, second.hands)
        assert first.hand_seeds[:common] == second.hand_seeds[:common]
    assert outcomes[0].hand_seeds[0] != outcomes[2].hand_seeds[0]
    figures = report(outcomes, "greedy", "random")
    assert figures["a"]["wins"] + figures["b"]["wins"] == 4
    assert figures["hands"] == sum(o.hands for o in outcomes)


def test_cli_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "--team-a",
            "greedy",
            "--team-b",
            "random",
            "--matches",
            "4",
            "--seed",
            "2",
            "--target",
            "10",
            "--workers",
            "2",
            "--json",
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    figures = json.loads(captured.out)
    assert figures["matches"] == 4
    for key, bot in (("a", "greedy"), ("b", "random")):
        side = figures[key]
        assert side["bot"] == bot
        assert set(side) >= {
            "bot",
            "wins",
            "win_rate",
            "ci95",
            "points_per_hand",
            "decision_ms_p50",
            "decision_ms_p95",
        }
        lo, hi = side["ci95"]
        assert 0 <= lo <= side["win_rate"] <= hi <= 1
    assert figures["a"]["wins"] + figures["b"]["wins"] == 4
    assert "4/4 matches" in captured.err


def test_cli_refuses_odd_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--team-a", "greedy", "--team-b", "random", "--matches", "3"])
    assert code == 2
    assert "even" in capsys.readouterr().err


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((hi - 0.5) - (0.5 - lo)) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)
