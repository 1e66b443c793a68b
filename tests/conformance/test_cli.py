"""Every variant through the command-line tools, in process (`clients.cli.main(argv,
games=...)` with the suite's registry), on real SQLite files: import (a forgery refused at
the seq the checker names, nothing stored), export (and `--as` each audience: the game's
view; verify of such an export proves it or refuses in one line), verify (of the store and
of a log), infer --json (the game's own belief of a seat's and the spectator's view),
replay; and for the variants a new table may have, selfplay, matches and a tournament of
the game's own bots. An alias (an old variant name) is read like any log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clients.cli import main
from games.interface import SPECTATOR, LogProblem
from tests.conformance.cases import CASES, REGISTRY, SEEDS, TABLE_CASES, Case, ids, match
from tests.conformance.forgery import forgeries

INFER_AT = 24
"""infer --at this seq at most (a third of the way into shorter matches): early enough that
a costly belief (uno-2's spectator) is quick."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), games=REGISTRY)
    out, err = capsys.readouterr()
    return code, out, err


def lines(game: Any, events: Any) -> str:
    return "".join(json.dumps(game.event_to_dict(e)) + "\n" for e in events)


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_a_log_through_import_export_verify_infer_and_replay(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = case.game
    played = match(case.variant, SEEDS[0])
    events = list(played.events)
    match_id = events[0].match_id
    log = tmp_path / "m.jsonl"
    log.write_text(lines(game, events))

    forged_log = tmp_path / "forged.jsonl"
    move = played.moves[len(played.moves) // 2]
    forged = next(forgeries(played, move))
    forged_log.write_text(lines(game, [*events[:move.seq - 1], forged, *events[move.seq:]]))
    target = tmp_path / "target.sqlite3"
    code, out, err = run(capsys, "import", str(forged_log), "--db", str(target))
    assert code == 2 and out == "" and f"event seq {move.seq}:" in err, err
    assert "nothing was imported" in err and not target.exists()
    code, out, _ = run(capsys, "verify", str(forged_log))
    assert code == 1 and out.startswith(f"BAD {forged_log}: event seq {move.seq}:")

    db = tmp_path / "db.sqlite3"
    code, out, err = run(capsys, "import", str(log), "--db", str(db))
    assert (code, out) == (0, f"imported {match_id} ({len(events)} events)\n"), err
    code, exported, _ = run(capsys, "export", match_id, "--db", str(db))
    assert code == 0 and [json.loads(x) for x in exported.splitlines()] == \
        [json.loads(x) for x in log.read_text().splitlines()]
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert (code, out) == (0, "ok: 1 matches, every hash chain and every move checked\n")
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 0 and out.startswith(f"ok: {log}: "), out
    code, out, _ = run(capsys, "matches", "--db", str(db))
    assert code == 0 and out.startswith(f"{match_id}  {case.variant}  finished")
    code, story, err = run(capsys, "replay", str(log))
    assert code == 0 and story.strip(), err
    if game.capabilities.narrate is None:  # the generic telling: one line per event
        assert [line.split()[:2] for line in story.splitlines()] == \
            [[str(e.seq), e.type] for e in events]

    at = min(len(events) // 3, INFER_AT)
    for audience in case.audiences:
        code, out, err = run(capsys, "export", match_id, "--db", str(db), "--as", audience)
        assert code == 0, err
        assert [json.loads(x) for x in out.splitlines()] == \
            [json.loads(json.dumps(game.event_to_dict(game.view(e, audience)))) for e in events]
        own = tmp_path / f"{audience}.jsonl"
        own.write_text(out)
        code, said, err = run(capsys, "verify", str(own))
        if game.capabilities.fair_dealing is not None:  # every deal it saw, proved
            assert code == 0 and said.startswith("ok: "), (said, err)
        else:  # refused in one line, typed
            assert code == 2 and err.startswith("error: ") and len(err.splitlines()) == 1, err

        if case.alias or audience not in (case.seats[0], SPECTATOR):
            continue  # (a belief can cost seconds: one seat and the spectator, of a variant
            # a table may have; an alias is the same game under an old name)
        code, out, err = run(capsys, "infer", str(log), "--seat", audience, "--at", str(at),
                             "--json")
        assert code == 0, err
        belief = game.belief(audience, case.variant)
        for event in events[:at]:
            belief.apply(game.view(event, audience))
        expected = json.loads(json.dumps(belief.snapshot_dict()))
        printed = json.loads(out)
        assert printed["seq"] == at and printed["observer"] == audience
        if expected.get("status") == "estimate":  # its own draws: an error bar
            assert printed["status"] == "estimate" and "error_95" in printed
        elif game.capabilities.inspect is None:  # the generic infer: the snapshot itself
            assert printed == expected
        else:  # the game's own infer (dominoes' names no model): the same probabilities
            assert printed["marginals"] == expected["marginals"]
    code, out, err = run(capsys, "export", match_id, "--db", str(db), "--as", "nobody")
    assert code == 2 and "--as nobody: not an audience" in err


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
def test_selfplay_and_a_tournament_with_the_games_own_bots(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "self.sqlite3"
    code, out, err = run(capsys, "selfplay", "--variant", case.variant, "--matches", "1",
                         "--seed", "5", "--db", str(db))
    assert code == 0 and f"stored 1 {case.variant} matches" in out, err
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert (code, out) == (0, "ok: 1 matches, every hash chain and every move checked\n")
    bots = case.game.bots()
    bot = "random" if "random" in bots else next(iter(bots))
    code, out, err = run(capsys, "tournament", "--variant", case.variant, "--team-a", bot,
                         "--team-b", bot, "--matches", "2", "--seed", "1", "--workers", "1",
                         "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["variant"] == case.variant and report["matches"] == 2
    if case.game.capabilities.tournament is None:  # the generic arena's report
        assert report["game"] == case.game.name
        assert report["wins"] + report["draws"] + report["losses"] == 2


def test_the_forged_log_the_cli_refuses_is_one_the_checker_refuses() -> None:
    """(The import above is refused for the checker's reason, not another.)"""
    played = match(CASES[0].variant, SEEDS[0])
    move = played.moves[len(played.moves) // 2]
    forged = next(forgeries(played, move))
    events = list(played.events)
    with pytest.raises(LogProblem) as problem:
        played.case.game.check_log([*events[:move.seq - 1], forged, *events[move.seq:]])
    assert problem.value.seq == move.seq
