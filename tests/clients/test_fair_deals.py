"""Provably fair deals through the tools: forged deals are refused by `import` and `verify`,
and a seat's or spectator's own (redacted) export can be proved fair with `verify FILE`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.cli import main
from clients.store_option import open_store
from games.dominoes.fairness import deal, seed_commitment
from games.dominoes.tiles import SEATS, parse_tile
from games.dominoes.variants import get_variant


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One stored selfplay match with at least two hands (hand 2 has a fixed leader)."""
    db = tmp_path_factory.mktemp("fair") / "games.sqlite3"
    assert main(["selfplay", "--matches", "3", "--seed", "11", "--db", str(db)]) == 0
    with open_store(str(db)) as opened:
        for info in opened.streams():
            if sum(e.type == "hand_started" for e in opened.read(info.stream)) >= 2:
                return db, info.stream
    raise AssertionError("no stored match with two hands")


def export(capsys, store: tuple[Path, str], audience: str = "referee") -> list[dict]:
    db, match_id = store
    code, out, _ = run(capsys, "export", match_id, "--db", str(db), "--as", audience)
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


def write(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def first(events: list[dict], kind: str, hand: int, **fields: object) -> dict:
    return next(e for e in events if e["type"] == kind and e.get("hand") == hand
                and all(e.get(k) == v for k, v in fields.items()))


def reseeded_hand(events: list[dict], hand: int, new_seed: str) -> None:
    """Forge `hand` the way a cheating dealer would: keep the deal, claim another seed, and
    publish that seed's true commitment, so each event alone looks well formed."""
    started, ended = first(events, "hand_started", hand), first(events, "hand_ended", hand)
    started["seed_sha256"] = seed_commitment(new_seed)
    if started.get("seed") is not None:
        started["seed"] = new_seed
    ended["seed"] = new_seed


# --- 1. forged deals in a referee's log ----------------------------------------------------

def test_import_refuses_tiles_swapped_between_seats(store, tmp_path, capsys) -> None:
    events = export(capsys, store)
    south, west = first(events, "hand_dealt", 1, seat="S"), first(events, "hand_dealt", 1, seat="W")
    south["tiles"][0], west["tiles"][0] = west["tiles"][0], south["tiles"][0]
    target = tmp_path / "target.sqlite3"
    code, _, err = run(capsys, "import", str(write(tmp_path / "swapped.jsonl", events)),
                       "--db", str(target))
    assert code == 2
    assert f"event seq {south['seq']}: hand_dealt differs from the rules in tiles" in err
    assert "nothing was imported" in err
    assert not target.exists()


def test_import_refuses_a_changed_seed_commitment(store, tmp_path, capsys) -> None:
    events = export(capsys, store)
    started = first(events, "hand_started", 2)
    started["seed_sha256"] = "0" * 64
    code, _, err = run(capsys, "import", str(write(tmp_path / "sha.jsonl", events)),
                       "--db", str(tmp_path / "t.sqlite3"))
    assert code == 2 and f"event seq {started['seq']}: " in err and "seed_sha256" in err


def test_verify_names_a_match_forged_through_the_store_api(store, tmp_path, capsys) -> None:
    """The hash chain of a forged stream is valid (it was appended normally); the rules must
    still see that the deal is not the one its revealed seed gives."""
    db, match_id = store
    events = export(capsys, store)
    reseeded_hand(events, 2, "5a" * 32)
    forged = "forged-" + match_id
    events[0]["match_id"] = forged
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(db.read_bytes())
    with open_store(str(copy)) as opened:
        opened.append(forged, 0, events)
        assert opened.verify_chain(forged).ok
    code, out, _ = run(capsys, "verify", "--db", str(copy))
    dealt = first(events, "hand_dealt", 2, seat="S")
    assert code == 1
    assert f"BAD {forged}: event seq {dealt['seq']}: hand_dealt differs" in out


# --- 2. a seat's or a spectator's own log --------------------------------------------------

@pytest.mark.parametrize("audience", [*SEATS, "spectator", "referee"])
def test_every_audiences_own_export_is_proved_fair(store, tmp_path, capsys, audience) -> None:
    events = export(capsys, store, audience)
    dealt = [e for e in events if e["type"] == "hand_dealt"]
    if audience in SEATS:  # the export really is redacted: only this seat's tiles show
        assert {e["seat"] for e in dealt if e["tiles"] is not None} == {audience}
        assert all(e["seed"] is None for e in events if e["type"] == "hand_started")
    hands = sum(e["type"] == "hand_ended" for e in events)
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "mine.jsonl", events)))
    assert code == 0 and out.startswith("ok: ")
    assert f"{hands} hands proved" in out and f"up to seq {len(events)}" in out
    shown = {"spectator": "no hand visible", "referee": "S, W, N, E dealt"}.get(
        audience, f"({audience} dealt as the seeds say)")
    assert shown in out


def test_a_seat_export_with_a_changed_own_hand_is_refused(store, tmp_path, capsys) -> None:
    events = export(capsys, store, "W")
    full = export(capsys, store)
    mine = first(events, "hand_dealt", 1, seat="W")
    mine["tiles"] = first(full, "hand_dealt", 1, seat="N")["tiles"]
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "w.jsonl", events)))
    assert code == 1
    assert f"event seq {mine['seq']}: hand 1: W's dealt tiles" in out
    assert "not the deal from the revealed seed" in out


def test_a_seat_export_whose_commitment_does_not_fit_is_refused(store, tmp_path, capsys) -> None:
    events = export(capsys, store, "E")
    started, ended = first(events, "hand_started", 2), first(events, "hand_ended", 2)
    started["seed_sha256"] = seed_commitment("77" * 32)
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "e.jsonl", events)))
    assert code == 1
    assert f"event seq {started['seq']}: hand 2: seed_sha256" in out
    assert f"the seed revealed at seq {ended['seq']}" in out


def test_a_spectator_export_with_another_seed_names_the_first_misdealt_play(
    store, tmp_path, capsys
) -> None:
    events = export(capsys, store, "spectator")
    new_seed = "3c" * 32
    reseeded_hand(events, 2, new_seed)
    claimed, _pool = deal(new_seed, get_variant("partnership-6"))
    plays = [e for e in events if e["type"] == "tile_played" and e["hand"] == 2]
    misdealt = next(e for e in plays if parse_tile(e["tile"]) not in claimed[e["seat"]])
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "s.jsonl", events)))
    assert code == 1
    assert (f"event seq {misdealt['seq']}: hand 2: {misdealt['seat']} plays "
            f"{misdealt['tile']}, but the revealed seed dealt it to") in out


def test_a_seat_export_with_changed_remaining_tiles_is_refused(store, tmp_path, capsys) -> None:
    events = export(capsys, store, "S")
    ended = next(e for e in events if e["type"] == "hand_ended"
                 and sum(bool(tiles) for tiles in e["remaining"].values()) >= 2)
    left = [seat for seat in SEATS if ended["remaining"][seat]]
    a, b = left[0], left[1]
    ended["remaining"][a][0], ended["remaining"][b][0] = (ended["remaining"][b][0],
                                                          ended["remaining"][a][0])
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "r.jsonl", events)))
    assert code == 1
    assert f"event seq {ended['seq']}: hand {ended['hand']}: {a} shows" in out


def test_a_seat_export_of_a_match_in_play_is_proved_up_to_its_open_hand(
    store, tmp_path, capsys
) -> None:
    events = export(capsys, store, "N")
    started = first(events, "hand_started", 2)
    cut = [e for e in events if e["seq"] < started["seq"] + 9]  # hand 2, a few moves in
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "n.jsonl", cut)))
    assert code == 0
    assert "1 hands proved" in out and f"up to seq {started['seq'] - 1}" in out
    assert "hand 2 is still in play" in out


def test_several_files_are_all_checked_and_one_bad_one_fails(store, tmp_path, capsys) -> None:
    good = write(tmp_path / "good.jsonl", export(capsys, store, "S"))
    events = export(capsys, store, "S")
    first(events, "hand_started", 1)["seed_sha256"] = "1" * 64
    bad = write(tmp_path / "bad.jsonl", events)
    code, out, _ = run(capsys, "verify", str(bad), str(good))
    assert code == 1
    assert f"BAD {bad}: event seq 2" in out and f"ok: {good}:" in out


# --- 6. a failed import creates nothing ---------------------------------------------------

def test_a_refused_import_leaves_no_database_file(store, tmp_path, capsys) -> None:
    events = export(capsys, store)
    played = first(events, "tile_played", 1)
    played["seat"] = "S" if played["seat"] != "S" else "W"  # out of turn
    log = write(tmp_path / "bad.jsonl", events)
    target = tmp_path / "nested" / "never.sqlite3"
    target.parent.mkdir()
    code, _, err = run(capsys, "import", str(log), "--db", str(target))
    assert code == 2 and f"event seq {played['seq']}" in err and "nothing was imported" in err
    assert list(target.parent.iterdir()) == []  # no database, no -wal or -shm file
