"""Tournament schedule, report shape and the CLI's JSON (tiny matches)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from clients.cli import main
from games.dominoes.strategy.tournament import MatchOutcome, report, run, specs
from games.dominoes.strategy.tournament_pool import PoolError, pool
from games.intervals import wilson


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


def test_runs_with_no_spread_pool_to_wilson_over_all_their_matches() -> None:
    """A team that wins every match leaves the pairs no spread: one run and the pooled runs
    both fall back to Wilson's interval over matches, which narrows as matches are added
    (a pooled [1.0, 1.0] would claim certainty no run showed)."""
    def sweep(seed: int, matches: int) -> list[MatchOutcome]:
        outcomes = run(specs("greedy", "random", matches, seed=seed, target=10), workers=1)
        return [dataclasses.replace(o, a_won=True, pair=o.pair + 100 * seed) for o in outcomes]

    first, second = sweep(1, 4), sweep(2, 6)
    reports = [report(first, "greedy", "random"), report(second, "greedy", "random")]
    together = report(first + second, "greedy", "random")
    pooled = pool(reports)
    assert together["a"]["ci95"] == pytest.approx(list(wilson(10, 10)), abs=1e-4)
    assert pooled["a"]["ci95"] == together["a"]["ci95"]
    assert pooled["b"]["ci95"] == together["b"]["ci95"] == pytest.approx(
        list(wilson(0, 10)), abs=1e-4)
    assert pooled["a"]["ci95"][0] > reports[0]["a"]["ci95"][0]


def test_pooled_runs_report_what_one_run_over_all_pairs_would() -> None:
    """`tournament --combine`: two seeds' reports pooled equal the report of all their
    matches at once (pairs renumbered so the runs' pairs stay apart), with or without the
    pair spread in the reports (older reports: recovered from the printed interval)."""
    first = run(specs("random", "greedy", 12, seed=1, target=15), workers=1)
    second = run(specs("random", "greedy", 8, seed=2, target=15), workers=1)
    apart = [dataclasses.replace(o, pair=o.pair + 100) for o in second]
    together = report(first + apart, "random", "greedy")
    reports = [report(first, "random", "greedy"), report(second, "random", "greedy")]
    pooled = pool(reports)
    for key in ("matches", "pairs", "hands"):
        assert pooled[key] == together[key]
    for team in ("a", "b"):
        assert pooled[team]["wins"] == together[team]["wins"]
        assert pooled[team]["win_rate"] == pytest.approx(together[team]["win_rate"])
        if together[team]["ci95"][0] > 0 and together[team]["ci95"][1] < 1:
            assert pooled[team]["ci95"] == pytest.approx(together[team]["ci95"], abs=1e-4)
        assert pooled[team]["points_per_hand_ci95"] == pytest.approx(
            together[team]["points_per_hand_ci95"], abs=2e-3)
    old_style = [json.loads(json.dumps(r)) for r in reports]
    for r in old_style:
        for team in ("a", "b"):
            del r[team]["pair_sd"]
    assert pool(old_style)["a"]["ci95"] == pytest.approx(pooled["a"]["ci95"], abs=2e-3)
    with pytest.raises(PoolError):
        pool([reports[0], report(second, "greedy", "random")])


def test_a_tournament_under_work_budgets_gives_the_same_report_twice() -> None:
    """pimc against greedy under a node budget: the same seed gives the same wins and points
    (only the decision times may differ); the report records the work budgets, and runs under
    other budgets do not pool."""
    from games.dominoes.strategy.declared import TOURNAMENT

    def once(nodes: int) -> dict:
        return TOURNAMENT.play("block-2", "pimc", "greedy", 2, 5, {"target": 1},
                               {"nodes": nodes, "samples": 3}, 1, None)

    first, again = once(2_000), once(2_000)
    for key in ("a", "b"):
        for field in ("wins", "points_per_hand", "decisions"):
            assert first[key][field] == again[key][field]
    assert first["budgets"] == {"pimc": {"samples": 3, "nodes": 2_000}}
    assert "2,000 nodes per decision" in TOURNAMENT.describe(first, 5, {"target": 1})
    assert pool([first, again])["budgets"] == first["budgets"]
    with pytest.raises(PoolError):
        pool([first, {**again, "budgets": {"pimc": {"samples": 3, "nodes": 4_000}}}])
