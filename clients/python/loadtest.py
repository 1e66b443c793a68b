"""Load test: N tables of four bot clients over real sockets, playing random legal moves flat out.

The tables are played by clients/python/load_seat.py (seats driven by their connections'
frames, no task per seat or connection). Measures what a person would feel: durable moves per
second (counted at the ack, which the server sends only after the commit), play -> ack
latency, and play -> every seat's updated belief (the four seats' beliefs with seq >= the
move's seq). Once a table stops playing (its
match ended, or time is up) its seats keep reading, for up to BELIEF_WAIT seconds, until the
beliefs of every acknowledged move have arrived: the last moves of a match are often the
slowest, and leaving them out would bias p99 low. Moves whose beliefs never came are counted
apart (`beliefs_never_arrived`). Event-loop lag and memory come from the server's /healthz.
Without a URL, a server is started in a subprocess on a free port with a temporary SQLite
file.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.python.load_seat import BELIEF_WAIT, play_table
from clients.python.loadtest_tracking import BeliefTracker, Deadline, Figures
from games.dominoes.variants import DEFAULT_VARIANT
from games.registry import GAMES, Registry

__all__ = ["BELIEF_WAIT", "BeliefTracker", "Deadline", "Figures", "play_table", "run_load"]
ROOT = Path(__file__).resolve().parents[2]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def health_url(ws_url: str) -> str:
    base = ws_url.replace("ws://", "http://", 1).replace("wss://", "https://", 1)
    return base.rsplit("/", 1)[0] + "/healthz" if base.endswith("/ws") else base + "/healthz"


def fetch_health(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


async def run_load(url: str, tables: int, spectators: int, seconds: float, *,
                   variant: str = DEFAULT_VARIANT, games: Registry = GAMES, target: int = 100,
                   belief_wait: float = BELIEF_WAIT,
                   options: dict[str, Any] | None = None,
                   server_pid: int | None = None) -> dict[str, Any]:
    """Play `tables` tables of `variant` (any game of `games`) flat out for `seconds`.

    Beside the server's figures, this generator's own CPU (it shares the machine), and with
    `server_pid` how long the server's and the generator's threads waited for a CPU."""
    health = health_url(url)
    before = await asyncio.to_thread(fetch_health, health)
    server_pids = [server_pid] if server_pid else []
    cpu_at, waits_at = time.process_time(), (process_wait_seconds(server_pids),
                                             process_wait_seconds([os.getpid()]))
    figures = Figures()
    figures.started = time.monotonic()
    deadline = Deadline(figures.started + seconds)
    tasks = [
        asyncio.create_task(play_table(url, spectators, figures, deadline, seed, variant=variant,
                                       games=games, target=target, belief_wait=belief_wait,
                                       options=options))
        for seed in range(tables)
    ]
    peak: dict[str, Any] = {}

    async def sample() -> None:  # the server's figures while under load
        nonlocal peak
        while time.monotonic() < deadline.at - 0.5:
            await asyncio.sleep(max(0.5, min(5.0, seconds / 3)))
            with contextlib.suppress(Exception):
                peak = await asyncio.to_thread(fetch_health, health)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*tasks)
    figures.stopped = time.monotonic()
    sampler.cancel()
    generator_cpu = time.process_time() - cpu_at
    server_wait = process_wait_seconds(server_pids) - waits_at[0]
    generator_wait = process_wait_seconds([os.getpid()]) - waits_at[1]
    after = await asyncio.to_thread(fetch_health, health)
    under_load = peak or after
    elapsed = (figures.play_stopped or figures.stopped) - figures.started  # not the settling
    wall = figures.stopped - figures.started
    rss_growth = max(0, under_load.get("rss_bytes", 0) - before.get("rss_bytes", 0))
    return {
        "variant": variant,
        "options": dict(options or {}),
        "tables": tables,
        "spectators_per_table": spectators,
        "seconds": round(elapsed, 2),
        "moves": figures.moves,
        "moves_per_s": round(figures.moves / elapsed, 1) if elapsed else 0.0,
        "matches_finished": figures.matches,
        "refused_stale_moves": figures.refused,
        "rate_limited_retried": figures.rate_limited,
        "play_to_ack_ms": {
            "p50": round(percentile(figures.ack_ms, 50), 2),
            "p99": round(percentile(figures.ack_ms, 99), 2),
        },
        "play_to_all_beliefs_ms": {
            "p50": round(percentile(figures.belief_ms, 50), 2),
            "p99": round(percentile(figures.belief_ms, 99), 2),
        },
        "beliefs_measured": len(figures.belief_ms),
        "beliefs_never_arrived": figures.beliefs_missing,
        "server_loop_lag_ms": under_load.get("loop_lag_ms"),
        "server_inference_lag_ms": under_load.get("inference_lag_ms"),
        "server_belief_stages_ms": under_load.get("belief_stages_ms"),
        "server_commit_ms": under_load.get("commit_ms"),
        "server_commits": after.get("commits", 0) - before.get("commits", 0),
        "server_cpu_ms_per_move": round(
            (after.get("cpu_seconds", 0) - before.get("cpu_seconds", 0)) * 1000 / figures.moves, 3
        ) if figures.moves else None,
        "server_children_cpu_ms_per_move": round(
            (after.get("inference_cpu_seconds", 0) - before.get("inference_cpu_seconds", 0))
            * 1000 / figures.moves, 3
        ) if figures.moves else None,
        "server_stage_ms_per_move": stage_ms_per_move(before, after, figures.moves),
        "server_cpu_pct": round(100 * (after.get("cpu_seconds", 0)
                                       - before.get("cpu_seconds", 0)) / wall, 1),
        "generator_cpu_pct": round(100 * generator_cpu / wall, 1),
        "generator_cpu_ms_per_move": round(generator_cpu * 1000 / figures.moves, 3)
        if figures.moves else None,
        "generator_cpu_wait_ms_per_s": round(generator_wait * 1000 / wall, 1),
        **({"server_cpu_wait_ms_per_s": round(server_wait * 1000 / wall, 1)}
           if server_pids else {}),
        "load_average": round(os.getloadavg()[0], 2),
        "server_rss_mb": round(under_load.get("rss_bytes", 0) / 2**20, 1),
        "server_rss_per_table_kb": round(rss_growth / tables / 1024, 1) if tables else 0.0,
        "server_events": after.get("events", 0) - before.get("events", 0),
        "server_cluster": after.get("cluster"),
    }


STAGE_NAMES = {
    "parse": "frame parse",
    "actor": "actor (decide, fold)",
    "fanout": "fan-out and sends",
    "belief_out": "belief: to inference",
    "belief_in": "belief: back and sent",
    "loop_rest": "loop, outside stages",
    "other_threads": "commit (store thread)",
    "inference": "inference processes",
}
"""What the server's stages are called in a report (server/stages.py)."""


def stage_ms_per_move(before: dict[str, Any], after: dict[str, Any],
                      moves: int) -> dict[str, float] | None:
    """The server's CPU per move by stage between two /healthz answers (`stage_cpu_seconds`:
    server/stages.py), with what the loop spent outside the stages (`loop_rest`), the
    other threads' (the store's commits) and the inference processes'. None for a server
    that does not count stages (an older tree)."""
    first, last = before.get("stage_cpu_seconds"), after.get("stage_cpu_seconds")
    if not first or not last or not moves:
        return None
    delta = {key: (last[key] - first.get(key, 0.0)) * 1000 / moves for key in last}
    reads = delta.pop("reads", 0.0) / 1000  # clock reads per move
    out = {key: round(delta[key], 4) for key in STAGE_NAMES if key in delta}
    out["loop_rest"] = round(delta["loop"] - sum(
        delta[key] for key in delta if key not in ("loop", "other_threads")), 4)
    out["clock_reads"] = round(reads, 1)
    out["inference"] = round((after.get("inference_cpu_seconds", 0.0)
                              - before.get("inference_cpu_seconds", 0.0)) * 1000 / moves, 4)
    out["total"] = round(delta["loop"] + delta["other_threads"] + out["inference"], 4)
    return out


def stage_lines(stages: dict[str, float] | None) -> list[str]:
    """The server's CPU per move by stage, one line each (nothing for an older server)."""
    if not stages:
        return []
    return ["server CPU per move by stage (ms)"] + [
        f"  {STAGE_NAMES[key]:<26}{stages[key]:.4f}" for key in STAGE_NAMES if key in stages
    ] + [f"  {'all (server + inference)':<26}{stages['total']:.4f}  (with the stage clock's "
         f"own {stages.get('clock_reads')} reads per move, ~2 us each)"]


IDLE_WINDOW = 10.0
"""Seconds the workers' CPU is measured with no table open, before a paced ramp: their fixed
cost per second, subtracted (and stated as such) beside each step's raw CPU per event."""
ACK_BOUND_MS = 50.0
BELIEF_BOUND_MS = 100.0
"""The bounds a paced ramp holds: play -> ack p99 and play -> all beliefs p99."""


def _schedstat_seconds(pid: int, field: int) -> float:
    """A schedstat field (0: time on a CPU, 1: time runnable waiting for one), summed over
    the live threads of `pid`, in seconds (Linux; OSError when the process is gone)."""
    return sum(int((task / "schedstat").read_text().split()[field])
               for task in Path(f"/proc/{pid}/task").iterdir()) / 1e9


def process_cpu_seconds(pids: list[int]) -> float:
    """CPU time of these processes so far (Linux /proc; 0 for any that is gone): the
    nanoseconds on CPU of each live thread (schedstat), else user + system in clock ticks
    (10 ms: too coarse for an idle worker's ~1 ms per second)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += _schedstat_seconds(pid, 0)
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def process_wait_seconds(pids: list[int]) -> float:
    """Time these processes' threads have spent runnable but waiting for a CPU (Linux
    schedstat's run delay; 0 where unreadable): on a shared machine, latency that neither
    the server nor the generator spent computing."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += _schedstat_seconds(pid, 1)
    return total


def settle_time(pace: float, window: float) -> float:
    """Seconds between a step's tables all seated and its window: the seating rush (every
    new table's create, joins, deal and first beliefs at once) is the ramp's artifact, not
    the steady load the step measures. Two think times, so each new table's first move has
    been played; at least 2 s, at most the window."""
    return min(window, max(2.0, 2 * pace))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Deployment:
    """The MQTT + PostgreSQL mode: broker URL, store URL, worker processes to start."""

    mqtt: str
    db: str
    workers: int = 2


@contextlib.contextmanager
def local_server(deployment: Deployment | None = None,
                 workers_report: dict[str, Any] | None = None,
                 serve_args: list[str] | None = None) -> Any:
    """A server subprocess on a free port; yields its ws URL.

    Default: a temporary SQLite file and in-process inference. With a Deployment: the
    server in --mqtt mode in a fresh schema of that PostgreSQL database and a fresh topic
    prefix (a reused schema hands the new server every table earlier runs left open), plus
    the worker processes, started and spread over the partitions before the URL is yielded.
    Afterwards the schema is dropped, the run's retained beliefs are cleared from the broker,
    and `workers_report` gets the workers' own figures (worker_figures).
    """
    with tempfile.TemporaryDirectory(prefix="domino-load-") as tmp, \
            contextlib.ExitStack() as cleanup:
        port = free_port()
        command = [
            sys.executable, "-m", "clients.cli", "serve", "--port", str(port),
            "--db", str(Path(tmp) / "load.sqlite3"), "--bot-delay", "0", "--hand-pause", "0",
            "--log-level", "WARNING",
            "--tables-per-address", "1000000",  # every load-test table comes from 127.0.0.1
            "--connections-per-address", "1000000",  # and every one of its clients
            *(serve_args or []),
        ]
        workers: list[subprocess.Popen] = []
        worker_log = Path(tmp) / "workers.log"
        if deployment is not None:
            prefix = f"loadtest/{secrets.token_hex(4)}"
            db = cleanup.enter_context(fresh_schema(deployment.db))
            cleanup.callback(_clear_retained, deployment.mqtt, prefix)
            command[command.index("--db") + 1] = db
            # a broker given without a login and key (a loopback test broker) is allowed, and
            # the processes say so (server/feeds/plane.py)
            from server.feeds.plane import bus_exposure

            open_bus = ["--insecure-bus"] if bus_exposure(deployment.mqtt) else []
            command += ["--mqtt", deployment.mqtt, "--topic-prefix", prefix, *open_bus]
            with worker_log.open("a") as sink:
                workers = [subprocess.Popen(
                    [sys.executable, "-m", "clients.cli", "worker", "--mqtt", deployment.mqtt,
                     "--db", db, "--topic-prefix", prefix, "--log-level", "INFO", *open_bus],
                    cwd=ROOT, stderr=sink) for _ in range(deployment.workers)]
            _wait_for_spread(db, workers, deployment.workers)
            if workers_report is not None:
                workers_report["pids"] = [worker.pid for worker in workers]
        process = subprocess.Popen(command, cwd=ROOT)
        if workers_report is not None:
            workers_report["server_pid"] = process.pid
        try:
            url = f"ws://127.0.0.1:{port}/ws"
            deadline = time.monotonic() + 30
            while True:
                try:
                    fetch_health(health_url(url))
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("the load-test server did not start") from None
                    time.sleep(0.1)
            yield url
        finally:
            for child in [process, *workers]:
                child.terminate()
            for child in [process, *workers]:
                try:
                    child.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    child.kill()
            if workers and workers_report is not None:
                workers_report.update(worker_figures(worker_log.read_text()))


@contextlib.contextmanager
def fresh_schema(db: str) -> Any:
    """A URL for a new schema of PostgreSQL database `db` (search_path), dropped afterwards."""
    from sqlalchemy import create_engine, text

    from storage import store_url

    schema = f"loadtest_{secrets.token_hex(6)}"
    engine = create_engine(store_url(db), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        joiner = "&" if "?" in db else "?"
        yield f"{db}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def _wait_for_spread(db: str, workers: list[subprocess.Popen], count: int) -> None:
    """Until the workers hold every partition, within one of even (so no hand-over, and no
    rebuild, happens under load)."""
    from server.cluster.partitions import PartitionLeases

    leases = PartitionLeases(db, "loadtest-observer", 5.0)
    try:
        deadline = time.monotonic() + 60
        while True:
            owners = leases.owners()
            sizes = sorted(collections.Counter(owners.values()).values())
            if len(owners) == leases.partitions and len(sizes) == count \
                    and sizes[-1] - sizes[0] <= 1:
                return
            if time.monotonic() > deadline or any(w.poll() is not None for w in workers):
                raise RuntimeError(f"the workers did not spread over the partitions: {sizes}")
            time.sleep(0.2)
    finally:
        leases.close()


def _clear_retained(mqtt: str, prefix: str) -> None:
    """Publish an empty retained message on every retained topic under `prefix` (the run's
    beliefs), so the broker keeps nothing of the run."""
    import aiomqtt

    from server.feeds.topics import parse_mqtt_url

    host, port = parse_mqtt_url(mqtt)

    async def clear() -> None:
        async with aiomqtt.Client(host, port, protocol=aiomqtt.ProtocolVersion.V5) as client:
            await client.subscribe(f"{prefix}/#", qos=0)
            topics: set[str] = set()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    async for message in client.messages:
                        if message.retain and message.payload:
                            topics.add(message.topic.value)
            for topic in topics:
                await client.publish(topic, b"", qos=1, retain=True)

    with contextlib.suppress(Exception):
        asyncio.run(clear())


def worker_figures(log: str) -> dict[str, Any]:
    """The workers' figures from their `worker_ready` and `worker_stopped` lines: CPU spent
    between the two (start-up excluded), events folded per audience, beliefs published,
    snapshots skipped (audiences nobody followed)."""
    ready = [float(x) for x in re.findall(r"event=worker_ready .*?cpu_s=([\d.]+)", log)]
    stopped = [dict(re.findall(r"(\w+)=([\d.]+)", line))
               for line in log.splitlines() if "event=worker_stopped" in line]
    cpu = sum(float(s.get("cpu_s", 0)) for s in stopped) - sum(ready)
    return {
        "workers_stopped": len(stopped),
        "worker_cpu_s": round(cpu, 3),
        "worker_folds": sum(int(s.get("folds", 0)) for s in stopped),
        "worker_rebuilds": sum(int(s.get("rebuilds", 0)) for s in stopped),
        "worker_beliefs": sum(int(s.get("beliefs", 0)) for s in stopped),
        "worker_skipped": sum(int(s.get("skipped", 0)) for s in stopped),
        "worker_read_s": round(sum(float(s.get("read_s", 0)) for s in stopped), 3),
        "worker_compute_s": round(sum(float(s.get("compute_s", 0)) for s in stopped), 3),
        "worker_stages_ms": {  # the slowest worker's, per stage
            f"{stage}_{q}": max((float(s.get(f"{stage}_{q}_ms", 0)) for s in stopped),
                                default=0.0)
            for stage in ("transit", "queue", "read", "fold") for q in ("p50", "p99")},
    }


def report(figures: dict[str, Any]) -> str:
    lag = figures.get("server_loop_lag_ms") or {}
    inf = figures.get("server_inference_lag_ms") or {}
    return "\n".join(
        [
            f"{figures.get('variant', DEFAULT_VARIANT)}: tables {figures['tables']} "
            f"(+{figures['spectators_per_table']} spectators each), "
            f"{figures['seconds']} s, {figures['matches_finished']} matches finished",
            f"durable moves/s        {figures['moves_per_s']}  ({figures['moves']} moves, "
            f"{figures['server_commits']} commits)",
            f"play -> ack            p50 {figures['play_to_ack_ms']['p50']} ms   "
            f"p99 {figures['play_to_ack_ms']['p99']} ms",
            f"play -> all beliefs    p50 {figures['play_to_all_beliefs_ms']['p50']} ms   "
            f"p99 {figures['play_to_all_beliefs_ms']['p99']} ms",
            f"beliefs never arrived  {figures.get('beliefs_never_arrived', 0)} moves "
            f"(of {figures['moves']}; waited up to {BELIEF_WAIT:g} s after play stopped)",
            f"refused                {figures.get('refused_stale_moves', 0)} stale moves, "
            f"{figures.get('rate_limited_retried', 0)} rate-limited requests (retried)",
            f"server loop lag        p50 {lag.get('p50')} ms   p99 {lag.get('p99')} ms   "
            f"max {lag.get('max')} ms",
            f"server inference lag   p50 {inf.get('p50')} ms   p99 {inf.get('p99')} ms",
            f"server CPU per move    {figures['server_cpu_ms_per_move']} ms "
            "(all threads: decide, commit, fan-out, a belief per audience, sockets)",
            f"inference processes    {figures.get('server_children_cpu_ms_per_move')} ms CPU "
            "per move (the server's children: beliefs with serve --inference-processes N)",
            f"CPU, share of a core   server {figures.get('server_cpu_pct')}%, this generator "
            f"{figures.get('generator_cpu_pct')}% ({figures.get('generator_cpu_ms_per_move')} ms "
            f"per move); waited for a CPU: server {figures.get('server_cpu_wait_ms_per_s', '-')}, "
            f"generator {figures.get('generator_cpu_wait_ms_per_s')} ms/s (load average "
            f"{figures.get('load_average')})",
            f"server RSS             {figures['server_rss_mb']} MB, "
            f"{figures['server_rss_per_table_kb']} KB per table",
            *_bus_lines(figures),
            *stage_lines(figures.get("server_stage_ms_per_move")),
            *_stage_lines(figures),
        ]
    )


def _bus_lines(figures: dict[str, Any]) -> list[str]:
    """The deployment's bus and workers: frames sent to or kept off the broker (no other
    server followed their audience), snapshots skipped (nobody watched the audience)."""
    cluster = figures.get("server_cluster") or {}
    lines = []
    if "bus_published" in cluster:
        lines.append(f"bus frames to broker   {cluster['bus_published']} published, "
                     f"{cluster.get('bus_withheld', 0)} withheld (no other server followed)")
    if "worker_beliefs" in figures:
        lines.append(f"worker snapshots       {figures['worker_beliefs']} published, "
                     f"{figures.get('worker_skipped', 0)} skipped (audience not watched)")
    return lines


def _stage_lines(figures: dict[str, Any]) -> list[str]:
    """Belief lag by stage: the server's (/healthz), then the workers' (their logs)."""
    lines = [f"  {name:<24}p50 {window['p50']} ms   p99 {window['p99']} ms"
             for name, window in (figures.get("server_belief_stages_ms") or {}).items()]
    worker = figures.get("worker_stages_ms") or {}
    lines += [f"  worker {stage:<17}p50 {worker[stage + '_p50']} ms   "
              f"p99 {worker[stage + '_p99']} ms"
              for stage in ("transit", "queue", "read", "fold") if stage + "_p50" in worker]
    return ["belief lag by stage"] + lines if lines else []
