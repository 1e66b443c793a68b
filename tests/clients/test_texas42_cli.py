"""Texas 42 through the generic command-line tools, on a real SQLite file.

selfplay stores matches, verify re-decides them, export/import round-trip a log, export
--as gives a seat's own view (no other hand, no seed before its reveal), infer --json is the
game's own exact belief of that view, replay tells the log, tournament plays mirrored pairs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from games.interface import SPECTATOR
from games.texas42.game import TEXAS42


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    db = tmp_path_factory.mktemp("t42") / "t42.sqlite3"
    assert main(["selfplay", "--variant", "texas-42", "--matches", "2", "--policy", "greedy",
                 "--seed", "3", "--db", str(db)]) == 0
    from storage.store import EventStore

    store = EventStore(db)
    try:
        ids = sorted(s.stream for s in store.streams() if not s.stream.startswith("_"))
    finally:
        store.close()
    return db, ids


def test_selfplay_verify_matches_export_import_replay(stored, tmp_path, capsys) -> None:
    db, ids = stored
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert (code, out) == (0, "ok: 2 matches, every hash chain and every move checked\n")
    code, listed, _ = run(capsys, "matches", "--db", str(db))
    assert code == 0 and len(listed.splitlines()) == 2
    assert all("  texas-42  finished, " in line for line in listed.splitlines())

    match_id = next(i for i in ids if i in listed)
    code, exported, _ = run(capsys, "export", match_id, "--db", str(db))
    events = [TEXAS42.parse_event(line) for line in exported.splitlines()]
    assert code == 0 and events[0].game == "texas42" and events[-1].type == "match_ended"
    TEXAS42.check_log(events)
    log = tmp_path / "m.jsonl"
    log.write_text(exported)
    other = tmp_path / "other.sqlite3"
    code, out, _ = run(capsys, "import", str(log), "--db", str(other))
    assert (code, out) == (0, f"imported {match_id} ({len(events)} events)\n")
    assert run(capsys, "export", match_id, "--db", str(other))[1] == exported
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 0 and out.startswith(f"ok: {log}: texas42 match {match_id}")

    code, story, _ = run(capsys, "replay", str(log))
    assert code == 0 and len(story.splitlines()) == len(events)
    assert [line.split()[:2] for line in story.splitlines()] == \
        [[str(e.seq), e.type] for e in events]

    # a forged play is refused at its seq, nothing imported
    i = next(i for i, e in enumerate(events) if e.type == "played")
    data = [json.loads(line) for line in exported.splitlines()]
    data[i]["tile"] = "6-6" if data[i]["tile"] != "6-6" else "0-0"
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(d) + "\n" for d in data))
    code, out, err = run(capsys, "import", str(forged), "--db", str(tmp_path / "f.sqlite3"))
    assert code == 2 and f"event seq {events[i].seq}:" in err
    code, out, _ = run(capsys, "verify", str(forged))
    assert code == 1 and out.startswith(f"BAD {forged}: event seq {events[i].seq}:")


@pytest.mark.parametrize("audience", ["W", SPECTATOR])
def test_export_as_a_seat_and_infer_json(stored, tmp_path, capsys, audience: str) -> None:
    db, ids = stored
    code, out, _ = run(capsys, "export", ids[0], "--db", str(db), "--as", audience)
    shown = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    for event in shown:
        if event["type"] == "dealt":
            assert (event["tiles"] is None) == (event["seat"] != audience)
        if event["type"] == "hand_started":
            assert event["seed"] is None
    code, full, _ = run(capsys, "export", ids[0], "--db", str(db))
    events = [TEXAS42.parse_event(line) for line in full.splitlines()]
    log = tmp_path / "full.jsonl"
    log.write_text(full)
    plays = [e.seq for e in events if e.type == "played"]
    for at in (plays[0] - 1, plays[5], plays[20]):
        code, out, err = run(capsys, "infer", str(log), "--seat", audience, "--at", str(at),
                             "--json")
        assert code == 0, err
        belief = TEXAS42.belief(audience, "texas-42")
        for event in events[:at]:
            belief.apply(TEXAS42.view(event, audience))
        expected = json.loads(json.dumps(belief.snapshot_dict()))
        assert json.loads(out) == expected
        assert expected["model"] == "uniform over deals consistent with the plays"
        for tile in {t for row in expected["marginals"].values() for t in row}:
            assert sum(row.get(tile, 0) for row in expected["marginals"].values()) == \
                pytest.approx(1)


def test_tournament_greedy_against_random(capsys) -> None:
    code, out, err = run(capsys, "tournament", "--variant", "texas-42", "--team-a", "greedy",
                         "--team-b", "random", "--matches", "4", "--workers", "1",
                         "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["matches"] == 4
    text = json.dumps(report)
    assert "greedy" in text and "random" in text
