"""The command-line tools are generic over the game interface.

A toy game that exists only in the tests (tests/games/toy) is registered beside dominoes and
handed to `clients.cli.main(argv, games=...)`, the one seam the commands take their games
from. What every game gets from the commands is in tests/conformance/test_cli.py (the toy
among them); here, what is not the same for every game: a forged store named by verify, what
only dominoes has, the registries, old logs, selfplay's and tournament's own checks, and
two-player dominoes' sides, seat proofs and draws.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from clients.cli import main
from games.dominoes.game import DOMINOES
from games.play import play_match
from games.registry import GAMES, Registry
from storage.store import EventStore
from tests.games.toy.game import TOY, VARIANT, Played

GAMES_WITH_TOY = Registry([DOMINOES, TOY])


def run(capsys: pytest.CaptureFixture[str], *argv: str,
        games: Registry = GAMES_WITH_TOY) -> tuple[int, str, str]:
    code = main(list(argv), games=games)
    out, err = capsys.readouterr()
    return code, out, err


def toy_match(seed: int) -> list[Any]:
    bot = TOY.bots()["random"]
    return play_match(TOY, VARIANT, {"S": bot, "N": bot}, random.Random(seed),
                      match_id=f"toy-{seed}")


def as_lines(events: list[Any]) -> str:
    return "".join(json.dumps(TOY.event_to_dict(e)) + "\n" for e in events)


@pytest.fixture()
def toy_db(tmp_path: Path) -> tuple[Path, list[Any]]:
    """A toy match stored in a real SQLite file through the store itself (not the CLI)."""
    events = toy_match(5)
    db = tmp_path / "toy.sqlite3"
    store = EventStore(db)
    try:
        store.append(events[0].match_id, 0, [TOY.event_to_dict(e) for e in events])
    finally:
        store.close()
    return db, events


def test_verify_names_a_toy_match_forged_through_the_store_api(tmp_path, capsys) -> None:
    events = toy_match(7)
    i = next(i for i, e in enumerate(events) if isinstance(e, Played))
    forged = [*events[:i], events[i].model_copy(update={"card": 99}), *events[i + 1:]]
    db = tmp_path / "forged.sqlite3"
    store = EventStore(db)
    try:
        store.append("toy-7", 0, [TOY.event_to_dict(e) for e in forged])
    finally:
        store.close()
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert code == 1 and out.startswith(f"BAD toy-7: event seq {events[i].seq}:")


def test_infer_refuses_what_the_game_does_not_declare_and_seats_the_match_lacks(
        toy_db, tmp_path, capsys) -> None:
    _db, events = toy_db
    log = tmp_path / "toy.jsonl"
    log.write_text(as_lines(events))
    code, _, err = run(capsys, "infer", str(log), "--seat", "S", "--method", "rejection")
    assert code == 2
    assert err == "error: infer --method rejection is not offered by toy (its methods: " \
                  "exact)\n"
    code, _, err = run(capsys, "infer", str(log), "--seat", "E")
    assert code == 2 and "--seat E: not an audience of this toy match (one of S, N, " \
                         "spectator)" in err


def test_the_toy_is_unknown_to_the_real_registry(tmp_path, capsys) -> None:
    log = tmp_path / "toy.jsonl"
    log.write_text(as_lines(toy_match(8)))
    code, _, err = run(capsys, "import", str(log), "--db", str(tmp_path / "x.sqlite3"),
                       games=GAMES)
    assert code == 2 and f"{log}: line 1: unknown game 'toy' (known: dominoes" in err


def test_a_dominoes_log_that_names_no_game_is_dominoes(tmp_path, capsys) -> None:
    """Logs written before games were plug-ins have no match_started.game."""
    bot = DOMINOES.bots()["random"]
    events = play_match(DOMINOES, "partnership-6", dict.fromkeys("SWNE", bot),
                        random.Random(3), options={"target": 30})
    data = [DOMINOES.event_to_dict(e) for e in events]
    del data[0]["game"]
    log = tmp_path / "old.jsonl"
    log.write_text("".join(json.dumps(d) + "\n" for d in data))
    db = tmp_path / "old.sqlite3"
    code, out, err = run(capsys, "import", str(log), "--db", str(db))
    assert code == 0 and out == f"imported {data[0]['match_id']} ({len(data)} events)\n", err
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert code == 0 and "ok: 1 matches" in out


# --- two-player dominoes: what its tools say of two seats --------------------------------


def test_two_player_matches_list_sides_prove_a_seats_export_and_narrate_draws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(Every command on block-2 and draw-2 is in tests/conformance/test_cli.py.)"""
    db = tmp_path / "x.sqlite3"
    code, _, err = run(capsys, "selfplay", "--variant", "draw-2", "--matches", "1",
                         "--target", "30", "--seed", "4", "--db", str(db), games=GAMES)
    assert code == 0, err
    listed = run(capsys, "matches", "--db", str(db), games=GAMES)[1].splitlines()
    assert len(listed) == 1 and "  draw-2  finished, " in listed[0]
    assert " - " in listed[0] and "NS" not in listed[0]  # sides S and N
    match_id = listed[0].split()[0]
    as_north = run(capsys, "export", match_id, "--db", str(db), "--as", "N", games=GAMES)[1]
    north = tmp_path / "north.jsonl"
    north.write_text(as_north)
    code, proved, _ = run(capsys, "verify", str(north), games=GAMES)
    assert code == 0 and proved.startswith(f"ok: {north}: dominoes match {match_id} (N's log), ")
    assert "deals proved from their committed seeds" in proved
    exported = run(capsys, "export", match_id, "--db", str(db), games=GAMES)[1]
    log = tmp_path / "m.jsonl"
    log.write_text(exported)
    story = run(capsys, "replay", str(log), games=GAMES)[1]
    drew = sum(json.loads(line)["type"] == "tiles_drawn" for line in exported.splitlines())
    assert story.startswith(f"Match {match_id}: draw-2") and "Match over: " in story
    assert story.count(" draws ") == drew > 0


def test_selfplay_plays_any_registered_game_with_its_own_bots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "toys.sqlite3")
    code, out, _ = run(capsys, "selfplay", "--variant", VARIANT, "--matches", "3",
                       "--seed", "4", "--db", db)
    assert code == 0 and f"stored 3 {VARIANT} matches" in out
    code, out, _ = run(capsys, "verify", "--db", db)
    assert code == 0, out
    store = EventStore(db)
    try:
        matches = [s for s in store.streams() if not s.stream.startswith(("seats:", "commands:"))]
        assert len(matches) == 3
        for info in matches:
            TOY.check_log([TOY.parse_event(e.payload) for e in store.read(info.stream)])
    finally:
        store.close()
    # the same seed again: the same match ids, refused with a clear error, not a traceback
    code, _, err = run(capsys, "selfplay", "--variant", VARIANT, "--matches", "1",
                       "--seed", "4", "--db", db)
    assert code != 0 and "another --seed" in err
    code, _, err = run(capsys, "selfplay", "--variant", VARIANT, "--policy", "heaviest",
                       "--db", db)
    assert code != 0 and "random" in err  # the toy's own bots are named


def test_tournament_plays_any_game_with_its_own_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--variant", VARIANT, "--team-a", "random",
                       "--team-b", "random", "--matches", "10", "--seed", "2", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["game"] == "toy" and report["matches"] == 10
    assert report["wins"] + report["draws"] + report["losses"] == 10
    code, _, err = run(capsys, "tournament", "--variant", VARIANT, "--team-a", "pimc",
                       "--team-b", "random", "--matches", "2")
    assert code != 0 and "no bot 'pimc' for toy" in err
