"""The inference watchdog (server/beliefs/processes.py, Shard._watch) on a real process (a
`sleep`): killed when it holds a batch past `hang_after` once up, or is not up STARTUP_HANGS
times that after it started; left alone while up with nothing in flight. The whole path (a
SIGSTOPped inference process replaced, beliefs at the head) is in test_inference_processes."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

from games.registry import GAMES
from server.beliefs.processes import STARTUP_HANGS, ProcessInference, Shard
from server.feeds.bus import InProcessBus
from server.metrics import Metrics

HANG_AFTER = 0.05


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(["sleep", "60"])
    try:
        yield process
    finally:
        process.kill()
        process.wait(10)


def shard() -> Shard:
    return ProcessInference(InProcessBus(), Metrics(), 1, GAMES, hang_after=HANG_AFTER).shards[0]


async def test_a_batch_held_past_the_bound_gets_the_process_killed(
        sleeper: subprocess.Popen[bytes]) -> None:
    watched = shard()
    watched._ready_at = time.monotonic()
    watched.in_flight[1] = time.monotonic()
    await asyncio.wait_for(watched._watch(sleeper), 30)  # a bound on a hang: it returns
    assert sleeper.wait(10) == -signal.SIGKILL and watched.hangs == 1


async def test_a_process_never_up_is_killed_after_the_startup_bound(
        sleeper: subprocess.Popen[bytes]) -> None:
    watched = shard()
    began = time.monotonic()
    await asyncio.wait_for(watched._watch(sleeper), 30)
    assert time.monotonic() - began > STARTUP_HANGS * HANG_AFTER
    assert sleeper.wait(10) == -signal.SIGKILL and watched.hangs == 1


async def test_an_idle_process_that_is_up_is_left_alone(
        sleeper: subprocess.Popen[bytes]) -> None:
    watched = shard()
    watched._ready_at = time.monotonic()
    with pytest.raises(TimeoutError):  # twenty times the bound: it never fires
        await asyncio.wait_for(watched._watch(sleeper), 20 * HANG_AFTER)
    assert sleeper.poll() is None and watched.hangs == 0
