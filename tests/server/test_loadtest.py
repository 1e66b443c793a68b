"""The load test's belief latency counts every acknowledged move: the beliefs that arrive after
a match ended (or after time was up) are waited for, and the ones that never come are counted,
not dropped."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from clients.python.loadtest import (
    BeliefTracker,
    Figures,
    _bus_lines,
    process_cpu_seconds,
    report,
    run_load,
    worker_figures,
)
from clients.python.loadtest_paced import paced_report, run_paced
from games.dominoes.game import DOMINOES
from games.registry import Registry
from server.app import DominoServer
from tests.conftest import make_config, serving
from tests.games.toy.game import TOY, VARIANT

SEATS = ("S", "W", "N", "E")


async def test_settling_measures_late_beliefs_and_counts_the_missing() -> None:
    figures = Figures()
    tracker = BeliefTracker(figures, SEATS)
    sent = time.perf_counter()
    for seq in (10, 12, 15):
        tracker.acked(seq, sent)
    # every seat reaches 12 (one of them only with the match_ended belief, at 14), arriving
    # while the table settles; N never gets to 15
    loop = asyncio.get_running_loop()
    for delay, seat, seq in [(0.05, "S", 15), (0.1, "W", 12), (0.15, "W", 16),
                             (0.2, "N", 14), (0.25, "E", 20)]:
        loop.call_later(delay, tracker.belief, seat, seq)
    started = time.monotonic()
    missing = await tracker.settle(wait=0.6)
    assert 0.5 < time.monotonic() - started < 3, "the wait is bounded, and used"
    assert missing == 1 and figures.beliefs_missing == 1
    assert len(figures.belief_ms) == 2  # seqs 10 and 12
    assert tracker.waiting == [] and set(tracker.latest.values()) == {0}


async def test_settling_returns_at_once_when_nothing_is_owed() -> None:
    tracker = BeliefTracker(Figures(), SEATS)
    for seat in SEATS:
        tracker.belief(seat, 7)
    tracker.acked(7, time.perf_counter())
    started = time.monotonic()
    assert await tracker.settle(wait=60) == 0
    assert time.monotonic() - started < 30  # far short of the wait: it did not wait


async def test_settling_ends_when_the_last_belief_owed_arrives() -> None:
    """Not at the wait's end: the belief that clears the last move owed wakes the table."""
    figures = Figures()
    tracker = BeliefTracker(figures, SEATS)
    tracker.acked(5, time.perf_counter())
    loop = asyncio.get_running_loop()
    for seat in SEATS:
        loop.call_later(0.05, tracker.belief, seat, 5)
    started = time.monotonic()
    assert await tracker.settle(wait=60) == 0
    assert time.monotonic() - started < 30 and len(figures.belief_ms) == 1


async def test_every_acked_move_is_measured_or_counted(url: str) -> None:
    figures = await run_load(url, tables=2, spectators=1, seconds=4, target=15)
    assert figures["matches_finished"] >= 2, figures  # so match ends are in the figures
    assert figures["moves"] > 0
    assert figures["beliefs_never_arrived"] == 0
    assert figures["beliefs_measured"] == figures["moves"]
    text = report(figures)
    assert "beliefs never arrived  0 moves (of " in text
    assert "play -> all beliefs    p50 " in text
    assert figures["generator_cpu_pct"] > 0 and figures["generator_cpu_ms_per_move"] > 0
    assert "CPU, share of a core   server " in text


async def test_the_load_test_plays_the_two_player_variants(url: str) -> None:
    """Generic over games: the seats come from the variant, moves go as `move` messages."""
    for variant in ("block-2", "draw-2"):
        figures = await run_load(url, tables=2, spectators=1, seconds=3, variant=variant,
                                 target=10)
        assert figures["variant"] == variant
        assert figures["moves"] > 0 and figures["matches_finished"] >= 1, figures
        assert figures["beliefs_never_arrived"] == 0
        assert figures["beliefs_measured"] == figures["moves"]


async def test_the_load_test_plays_a_game_only_the_tests_know(tmp_path: Path) -> None:
    """Nothing in the load generator knows dominoes: the toy game plays through it."""
    games = Registry([DOMINOES, TOY])
    instance = DominoServer(make_config(tmp_path, games=games))
    await instance.start()
    try:
        figures = await run_load(f"ws://127.0.0.1:{instance.port}/ws", tables=2, spectators=0,
                                 seconds=2, variant=VARIANT, games=games)
    finally:
        await instance.stop()
    assert figures["moves"] > 0 and figures["matches_finished"] >= 2, figures
    assert figures["refused_stale_moves"] == 0
    assert figures["beliefs_never_arrived"] == 0


async def test_the_load_test_counts_the_inference_processes_cpu(tmp_path: Path) -> None:
    """With beliefs in a child process the server's own CPU leaves them out: the load test
    reports the children's CPU per move beside it (from /healthz)."""
    async with serving(make_config(tmp_path, inference_processes=1)) as instance:
        figures = await run_load(f"ws://127.0.0.1:{instance.port}/ws", tables=2, spectators=1,
                                 seconds=3, target=15)
    assert figures["moves"] > 0 and figures["beliefs_never_arrived"] == 0, figures
    assert figures["server_children_cpu_ms_per_move"] > 0, figures


async def test_a_paced_ramp_steps_up_to_its_ceiling_and_reports_each_step(url: str) -> None:
    """Seats think (exponential, mean 50 ms); bounds nothing can break, so the ramp goes to
    --max-tables, one step per level, each measured and each held."""
    figures = await run_paced(url, 0.05, start_tables=1, ramp=2, max_tables=2, window=1.5,
                              target=15, ack_bound=1e9, belief_bound=1e9)
    assert [step["tables"] for step in figures["steps"]] == [1, 2]
    assert [step["connections"] for step in figures["steps"]] == [4, 8]
    assert all(step["held"] and step["moves_per_s"] > 0 for step in figures["steps"])
    assert figures["max_tables_held"] == 2 and figures["max_connections_held"] == 8
    assert figures["stopped_by"] == "max_tables"
    assert figures["server_rss_per_connection_kb"] is not None
    assert all(step["generator_cpu_pct"] > 0 for step in figures["steps"])
    assert "held 2 tables (8 connections); stopped by max_tables" in paced_report(figures)


async def test_a_paced_ramp_stops_at_the_first_step_that_breaks_a_bound(url: str) -> None:
    figures = await run_paced(url, 0.05, start_tables=1, ramp=2, max_tables=8, window=1.0,
                              target=15, ack_bound=0.0)
    assert len(figures["steps"]) == 1 and not figures["steps"][0]["held"]
    assert figures["max_tables_held"] == 0 and figures["stopped_by"] == "ack p99"


def test_worker_figures_count_cpu_after_start_up() -> None:
    log = "\n".join([
        "ts=1 level=INFO event=worker_ready client=a partitions=32 cpu_s=0.9",
        "ts=1 level=INFO event=worker_ready client=b partitions=32 cpu_s=1.1",
        "ts=2 level=INFO event=worker_stopped notifications=5 beliefs=25 folds=100 skipped=7 "
        "rebuilds=2 "
        "partitions=32 gained=32 foreign=0 read_s=0.1 compute_s=0.3 cpu_s=1.5",
        "ts=2 level=INFO event=worker_stopped notifications=4 beliefs=20 folds=60 rebuilds=1 "
        "partitions=64 gained=64 foreign=0 read_s=0.05 compute_s=0.2 cpu_s=2.0",
    ])
    figures = worker_figures(log)
    assert figures["workers_stopped"] == 2
    assert figures["worker_cpu_s"] == 1.5  # (1.5 - 0.9) + (2.0 - 1.1)
    assert figures["worker_folds"] == 160 and figures["worker_rebuilds"] == 3
    assert figures["worker_skipped"] == 7 and figures["worker_beliefs"] == 45
    lines = _bus_lines({**figures, "server_cluster": {"bus_published": 0, "bus_withheld": 9}})
    assert "0 published, 9 withheld" in lines[0] and "45 published, 7 skipped" in lines[1]


async def test_belief_lag_is_reported_by_stage(url: str) -> None:
    """/healthz names the stages of belief lag (one process: waiting for the loop, then fold,
    snapshot and fan-out), and the load test shows them."""
    figures = await run_load(url, tables=1, spectators=1, seconds=2, target=15)
    stages = figures["server_belief_stages_ms"]
    assert set(stages) == {"commit_to_turn", "fold_snapshot_publish", "commit_to_belief"}
    assert stages["fold_snapshot_publish"]["n"] > 0
    assert stages["commit_to_turn"]["p50"] <= stages["commit_to_belief"]["p50"]
    assert "belief lag by stage" in report(figures)


def test_process_cpu_is_read_for_live_processes_only() -> None:
    import os

    busy = time.process_time() + 0.05
    while time.process_time() < busy:
        pass
    assert process_cpu_seconds([os.getpid()]) >= 0.05
    assert process_cpu_seconds([2**22 + 12345]) == 0.0  # no such process: nothing counted


async def test_the_server_reports_cpu_per_move_by_stage(url: str) -> None:
    """With the stage clock on (`serve --stage-clock`), /healthz counts the loop thread's CPU
    by stage of a move and the load test prints it per move (issue 31); off, it says
    nothing and costs no clock read."""
    from server.stages import CLOCK

    off = await run_load(url, tables=1, spectators=0, seconds=1, target=15)
    assert off["server_stage_ms_per_move"] is None
    CLOCK.enable()
    try:
        figures = await run_load(url, tables=2, spectators=1, seconds=3, target=15)
    finally:
        CLOCK.enabled = False
    stages = figures["server_stage_ms_per_move"]
    assert figures["moves"] > 0, figures
    for stage in ("parse", "actor", "fanout", "belief_in", "other_threads"):
        assert stages[stage] > 0, stages
    assert stages["clock_reads"] > 0
    assert stages["total"] >= stages["actor"] + stages["fanout"]
    text = report(figures)
    assert "server CPU per move by stage (ms)" in text and "frame parse" in text


async def test_a_seat_reads_a_belief_head_and_an_events_offer() -> None:
    """The load generator's frames (clients/python/load_seat.py): a belief as its seq, read
    from the fixed head the server writes (protocol.frames), also for a table id JSON must
    escape; an event read in full only when it offers moves or ends the match; another
    table's frames ignored."""
    from clients.python.load_client import LoadClient
    from clients.python.load_seat import Seat
    from clients.python.loadtest_tracking import Deadline
    from protocol.frames import belief_frame, event_frame

    for table_id in ("t1", 't"1\\é'):
        tracker = BeliefTracker(Figures(), SEATS)
        seat = Seat(LoadClient(), table_id, "S", tracker, Figures(), Deadline(float("inf")),
                    random.Random(1), None)
        seat.belief(belief_frame(table_id, {"seq": 12, "observer": "S"}).encode())
        seat.belief(belief_frame("other", {"seq": 40, "observer": "S"}).encode())
        assert tracker.latest["S"] == 12
        seat.event(event_frame(table_id, 7, {"type": "tile_played"}, [{"tile": "6-6"}]).encode())
        assert seat.offer == [{"tile": "6-6"}]
        seat.event(event_frame("other", 8, {"type": "passed"}).encode())
        assert seat.offer == [{"tile": "6-6"}]  # another table's event changes nothing
        seat.event(event_frame(table_id, 8, {"type": "passed", "seat": "W"}).encode())
        assert seat.offer is None  # the turn moved on
        seat.event(event_frame(table_id, 9, {"type": "match_ended"}).encode())
        assert seat.finished is True and seat.done.result() is True
