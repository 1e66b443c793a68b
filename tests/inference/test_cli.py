"""The `infer` command: human and JSON output, --at, methods, and clear errors."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from archive.jsonl import dump_lines
from clients.cli import main
from games.dominoes.audience import view
from games.dominoes.events import Event, HandDealt, HandEnded, HandStarted, Passed, TilePlayed
from games.dominoes.game import DOMINOES
from games.dominoes.rules import evolve, fold, legal_moves
from games.dominoes.selfplay import random_match_events
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import get_variant
from tests.games.dominoes.positions import a_pass_while_able


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("logs")
    events = random_match_events(random.Random(8), "partnership-6", target=30)
    full = root / "full.jsonl"
    full.write_text(dump_lines(DOMINOES, events))
    west = root / "west.jsonl"
    west.write_text(dump_lines(DOMINOES, [view(e, "W") for e in events]))
    nine = random_match_events(random.Random(9), "partnership-9", target=30)
    nine_log = root / "nine.jsonl"
    nine_log.write_text(dump_lines(DOMINOES, nine))
    return {"full": full, "west": west, "n": len(events), "events": events,
            "nine": nine_log, "nine_events": nine}


def unseen(events: list[Event], seat: str, at: int) -> tuple[set[str], int]:
    """Tiles `seat` cannot see after event `at`, from the log itself (not from inference):
    every tile of the set minus its own deal and the tiles already played this hand; and how
    many of those plays were by the other seats."""
    upto = [e for e in events if e.seq <= at]
    hand = max(e.hand for e in upto if isinstance(e, HandStarted))
    variant = get_variant(events[0].variant)  # type: ignore[union-attr]
    own = next(e.tiles for e in upto if isinstance(e, HandDealt) and e.hand == hand
               and e.seat == seat)
    plays = [e for e in upto if isinstance(e, TilePlayed) and e.hand == hand]
    hidden = {str(t) for t in variant.tiles} - set(own) - {p.tile for p in plays}
    return hidden, sum(p.seat != seat for p in plays)


def remaining_after(events: list[Event], at: int) -> dict[str, int]:
    """Tiles left in each hand after event `at`, by folding the referee's log."""
    state = None
    for event in events:
        if event.seq > at:
            break
        state = evolve(state, event)
    return dict(state.hand.counts)


def test_json_output(logs, capsys) -> None:
    events = logs["events"]
    passed = next(e for e in events if isinstance(e, Passed) and e.seat != "S" and e.hand == 1)
    at = passed.seq + 1
    assert main(["infer", str(logs["full"]), "--seat", "S", "--at", str(at), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seq"] == at and data["observer"] == "S"
    assert set(data["marginals"]) == {"W", "N", "E"}
    deals = data["consistent_deals"]
    assert isinstance(deals, int) and not isinstance(deals, bool) and deals > 1
    assert math.isclose(data["entropy_bits"], math.log2(deals), rel_tol=1e-12)
    hidden, others_played = unseen(events, "S", at)
    assert len(hidden) == 28 - 7 - others_played
    counts = remaining_after(events, at)
    for holder in "WNE":
        assert set(data["marginals"][holder]) == hidden, holder
        assert math.isclose(sum(data["marginals"][holder].values()), counts[holder])
    for tile in hidden:
        assert abs(sum(data["marginals"][h][tile] for h in "WNE") - 1) < 1e-9
    # The pass is in the facts, and in the numbers: no tile showing an open end for that seat.
    state = None
    for event in events[: passed.seq - 1]:
        state = evolve(state, event)
    ends = {state.hand.left, state.hand.right}
    assert isinstance(data["facts"], list)
    for value in ends:
        assert f"{passed.seat} has no {value}s" in data["facts"]
    for tile in hidden:
        if any(parse_tile(tile).has(v) for v in ends):
            assert data["marginals"][passed.seat][tile] == 0, tile


def test_double_nine_json_has_the_pool(logs, capsys) -> None:
    events = logs["nine_events"]
    first_end = next(e.seq for e in events if isinstance(e, HandEnded))
    at = next(e.seq for e in events if isinstance(e, TilePlayed) and e.seq > 12)
    assert at < first_end
    assert main(["infer", str(logs["nine"]), "--seat", "N", "--at", str(at), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["marginals"]) == {"S", "W", "E", "pool"}
    hidden, others_played = unseen(events, "N", at)
    assert len(hidden) == 55 - 10 - others_played
    counts = {**remaining_after(events, at), "pool": 15}
    for holder in ("S", "W", "E", "pool"):
        assert set(data["marginals"][holder]) == hidden, holder
        assert math.isclose(sum(data["marginals"][holder].values()), counts[holder]), holder
    assert isinstance(data["consistent_deals"], int) and data["consistent_deals"] > 2**63
    assert math.isclose(data["entropy_bits"], math.log2(data["consistent_deals"]))


def test_enumeration_agrees_with_the_exact_method_on_a_late_position(logs, capsys) -> None:
    events = logs["events"]
    first_end = next(e.seq for e in events if isinstance(e, HandEnded))
    at = first_end - 1  # the last move before the hand ends: few unseen tiles are left
    results = {}
    for method in ("exact", "enumerate"):
        code = main(["infer", str(logs["full"]), "--seat", "E", "--at", str(at),
                     "--method", method, "--json"])
        assert code == 0
        results[method] = json.loads(capsys.readouterr().out)
    exact, enumerated = results["exact"], results["enumerate"]
    assert exact["status"] == "live" and enumerated["method"] == "enumerate"
    assert enumerated["consistent_deals"] == exact["consistent_deals"] >= 1
    assert set(enumerated["marginals"]) == set(exact["marginals"]) == {"S", "W", "N"}
    for holder, column in exact["marginals"].items():
        assert column and set(enumerated["marginals"][holder]) == set(column)
        for tile, p in column.items():
            assert abs(enumerated["marginals"][holder][tile] - p) <= 1e-12, (holder, tile)


def test_an_inconsistent_log_is_an_error_naming_the_event(logs, capsys, tmp_path) -> None:
    """A pass by a seat that could play: that seat's own belief knows no deal fits."""
    events = logs["events"]
    at, refused = a_pass_while_able(events)
    forged = [*events[:at], refused]
    log = tmp_path / "inconsistent.jsonl"
    log.write_text(dump_lines(DOMINOES, forged))
    assert main(["infer", str(log), "--seat", refused.seat]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"inconsistent log at event {refused.seq}: {refused.seat} passed holding" in err
    held = err.rsplit("holding", 1)[1].strip()
    state = fold(events[:at])
    assert state is not None
    assert parse_tile(held) in {m.tile for m in legal_moves(state, refused.seat)}


def test_human_output_has_triangles_and_facts(logs, capsys) -> None:
    assert main(["infer", str(logs["west"]), "--seat", "W", "--at", "14"]) == 0
    out = capsys.readouterr().out
    assert "W's view after event 14" in out
    assert "consistent deals:" in out
    assert "  — " in out and "%" in out


def test_spectator_and_sampler_methods(logs, capsys) -> None:
    for method in ("rejection", "rejection-seed", "constrained", "mcmc"):
        code = main(["infer", str(logs["full"]), "--seat", "spectator", "--at", "20",
                     "--method", method, "--samples", "500", "--json"])
        assert code == 0
        data = json.loads(capsys.readouterr().out)
        assert data["method"] == method and data["samples"] == 500
        assert set(data["marginals"]) == {"S", "W", "N", "E"}


def test_whole_log_ends_with_the_last_hand_revealed(logs, capsys) -> None:
    assert main(["infer", str(logs["full"]), "--seat", "N", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seq"] == logs["n"] and data["status"] == "ended"


def test_log_without_the_seats_hand_is_an_error(logs, capsys) -> None:
    assert main(["infer", str(logs["west"]), "--seat", "S"]) == 2
    assert "redacted" in capsys.readouterr().err


def test_unknown_seq_and_missing_file_are_errors(logs, capsys, tmp_path) -> None:
    assert main(["infer", str(logs["full"]), "--seat", "S", "--at", "99999"]) == 2
    assert main(["infer", str(tmp_path / "nope.jsonl"), "--seat", "S"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n')
    assert main(["infer", str(bad), "--seat", "S"]) == 2
    assert "error" not in capsys.readouterr().out
