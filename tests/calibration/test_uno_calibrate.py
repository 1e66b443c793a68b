"""`calibrate` for Uno: its odds are yes-or-no events ("S holds at least two r7"), scored
against the referee's hands and deck (games.uno.revealed); end to end from a real SQLite
file of stored matches, and the revealer checked against the belief position by position —
exact odds and, with the exact budgets switched off, the Markov chain's estimates."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from archive.matches import load_match_log, match_ids
from clients.cli import main
from games.interface import SPECTATOR
from games.registry import GAMES
from games.uno.belief import UnoBelief
from games.uno.counting import DECK
from games.uno.revealed import NO, YES, event_name, uno_forecasts, uno_moments
from games.uno.state import evolve
from storage import EventStore


def _store(tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, matches: int,
           seed: int) -> str:
    db = str(tmp_path / "matches.sqlite3")
    assert main(["selfplay", "--db", db, "--variant", variant, "--seed", str(seed),
                 "--matches", str(matches)]) == 0
    capsys.readouterr()
    return db


def test_calibrate_scores_uno_odds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _store(tmp_path, capsys, "uno-2-mini", 3, 3)
    assert main(["calibrate", "--db", db, "--variant", "uno-2-mini", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] > 20, report
    uniform = report["models"]["uniform"]
    assert 0 < uniform["log_loss"] < 1 and 0 < uniform["brier"] < 1
    assert uniform["impossible"] == 0  # exact odds never gave the truth probability 0
    assert sum(b["count"] for b in uniform["reliability"]) > 0


@pytest.mark.parametrize("estimate", [False, True])
def test_every_shown_event_has_a_revealed_outcome(estimate: bool, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """At every scored position, for a seat and the spectator: every event the belief gives
    odds for has a revealed outcome, the odds shown ("S:r7>=2" from marginals["S"]["r7>=2"])
    are the forecast's, and an exact belief never gave a true event probability 0. With the
    exact budgets at 0 the belief estimates (Markov chain): its informative snapshots are
    scored the same way; those that show no odds give no forecasts (a few positions of one
    seat: each estimate runs its chains)."""
    db = _store(tmp_path, capsys, "uno-2-mini", 2, 7)
    with EventStore(db) as store:
        logs = [load_match_log(store, m, games=GAMES) for m in match_ids(store)]
    scored: Counter[str] = Counter()
    for log in logs[:1] if estimate else logs:
        at = {m.index: m for m in uno_moments(log.events)}
        assert at
        for observer in ("S",) if estimate else ("S", SPECTATOR):
            belief = (UnoBelief(observer, "uno-2-mini", budget=0, block_budget=0) if estimate
                      else log.game.belief(observer, "uno-2-mini"))
            for index, event in enumerate(log.events):
                belief.apply(log.game.view(event, observer))
                moment = at.get(index)
                if moment is None or (estimate and index > 8):
                    continue
                snapshot = belief.snapshot_dict()
                forecasts = uno_forecasts(snapshot)
                if not snapshot.get("marginals"):
                    assert forecasts == {}
                    continue
                for place, row in snapshot["marginals"].items():
                    for item, p in row.items():
                        assert forecasts[f"{place}:{item}"][YES] == pytest.approx(p)
                for item, dist in forecasts.items():
                    assert moment.holders[item] in (YES, NO)
                    assert dist[YES] + dist[NO] == pytest.approx(1.0)
                    if snapshot["status"] == "exact":
                        assert dist[moment.holders[item]] > 0, (index, item)
                scored[snapshot["status"]] += 1
    assert scored["estimate" if estimate else "exact"] >= (4 if estimate else 10), scored


def test_the_truth_counts_every_copy(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """At every position each kind's copies are all somewhere: the seats, the deck (as the
    revealed events count them) and the face-up pile make up the whole deck."""
    db = _store(tmp_path, capsys, "uno-2-mini", 2, 11)
    with EventStore(db) as store:
        logs = [load_match_log(store, m, games=GAMES) for m in match_ids(store)]
    for log in logs:
        state = None
        moments = {m.index: m for m in uno_moments(log.events)}
        for index, event in enumerate(log.events):
            state = evolve(state, event)
            moment = moments.get(index)
            if moment is None:
                continue
            copies = Counter(state.variant.deck.cards())
            for kind, n in copies.items():
                held = sum(max((j for j in range(1, n + 1)
                                if moment.holders[event_name(place, kind, j)] == YES),
                               default=0)
                           for place in ("S", "N", DECK))
                assert held + state.pile.count(kind) == n, (index, kind)
