"""Tournaments for any game: mirrored pairs share their deals, and results add up."""

from __future__ import annotations

from games.dominoes.game import DOMINOES
from strategy.arena import arena, play_pair
from tests.games.toy.game import TOY, VARIANT, Dealt


def _deals(events: list) -> dict[str, list[int]]:
    return {e.seat: e.cards for e in events if isinstance(e, Dealt)}


def test_a_pair_plays_the_same_deal_twice_with_the_bots_swapped() -> None:
    bot = TOY.bots()["random"]
    for pair in range(5):
        result = play_pair(TOY, VARIANT, bot, bot, seed=3, pair=pair)
        first, second = result.logs
        assert _deals(first) == _deals(second)  # the same deal in both halves
        TOY.check_log(first)
        TOY.check_log(second)
        assert all(s in (0.0, 0.5, 1.0) for s in result.scores)


def test_the_report_counts_every_match_and_its_interval_holds_the_rate() -> None:
    report = arena(TOY, VARIANT, "random", "random", pairs=15, seed=1).to_dict()
    assert report["matches"] == 30
    assert report["wins"] + report["draws"] + report["losses"] == 30
    low, high = report["win_rate_ci95"]
    assert low <= report["win_rate"] <= high
    assert report == arena(TOY, VARIANT, "random", "random", pairs=15, seed=1).to_dict()


def test_the_winning_seats_come_from_the_game() -> None:
    bot = DOMINOES.bots()["greedy"]
    result = play_pair(DOMINOES, "block-2", bot, DOMINOES.bots()["random"], seed=2, pair=0,
                       options={"target": 30})
    for events, seats_a, score in zip(result.logs, (("S",), ("N",)), result.scores,
                                      strict=True):
        winner = events[-1].winner
        assert score == (1.0 if winner in seats_a else 0.0)
    # every hand both halves reach was dealt from the same committed seed
    first, second = ([e.seed_sha256 for e in log if e.type == "hand_started"]
                     for log in result.logs)
    common = min(len(first), len(second))
    assert common >= 2 and first[:common] == second[:common]


def test_runs_of_one_match_up_pool_by_adding_their_counts(tmp_path, capsys) -> None:
    """`tournament --combine` of a game's own bots: two seeds' reports become one whose
    counts are the sums and whose interval is recomputed; another match-up is refused."""
    import json

    from clients.cli import main
    from games.intervals import wilson

    runs = [arena(TOY, VARIANT, "random", "random", pairs=3, seed=seed).to_dict()
            for seed in (1, 2)]
    paths = []
    for i, run in enumerate(runs):
        paths.append(tmp_path / f"run{i}.json")
        paths[-1].write_text(json.dumps(run))
    assert main(["tournament", "--combine", *map(str, paths)]) == 0
    pooled = json.loads(capsys.readouterr().out)
    for key in ("matches", "wins", "draws", "losses"):
        assert pooled[key] == runs[0][key] + runs[1][key]
    low, high = wilson(pooled["wins"], pooled["matches"])
    assert pooled["win_rate_ci95"] == [round(low, 4), round(high, 4)]
    other = dict(runs[1], b="heaviest")
    paths[1].write_text(json.dumps(other))
    assert main(["tournament", "--combine", *map(str, paths)]) == 2
    assert "not the same match-up" in capsys.readouterr().err
