"""Servers as real subprocesses, for the tests that kill and restart them."""

from __future__ import annotations

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


def spawn(args: list[str], log: Path) -> subprocess.Popen:
    """`domino-oracle ARGS` from this checkout, its log appended to `log`."""
    return subprocess.Popen([sys.executable, "-m", "clients.cli", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=log.open("a"))


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


def stop(process: subprocess.Popen) -> None:
    """SIGTERM (the clean shutdown), then SIGKILL if it has not exited within 10 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kill(process: subprocess.Popen) -> None:
    """SIGKILL: no goodbye, maybe mid-commit."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
