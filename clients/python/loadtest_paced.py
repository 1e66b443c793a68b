"""Capacity at human pace (`loadtest --pace`): a ramp of tables whose seats think, measured
step by step until play -> ack or play -> beliefs breaks its bound.

The tables are played by groups (clients/python/loadtest_group.py): one on this loop, or
`generator_processes` child processes each with its own (clients/python/loadtest_procs.py).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from clients.python.loadtest import (
    ACK_BOUND_MS,
    BELIEF_BOUND_MS,
    IDLE_WINDOW,
    fetch_health,
    health_url,
    percentile,
    process_cpu_seconds,
    process_wait_seconds,
    settle_time,
    stage_lines,
    stage_ms_per_move,
)
from clients.python.loadtest_group import Group, GroupConfig, TableGroup, WindowSample
from clients.python.loadtest_procs import ProcessGroup
from games.dominoes.variants import DEFAULT_VARIANT
from games.interface import table_seats
from games.registry import GAMES, Registry


async def run_paced(url: str, pace: float, *, start_tables: int = 10, ramp: float = 1.5,
                    max_tables: int = 2500, window: float = 15.0, spectators: int = 0,
                    variant: str = DEFAULT_VARIANT, games: Registry = GAMES, target: int = 100,
                    ack_bound: float = ACK_BOUND_MS, belief_bound: float = BELIEF_BOUND_MS,
                    worker_pids: list[int] | None = None,
                    options: dict[str, Any] | None = None,
                    settle: float | None = None,
                    generator_processes: int = 1,
                    server_pid: int | None = None) -> dict[str, Any]:
    """Capacity at human pace: tables whose seats think `pace` seconds on average (seeded
    exponential times) are added in steps (x`ramp`) until a `window` of play breaks a bound
    (play -> ack p99 > `ack_bound` ms, or play -> all beliefs p99 > `belief_bound` ms) or
    `max_tables` is reached. Each step is measured after its tables are all seated; the
    largest step that held both bounds is the capacity. Beside each step: the server's CPU
    and RSS (/healthz) and this load generator's own CPU, both as a share of one core, and
    with `worker_pids` (the deployment's workers) their CPU per event within the window.
    `generator_processes` > 1: the tables are played by that many child processes (table i
    by process i mod K), each with its own loop; their raw samples are merged (exact
    percentiles) and their CPU summed (clients/python/loadtest_procs.py). Each step also
    says how long the server's threads (`server_pid`) and the generator's waited for a CPU
    while runnable, per second (schedstat run delay), and the machine's load average."""
    health = health_url(url)
    if settle is None:
        settle = settle_time(pace, window)
    seats = len(table_seats(games.game_of_variant(variant), variant, options))
    config = GroupConfig(url, pace, variant, target, spectators, options)
    groups: list[Group] = [TableGroup(config, games)] if generator_processes <= 1 else \
        [ProcessGroup(config) for _ in range(generator_processes)]
    before = await asyncio.to_thread(fetch_health, health)
    steps: list[dict[str, Any]] = []
    tables = 0
    level = max(1, start_tables)
    idle_ms_per_s = None
    if worker_pids:  # the workers' fixed cost (lease rounds, keep-alives), before any table
        idle_at, idle_wall = process_cpu_seconds(worker_pids), time.monotonic()
        await asyncio.sleep(IDLE_WINDOW)
        idle_ms_per_s = (process_cpu_seconds(worker_pids) - idle_at) * 1000 \
            / (time.monotonic() - idle_wall)
    try:
        while True:
            count = len(groups)
            await asyncio.gather(*(group.add([i for i in range(tables, level) if i % count == g])
                                   for g, group in enumerate(groups)))
            tables = level
            await asyncio.sleep(settle)  # the new tables' first moves, after the seating rush
            server_at = await asyncio.to_thread(fetch_health, health)
            workers_at = process_cpu_seconds(worker_pids or [])
            parent_cpu_at = time.process_time()
            generator_pids = sorted({group.pid for group in groups})
            server_pids = [server_pid] if server_pid else []
            waits_at = (process_wait_seconds(server_pids), process_wait_seconds(generator_pids))
            await asyncio.gather(*(group.mark() for group in groups))
            wall_at = time.monotonic()
            await asyncio.sleep(window)
            samples = await asyncio.gather(*(group.sample() for group in groups))
            wall = time.monotonic() - wall_at
            server = await asyncio.to_thread(fetch_health, health)
            workers_cpu = process_cpu_seconds(worker_pids or []) - workers_at
            server_wait = process_wait_seconds(server_pids) - waits_at[0]
            generator_wait = process_wait_seconds(generator_pids) - waits_at[1]
            merged = WindowSample.merge(list(samples))
            generator_cpu = merged.cpu_s if count == 1 else \
                merged.cpu_s + time.process_time() - parent_cpu_at
            events = server.get("events", 0) - server_at.get("events", 0)
            moves = merged.moves
            step = {
                "tables": tables,
                "connections": tables * (seats + spectators),
                "moves_per_s": round(merged.moves / wall, 1),
                "ack_p99_ms": round(percentile(merged.ack_ms, 99), 2),
                "beliefs_p99_ms": round(percentile(merged.belief_ms, 99), 2),
                "beliefs_measured": len(merged.belief_ms),
                "server_cpu_pct": round(100 * (server["cpu_seconds"] - server_at["cpu_seconds"])
                                        / wall, 1),
                "generator_cpu_pct": round(100 * generator_cpu / wall, 1),
                "generator_processes": count,
                "server_cpu_ms_per_move": per_move(
                    server["cpu_seconds"] - server_at["cpu_seconds"], moves),
                "inference_cpu_ms_per_move": per_move(
                    server.get("inference_cpu_seconds", 0.0)
                    - server_at.get("inference_cpu_seconds", 0.0), moves),
                "generator_cpu_ms_per_move": per_move(generator_cpu, moves),
                "server_stage_ms_per_move": stage_ms_per_move(server_at, server, moves),
                "server_rss_mb": round(server.get("rss_bytes", 0) / 2**20, 1),
                "server_loop_lag_ms": server.get("loop_lag_ms"),
                "server_commit_ms": server.get("commit_ms"),
                "commits_per_move": round((server.get("commits", 0)
                                           - server_at.get("commits", 0)) / moves, 3)
                if moves else None,
                "generator_loop_lag_p99_ms": round(percentile(merged.lags_ms, 99), 2),
                "events": events,
                "load_average": round(os.getloadavg()[0], 2),
                "generator_cpu_wait_ms_per_s": round(generator_wait * 1000 / wall, 1),
            }
            if server_pids:
                step["server_cpu_wait_ms_per_s"] = round(server_wait * 1000 / wall, 1)
            if count > 1:  # the slowest process's loop, beside all of them together
                step["generator_loop_lag_p99_worst_ms"] = max(
                    round(percentile(s.lags_ms, 99), 2) for s in samples)
            if worker_pids:
                step["worker_cpu_ms_per_event"] = round(workers_cpu * 1000 / events, 3) \
                    if events else None
                busy = workers_cpu * 1000 - (idle_ms_per_s or 0.0) * wall
                step["worker_cpu_ms_per_event_less_idle"] = round(busy / events, 3) \
                    if events else None
            step["held"] = step["ack_p99_ms"] <= ack_bound and \
                step["beliefs_p99_ms"] <= belief_bound
            steps.append(step)
            if not step["held"] or tables >= max_tables:
                break
            level = min(max_tables, max(tables + 1, round(tables * ramp)))
    finally:
        await asyncio.gather(*(group.stop() for group in groups), return_exceptions=True)
    after = await asyncio.to_thread(fetch_health, health)
    held = [step for step in steps if step["held"]]
    best = held[-1] if held else None
    growth = (best["server_rss_mb"] - before.get("rss_bytes", 0) / 2**20) * 1024 if best else 0
    last = steps[-1]
    limit = ("max_tables" if last["held"] else
             "ack p99" if last["ack_p99_ms"] > ack_bound else "beliefs p99")
    return {
        "variant": variant,
        "pace_s": pace,
        "settle_s": settle,
        "ack_bound_ms": ack_bound,
        "belief_bound_ms": belief_bound,
        "generator_processes": len(groups),
        "max_tables_held": best["tables"] if best else 0,
        "max_connections_held": best["connections"] if best else 0,
        "stopped_by": limit,
        "server_rss_per_table_kb": round(growth / best["tables"], 1) if best else None,
        "server_rss_per_connection_kb": round(growth / best["connections"], 1) if best else None,
        "server_events": after.get("events", 0) - before.get("events", 0),
        "worker_idle_cpu_ms_per_s": None if idle_ms_per_s is None else round(idle_ms_per_s, 3),
        "steps": steps,
    }


def per_move(seconds: float, moves: int) -> float | None:
    """CPU seconds as milliseconds per move (None without moves)."""
    return round(seconds * 1000 / moves, 3) if moves else None


def paced_report(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['variant']}: think time {figures['pace_s']} s (exponential mean); bounds "
        f"ack p99 <= {figures['ack_bound_ms']} ms, beliefs p99 <= {figures['belief_bound_ms']} ms",
        f"{'tables':>7}{'conns':>7}{'moves/s':>9}{'ack p99':>9}{'bel p99':>9}"
        f"{'srv cpu%':>9}{'gen cpu%':>9}{'gen lag':>8}{'rss MB':>8}  held",
    ]
    for step in figures["steps"]:
        lines.append(
            f"{step['tables']:>7}{step['connections']:>7}{step['moves_per_s']:>9}"
            f"{step['ack_p99_ms']:>9}{step['beliefs_p99_ms']:>9}{step['server_cpu_pct']:>9}"
            f"{step['generator_cpu_pct']:>9}{step['generator_loop_lag_p99_ms']:>8}"
            f"{step['server_rss_mb']:>8}  "
            f"{'yes' if step['held'] else 'no'}"
            + (f"  waited for a CPU: server {step.get('server_cpu_wait_ms_per_s', '-')}, "
               f"generator {step['generator_cpu_wait_ms_per_s']} ms/s (load average "
               f"{step['load_average']})")
            + (f"  workers {step['worker_cpu_ms_per_event']} ms CPU/event "
               f"({step.get('worker_cpu_ms_per_event_less_idle')} less idle)"
               if step.get("worker_cpu_ms_per_event") is not None else ""))
        lag = step.get("server_loop_lag_ms") or {}
        if lag:
            lines.append(f"{'':>7}server loop lag (its last {lag.get('n')} wake-ups, 20 ms "
                         f"apart): p99 {lag.get('p99')} ms, max {lag.get('max')} ms")
        commit = step.get("server_commit_ms") or {}
        if commit:
            lines.append(f"{'':>7}store commit (its last {commit.get('n')}): p99 "
                         f"{commit.get('p99')} ms, max {commit.get('max')} ms")
        lines.append(
            f"{'':>7}CPU per move: server {step.get('server_cpu_ms_per_move')} ms + inference "
            f"processes {step.get('inference_cpu_ms_per_move')} ms; this load generator "
            f"{step.get('generator_cpu_ms_per_move')} ms")
        lines += [f"{'':>7}{line}" for line in stage_lines(step.get("server_stage_ms_per_move"))]
    lines.append(
        f"held {figures['max_tables_held']} tables ({figures['max_connections_held']} "
        f"connections); stopped by {figures['stopped_by']}; server memory "
        f"{figures['server_rss_per_table_kb']} KB per table, "
        f"{figures['server_rss_per_connection_kb']} KB per connection")
    if figures.get("worker_idle_cpu_ms_per_s") is not None:
        lines.append(f"workers idle (no table, {IDLE_WINDOW:g} s before the ramp): "
                     f"{figures['worker_idle_cpu_ms_per_s']} ms CPU per second, all together")
    if figures.get("worker_cpu_ms_per_event") is not None:
        lines.append(f"workers: {figures['worker_cpu_ms_per_event']} ms CPU per event, "
                     f"{figures['worker_folds_per_event']} folds per event "
                     f"({figures['server_events']} events)")
    return "\n".join(lines)
