"""Provably fair deals through the tools: forged deals are refused by `import` and `verify`,
and a seat's or spectator's own (redacted) export of every game can be proved fair with
`verify FILE`; old logs keep verifying; docs/fairness.md re-implemented independently."""

from __future__ import annotations

import hashlib
import json
import re
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
    assert f"({audience}'s log), {hands} deals proved from their committed seeds" in out
    assert f"up to seq {len(events)}" in out


def test_a_seat_export_with_a_changed_own_hand_is_refused(store, tmp_path, capsys) -> None:
    events = export(capsys, store, "W")
    full = export(capsys, store)
    mine = first(events, "hand_dealt", 1, seat="W")
    mine["tiles"] = first(full, "hand_dealt", 1, seat="N")["tiles"]
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "w.jsonl", events)))
    assert code == 1
    assert f"event seq {mine['seq']}: hand_dealt differs in tiles: the rules, dealing from " \
           "the seed revealed at seq" in out


def test_a_seat_export_whose_commitment_does_not_fit_is_refused(store, tmp_path, capsys) -> None:
    events = export(capsys, store, "E")
    started, ended = first(events, "hand_started", 2), first(events, "hand_ended", 2)
    started["seed_sha256"] = seed_commitment("77" * 32)
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "e.jsonl", events)))
    assert code == 1
    assert f"event seq {started['seq']}: hand 2: the commitment" in out
    assert f"is not sha256 of the seed revealed at seq {ended['seq']}" in out


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
    assert (f"event seq {misdealt['seq']}: illegal_move: {misdealt['tile']} is not in "
            f"{misdealt['seat']}'s hand") in out


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
    assert f"event seq {ended['seq']}: hand_ended differs in remaining" in out


def test_a_seat_export_of_a_match_in_play_is_proved_up_to_its_open_hand(
    store, tmp_path, capsys
) -> None:
    events = export(capsys, store, "N")
    started = first(events, "hand_started", 2)
    cut = [e for e in events if e["seq"] < started["seq"] + 9]  # hand 2, a few moves in
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "n.jsonl", cut)))
    assert code == 0
    assert "1 deal proved from its committed seed" in out
    assert f"up to seq {started['seq'] - 1}" in out
    assert f"the deal at seq {started['seq']} is still in play" in out


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


# --- 7. every game: a seat's own export proved, a deal not from its seed refused ----------

GAME_MATCHES = {
    # variant: (selfplay arguments, commitment (event type, field), reveal (event type, field),
    #           the own dealt event's type and where it holds the seat's cards)
    "draw-2": (["--seed", "5", "--target", "30"], ("hand_started", "seed_sha256"),
               ("hand_ended", "seed"), ("hand_dealt", "tiles")),
    "texas-42": (["--seed", "7", "--option", "target_marks=2"], ("hand_started", "commitment"),
                 ("hand_ended", "seed"), ("dealt", "tiles")),
    "clue": (["--seed", "8"], ("dealt", "commitment"), ("match_ended", "seed"),
             ("dealt", "hands")),
    "uno-2-mini": (["--seed", "3", "--matches", "20"], ("hand_dealt", "commitment"),
                   ("match_ended", "seed"), ("hand_dealt", "cards")),
}
"""One match of each game (Uno's: one whose deck was reshuffled, with draws after it)."""


@pytest.fixture(scope="module")
def games_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A store with a selfplay match of every game; variant -> the match id to test."""
    db = tmp_path_factory.mktemp("every-game") / "games.sqlite3"
    chosen: dict[str, str] = {}
    for variant, (argv, *_fields) in GAME_MATCHES.items():
        assert main(["selfplay", "--variant", variant, *argv, "--db", str(db)]) == 0
        with open_store(str(db)) as opened:
            for info in opened.streams():
                types = [e.type for e in opened.read(info.stream)]
                first = opened.read(info.stream)[0].payload
                if first.get("variant") != variant or info.stream in chosen.values():
                    continue
                if variant.startswith("uno") and not (
                        "deck_reshuffled" in types
                        and "cards_drawn" in types[types.index("deck_reshuffled"):]):
                    continue
                chosen[variant] = info.stream
                break
    assert set(chosen) == set(GAME_MATCHES)
    return db, chosen


def export_of(capsys, games_store, variant: str, audience: str = "referee") -> list[dict]:
    db, chosen = games_store
    code, out, err = run(capsys, "export", chosen[variant], "--db", str(db), "--as", audience)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def seats_of(events: list[dict]) -> list[str]:
    return sorted(events[0]["players"])


@pytest.mark.parametrize("variant", GAME_MATCHES)
def test_every_seats_own_export_of_every_game_is_proved_fair(games_store, tmp_path, capsys,
                                                             variant) -> None:
    full = export_of(capsys, games_store, variant)
    assert full[0]["fairness"] == "sha256-fisher-yates"  # the log names its scheme
    (commit_type, commit_field), (reveal_type, reveal_field) = GAME_MATCHES[variant][1:3]
    deals = sum(e["type"] == reveal_type and e.get(reveal_field) is not None for e in full)
    assert deals >= 1
    for audience in [*seats_of(full), "spectator"]:
        events = export_of(capsys, games_store, variant, audience)
        committed = [e for e in events if e["type"] == commit_type and e.get(commit_field)]
        assert len(committed) == deals  # every audience sees each commitment
        code, out, _ = run(capsys, "verify", str(write(tmp_path / f"{audience}.jsonl", events)))
        assert code == 0, out
        proved = "1 deal proved from its committed seed" if deals == 1 \
            else f"{deals} deals proved from their committed seeds"
        assert f"({audience}'s log), {proved}" in out
        assert f"every move up to seq {len(events)} re-decided" in out


def _first_deal(events: list[dict], variant: str) -> tuple[dict, dict]:
    """The first deal's committing event and the event that reveals its seed."""
    (commit_type, commit_field), (reveal_type, _) = GAME_MATCHES[variant][1:3]
    committed = next(e for e in events if e["type"] == commit_type and e.get(commit_field))
    revealed = next(e for e in events if e["type"] == reveal_type
                    and e.get("hand") == committed.get("hand") and e["seq"] > committed["seq"])
    return committed, revealed


def _own_deal(events: list[dict], variant: str, seat: str) -> dict:
    kind, where = GAME_MATCHES[variant][3]
    return next(e for e in events if e["type"] == kind and (
        e.get(where) is not None if where != "hands" else e["hands"].get(seat) is not None)
        and e.get("seat", seat) == seat)


@pytest.mark.parametrize("variant", GAME_MATCHES)
def test_a_deal_not_from_its_committed_seed_fails_verify_in_every_game(
        games_store, tmp_path, capsys, variant) -> None:
    """A cheating dealer keeps the cards it dealt but claims another seed, publishing that
    seed's true commitment and revealing it: each event alone looks well formed, and the
    seat's own cards are not what the claimed seed deals."""
    seat = seats_of(export_of(capsys, games_store, variant))[-1]
    events = export_of(capsys, games_store, variant, seat)
    (_, commit_field), (_, reveal_field) = GAME_MATCHES[variant][1:3]
    committed, revealed = _first_deal(events, variant)
    claimed = "5a" * 32
    committed[commit_field] = hashlib.sha256(bytes.fromhex(claimed)).hexdigest()
    revealed[reveal_field] = claimed
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "reseeded.jsonl", events)))
    own = _own_deal(events, variant, seat)
    assert code == 1
    bad = re.match(rf"BAD {re.escape(str(tmp_path))}/reseeded.jsonl: event seq (\d+): ", out)
    assert bad is not None, out
    # refused at the deal itself: its first event the claimed seed does not give (dominoes'
    # hand 1 leader, who holds the highest double, may differ before the seat's own tiles)
    assert committed["seq"] <= int(bad.group(1)) <= own["seq"]
    assert f"the rules, dealing from the seed revealed at seq {revealed['seq']} give" in out
    if int(bad.group(1)) == own["seq"]:
        assert f"{own['type']} differs in {GAME_MATCHES[variant][3][1]}" in out


@pytest.mark.parametrize("variant", GAME_MATCHES)
def test_a_revealed_seed_that_does_not_hash_to_the_commitment_fails_verify(
        games_store, tmp_path, capsys, variant) -> None:
    events = export_of(capsys, games_store, variant, "spectator")
    (_, _), (_, reveal_field) = GAME_MATCHES[variant][1:3]
    committed, revealed = _first_deal(events, variant)
    revealed[reveal_field] = "77" * 32
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "other-seed.jsonl", events)))
    assert code == 1
    assert f"event seq {committed['seq']}: " in out
    assert f"is not sha256 of the seed revealed at seq {revealed['seq']}: the deal was not " \
           "committed to this seed" in out


def test_uno_reshuffles_are_proved_and_a_draw_after_one_not_from_the_seed_fails(
        games_store, tmp_path, capsys) -> None:
    full = export_of(capsys, games_store, "uno-2-mini")
    shuffled_at = next(e["seq"] for e in full if e["type"] == "deck_reshuffled")
    reshuffles = sum(e["type"] == "deck_reshuffled" for e in full)
    drawn = next(e for e in full if e["type"] == "cards_drawn" and e["seq"] > shuffled_at)
    events = export_of(capsys, games_store, "uno-2-mini", drawn["seat"])
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "mine.jsonl", events)))
    assert code == 0
    assert f"{reshuffles} later shuffle{'s' if reshuffles > 1 else ''} fixed by them" in out
    mine = next(e for e in events if e["seq"] == drawn["seq"])
    assert mine["cards"] == drawn["cards"]
    kinds = {e["card"] for e in full if e.get("card")} | {"W", "W+4", "r0", "g0"}
    mine["cards"] = sorted([next(k for k in sorted(kinds) if k not in drawn["cards"]),
                            *drawn["cards"][1:]])
    code, out, _ = run(capsys, "verify", str(write(tmp_path / "forged.jsonl", events)))
    assert code == 1
    assert f"event seq {drawn['seq']}: cards_drawn differs in cards: the rules give" in out


# --- 8. logs written before deals were fair in every game ------------------------------

OLD_LOGS = Path(__file__).parent / "old_logs"


@pytest.mark.parametrize("log", sorted(p.name for p in OLD_LOGS.glob("*.jsonl")))
def test_old_logs_keep_verifying(tmp_path, capsys, log) -> None:
    """Dominoes and Texas 42 always committed their seeds: any audience's old log is proved.
    Uno and Clue did not: their referee's log is re-decided from the seeds it holds, and a
    seat's or the spectator's is refused with a clear error, not taken for a forgery."""
    path = OLD_LOGS / log
    first = json.loads(path.read_text().splitlines()[0])
    assert "fairness" not in first  # written before logs named their scheme
    code, out, err = run(capsys, "verify", str(path))
    committed_before = first.get("game", "dominoes") in ("dominoes", "texas42")
    if committed_before:
        assert code == 0 and "proved from" in out
    elif log.endswith("-referee.jsonl"):
        assert code == 0 and "re-made from the seeds the log holds (its scheme, cpython-random"\
            in out
    else:
        assert code == 2
        assert "cannot be proved fair" in err and "old scheme (cpython-random" in err


def test_old_referee_logs_import_verify_and_export_unchanged(tmp_path, capsys) -> None:
    db = tmp_path / "old.sqlite3"
    for path in sorted(OLD_LOGS.glob("*-referee.jsonl")):
        code, _, err = run(capsys, "import", str(path), "--db", str(db))
        assert code == 0, err
    code, out, _ = run(capsys, "verify", "--db", str(db))
    assert code == 0 and "ok: 5 matches" in out
    for path in sorted(OLD_LOGS.glob("*-referee.jsonl")):
        match_id = json.loads(path.read_text().splitlines()[0])["match_id"]
        code, out, _ = run(capsys, "export", match_id, "--db", str(db))
        assert code == 0 and out == path.read_text()  # no field added to an old log


# --- 9. docs/fairness.md, re-implemented from the page alone ---------------------------
# Only hashlib: no project code. Each function follows one paragraph of the page.

def ref_shuffle(seed_hex: str, items: list) -> list:
    """Steps 1-3: the SHA-256 counter-mode stream, u32 draws with rejection, Fisher-Yates."""
    seed, counter, stream = bytes.fromhex(seed_hex), 0, b""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        while True:
            if len(stream) < 4:
                stream += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
                counter += 1
            x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
            if x < 2**32 - 2**32 % n:
                break
        items[i], items[x % n] = items[x % n], items[i]
    return items


def ref_dominoes(seed: str, top: int, seats: list[str], size: int) -> dict[str, set[str]]:
    order = ref_shuffle(seed, [f"{a}-{b}" for a in range(top + 1) for b in range(a, top + 1)])
    return {s: set(order[k * size:(k + 1) * size]) for k, s in enumerate(seats)}


CLUE_DECK = (["Scarlet", "Mustard", "White", "Green", "Peacock", "Plum"],
             ["Candlestick", "Dagger", "Lead Pipe", "Revolver", "Rope", "Wrench"],
             ["Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library",
              "Lounge", "Hall", "Study"])


def ref_clue(seed: str, seats: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    order = ref_shuffle(seed, [c for kind in CLUE_DECK for c in kind])
    envelope = [next(c for c in order if c in kind) for kind in CLUE_DECK]
    rest = [c for c in order if c not in envelope]
    return envelope, {s: [c for i, c in enumerate(rest) if i % len(seats) == k]
                      for k, s in enumerate(seats)}


UNO_MINI = sorted([c + v for c in "rg" for v, n in (("0", 1), ("1", 2), ("2", 2), ("3", 1),
                                                     ("S", 1), ("R", 1), ("+2", 1))
                   for _ in range(n)] + ["W", "W+4"])


def test_the_docs_test_vector() -> None:
    assert ref_shuffle("00" * 32, list(range(10))) == [8, 4, 0, 3, 2, 9, 6, 7, 5, 1]
    assert hashlib.sha256(bytes(32)).hexdigest() == \
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


@pytest.mark.parametrize("variant", ["draw-2", "texas-42"])
def test_the_docs_shuffle_re_deals_every_dominoes_hand(games_store, capsys, variant) -> None:
    events = export_of(capsys, games_store, variant)
    seats = {"draw-2": ["S", "N"], "texas-42": ["S", "W", "N", "E"]}[variant]
    size = 7
    kind = GAME_MATCHES[variant][3][0]
    for ended in (e for e in events if e["type"] == "hand_ended"):
        hands = ref_dominoes(ended["seed"], 6, seats, size)
        for dealt in (e for e in events if e["type"] == kind and e["hand"] == ended["hand"]):
            assert set(dealt["tiles"]) == hands[dealt["seat"]]


def test_the_docs_shuffle_re_deals_clue(games_store, capsys) -> None:
    events = export_of(capsys, games_store, "clue")
    dealt = next(e for e in events if e["type"] == "dealt")
    envelope, hands = ref_clue(events[-1]["seed"], seats_of(events))
    assert dealt["envelope"] == envelope and events[-1]["envelope"] == envelope
    assert {s: sorted(h) for s, h in dealt["hands"].items()} == \
        {s: sorted(h) for s, h in hands.items()}


def test_the_docs_shuffle_re_deals_uno_and_every_reshuffle(games_store, capsys) -> None:
    events = export_of(capsys, games_store, "uno-2-mini")
    seed, size = events[-1]["seed"], 3
    order = ref_shuffle(seed, UNO_MINI)
    dealt = {e["seat"]: e["cards"] for e in events if e["type"] == "hand_dealt"}
    assert dealt == {"S": sorted(order[:size]), "N": sorted(order[size:2 * size])}
    pile, deck, reshuffles, draws = [order[2 * size]], order[2 * size + 1:], 0, 0
    for event in events:
        if event["type"] == "starter_turned":
            assert event["card"] == pile[0]
        elif event["type"] == "card_played":
            pile.append(event["card"])
        elif event["type"] == "deck_reshuffled":
            reshuffles += 1
            label = f"reshuffle {reshuffles}".encode()
            derived = hashlib.sha256(bytes.fromhex(seed) + label).hexdigest()
            deck, pile = ref_shuffle(derived, sorted(pile[:-1])), pile[-1:]
        elif event["type"] == "cards_drawn":
            assert event["cards"] == sorted(deck[:event["count"]])
            deck, draws = deck[event["count"]:], draws + reshuffles
    assert reshuffles >= 1 and draws >= 1  # draws after a reshuffle were re-derived
