"""`bench inference --misses` keeps exactly the keys the count missed on, and puts the count
back as it was. Nothing is timed."""

from __future__ import annotations

import time

import inference.counting as counting
from clients.bench.dp_misses import MissLog, MissRecorder, band_keys, report
from inference.classes import Position


def _position(spare: int) -> Position[int]:
    """Six items, three holders; `spare` moves one item between the first two holders' counts
    (a different key per value)."""
    allowed = {0: 0b011, 1: 0b011, 2: 0b111, 3: 0b111, 4: 0b110, 5: 0b101}
    return Position(("a", "b", "c"), allowed, (2 + spare, 2 - spare, 2))


def test_a_miss_is_recorded_and_a_hit_is_not() -> None:
    original = counting.solve_key
    counting.clear_caches()
    position = _position(0)
    with MissRecorder().installed() as recorder:
        _, first = recorder.timed(lambda: counting.solve(position), time.thread_time)
        _, again = recorder.timed(lambda: counting.solve(position), time.thread_time)
        counting.solve(_position(1))  # outside `timed`: not recorded anywhere
    assert first == [position.key()]
    assert again == []
    assert counting.solve_key is original


def test_the_band_takes_the_slow_updates_keys() -> None:
    keys = [_position(s).key() for s in (0, 1)]
    log = MissLog([(0.001, [])] * 198 + [(0.5, [keys[0]]), (0.9, [keys[1]])])
    assert band_keys(log) == [keys[0]]  # the 98th to 99.5th percentile: the 199th update
    lines = report({"ref": log, "other": log}, "ref")
    assert lines[1].split()[:3] == ["ref", "3", "1"]
    assert lines[2].split()[:3] == ["other", "3", "1"]
    assert [float(x) for x in lines[1].split()[4:]] == [1.0, 3.0, 4.0, 1.0]  # x ref, sizes
