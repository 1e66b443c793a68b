"""The command-line tools on a real SQLite file: the README's tour, and bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from archive.jsonl import parse_log_lines
from clients.cli import main
from clients.store_option import open_store
from games.dominoes.line import fits
from games.dominoes.rules import fold
from games.dominoes.tiles import parse_tile


def ends(state) -> tuple[int, int]:
    return state.hand.left, state.hand.right


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    db = tmp_path / "games.sqlite3"
    code, out, _ = run(capsys, "selfplay", "--matches", "4", "--seed", "7", "--db", str(db))
    assert code == 0 and "stored 4" in out
    code, out, _ = run(capsys, "matches", "--db", str(db))
    ids = [line.split()[0] for line in out.splitlines()]
    assert len(ids) == 4 and all("finished" in line for line in out.splitlines())
    return db, ids


def test_the_tour_selfplay_export_import_replay_verify(stored, tmp_path, capsys) -> None:
    db, ids = stored
    code, exported, _ = run(capsys, "export", ids[0], "--db", str(db))
    assert code == 0
    lines = exported.splitlines()
    assert json.loads(lines[0])["type"] == "match_started"
    assert json.loads(lines[-1])["type"] == "match_ended"
    log = tmp_path / "match.jsonl"
    log.write_text(exported)

    other = tmp_path / "other.sqlite3"
    assert run(capsys, "import", str(log), "--db", str(other))[0] == 0
    code, again, _ = run(capsys, "export", ids[0], "--db", str(other))
    assert again == exported

    code, story, _ = run(capsys, "replay", str(log))
    assert code == 0 and "Match over" in story and "plays" in story
    assert run(capsys, "replay", ids[0], "--db", str(db))[1] == story

    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert code == 0 and "ok: 4 matches" in out


def test_same_seed_gives_the_same_matches(tmp_path, capsys) -> None:
    outs = []
    for name in ("a", "b"):
        db = tmp_path / f"{name}.sqlite3"
        run(capsys, "selfplay", "--matches", "2", "--seed", "3", "--db", str(db))
        ids = run(capsys, "matches", "--db", str(db))[1].split()[0]
        outs.append(run(capsys, "export", ids, "--db", str(db))[1])
    assert outs[0] == outs[1]


@pytest.mark.parametrize(
    ("mangle", "expected"),
    [
        (lambda ls: ls[:3] + ['{"seq": 4, "type": "hand_dealt"'] + ls[4:], "line 4: not JSON"),
        (lambda ls: ls[:2] + ['{"seq": 3, "type": "teleported"}'] + ls[3:], "line 3:"),
        (lambda ls: [ls[0].replace("partnership-6", "partnership-12")] + ls[1:],
         "unknown variant"),
        (lambda ls: ls[:8] + [ls[8].replace('"seat":', '"x":1,"seat":')] + ls[9:], "line 9:"),
        (lambda ls: ls[:-1], "stops before match_ended"),
        (lambda ls: ls[:10] + ls[11:], "not contiguous"),
    ],
)
def test_bad_logs_are_refused_by_line_and_nothing_is_imported(
    stored, tmp_path, capsys, mangle, expected
) -> None:
    db, ids = stored
    lines = run(capsys, "export", ids[0], "--db", str(db))[1].splitlines()
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(mangle(lines)) + "\n")
    target = tmp_path / "target.sqlite3"
    code, _, err = run(capsys, "import", str(log), "--db", str(target))
    assert code != 0 and expected in err
    assert not target.exists()  # refused before any store was opened or created


def test_an_illegal_move_in_an_imported_log_is_named(stored, tmp_path, capsys) -> None:
    db, ids = stored
    lines = run(capsys, "export", ids[0], "--db", str(db))[1].splitlines()
    events = [json.loads(line) for line in lines]
    typed = parse_log_lines(lines).events

    def fits_one_end_only(i: int) -> bool:
        event = typed[i]
        if event.type != "tile_played" or event.end is None:
            return False
        return len(fits(parse_tile(event.tile), *ends(fold(typed[:i])))) == 1

    first_play = next(i for i in range(len(typed)) if fits_one_end_only(i))
    events[first_play]["end"] = "left" if events[first_play]["end"] == "right" else "right"
    log = tmp_path / "illegal.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events))
    code, _, err = run(capsys, "import", str(log), "--db", str(tmp_path / "t.sqlite3"))
    assert code == 2 and f"event seq {first_play + 1}" in err


def test_verify_names_a_tampered_event(stored, capsys) -> None:
    db, ids = stored
    with open_store(str(db)) as store, store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER IF EXISTS events_no_update"))
        triggers = conn.execute(text("SELECT name FROM sqlite_master WHERE type='trigger'"))
        for (name,) in triggers.fetchall():
            conn.execute(text(f'DROP TRIGGER "{name}"'))
        conn.execute(
            text("UPDATE events SET payload = replace(payload, '\"bot-S\"', '\"eve\"') "
                 "WHERE stream = :s AND seq = 1"),
            {"s": ids[1]},
        )
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert code == 1 and ids[1] in out and "seq 1" in out


@pytest.mark.parametrize("tool", [["verify"], ["matches"], ["export", "m-1"], ["replay", "m-1"]])
def test_reading_tools_refuse_a_store_that_is_not_there(tool, tmp_path, capsys) -> None:
    """A mistyped --db must not become a new, empty store that answers "0 matches"."""
    typo = tmp_path / "typo.sqlite3"
    code, _, err = run(capsys, *tool, "--db", str(typo))
    assert code == 2 and str(typo) in err and "Traceback" not in err
    assert not typo.exists()


def test_a_store_that_cannot_be_opened_is_a_one_line_error(tmp_path, capsys) -> None:
    not_a_db = tmp_path / "notes.sqlite3"
    not_a_db.write_text("these are not the tables you are looking for\n" * 100)
    code, _, err = run(capsys, "matches", "--db", str(not_a_db))
    assert code == 2 and err.startswith("error: cannot open the store") and err.count("\n") == 1
    code, _, err = run(capsys, "verify", "--db", "postgresql://who:secret@127.0.0.1:1/none")
    assert code == 2 and "cannot open the store" in err and "secret" not in err


def test_a_match_id_with_the_side_record_mark_is_refused(stored, tmp_path, capsys) -> None:
    db, ids = stored
    lines = run(capsys, "export", ids[0], "--db", str(db))[1]
    log = tmp_path / "sneaky.jsonl"
    log.write_text(lines.replace(ids[0], "seats:evil"))
    code, _, err = run(capsys, "import", str(log), "--db", str(db))
    assert code == 2 and "reserved" in err and "nothing was imported" in err


@pytest.mark.parametrize("argv", [
    ["selfplay", "--target", "0"],
    ["selfplay", "--matches", "0"],
    ["serve", "--port", "99999"],
    ["serve", "--commit-window-ms", "-1"],
    ["serve", "--commit-window-ms", "1001"],
])
def test_out_of_range_numbers_are_refused(argv, tmp_path, capsys) -> None:
    code, _, err = run(capsys, *argv, "--db", str(tmp_path / "x.sqlite3"))
    assert code == 2 and err.startswith("error:") and "Traceback" not in err


def test_infer_refuses_a_sampler_without_samples(stored, tmp_path, capsys) -> None:
    db, ids = stored
    log = tmp_path / "m.jsonl"
    log.write_text(run(capsys, "export", ids[0], "--db", str(db))[1])
    for samples in ("0", "-3"):
        code, _, err = run(capsys, "infer", str(log), "--seat", "S", "--method", "rejection",
                           "--samples", samples)
        assert code == 2 and "--samples" in err
