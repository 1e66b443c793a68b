"""The command-line tools are generic over the game interface.

A toy game that exists only in the tests (tests/games/toy) is registered beside dominoes and
handed to `clients.cli.main(argv, games=...)`, the one seam the commands take their games
from; its match goes through a real SQLite file: export (and `--as`), import (refusing a
forgery at the seq the toy's own checker names), verify, infer and replay. The two-player
dominoes variants run through the installed `domino-oracle` in a subprocess.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clients.cli import main
from games.dominoes.game import DOMINOES
from games.interface import SPECTATOR, LogProblem
from games.play import play_match
from games.registry import GAMES, Registry
from storage.store import EventStore
from tests.games.toy.game import TOY, VARIANT, Played, deal

GAMES_WITH_TOY = Registry([DOMINOES, TOY])
CLI = Path(sys.executable).parent / "domino-oracle"
ROOT = Path(__file__).resolve().parents[2]


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


def test_export_import_verify_infer_replay_a_toy_match(toy_db, tmp_path, capsys) -> None:
    db, events = toy_db
    match_id = events[0].match_id

    code, exported, err = run(capsys, "export", match_id, "--db", str(db))
    assert code == 0, err
    assert [json.loads(line) for line in exported.splitlines()] == \
        [TOY.event_to_dict(e) for e in events]
    log = tmp_path / "toy.jsonl"
    log.write_text(exported)

    other = tmp_path / "other.sqlite3"
    code, out, err = run(capsys, "import", str(log), "--db", str(other))
    assert (code, out) == (0, f"imported {match_id} ({len(events)} events)\n"), err
    assert run(capsys, "export", match_id, "--db", str(other))[1] == exported
    code, out, _ = run(capsys, "verify", "--db", str(other))
    assert (code, out) == (0, "ok: 1 matches, every hash chain and every move checked\n")
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 0 and out.startswith(f"ok: {log}: toy match {match_id}, every move up to "
                                        f"seq {events[-1].seq} re-decided")

    code, listed, _ = run(capsys, "matches", "--db", str(other))
    winner = events[-1].winner
    status = f"{winner} won" if winner else "nobody won"
    assert listed == f"{match_id}  {VARIANT}  finished, {status}  no score  " \
                     f"({len(events)} events)\n"

    code, story, _ = run(capsys, "replay", match_id, "--db", str(other))
    told = story.splitlines()
    assert code == 0 and len(told) == len(events)
    assert [line.split()[:2] for line in told] == [[str(e.seq), e.type] for e in events]
    assert run(capsys, "replay", str(log))[1] == story


@pytest.mark.parametrize("audience", ["S", "N", SPECTATOR])
def test_export_as_an_audience_is_the_games_own_view(toy_db, tmp_path, capsys,
                                                     audience: str) -> None:
    db, events = toy_db
    code, out, _ = run(capsys, "export", events[0].match_id, "--db", str(db), "--as", audience)
    written = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and written == [TOY.event_to_dict(TOY.view(e, audience)) for e in events]
    hands, _kitty = deal(events[1].secret)
    dealt = {d["seat"]: d for d in written if d["type"] == "dealt"}
    for seat, shown in dealt.items():
        assert shown["secret"] is None
        assert shown["cards"] == (hands[seat] if seat == audience else None)

    # such an export is not the referee's log: verify says what it is, typed, not "forged"
    own = tmp_path / f"{audience}.jsonl"
    own.write_text(out)
    code, out, err = run(capsys, "verify", str(own))
    assert code == 2 and out == ""
    assert err == (f"error: {own}: verify of a seat's own export is only available for "
                   f"dominoes (this is {audience}'s view of a toy match)\n")


def test_export_refuses_an_audience_the_match_does_not_have(toy_db, capsys) -> None:
    db, events = toy_db
    code, out, err = run(capsys, "export", events[0].match_id, "--db", str(db), "--as", "W")
    assert code == 2 and out == ""
    assert "--as W: not an audience of this toy match (one of S, N, spectator, referee)" in err


def test_import_refuses_a_forged_toy_log_at_the_seq_the_checker_names(tmp_path,
                                                                       capsys) -> None:
    events = toy_match(6)
    i = next(i for i, e in enumerate(events) if isinstance(e, Played))
    _hands, kitty = deal(events[1].secret)
    forged = [*events[:i], events[i].model_copy(update={"card": kitty}), *events[i + 1:]]
    with pytest.raises(LogProblem) as problem:
        TOY.check_log(forged)
    assert problem.value.seq == events[i].seq
    log = tmp_path / "forged.jsonl"
    log.write_text(as_lines(forged))
    target = tmp_path / "target.sqlite3"
    code, out, err = run(capsys, "import", str(log), "--db", str(target))
    assert code == 2 and out == ""
    assert err == f"error: {log}: {problem.value} — nothing was imported\n"
    assert f"event seq {events[i].seq}:" in err
    assert not target.exists()
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 1 and out == f"BAD {log}: {problem.value}\n"


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


def test_infer_json_is_the_toy_beliefs_snapshot(toy_db, tmp_path, capsys) -> None:
    _db, events = toy_db
    log = tmp_path / "toy.jsonl"
    log.write_text(as_lines(events))
    first_play = next(e.seq for e in events if isinstance(e, Played))
    for seat in ("S", "N", SPECTATOR):
        for at in (first_play - 1, first_play, first_play + 2):
            code, out, err = run(capsys, "infer", str(log), "--seat", seat, "--at", str(at),
                                 "--json")
            assert code == 0, err
            belief = TOY.belief(seat, VARIANT)
            for event in events[:at]:
                belief.apply(TOY.view(event, seat))
            expected = belief.snapshot_dict()
            assert json.loads(out) == json.loads(json.dumps(expected))
            assert expected["consistent_deals"] > 1  # a real position, not an empty belief
            hidden = {c for row in expected["marginals"].values() for c in row}
            for card in hidden:
                assert sum(row.get(card, 0) for row in expected["marginals"].values()) \
                    == pytest.approx(1)

    code, out, _ = run(capsys, "infer", str(log), "--seat", "N", "--at", str(first_play))
    assert code == 0 and out.startswith(f"N's view after event {first_play} (toy)\n")
    assert "consistent deals: " in out and "  kitty: " in out


def test_infer_refuses_what_only_dominoes_has_and_seats_the_match_lacks(toy_db, tmp_path,
                                                                          capsys) -> None:
    _db, events = toy_db
    log = tmp_path / "toy.jsonl"
    log.write_text(as_lines(events))
    code, _, err = run(capsys, "infer", str(log), "--seat", "S", "--method", "rejection")
    assert code == 2
    assert err == "error: infer --method rejection is only available for dominoes (this is a " \
                  "toy log)\n"
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


# --- two-player dominoes through the installed command ------------------------------------

def cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(CLI), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    if ok:
        assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("variant", ["block-2", "draw-2"])
def test_two_player_selfplay_verify_export_import(variant: str, tmp_path: Path) -> None:
    db, other = tmp_path / "x.sqlite3", tmp_path / "y.sqlite3"
    cli("selfplay", "--variant", variant, "--matches", "2", "--target", "30", "--db", str(db))
    assert cli("verify", "--db", str(db)).stdout == \
        "ok: 2 matches, every hash chain and every move checked\n"
    listed = cli("matches", "--db", str(db)).stdout.splitlines()
    assert len(listed) == 2 and all(f"  {variant}  finished, " in line for line in listed)
    assert all(" - " in line and "NS" not in line for line in listed)  # sides S and N

    match_id = listed[0].split()[0]
    exported = cli("export", match_id, "--db", str(db)).stdout
    log = tmp_path / "m.jsonl"
    log.write_text(exported)
    events = [json.loads(line) for line in exported.splitlines()]
    assert events[0]["variant"] == variant and set(events[0]["players"]) == {"S", "N"}
    assert cli("import", str(log), "--db", str(other)).stdout == \
        f"imported {match_id} ({len(events)} events)\n"
    assert cli("export", match_id, "--db", str(other)).stdout == exported
    assert cli("verify", "--db", str(other)).stdout.startswith("ok: 1 matches")

    as_north = [json.loads(line) for line in
                cli("export", match_id, "--db", str(db), "--as", "N").stdout.splitlines()]
    private = [e for e in as_north if e["type"] in ("hand_dealt", "tiles_drawn")]
    assert private and all((e["tiles"] is None) == (e["seat"] == "S") for e in private)
    north = tmp_path / "north.jsonl"
    north.write_text("".join(json.dumps(e) + "\n" for e in as_north))
    proved = cli("verify", str(north)).stdout
    assert proved.startswith(f"ok: {north}: match {match_id}, ") and "N dealt as" in proved

    west = cli("export", match_id, "--db", str(db), "--as", "W", ok=False)
    assert west.returncode == 2 and "--as W: not an audience" in west.stderr

    story = cli("replay", str(log)).stdout
    assert story.startswith(f"Match {match_id}: {variant}") and "Match over: " in story
    drew = sum(e["type"] == "tiles_drawn" for e in events)
    assert story.count(" draws ") == drew and (drew > 0) == (variant == "draw-2")


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
