"""Fixtures for the browser tests: the real server in a subprocess, Debian's chromium.

Tests marked `browser` FAIL when chromium is missing (they never skip): install it with
`scripts/setup dev` (apt-get install chromium). No Playwright-downloaded browser is used.
Set DOMINO_SCREENSHOTS=1 to write docs/screenshots/*.png while the tests run.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"


def chromium_path() -> str:
    """Debian's chromium, or a failure that says how to install it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if found is None:
        pytest.fail("chromium is not installed: run scripts/setup dev "
                    "(apt-get install chromium); the browser tests need it", pytrace=False)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class WebServer:
    base: str
    port: int
    db: Path
    process: subprocess.Popen[bytes]

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as reply:
            return json.loads(reply.read())


@contextlib.contextmanager
def serve_web(directory: Path, *extra: str) -> Iterator[WebServer]:
    """`serve` in a subprocess on a free port with a fresh store in `directory` (`extra`:
    more options), until the block ends."""
    db = directory / "web.sqlite3"
    port = free_port()
    log = (db.parent / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "serve", "--port", str(port), "--db", str(db),
         "--bot-delay", "0.04", "--hand-pause", "0.6",
         # every page of the whole browser session comes from 127.0.0.1, and pages left
         # open keep their sockets: a real address holds a few (the limit's own tests set it)
         "--connections-per-address", "1024", *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )
    server = WebServer(f"http://127.0.0.1:{port}", port, db, process)
    deadline = time.monotonic() + 60  # a bound on a hang: a loaded machine starts slowly
    while True:
        try:
            server.get_json("/healthz")
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"the server did not start; see {db.parent / 'server.log'}")
            time.sleep(0.1)
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with serve_web(tmp_path_factory.mktemp("web")) as server:
        yield server


@pytest.fixture(scope="session")
def finished_match_id(web_server: WebServer) -> str:
    """One match four greedy bots played to 30 through the server, shared by the replay
    tests that only read it (a match costs seconds of the shared machine)."""
    from tests.web.test_browser import finished_match

    return finished_match(web_server, target=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield ctx
    finally:
        ctx.close()


PHONE = {"width": 360, "height": 780}


def _settled(page: Any) -> None:
    """The layout's own transitions have run out (the odds drawer sliding shut at phone
    width): caught halfway, the closed drawer lay over the page in the picture."""
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")


def screenshot(page: Any, name: str, *, phone: bool = True, **options: Any) -> None:
    """Save docs/screenshots/NAME.png when DOMINO_SCREENSHOTS is set, and (unless `phone` is
    false, or the page is phone-sized already) NAME-phone.png at 360 x 780, the viewport put
    back afterwards."""
    if not os.environ.get("DOMINO_SCREENSHOTS"):
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    _settled(page)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), **options)
    size = page.viewport_size
    if not phone or size is None or size["width"] <= PHONE["width"]:
        return
    page.set_viewport_size(PHONE)
    # the pointer stays where the desktop view left it, over whatever the narrow layout puts
    # there: a hover tooltip then lay over the phone picture (the Texas 42 replay's)
    page.mouse.move(0, 0)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    _settled(page)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"), **options)
    page.set_viewport_size(size)
