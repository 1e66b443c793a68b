"""`loadtest --pace --generator-processes K`: the tables are played by K child processes, and
their raw samples are merged exactly (percentiles of the union, CPU summed)."""

from __future__ import annotations

from clients.python.loadtest import percentile
from clients.python.loadtest_group import WindowSample
from clients.python.loadtest_paced import run_paced


def test_merged_samples_are_the_union_not_an_average_of_percentiles() -> None:
    slow = WindowSample(ack_ms=[100.0] * 5, belief_ms=[1.0], moves=5, lags_ms=[9.0], cpu_s=0.5)
    fast = WindowSample(ack_ms=[1.0] * 95, belief_ms=[2.0, 3.0], moves=95, lags_ms=[1.0],
                        cpu_s=0.25)
    merged = WindowSample.merge([slow, fast])
    assert sorted(merged.ack_ms) == sorted(slow.ack_ms + fast.ack_ms)
    assert merged.moves == 100 and merged.cpu_s == 0.75 and len(merged.belief_ms) == 3
    assert percentile(merged.ack_ms, 99) == 100.0  # a mean of the two p99s would say 50.5
    assert merged.lags_ms == [9.0, 1.0]


async def test_a_paced_ramp_in_two_generator_processes_measures_both(url: str) -> None:
    """Three tables over two child processes (tables 0 and 2 in one, 1 in the other): every
    step counts the moves and latencies of both, and their CPU."""
    figures = await run_paced(url, 0.05, start_tables=3, ramp=2, max_tables=3, window=1.5,
                              target=15, ack_bound=1e9, belief_bound=1e9,
                              generator_processes=2)
    (step,) = figures["steps"]
    assert figures["generator_processes"] == 2 and step["generator_processes"] == 2
    assert step["tables"] == 3 and step["connections"] == 12 and step["held"]
    assert step["moves_per_s"] > 0 and step["beliefs_measured"] > 0
    assert step["generator_cpu_pct"] > 0 and step["generator_loop_lag_p99_worst_ms"] >= 0
    assert figures["max_tables_held"] == 3
    assert step["generator_cpu_wait_ms_per_s"] >= 0 and step["load_average"] >= 0
