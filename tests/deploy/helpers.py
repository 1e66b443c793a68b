"""Processes for the deployment tests: servers and workers sharing PostgreSQL and Mosquitto."""

from __future__ import annotations

import asyncio
import re
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from tests.processes import free_port, kill, spawn, stop
from tests.processes import start_server as start_process

__all__ = ["free_port", "kill", "start_server", "start_worker", "stop", "until",
           "worker_notifications"]


def start_server(port: int, db: str, mqtt: str, prefix: str, node: str, log: Path,
                 lease: float = 2.0) -> subprocess.Popen:
    return start_process(port, ["--db", db, "--mqtt", mqtt, "--insecure-bus", "--node", node,
                                "--topic-prefix", prefix, "--lease-seconds", str(lease),
                                "--bot-delay", "0", "--hand-pause", "0", "--grace", "60"], log)


def start_worker(db: str, mqtt: str, prefix: str, log: Path) -> subprocess.Popen:
    """A worker, returned once it has logged that it is ready."""
    before = log.read_text().count("worker_ready") if log.exists() else 0
    process = spawn(["worker", "--db", db, "--mqtt", mqtt, "--insecure-bus",
                     "--topic-prefix", prefix], log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().count("worker_ready") > before:
            return process
        if process.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("worker did not start")


async def until(condition: Callable[[], bool], what: str, seconds: float = 60,
                tasks: Iterable[asyncio.Task] = ()) -> None:
    """Poll `condition`; a stuck server fails the test after `seconds` instead of hanging
    CI, and a task that died with an error fails it at once (with that error)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        assert loop.time() < deadline, f"timed out after {seconds} s waiting for {what}"
        await asyncio.sleep(0.01)


def worker_notifications(log: Path) -> list[int]:
    """The `notifications=` count of every `worker_stopped` line in a worker's log."""
    return [int(match) for match in re.findall(
        r"event=worker_stopped notifications=(\d+)", log.read_text())]
