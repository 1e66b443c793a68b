"""`calibrate` scores every game whose odds can be checked against what was really held:
Texas 42 and Clue declare who held what (their revealers), and their shown odds are scored
end to end from a real SQLite file of stored matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from games.registry import GAMES

STORES = {
    "texas-42": ["--option", "target_marks=1", "--matches", "2"],
    "clue": ["--matches", "1"],
}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("variant", sorted(STORES))
def test_calibrate_scores_the_shown_odds_of(variant: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "matches.sqlite3")
    code, _, err = _run(capsys, "selfplay", "--db", db, "--variant", variant, "--seed", "3",
                        *STORES[variant])
    assert code == 0, err
    code, out, err = _run(capsys, "calibrate", "--db", db, "--variant", variant,
                          "--uniform-only", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["positions"] > 20, report
    uniform = report["models"]["uniform"]
    assert 0 < uniform["log_loss"] < 3 and 0 < uniform["brier"] < 1
    assert uniform["impossible"] == 0  # exact odds never gave the truth probability 0
    assert sum(b["count"] for b in uniform["reliability"]) > 0


@pytest.mark.parametrize("variant", sorted(STORES))
def test_the_revealed_holders_name_what_the_belief_names(variant: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """Every item the spectator's belief gives odds for has a revealed holder that the
    belief names, at every scored position."""
    db = str(tmp_path / "matches.sqlite3")
    assert main(["selfplay", "--db", db, "--variant", variant, "--seed", "5",
                 *STORES[variant]]) == 0
    capsys.readouterr()
    from archive.matches import load_match_log, match_ids
    from storage import EventStore
    with EventStore(db) as store:
        match_id = match_ids(store)[0]
        log = load_match_log(store, match_id, games=GAMES)
    game = log.game
    reveal = game.capabilities.reveal
    assert reveal is not None
    at = {m.index: m for m in reveal(log.events)}
    assert at
    belief = game.belief("spectator", variant)
    checked = 0
    for index, event in enumerate(log.events):
        belief.apply(game.view(event, "spectator"))
        moment = at.get(index)
        if moment is None:
            continue
        marginals = belief.snapshot_dict().get("marginals") or {}
        for row in marginals.values():
            for item, p in row.items():
                if p > 0:
                    assert item in moment.holders, (index, item)
        truth = {item: marginals.get(holder, {}).get(item, 0.0)
                 for item, holder in moment.holders.items()}
        assert all(p > 0 for p in truth.values()), (index, truth)  # exact: never ruled out
        checked += 1
    assert checked > 10
