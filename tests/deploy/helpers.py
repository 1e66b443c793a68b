"""Processes for the deployment tests: servers and workers as real subprocesses."""

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

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, db: str, mqtt: str, prefix: str, node: str, log: Path,
                 lease: float = 2.0) -> subprocess.Popen:
    command = [sys.executable, "-m", "clients.cli", "serve", "--port", str(port), "--db", db,
               "--mqtt", mqtt, "--node", node, "--topic-prefix", prefix,
               "--lease-seconds", str(lease), "--bot-delay", "0", "--hand-pause", "0",
               "--grace", "60"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=log.open("a"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return process
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("server did not start")


def start_worker(db: str, mqtt: str, prefix: str, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "clients.cli", "worker", "--db", db, "--mqtt", mqtt,
               "--topic-prefix", prefix]
    before = log.read_text().count("worker_ready") if log.exists() else 0
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=log.open("a"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().count("worker_ready") > before:
            return process
        if process.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("worker did not start")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kill(process: subprocess.Popen) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
