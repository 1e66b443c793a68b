"""Servers as real subprocesses, for the tests that kill and restart them."""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_spawned: list[subprocess.Popen] = []


@atexit.register
def _kill_leftovers() -> None:
    """A test that failed between spawn and stop (or a stop loop cut short by a failing
    stop) must not leave servers running after pytest has gone."""
    for process in _spawned:
        if process.poll() is None:
            process.kill()
            process.wait()


def spawn(args: list[str], log: Path) -> subprocess.Popen:
    """`domino-oracle ARGS` from this checkout, its log appended to `log`."""
    process = subprocess.Popen([sys.executable, "-m", "clients.cli", *args], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=log.open("a"))
    _spawned.append(process)
    return process


def start_server(port: int, args: list[str], log: Path,
                 seconds: float = 30) -> subprocess.Popen:
    """`serve --port PORT ARGS`, returned once /healthz answers."""
    process = spawn(["serve", "--port", str(port), *args], log)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return process
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("server did not start")


def stop(process: subprocess.Popen, timeout: float = 10) -> int:
    """SIGTERM (the clean shutdown); its exit code.

    A process still running after `timeout` seconds is SIGKILLed, so nothing outlives the
    test, and reported (AssertionError): a server that hangs on SIGTERM is a bug (its
    operator's supervisor would have to SIGKILL it too), not something to hide."""
    if process.poll() is not None:
        return process.returncode  # already gone (e.g. killed by the test)
    process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        return process.wait(timeout=timeout)
    process.kill()
    process.wait()
    # raised outside any `except`, so a test failure this stop runs after (in a `finally`)
    # stays in the report as this error's context
    command = " ".join(map(str, process.args[3:]))  # type: ignore[index]
    raise AssertionError(f"`{command}` (pid {process.pid}) did not exit within {timeout} s "
                         "of SIGTERM; SIGKILLed")


def kill(process: subprocess.Popen) -> None:
    """SIGKILL: no goodbye, maybe mid-commit."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
