"""Every generic command on uno-2 through `clients.cli.main` with the real registry and real
SQLite files: selfplay, verify, matches, export (and --as), import (a forgery refused at its
seq), infer --seat X --json (the game's own belief), replay, tournament."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from games.interface import SPECTATOR, LogProblem
from games.uno.game import UNO


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str, list]:
    db = tmp_path / "uno.sqlite3"
    code, out, err = run(capsys, "selfplay", "--variant", "uno-2", "--matches", "2", "--seed",
                         "3", "--policy", "greedy", "--db", str(db))
    assert code == 0 and "stored 2 uno-2 matches" in out, err
    code, listed, _ = run(capsys, "matches", "--db", str(db))
    lines = listed.splitlines()
    assert len(lines) == 2 and all("  uno-2  finished, " in line for line in lines)
    match_id = lines[0].split()[0]
    code, exported, _ = run(capsys, "export", match_id, "--db", str(db))
    events = [UNO.parse_event(line) for line in exported.splitlines()]
    return db, match_id, events


def test_selfplay_verify_export_import_replay(stored, tmp_path, capsys) -> None:
    db, match_id, events = stored
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert (code, out) == (0, "ok: 2 matches, every hash chain and every move checked\n")
    UNO.check_log(events)
    log = tmp_path / "m.jsonl"
    log.write_text("".join(json.dumps(UNO.event_to_dict(e)) + "\n" for e in events))
    other = tmp_path / "other.sqlite3"
    code, out, err = run(capsys, "import", str(log), "--db", str(other))
    assert (code, out) == (0, f"imported {match_id} ({len(events)} events)\n"), err
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 0 and out.startswith(f"ok: {log}: uno match {match_id}")
    code, story, _ = run(capsys, "replay", str(log))
    assert code == 0 and len(story.splitlines()) == len(events)
    assert "card_played" in story and "secret=(hidden)" in story


@pytest.mark.parametrize("audience", ["S", "N", SPECTATOR])
def test_export_as_an_audience_hides_what_it_may_not_see(stored, capsys, audience) -> None:
    db, match_id, events = stored
    code, out, _ = run(capsys, "export", match_id, "--db", str(db), "--as", audience)
    written = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and written == [UNO.event_to_dict(UNO.view(e, audience)) for e in events]
    for shown in written:
        assert shown.get("secret") is None
        if shown["type"] in ("hand_dealt", "cards_drawn"):
            assert (shown["cards"] is None) == (shown["seat"] != audience)


def test_import_refuses_a_forged_draw_at_its_seq(stored, tmp_path, capsys) -> None:
    _db, _match_id, events = stored
    i = next(i for i, e in enumerate(events) if e.type == "cards_drawn")
    swap = "W" if events[i].cards[0] != "W" else "r0"
    forged = [*events[:i], events[i].model_copy(update={"cards": [swap, *events[i].cards[1:]]}),
              *events[i + 1:]]
    with pytest.raises(LogProblem) as problem:
        UNO.check_log(forged)
    log = tmp_path / "forged.jsonl"
    log.write_text("".join(json.dumps(UNO.event_to_dict(e)) + "\n" for e in forged))
    code, _out, err = run(capsys, "import", str(log), "--db", str(tmp_path / "t.sqlite3"))
    assert code == 2 and f"event seq {events[i].seq}:" in err and str(problem.value) in err


def test_infer_json_is_the_uno_belief_of_that_view(stored, tmp_path, capsys) -> None:
    _db, _match_id, events = stored
    log = tmp_path / "m.jsonl"
    log.write_text("".join(json.dumps(UNO.event_to_dict(e)) + "\n" for e in events))
    for seat in ("S", "N", SPECTATOR):
        for at in (4, 9):
            code, out, err = run(capsys, "infer", str(log), "--seat", seat, "--at", str(at),
                                 "--json")
            assert code == 0, err
            belief = UNO.belief(seat, "uno-2")
            for event in events[:at]:
                belief.apply(UNO.view(event, seat))
            expected = belief.snapshot_dict()
            assert json.loads(out) == json.loads(json.dumps(expected))
            assert expected["status"] == "exact"
            unknown = ["S", "N"] if seat == SPECTATOR else ["N" if seat == "S" else "S"]
            for holder in unknown:
                assert sum(expected["expected"][holder].values()) == \
                    pytest.approx(expected["hand_counts"][holder])
    code, out, _ = run(capsys, "infer", str(log), "--seat", "S", "--at", "9")
    assert code == 0 and out.startswith("S's view after event 9 (uno)")


def test_tournament_plays_uno_bots_in_mirrored_pairs(capsys) -> None:
    code, out, _ = run(capsys, "tournament", "--variant", "uno-2", "--team-a", "greedy",
                       "--team-b", "random", "--matches", "6", "--seed", "2", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["game"] == "uno" and report["matches"] == 6
    assert report["wins"] + report["draws"] + report["losses"] == 6
