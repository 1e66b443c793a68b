"""Counts in words at the command line: "1 tile", "1 mirrored pair" (issue 16, defect 11)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from archive.jsonl import dump_lines
from clients.cli import main
from games.dominoes.game import DOMINOES
from games.dominoes.rules import evolve
from games.dominoes.selfplay import random_match_events


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_infer_says_1_tile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = random_match_events(random.Random(3), "partnership-6", target=30)
    state = None
    at = None
    for event in events:
        state = evolve(state, event)
        hand = state.hand
        if (event.type == "tile_played" and hand is not None and state.phase == "playing"
                and any(hand.counts[s] == 1 for s in ("W", "N", "E"))):
            at = event.seq
            break
    assert at is not None
    log = tmp_path / "match.jsonl"
    log.write_text(dump_lines(DOMINOES, events))
    out = run(capsys, "infer", str(log), "--seat", "S", "--at", str(at))
    assert "(1 tile)" in out and "1 tiles" not in out, out


def test_a_tournament_of_one_pair_says_1_mirrored_pair(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "tournament", "--matches", "2", "--target", "10", "--team-a", "random",
              "--team-b", "greedy")
    assert "1 mirrored pair," in out and "1 mirrored pairs" not in out, out
