"""Tournaments and self-play at the two-player games: mirrored seats, report shape, the CLI
(a smoke test over a few short matches: structure, not win rates)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from games.dominoes.strategy.tournament import report, run, specs
from games.dominoes.strategy.tournament_pool import PoolError, pool

VARIANTS = ("block-2", "draw-2")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_schedule_swaps_the_two_seats(variant: str) -> None:
    schedule = specs("greedy", "random", 4, seed=3, target=20, variant=variant)
    assert [(s.pair, s.swapped) for s in schedule] == [(0, False), (0, True), (1, False),
                                                       (1, True)]
    for first, second in zip(schedule[::2], schedule[1::2], strict=True):
        assert first.variant == second.variant == variant
        assert (first.bot_at("S"), first.bot_at("N")) == ("greedy", "random")
        assert (second.bot_at("S"), second.bot_at("N")) == ("random", "greedy")
        assert (first.team_a_side, second.team_a_side) == ("S", "N")
    with pytest.raises(ValueError):
        specs("greedy", "random", 4, seed=3, variant="draw-3")


@pytest.mark.parametrize("variant", VARIANTS)
def test_mirrored_matches_share_their_deals_and_the_report_adds_up(variant: str) -> None:
    outcomes = run(specs("greedy", "random", 4, seed=9, target=20, variant=variant), workers=1)
    assert [(o.pair, o.swapped) for o in outcomes] == [(0, False), (0, True), (1, False),
                                                       (1, True)]
    for first, second in zip(outcomes[::2], outcomes[1::2], strict=True):
        assert first.hand_seeds[0] == second.hand_seeds[0]
    for o in outcomes:
        assert len(o.a_points) == len(o.b_points) == o.hands
        assert max(sum(o.a_points), sum(o.b_points)) >= 20
        assert o.a_won == (sum(o.a_points) >= 20)
        assert all(a == 0 or b == 0 for a, b in zip(o.a_points, o.b_points, strict=True))
    figures = report(outcomes, "greedy", "random", variant)
    assert figures["variant"] == variant and figures["matches"] == 4 and figures["pairs"] == 2
    assert figures["a"]["wins"] + figures["b"]["wins"] == 4
    assert figures["hands"] == sum(o.hands for o in outcomes)
    assert figures["a"]["decisions"] > 0


def test_cli_plays_a_two_player_variant(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    runs = []
    for seed in (2, 3):
        code = main(["tournament", "--team-a", "greedy", "--team-b", "random", "--variant",
                     "draw-2", "--matches", "4", "--seed", str(seed), "--target", "15",
                     "--workers", "1", "--json"])
        assert code == 0
        figures = json.loads(capsys.readouterr().out)
        assert figures["variant"] == "draw-2" and figures["matches"] == 4
        assert [figures[k]["bot"] for k in ("a", "b")] == ["greedy", "random"]
        lo, hi = figures["a"]["ci95"]
        assert 0 <= lo <= figures["a"]["win_rate"] <= hi <= 1
        path = tmp_path / f"seed-{seed}.json"
        path.write_text(json.dumps(figures))
        runs.append(figures)
    pooled = pool(runs)
    assert pooled["variant"] == "draw-2" and pooled["matches"] == 8
    assert main(["tournament", "--combine", *map(str, sorted(tmp_path.glob("*.json")))]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] == 8
    code = main(["tournament", "--team-a", "greedy", "--team-b", "random", "--variant",
                 "block-2", "--matches", "2", "--target", "10", "--workers", "1"])
    assert code == 0
    assert capsys.readouterr().out.startswith("block-2: 2 matches (1 mirrored pair,")


def test_reports_of_different_variants_do_not_pool() -> None:
    block = report(run(specs("greedy", "random", 2, seed=1, target=10, variant="block-2"),
                       workers=1), "greedy", "random", "block-2")
    draw = report(run(specs("greedy", "random", 2, seed=1, target=10, variant="draw-2"),
                      workers=1), "greedy", "random", "draw-2")
    with pytest.raises(PoolError):
        pool([block, draw])
    old = {k: v for k, v in block.items() if k != "variant"}  # kept before variants existed
    assert pool([old, old])["variant"] == "partnership-6"
    with pytest.raises(PoolError):
        pool([old, block])


@pytest.mark.parametrize("variant", VARIANTS)
def test_selfplay_stores_two_player_matches(variant: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "selfplay.sqlite3"
    assert main(["selfplay", "--variant", variant, "--matches", "3", "--target", "20",
                 "--db", str(db)]) == 0
    assert f"stored 3 {variant} matches" in capsys.readouterr().out
    assert main(["verify", "--db", str(db)]) == 0
