"""Clue's table option through the generic commands, on a real SQLite file (every command
on every variant at its defaults is in tests/conformance/test_cli.py).

The table size is `clue`'s option `players` (3-6, default 4): `--players N` on the commands
that start matches; the seats of a stored match come from its log. The old names clue-3 ...
clue-6 are aliases kept so their logs still read, verify and replay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from games.clue.game import CLUE
from games.interface import SPECTATOR
from storage.store import EventStore


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _stored(db: Path) -> list[str]:
    store = EventStore(db)
    try:
        return [s.stream for s in store.streams()
                if not s.stream.startswith(("seats:", "commands:"))]
    finally:
        store.close()


@pytest.mark.parametrize("variant,players", [("clue", 5), ("clue", 3), ("clue-5", None)])
def test_selfplay_export_import_verify_infer_replay(variant, players, tmp_path, capsys) -> None:
    db, other = tmp_path / "c.sqlite3", tmp_path / "d.sqlite3"
    size = ("--players", str(players)) if players else ()
    code, out, err = run(capsys, "selfplay", "--variant", variant, *size, "--matches", "2",
                         "--seed", "3", "--db", str(db))
    assert code == 0 and f"stored 2 {variant} matches" in out, err
    if variant == "clue":
        assert f"(players={players or 4})" in out
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert (code, out) == (0, "ok: 2 matches, every hash chain and every move checked\n")
    match_id = sorted(_stored(db))[0]

    code, exported, _ = run(capsys, "export", match_id, "--db", str(db))
    events = [CLUE.parse_event(line) for line in exported.splitlines()]
    CLUE.check_log(events)
    seats = tuple(f"P{i}" for i in range(1, (players or CLUE.variants()[variant].options[
        "players"]) + 1))
    assert events[0].variant == variant and tuple(events[0].players) == seats
    assert sorted(events[1].hand_sizes) == list(seats)
    log = tmp_path / "m.jsonl"
    log.write_text(exported)
    code, out, err = run(capsys, "import", str(log), "--db", str(other))
    assert (code, out) == (0, f"imported {match_id} ({len(events)} events)\n"), err
    assert run(capsys, "verify", "--db", str(other))[1].startswith("ok: 1 matches")

    code, as_last, err = run(capsys, "export", match_id, "--db", str(db), "--as", seats[-1])
    assert code == 0, err  # the last seat (P5 at five): an audience of this match
    assert [json.loads(line) for line in as_last.splitlines()] == [
        CLUE.event_to_dict(CLUE.view(e, seats[-1])) for e in events]
    code, _, err = run(capsys, "export", match_id, "--db", str(db), "--as", f"P{len(seats) + 1}")
    assert code == 2 and "not an audience" in err
    code, as_p2, _ = run(capsys, "export", match_id, "--db", str(db), "--as", "P2")
    p2 = [json.loads(line) for line in as_p2.splitlines()]
    assert p2 == [CLUE.event_to_dict(CLUE.view(e, "P2")) for e in events]
    for event in p2:
        if event["type"] == "card_shown" and "P2" not in (event["seat"], event["to"]):
            assert event["card"] is None
        if event["type"] == "dealt":
            assert event["envelope"] is None and event["secret"] is None
    mine = tmp_path / "p2.jsonl"
    mine.write_text(as_p2)
    code, out, _ = run(capsys, "verify", str(mine))  # a seat's export: proved from its seed
    assert code == 0 and "(P2's log), 1 deal proved from its committed seed" in out

    shown = next(e.seq for e in events if e.type == "card_shown")
    for seat in (seats[-1], SPECTATOR):
        code, out, err = run(capsys, "infer", str(log), "--seat", seat, "--at", str(shown),
                             "--json")
        assert code == 0, err
        belief = CLUE.belief(seat, variant)
        for event in events[:shown]:
            belief.apply(CLUE.view(event, seat))
        expected = json.loads(json.dumps(belief.snapshot_dict()))
        assert json.loads(out) == expected and expected["status"] == "exact"
        assert set(expected["marginals"]) == {*seats, "envelope"}

    code, story, _ = run(capsys, "replay", match_id, "--db", str(other))
    assert code == 0 and len(story.splitlines()) == len(events)
    assert run(capsys, "replay", str(log))[1] == story


def test_players_is_checked_by_every_command_that_starts_matches(tmp_path, capsys) -> None:
    db = str(tmp_path / "c.sqlite3")
    for argv in (("selfplay", "--variant", "clue", "--players", "7", "--db", db),
                 ("selfplay", "--variant", "clue", "--option", "players=many", "--db", db),
                 ("tournament", "--variant", "clue", "--players", "2", "--team-a", "random",
                  "--team-b", "random", "--matches", "2"),
                 ("bench", "inference", "--variant", "clue", "--players", "9",
                  "--matches", "1"),
                 ("loadtest", "--variant", "clue", "--players", "7", "--tables", "1")):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "option 'players' is" in err, (argv, err)
    code, _, err = run(capsys, "selfplay", "--variant", "partnership-6", "--players", "4",
                       "--db", db)
    assert code == 2 and "has no option 'players'" in err
    code, _, err = run(capsys, "selfplay", "--variant", "clue", "--option", "colour=red",
                       "--db", db)
    assert code == 2 and "has no option 'colour'" in err
    assert not (tmp_path / "c.sqlite3").exists() or _stored(tmp_path / "c.sqlite3") == []


def test_tournament_of_clues_own_bots_at_five(capsys) -> None:
    code, out, err = run(capsys, "tournament", "--variant", "clue", "--players", "5",
                         "--team-a", "infomax", "--team-b", "random", "--matches", "2",
                         "--seed", "2", "--json", "--workers", "1")
    assert code == 0, err
    report = json.loads(out)
    assert report["options"] == {"players": 5} and report["matches"] == 2
    code, _, err = run(capsys, "tournament", "--variant", "clue", "--team-a", "pimc",
                       "--team-b", "random", "--matches", "2")
    assert code != 0 and "no bot 'pimc' for clue" in err


def test_bench_budgets_compares_each_budget_on_the_same_updates(capsys) -> None:
    """`python -m clients.bench.clue --budgets`: one row per budget, each over the same
    spectator updates (it raised AttributeError once the split lists' cache moved)."""
    from clients.bench.clue import main as bench

    argv = ["--variant", "clue-mini", "--matches", "1", "--budgets", "20,2000"]
    assert bench(argv) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    counted = {row[0]: row[1] for row in rows if row and row[0] in ("20", "2000")}
    assert set(counted) == {"20", "2000"} and counted["20"] == counted["2000"] != "0"
